import Foundation
import SpyNet
import SpyProtocol
import SpyTestSupport
import SpyWeb
import Testing

/// Every bad input on the web path is answered with its status or close code and the connection closed, while a
/// terminal player in another room goes on playing.
@Suite struct WebBadInputTests {
    /// Sends `request` on a fresh connection; returns the status the host answered with, after it closed.
    static func status(of request: [UInt8], port: UInt16) throws -> Int {
        let client = try RawClient(port: port)
        try client.send(request)
        let reply = try client.readResponse()
        #expect(client.readUntilClosed(), "the host kept the connection open after \(reply.status)")
        return reply.status
    }

    /// A WebSocket that joined a room of its own, then sends `bytes`; returns the close code it got.
    static func closeCode(after bytes: [UInt8], port: UInt16, join: Bool = true) throws -> UInt16? {
        let client = try WebSocketTestClient(port: port)
        if join {
            try client.send(.hello(.init(name: "Web", create: true)))
            try client.waitFor("welcome") { if case .welcome = $0 { true } else { false } }
        }
        try client.sendRaw(bytes)
        return client.waitForClose()
    }

    static func text(_ string: String, fin: Bool = true) -> [UInt8] {
        WebSocketTestClient.frame(0x1, Array(string.utf8), fin: fin)
    }

