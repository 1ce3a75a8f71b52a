import Foundation
import SpyNet
import SpyProtocol
import SpyTestSupport
import SpyWeb
import Testing

/// The browser's path into the real daemon: HTTP on the game's port, and whole games over `/ws`.
@Suite struct WebTests {
    /// Plays `player`'s moves (pass, a vote, a guess) until game over; returns it.
    static func playToTheEnd(_ player: WebSocketTestClient, me: PlayerID, seconds: Double = 60) throws
        -> ServerMessage.GameOver
    {
        let deadline = Deadline.after(seconds: seconds)
        while let message = try player.next(deadline: deadline) {
            switch message {
            case .turn(let turn) where turn.player == me:
                try player.send(.pass)
            case .voting(let voting) where voting.voters.contains(me):
                if let target = voting.candidates.first(where: { $0 != me }) {
                    try player.send(.vote(.init(target: target)))
                }
            case .guessing(let guessing) where guessing.player == me:
                try player.send(.guess(.init(word: "猜猜")))
            case .gameOver(let over):
                return over
            default:
                break
            }
        }
        throw DaemonError(description: "no game over; last: \(player.history.suffix(3))")
    }

    @Test(.tags(.endToEnd), .tags(.endToEnd)) func aBrowserPlayerPlaysAWholeGameAgainstBotsWhileABoardWatches() throws {
        let daemon = try DaemonProcess(["--bots", "3", "--bot-delay-ms", "10"])
        let player = try WebSocketTestClient(port: daemon.port)
        try player.send(.hello(.init(name: "瀏覽器")))
        guard case .welcome(let welcome) = try player.waitFor("welcome", where: { _ in true }) else {
            Issue.record("no welcome first: \(player.history)")
            return
        }
        #expect(!welcome.resumed && welcome.watch == nil && !welcome.token.isEmpty)
        try player.waitFor("three bots") {
            if case .room(let view) = $0 { return view.seats.filter(\.bot).count == 3 }
            return false
        }

        let board = try WebSocketTestClient(port: daemon.port)
        try board.send(.hello(.init(name: "", room: welcome.room.lowercased(), watch: true)))
        guard case .welcome(let watching) = try board.waitFor("welcome", where: { _ in true }) else {
            Issue.record("no welcome for the board: \(board.history)")
            return
        }
        #expect(watching == .init(you: "", token: "", room: welcome.room, resumed: false, watch: true))
        try board.waitFor("the room") {
            if case .room(let view) = $0 { return view.seats.count == 4 }
            return false
        }

        try player.send(.start)
        let deal = try player.waitFor("deal") {
            if case .deal = $0 { return true }
            return false
        }
        let over = try Self.playToTheEnd(player, me: welcome.you)
        #expect(over.reveal.count == 4)
        if case .deal(let dealt) = deal {
            #expect(over.reveal.first { $0.player == welcome.you }?.word == dealt.word)
        }

        // The board saw the game go by in public messages, and no word before the reveal.
        let boardOver = try board.waitFor("game over on the board") {
            if case .gameOver = $0 { return true }
            return false
        }
        #expect(boardOver == .gameOver(over))
        let beforeTheEnd = board.payloads.dropLast()
        for payload in beforeTheEnd {
            let text = String(decoding: payload, as: UTF8.self)
            #expect(!text.contains(over.civilianWord) && !text.contains(over.spyWord), "\(text)")
        }
        #expect(!board.history.contains { if case .deal = $0 { return true } else { return false } })
        #expect(board.history.contains { if case .turn = $0 { return true } else { return false } })
        #expect(board.history.contains { if case .voteResult = $0 { return true } else { return false } })

        // A watcher has no seat to move with, and may leave.
        try board.send(.start)
        try board.waitFor("not_playing") {
            if case .error(let error) = $0 { return error.code == .notPlaying }
            return false
        }
        try board.send(.leave)
        try board.waitFor("bye") { $0 == .bye(.init(reason: "left")) }
        #expect(board.waitForClose() == 1000)
    }

    @Test(.tags(.endToEnd), .tags(.endToEnd)) func aBrowserSeatResumesWithItsTokenAndGetsTheSameWord() throws {
        let daemon = try DaemonProcess(["--bots", "3", "--bot-delay-ms", "60000"])
        let first = try WebSocketTestClient(port: daemon.port)
        try first.send(.hello(.init(name: "Phone")))
        guard case .welcome(let welcome) = try first.waitFor("welcome", where: { _ in true }) else { return }
        try first.waitFor("bots") {
            if case .room(let view) = $0 { return view.seats.count == 4 }
            return false
        }
        try first.send(.start)
        guard case .deal(let deal) = try first.waitFor("deal", where: { if case .deal = $0 { true } else { false } })
        else { return }
        // The phone locks: the socket dies without a close frame.
        first.raw.close()

        let again = try WebSocketTestClient(port: daemon.port)
        try again.send(.hello(.init(name: "Phone", room: welcome.room, token: welcome.token)))
        let resumed = try again.waitFor("welcome") { if case .welcome = $0 { true } else { false } }
        guard case .welcome(let back) = resumed else { return }
        #expect([back.you, back.token, back.room] == [welcome.you, welcome.token, welcome.room] && back.resumed)
        let redealt = try again.waitFor("deal") { if case .deal = $0 { true } else { false } }
        #expect(redealt == .deal(deal))
    }

