import Foundation
import Glibc
import SpyNet
import SpyProtocol
import SpyTestSupport
import Testing

/// A frame around raw payload bytes.
func rawFrame(_ text: String) -> [UInt8] {
    rawFrame(Array(text.utf8))
}

func rawFrame(_ payload: [UInt8]) -> [UInt8] {
    let count = UInt32(payload.count)
    return [UInt8(count >> 24), UInt8(count >> 16 & 0xFF), UInt8(count >> 8 & 0xFF), UInt8(count & 0xFF)] + payload
}

@Suite struct LimitsTests {
    @Test func malformedFramesGetStableCodesAndTheConnectionStays() throws {
        let daemon = try CoreHost()
        let player = try TestPlayer(on: daemon, name: "Fuzz")
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        let cases: [([UInt8], ErrorCode)] = [
            (rawFrame("not json"), .badFrame),
            (rawFrame([0xFF, 0xFE, 0x7B, 0x7D]), .badFrame),
            (rawFrame("[1,2,3]"), .badFrame),
            (rawFrame("\"text\""), .badFrame),
            (rawFrame("{}"), .badFrame),
            (rawFrame("{\"type\":5}"), .badFrame),
            (rawFrame(deep), .badFrame),
            (rawFrame("{\"type\":\"dance\"}"), .unknownType),
            (rawFrame("{\"type\":\"vote\"}"), .badMessage),
            (rawFrame("{\"type\":\"vote\",\"target\":5}"), .badMessage),
            (rawFrame("{\"type\":\"ping\",\"id\":\"x\"}"), .badMessage),
            (rawFrame("{\"type\":\"ping\",\"id\":1e40}"), .badMessage),
            (rawFrame("{\"type\":\"settings\",\"settings\":{\"maxPlayers\":99}}"), .badSettings),
            (rawFrame("{\"type\":\"vote\",\"target\":\"p1\"}"), .wrongPhase),
            (rawFrame("{\"type\":\"hello\",\"protocol\":1,\"name\":\"Again\"}"), .alreadyJoined),
        ]
        for (bytes, code) in cases {
            try player.client.sendRaw(bytes)
            let error = try player.waitForError(code)
            #expect(error == .error(.init(code: code, message: errorMessage(error))))
        }
        try player.send(.ping(.init(id: 77)))
        try player.waitFor("pong") { $0 == .pong(.init(id: 77)) }
    }

    @Test(arguments: [[0, 0, 0, 0] as [UInt8], [0xFF, 0xFF, 0xFF, 0xFF], [0x00, 0x01, 0x00, 0x01]])
    func aBadLengthIsFatal(header: [UInt8]) throws {
        let daemon = try CoreHost()
        let player = try TestPlayer(on: daemon, name: "Long")
        try player.client.sendRaw(header + Array(repeating: 0x41, count: 100))
        try player.waitForError(.frameTooLarge)
        #expect(player.waitForClose())
        let other = try TestPlayer(on: daemon, name: "Other")
        try other.waitForView("the first player away") { view in
            view.seats.contains { $0.id == player.id && !$0.connected }
        }
    }

    @Test func handshakeMistakesAreFatal() throws {
        let daemon = try CoreHost(["--password", "sesame"])
        let attempts: [([UInt8], ErrorCode)] = [
            (rawFrame("{\"type\":\"ping\",\"id\":1}"), .helloRequired),
            (rawFrame("{\"type\":\"hello\",\"protocol\":99,\"name\":\"Future\"}"), .protocolVersion),
            (rawFrame("{\"type\":\"hello\",\"protocol\":1,\"name\":\"NoPass\"}"), .wrongPassword),
            (rawFrame("{\"type\":\"hello\",\"protocol\":1,\"name\":\"Bad\",\"password\":\"open\"}"), .wrongPassword),
            (
                rawFrame(
                    "{\"type\":\"hello\",\"protocol\":1,\"name\":\"X\",\"room\":\"ZZZZ\",\"password\":\"sesame\"}"),
                .roomNotFound
            ),
            (rawFrame("{\"type\":\"hello\",\"protocol\":1,\"name\":\"\\u0007\",\"password\":\"sesame\"}"), .badName),
        ]
        for (bytes, code) in attempts {
            let client = try daemon.connect()
            try client.sendRaw(bytes)
            let reply = try client.receive(deadline: .after(seconds: 10))
            guard case .error(let error)? = reply else {
                Issue.record("expected \(code.rawValue), got \(String(describing: reply))")
                continue
            }
            #expect(error.code == code)
            #expect(client.waitForClose(deadline: .after(seconds: 10)))
        }
        _ = try TestPlayer(on: daemon, name: "Guest", password: "sesame")
    }

    @Test func aSilentConnectionIsClosedAfterTheHelloDeadline() throws {
        let host = try CoreHost(["--hello-seconds", "1"])
        let client = try host.connect()
        host.advance(seconds: 1)
        let reply = try client.receive(deadline: .after(seconds: 10))
        #expect(reply == .error(.init(.helloTimeout)))
        #expect(client.waitForClose(deadline: .after(seconds: 10)))
    }