    @Test(.tags(.shell), .tags(.shell)) func eachBadInputGetsItsAnswerAndAnotherTableKeepsPlaying() throws {
        // Each case opens a room of its own from this one address.
        let daemon = try DaemonProcess([
            "--bots", "3", "--bot-delay-ms", "10", "--max-rooms-per-address", "0", "--rooms-per-minute", "0",
        ])
        let port = daemon.port
        let human = try TestPlayer(port: port, name: "Terminal")
        try human.waitForView("bots seated") { $0.seats.filter(\.bot).count == 3 }
        let table = Table([human])
        try table.start()
        var pings = 0
        // Between abuses the terminal player answers a ping while playing its moves: its game goes on meanwhile,
        // and when one ends the next one starts.
        func stillServed() throws {
            pings += 1
            let pong = ServerMessage.pong(.init(id: 1000 + pings))
            try human.send(.ping(.init(id: 1000 + pings)))
            while !human.history.contains(pong) {
                if try table.play(seconds: 30, stopWhen: { _, message in message == pong }) != nil,
                    !human.history.contains(pong)
                {
                    try table.start()
                }
            }
        }

        let host = "Host: 127.0.0.1:\(port)\r\n"
        let httpCases: [(String, [UInt8], Int)] = [
            ("garbage", Array("GARBAGE\r\n\r\n".utf8), 400),
            ("no version", Array("GET /\r\n\r\n".utf8), 400),
            ("long request line", Array(("GET /" + String(repeating: "a", count: 9_000)).utf8), 431),
            (
                "long headers",
                Array(("GET / HTTP/1.1\r\n\(host)X-Big: " + String(repeating: "b", count: 9_000) + "\r\n\r\n").utf8),
                431
            ),
            ("a body", Array("GET / HTTP/1.1\r\n\(host)Content-Length: 9\r\n\r\n123456789".utf8), 413),
            ("a method", Array("DELETE / HTTP/1.1\r\n\(host)\r\n".utf8), 405),
            (
                "no key",
                Array(
                    WebSocketTestClient.upgradeRequest(port: port, key: nil, origin: "http://127.0.0.1:\(port)").utf8),
                400
            ),
            (
                "a wrong key",
                Array(WebSocketTestClient.upgradeRequest(port: port, key: "bm90IDE2IGJ5dGVz", origin: nil).utf8), 400
            ),
            (
                "another site",
                Array(
                    WebSocketTestClient.upgradeRequest(
                        port: port, key: "dGhlIHNhbXBsZSBub25jZQ==", origin: "http://evil.example"
                    ).utf8), 403
            ),
        ]
        for (what, request, expected) in httpCases {
            #expect(try Self.status(of: request, port: port) == expected, "\(what)")
            try stillServed()
        }

        let long = String(repeating: "a", count: 40_000)
        let webSocketCases: [(String, [UInt8], UInt16)] = [
            ("unmasked", WebSocketTestClient.frame(0x1, Array("{}".utf8), masked: false), 1002),
            ("2^63 length", [0x81, 0xFF, 0x80, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4], 1002),
            ("huge length", [0x81, 0xFF, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 1, 2, 3, 4], 1009),
            (
                "oversize fragments",
                Self.text(long, fin: false) + WebSocketTestClient.frame(0x0, Array(long.utf8)), 1009
            ),
            ("binary", WebSocketTestClient.frame(0x2, [0x7B, 0x7D]), 1003),
            ("bad UTF-8", WebSocketTestClient.frame(0x1, [0x22, 0xC3, 0x28, 0x22]), 1007),
            ("long ping", WebSocketTestClient.frame(0x9, Array(repeating: 1, count: 126)), 1002),
        ]
        for (what, bytes, expected) in webSocketCases {
            #expect(try Self.closeCode(after: bytes, port: port) == expected, "\(what)")
            #expect(try Self.closeCode(after: bytes, port: port, join: false) == expected, "\(what) before hello")
            try stillServed()
        }

        // A close in the middle of a fragmented message: the close is echoed, the fragment never acted on.
        let closing = try WebSocketTestClient(port: port)
        try closing.send(.hello(.init(name: "Half", create: true)))
        try closing.waitFor("welcome") { if case .welcome = $0 { true } else { false } }
        try closing.sendRaw(
            Self.text("{\"type\":\"ping\",", fin: false) + WebSocketTestClient.frame(0x8, [0x03, 0xE8]))
        #expect(closing.waitForClose() == 1000)
        #expect(!closing.history.contains { if case .pong = $0 { true } else { false } })

        // Pings are answered with pongs carrying the same bytes, between the fragments of a message.
        let pinging = try WebSocketTestClient(port: port)
        try pinging.sendRaw(
            Self.text("{\"type\":\"hello\",", fin: false) + WebSocketTestClient.frame(0x9, [7, 7])
                + WebSocketTestClient.frame(0x0, Array("\"protocol\":1,\"name\":\"Pinger\",\"create\":true}".utf8)))
        let pong = try #require(try pinging.nextFrame(deadline: .after(seconds: 10)))
        #expect(pong == ServerFrame(fin: true, opcode: 0xA, payload: [7, 7]))
        try pinging.waitFor("welcome") { if case .welcome = $0 { true } else { false } }

        // A message that is not a protocol message gets the framed protocol's error, then the usual limits.
        try pinging.sendRaw(Self.text("not json"))
        try pinging.waitFor("bad_frame") { if case .error(let error) = $0 { error.code == .badFrame } else { false } }

        try stillServed()
        if human.view?.phase != .gameOver {
            let over = try #require(try table.play(seconds: 60))
            #expect(over.reveal.count == 4)
        }
        #expect(human.history.contains { if case .gameOver = $0 { true } else { false } })
    }

    @Test(.tags(.shell), .tags(.shell)) func aSlowRequestIsCutAtTheHelloDeadline() throws {
        let daemon = try InProcessHost(["--hello-seconds", "2"])
        let slow = try RawClient(port: daemon.port)
        try slow.send("GET / HTTP/1.1\r\n")
        // One header byte every 200 ms would take 12 s; the host must not wait for it: ten bytes reach the
        // deadline.
        let drip = Array("X-Slow: \(String(repeating: "z", count: 50))\r\n".utf8)
        var index = 0
        while slow.buffer.isEmpty && index < drip.count {
            try? slow.send([drip[index]])
            index += 1
            daemon.advance(seconds: 0.2)
            slow.readSome(deadline: Deadline(ms: 0))
        }
        #expect(slow.readUntilClosed())
        #expect(index == 10)
        #expect(String(decoding: slow.buffer, as: UTF8.self).hasPrefix("HTTP/1.1 408 Request Timeout\r\n"))

        // An upgraded socket that never says hello is closed like a terminal client that does not.
        let silent = try WebSocketTestClient(port: daemon.port)
        daemon.advance(seconds: 2)
        try silent.waitFor("hello_timeout") {
            if case .error(let error) = $0 { error.code == .helloTimeout } else { false }
        }
        #expect(silent.waitForClose() == 1008)
    }

