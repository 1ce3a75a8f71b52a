import Foundation
import Glibc
import SpyNet
import SpyProtocol
import Testing

/// What a single hostile or unlucky client cannot do to a host: flood it with rooms, hold its memory with unfinished
/// frames, guess its password at full speed, or confuse it with encodings; and how it starts and stops.
@Suite struct HostHardeningTests {
    private func errorCode(_ message: ServerMessage?) -> ErrorCode? {
        if case .error(let error)? = message { return error.code }
        return nil
    }

    /// A hello answered by a fatal error: returns the code.
    private func refusal(_ daemon: CoreHost, _ hello: ClientMessage.Hello) throws -> ErrorCode? {
        let client = try daemon.connect()
        defer { client.close() }
        try client.send(.hello(hello))
        return errorCode(try client.receive(deadline: .after(seconds: 10)))
    }

    @Test func aCodelessHelloFindsTheHostsRoomWhateverClientsOpened() throws {
        let daemon = try CoreHost()
        let owner = try TestPlayer(on: daemon, name: "Owner")
        let opener = try TestPlayer(on: daemon, name: "Opener", create: true)
        #expect(opener.room != owner.room)
        let guest = try TestPlayer(on: daemon, name: "Guest")
        #expect(guest.room == owner.room)
        let friend = try TestPlayer(on: daemon, name: "Friend", room: opener.room)
        #expect(friend.room == opener.room)
    }

    @Test func aRoomOnlyItsOpenerJoinedClosesSoonAfterItEmpties() throws {
        let host = try CoreHost(["--unused-room-seconds", "1"])
        let visited = try TestPlayer(on: host, name: "Host", create: true)
        let visitor = try TestPlayer(on: host, name: "Visitor", room: visited.room)
        let lonely = try TestPlayer(on: host, name: "Lonely", create: true)
        // Connect, open, vanish: as the flood did, and as a forgotten room does.
        lonely.drop()
        visited.drop()
        visitor.drop()
        for (player, room) in [(lonely, lonely.room), (visited, visited.room), (visitor, visited.room)] {
            #expect(host.waitForLine(containing: "room \(room): \(player.id) disconnected") != nil)
        }
        host.advance(seconds: 1)
        host.advance(seconds: 1)
        #expect(host.waitForLine(containing: "room \(lonely.room) closed") != nil)
        #expect(!host.log.contains("room \(visited.room) closed"))
        let late = try host.connect()
        try late.send(.hello(.init(name: "Late", token: lonely.token)))
        #expect(errorCode(try late.receive(deadline: .after(seconds: 10))) == .badToken)
    }

    @Test func oneAddressHoldsFewRooms() throws {
        let daemon = try CoreHost([
            "--max-rooms-per-address", "2", "--rooms-per-minute", "0", "--unused-room-seconds", "1",
        ])
        let first = try TestPlayer(on: daemon, name: "A", create: true)
        let second = try TestPlayer(on: daemon, name: "B", create: true)
        #expect(first.room != second.room)
        #expect(try refusal(daemon, .init(name: "C", create: true)) == .tooManyRooms)
        // Joining by code is not opening.
        _ = try TestPlayer(on: daemon, name: "D", room: first.room)
        // Once one of them closes, the address may open another.
        try second.send(.leave)
        #expect(second.waitForClose())
        daemon.advance(seconds: 1)
        daemon.advance(seconds: 1)
        #expect(daemon.waitForLine(containing: "room \(second.room) closed") != nil)
        _ = try TestPlayer(on: daemon, name: "E", create: true)
    }

    @Test func oneAddressOpensFewRoomsAMinute() throws {
        let daemon = try CoreHost(["--max-rooms-per-address", "0", "--rooms-per-minute", "3"])
        for index in 0..<3 {
            let player = try TestPlayer(on: daemon, name: "P\(index)", create: true)
            try player.send(.leave)
            #expect(player.waitForClose())
        }
        #expect(try refusal(daemon, .init(name: "Flood", create: true)) == .tooManyRooms)
        _ = try TestPlayer(on: daemon, name: "Joiner")
    }