    @Test(.tags(.shell), .tags(.shell)) func bytesArrivingOneAtATimeAreUnderstoodOnEveryTransport() throws {
        let daemon = try InProcessHost()
        // The framed protocol: the first byte (0) already says it is not HTTP.
        let framed = try daemon.connect()
        for byte in try WireCodec.encodeFrame(ClientMessage.hello(.init(name: "Drip"))) {
            try framed.sendRaw([byte])
        }
        let welcome = try framed.waitFor(deadline: .after(seconds: 10)) {
            if case .welcome = $0 { true } else { false }
        }
        #expect(welcome != nil)

        // HTTP, one byte per write.
        let page = try RawClient(port: daemon.port)
        for byte in "GET /style.css HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8 { try page.send([byte]) }
        let reply = try page.readResponse()
        #expect(reply.status == 200)
        #expect(reply.body == WebAssets.byPath["/style.css"]?.bytes)

        // A WebSocket message, one byte per write.
        let socket = try WebSocketTestClient(port: daemon.port)
        let frame = WebSocketTestClient.frame(
            0x1, WireCodec.encodePayload(ClientMessage.hello(.init(name: "Drop", room: nil))))
        for byte in frame { try socket.sendRaw([byte]) }
        try socket.waitFor("welcome") { if case .welcome = $0 { true } else { false } }

        // The upgrade request and the first message in one write: the bytes after the head are not lost.
        let eager = try RawClient(port: daemon.port)
        let request = WebSocketTestClient.upgradeRequest(
            port: daemon.port, key: "dGhlIHNhbXBsZSBub25jZQ==", origin: nil)
        let eagerHello = WireCodec.encodePayload(ClientMessage.hello(.init(name: "Eager")))
        try eager.send(Array(request.utf8) + WebSocketTestClient.frame(0x1, eagerHello))
        #expect(try eager.readResponse().status == 101)
        while !eager.closed && !String(decoding: eager.buffer, as: UTF8.self).contains("\"welcome\"") {
            guard eager.readSome(deadline: .after(seconds: 10)) else { break }
        }
        #expect(String(decoding: eager.buffer, as: UTF8.self).contains("\"type\":\"welcome\""))
    }

    @Test(.tags(.shell), .tags(.shell)) func theSamePortServesThePageWithItsHeaders() throws {
        let daemon = try DaemonProcess()
        let port = daemon.port
        #expect(
            daemon.waitForLine(containing: "join: spy-client 127.0.0.1:\(port)  or  http://127.0.0.1:\(port)") != nil)
        let client = try RawClient(port: daemon.port)
        try client.send("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(daemon.port)\r\n\r\n")
        let page = try client.readResponse()
        let asset = try #require(WebAssets.byPath["/"])
        #expect(page.status == 200)
        #expect(page.body == asset.bytes)
        #expect(page.header("Content-Type") == "text/html; charset=utf-8")
        #expect(page.header("Content-Security-Policy") == "default-src 'self'")
        #expect(page.header("X-Content-Type-Options") == "nosniff")
        #expect(page.header("Referrer-Policy") == "no-referrer")
        #expect(page.header("ETag") == asset.etag)
        #expect(client.readUntilClosed())

        let cached = try RawClient(port: daemon.port)
        try cached.send(
            "GET /page.mjs HTTP/1.1\r\nHost: localhost\r\nIf-None-Match: \(try #require(WebAssets.byPath["/page.mjs"]).etag)\r\n\r\n"
        )
        #expect(try cached.readResponse().status == 304)
        #expect(cached.readUntilClosed())

        let head = try RawClient(port: daemon.port)
        try head.send("HEAD /board?room=ABCD HTTP/1.1\r\nHost: localhost\r\n\r\n")
        #expect(head.readUntilClosed())
        let text = String(decoding: head.buffer, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(text.hasSuffix("\r\n\r\n"))
        #expect(text.contains("Content-Length: \(try #require(WebAssets.byPath["/board"]).bytes.count)"))

        for (request, status) in [
            ("GET /secret HTTP/1.1\r\nHost: localhost\r\n\r\n", 404),
            ("POST / HTTP/1.1\r\nHost: localhost\r\n\r\n", 405),
            ("GET /ws HTTP/1.1\r\nHost: localhost\r\n\r\n", 426),
        ] {
            let other = try RawClient(port: daemon.port)
            try other.send(request)
            #expect(try other.readResponse().status == status, "\(request)")
            #expect(other.readUntilClosed())
        }
    }
}