    @Test(.tags(.shell), .tags(.shell)) func pingsThatAreNeverReadMakeASlowConsumer() throws {
        let daemon = try InProcessHost(["--max-output-kb", "4", "--socket-buffer-kb", "4"])
        let client = try WebSocketTestClient(port: daemon.port)
        client.raw.socket.setReceiveBufferSize(4096)
        let burst = Array(repeating: WebSocketTestClient.frame(0x9, Array(repeating: 0x70, count: 125)), count: 500)
            .flatMap { $0 }
        // 20 MB of pings at most, never reading a pong: the host must cut the connection long before.
        var sent = 0
        while sent < 20_000_000 {
            guard (try? client.sendRaw(burst)) != nil else { break }
            sent += burst.count
        }
        #expect(sent < 20_000_000)
        #expect(client.raw.readUntilClosed())
        #expect(daemon.waitForLine(containing: "pings not read") != nil)
    }

    /// A connection cut off as a slow consumer is closed at the end of that wake, even while it keeps sending: what
    /// it still sends is read within the read budget like anyone's, so it cannot hold the loop and the other
    /// connections with it.
    @Test(.tags(.shell), .tags(.shell)) func aCutOffConnectionThatKeepsSendingIsClosedWhileOthersAreServed() throws {
        let daemon = try InProcessHost(["--max-output-kb", "4", "--socket-buffer-kb", "4"])
        let other = try WebSocketTestClient(port: daemon.port)
        let flooder = try WebSocketTestClient(port: daemon.port)
        flooder.raw.socket.setReceiveBufferSize(4096)
        let burst = Array(
            repeating: WebSocketTestClient.frame(0x9, Array(repeating: 0x70, count: 125)), count: 8_000
        ).flatMap { $0 }
        let flooding = DispatchSemaphore(value: 0)
        let stopped = DispatchSemaphore(value: 0)
        let giveUp = Deadline.after(seconds: 20)
        // Pings that are never read, as fast as the host takes them, until the host closes the connection. Only this
        // thread uses the flooder from here on.
        nonisolated(unsafe) let sender = flooder
        Thread.detachNewThread {
            flooding.signal()
            while !giveUp.hasPassed, (try? sender.sendRaw(burst)) != nil {}
            stopped.signal()
        }
        flooding.wait()
        #expect(daemon.waitForLine(containing: "pings not read") != nil)
        try other.sendRaw(WebSocketTestClient.frame(0x9, Array("still here".utf8)))
        let pong = try other.nextFrame(deadline: .after(seconds: 5))
        #expect(pong == ServerFrame(fin: true, opcode: 0xA, payload: Array("still here".utf8)))
        #expect(stopped.wait(timeout: .now() + 5) == .success, "the flooding connection was not closed")
    }

    @Test(.tags(.shell), .tags(.shell)) func webConnectionsCountAgainstTheSameCaps() throws {
        let daemon = try InProcessHost(["--max-per-address", "2"])
        let first = try RawClient(port: daemon.port)
        try first.send("GET / HTTP/1.1\r\n")
        let second = try WebSocketTestClient(port: daemon.port)
        // The third connection from the address is refused at once (with the framed protocol's error).
        let third = try RawClient(port: daemon.port)
        try? third.send("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
        #expect(third.readUntilClosed())
        _ = second
        // Once one closes, the address may connect again.
        first.close()
        let deadline = Deadline.after(seconds: 10)
        var served = false
        while !served && !deadline.hasPassed {
            let again = try RawClient(port: daemon.port)
            try? again.send("GET /favicon.svg HTTP/1.1\r\nHost: localhost\r\n\r\n")
            served = (try? again.readResponse(seconds: 2))?.status == 200
        }
        #expect(served)
    }
}