    @Test func aSilentPlayerIsPingedThenClosedButKeepsItsSeat() throws {
        let host = try CoreHost(["--ping-seconds", "1", "--idle-seconds", "2"])
        let quiet = try host.connect()
        try quiet.send(.hello(.init(name: "Quiet")))
        let welcome = try quiet.waitFor(deadline: .after(seconds: 10)) {
            if case .welcome = $0 { return true }
            return false
        }
        #expect(welcome != nil)
        host.advance(seconds: 1)
        let ping = try quiet.waitFor(deadline: .after(seconds: 10)) {
            if case .ping = $0 { return true }
            return false
        }
        #expect(ping != nil)
        host.advance(seconds: 1)
        let closing = try quiet.waitFor(deadline: .after(seconds: 10)) {
            if case .error = $0 { return true }
            return false
        }
        #expect(closing == .error(.init(.idleTimeout)))
        let other = try TestPlayer(on: host, name: "Other")
        try other.waitForView("the quiet player away") { view in
            view.seats.contains { $0.name == "Quiet" && !$0.connected }
        }
    }

    @Test func repeatedAbuseClosesTheConnection() throws {
        let daemon = try CoreHost()
        let player = try TestPlayer(on: daemon, name: "Noisy")
        var bytes: [UInt8] = []
        for _ in 0..<40 { bytes += rawFrame("{\"type\":\"nonsense\"}") }
        try player.client.sendRaw(bytes)
        try player.waitForError(.tooManyErrors)
        #expect(player.waitForClose())
    }

    @Test(.tags(.shell), .tags(.shell)) func aSlowConsumerIsCutOffWhileTheOthersPlayOn() throws {
        let daemon = try InProcessHost(["--max-output-kb", "16", "--socket-buffer-kb", "4"])
        let table = try Table.join(4, port: daemon.port)
        let slow = try FrameClient(host: "127.0.0.1", port: daemon.port)
        try slow.send(.hello(.init(name: "Slow", room: table.owner.room)))
        let ping = try WireCodec.frame(Array("{\"id\":1,\"type\":\"ping\"}".utf8))
        let batch = Array([[UInt8]](repeating: ping, count: 1000).joined())
        var cutOff = false
        for _ in 0..<500 where !cutOff {
            do {
                try slow.sendRaw(batch, deadline: .after(seconds: 10))
            } catch {
                cutOff = true
            }
            if !cutOff, daemon.log.contains("cut off") { cutOff = true }
        }
        #expect(cutOff)
        let view = try table.owner.waitForView("slow player gone") {
            $0.seats.contains { $0.name == "Slow" && !$0.connected }
        }
        let slowID = try #require(view.seats.first { $0.name == "Slow" }?.id)
        try table.owner.send(.kick(.init(player: slowID)))
        try table.owner.waitForView("slow player kicked") { $0.seats.count == 4 }
        try table.start()
        #expect(try table.play() != nil)
        slow.close()
    }

    @Test(.tags(.shell), .tags(.shell)) func fiveHundredConnectionsAtOnce() throws {
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        if limit.rlim_cur < 2048 {
            limit.rlim_cur = min(limit.rlim_max, 4096)
            setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        }
        let daemon = try InProcessHost([
            "--max-per-address", "0", "--max-rooms-per-address", "0", "--rooms-per-minute", "0",
        ])
        var clients: [FrameClient] = []
        for index in 0..<500 {
            let client = try daemon.connect()
            try client.send(.hello(.init(name: "C\(index)", create: true)))
            clients.append(client)
        }
        var rooms = Set<String>()
        for client in clients {
            let welcome = try client.waitFor(deadline: .after(seconds: 20)) {
                if case .welcome = $0 { return true }
                return false
            }
            guard case .welcome(let body)? = welcome else {
                Issue.record("no welcome")
                return
            }
            rooms.insert(body.room)
            try client.send(.ping(.init(id: 3)))
        }
        #expect(rooms.count == 500)
        for client in clients {
            let pong = try client.waitFor(deadline: .after(seconds: 20)) { $0 == .pong(.init(id: 3)) }
            #expect(pong != nil)
            client.close()
        }
    }

    @Test(.tags(.shell), .tags(.shell)) func connectionsPerAddressAreCapped() throws {
        let daemon = try InProcessHost(["--max-per-address", "3"])
        let held = try (0..<3).map { _ in try daemon.connect() }
        let extra = try daemon.connect()
        #expect(try extra.receive(deadline: .after(seconds: 10)) == .error(.init(.tooManyConnections)))
        #expect(extra.waitForClose(deadline: .after(seconds: 10)))
        held.forEach { $0.close() }
    }

    @Test(.tags(.shell), .tags(.shell)) func connectionsInTotalAreCapped() throws {
        let daemon = try InProcessHost(["--max-connections", "2", "--max-per-address", "0"])
        let first = try TestPlayer(port: daemon.port, name: "One")
        let second = try TestPlayer(port: daemon.port, name: "Two")
        let extra = try daemon.connect()
        #expect(try extra.receive(deadline: .after(seconds: 10)) == .error(.init(.tooManyConnections)))
        first.drop()
        try second.waitForView("first away") { $0.seats.contains { $0.id == first.id && !$0.connected } }
        try first.resume(port: daemon.port)
    }

    private func errorMessage(_ message: ServerMessage) -> String {
        if case .error(let error) = message { return error.message }
        return ""
    }
}