    @Test func aFrameBeforeHelloIsAtMostFourKilobytes() throws {
        let daemon = try CoreHost()
        let big = try daemon.connect()
        try big.sendRaw([0x00, 0x00, 0x13, 0x89] + Array(repeating: 0x20, count: 100))
        let reply = try big.receive(deadline: .after(seconds: 10))
        #expect(errorCode(reply) == .frameTooLarge)
        #expect(big.waitForClose(deadline: .after(seconds: 10)))
        // A hello padded to exactly 4,096 bytes is fine, and once seated a larger frame is too.
        let text = #"{"type":"hello","protocol":1,"name":"Padded"}"#
        let hello = Array(text.utf8) + Array(repeating: 0x20, count: 4_096 - text.utf8.count)
        let padded = try daemon.connect()
        try padded.sendRaw(rawFrame(hello))
        let welcome = try padded.receive(deadline: .after(seconds: 10))
        guard case .welcome = welcome else {
            Issue.record("expected welcome, got \(String(describing: welcome))")
            return
        }
        let ping = Array(#"{"type":"ping","id":9}"#.utf8)
        try padded.sendRaw(rawFrame(ping + Array(repeating: 0x20, count: 20_000)))
        #expect(try padded.waitFor(deadline: .after(seconds: 10)) { $0 == .pong(.init(id: 9)) } != nil)
    }

    @Test func theLargestUnfinishedFrameIsCutWhenTheBudgetIsPassed() throws {
        let daemon = try CoreHost(["--max-partial-kb", "64"])
        let hog = try TestPlayer(on: daemon, name: "Hog")
        let modest = try TestPlayer(on: daemon, name: "Modest")
        let late = try TestPlayer(on: daemon, name: "Late")
        let length = 60_000
        func paddedPing(_ id: Int) -> [UInt8] {
            let json = Array(#"{"type":"ping","id":\#(id)}"#.utf8)
            return json + Array(repeating: 0x20, count: length - json.count)
        }
        let header: [UInt8] = [0x00, 0x00, 0xEA, 0x60]
        // 50,000 + 5,000 + 15,000 bytes held: over 65,536 only once most of the hog's bytes are in, so the hog is
        // the largest whenever the budget is passed, whatever order the host reads in.
        try hog.client.sendRaw(header + Array(paddedPing(1).prefix(50_000)))
        try modest.client.sendRaw(header + Array(paddedPing(2).prefix(5_000)))
        try late.client.sendRaw(header + Array(paddedPing(3).prefix(15_000)))
        try hog.waitForError(.frameTooLarge)
        #expect(hog.waitForClose())
        try modest.client.sendRaw(Array(paddedPing(2).dropFirst(5_000)))
        try late.client.sendRaw(Array(paddedPing(3).dropFirst(15_000)))
        try modest.waitFor("pong 2") { $0 == .pong(.init(id: 2)) }
        try late.waitFor("pong 3") { $0 == .pong(.init(id: 3)) }
        #expect(daemon.log.contains("unfinished frames passed the budget"))
    }

    @Test func passwordGuessingIsSlowedDownAndLoggedOnce() throws {
        let daemon = try CoreHost(["--password", "sesame"])
        var codes: [ErrorCode?] = []
        for index in 0..<30 {
            codes.append(try refusal(daemon, .init(name: "G\(index)", password: "guess\(index)")))
        }
        #expect(codes.prefix(3) == [.wrongPassword, .wrongPassword, .wrongPassword])
        #expect(codes.allSatisfy { $0 == .wrongPassword || $0 == .tooManyAttempts })
        #expect(codes.filter { $0 == .wrongPassword }.count < 20)
        // Waiting means waiting: even the right password is not checked meanwhile.
        #expect(try refusal(daemon, .init(name: "Right", password: "sesame")) == .tooManyAttempts)
        // Watching a room is no way around the wait.
        #expect(try refusal(daemon, .init(name: "Eye", password: "sesame", watch: true)) == .tooManyAttempts)
        #expect(daemon.log.components(separatedBy: "wrong password from 127.0.0.1").count == 2)
        #expect(!daemon.log.contains("ended: wrong_password"))
    }

    @Test func aUTF16FrameIsABadFrame() throws {
        let daemon = try CoreHost()
        let player = try TestPlayer(on: daemon, name: "Wide")
        let units = Array(#"{"type":"ping","id":4}"#.utf16)
        let wide: [UInt8] = [0xFF, 0xFE] + units.flatMap { unit -> [UInt8] in [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        try player.client.sendRaw(rawFrame(wide))
        try player.client.sendRaw(rawFrame(Array(#"{"type":"ping","id":5,"x":""#.utf8) + [0xC3, 0x28, 0x22, 0x7D]))
        try player.client.sendRaw(rawFrame(Array(#"{"type":"ping","id":6}"#.utf8)))
        var seen: [ServerMessage] = []
        try player.waitFor("pong 6") { message in
            seen.append(message)
            return message == .pong(.init(id: 6))
        }
        #expect(seen.filter { errorCode($0) == .badFrame }.count == 2)
        #expect(!seen.contains(.pong(.init(id: 4))) && !seen.contains(.pong(.init(id: 5))))
    }

    @Test(.tags(.shell), .tags(.shell)) func sighupSaysByeAndSaves() throws {
        let state = try DaemonProcess.temporaryDirectory()
        let daemon = try DaemonProcess(stateDirectory: state)
        let player = try TestPlayer(port: daemon.port, name: "Hangup")
        #expect(daemon.stop(signal: SIGHUP) == 0)
        try player.waitFor("bye") {
            if case .bye(let bye) = $0 { return bye.reason == "host_closing" }
            return false
        }
        #expect(daemon.log.contains("stopped"))
        let again = try DaemonProcess(stateDirectory: state)
        try player.resume(port: again.port)
    }

    @Test(.tags(.shell), .tags(.shell)) func aTakenPortIsSaidPlainly() throws {
        let daemon = try InProcessHost()
        let run = try SpydRun.run(["--host", "--bind", "127.0.0.1", "--port", "\(daemon.port)", "--no-state"])
        #expect(run.status == 69)
        #expect(
            run.standardError.contains(
                "cannot start: port \(daemon.port) on 127.0.0.1 is already in use; choose another with --port"))
    }
}
