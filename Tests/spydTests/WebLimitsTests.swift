import Foundation
import SpyNet
import SpyProtocol
import SpyWeb
import Testing

/// The limits of the framed protocol hold for the browser's path too: the same size before hello, the same budget
/// of unfinished input, and a close answered with the code it came with.
@Suite struct WebLimitsTests {
    static func text(_ bytes: [UInt8]) -> [UInt8] { WebSocketTestClient.frame(0x1, bytes) }

    @Test(.tags(.shell), .tags(.shell)) func aWebSocketMessageBeforeHelloIsAtMostFourKilobytes() throws {
        let daemon = try InProcessHost()
        // A hello padded to 60 KB is refused from its header, as the same bytes in a frame are.
        let padded =
            #"{"type":"hello","protocol":1,"name":"Big","pad":""# + String(repeating: "x", count: 60_000) + #""}"#
        let framed = try daemon.connect()
        try framed.sendRaw(rawFrame(Array(padded.utf8)))
        guard case .error(let refusal)? = try framed.receive(deadline: .after(seconds: 10)) else {
            Issue.record("the framed hello was not refused")
            return
        }
        #expect(refusal.code == .frameTooLarge)
        let big = try WebSocketTestClient(port: daemon.port)
        try? big.sendRaw(Self.text(Array(padded.utf8)))
        #expect(big.waitForClose() == WebSocketCloseCode.messageTooBig.rawValue)
        #expect(!big.history.contains { if case .welcome = $0 { true } else { false } })

        // A hello of exactly 4,096 bytes is fine, and once seated a larger message is too.
        let hello = #"{"type":"hello","protocol":1,"name":"Padded"}"#
        let fitting = try WebSocketTestClient(port: daemon.port)
        try fitting.sendRaw(Self.text(Array(hello.utf8) + Array(repeating: 0x20, count: 4_096 - hello.utf8.count)))
        try fitting.waitFor("welcome") { if case .welcome = $0 { true } else { false } }
        try fitting.sendRaw(Self.text(Array(#"{"type":"ping","id":9}"#.utf8) + Array(repeating: 0x20, count: 20_000)))
        try fitting.waitFor("pong") { $0 == .pong(.init(id: 9)) }
    }

    @Test(.tags(.shell), .tags(.shell)) func aCloseIsAnsweredWithItsOwnCode() throws {
        let daemon = try InProcessHost()
        for code: UInt16 in [4000, 3001, 1001, 1000] {
            let client = try WebSocketTestClient(port: daemon.port)
            try client.send(.hello(.init(name: "Closer \(code)")))
            try client.waitFor("welcome") { if case .welcome = $0 { true } else { false } }
            try client.sendRaw(WebSocketTestClient.frame(0x8, [UInt8(code >> 8), UInt8(code & 0xFF)]))
            #expect(client.waitForClose() == code)
        }
    }

    @Test(.tags(.shell), .tags(.shell)) func unfinishedRequestHeadsCountInTheBudgetOfUnfinishedInput() throws {
        let daemon = try InProcessHost(["--max-partial-kb", "64", "--max-per-address", "0", "--hello-seconds", "3"])
        // Twelve heads of 6,000 bytes, none finished: 72,000 bytes held, over the 65,536 of the budget.
        let clients = try (0..<12).map { _ in try RawClient(port: daemon.port) }
        for client in clients {
            try client.send("GET / HTTP/1.1\r\nX-Long: " + String(repeating: "y", count: 5_975))
        }
        #expect(daemon.waitForLine(containing: "passed the budget") != nil)
        daemon.advance(seconds: 3)
        // The connections holding the most are cut at once with 431; the others wait for the rest of their head
        // until the hello deadline.
        var statuses: [String] = []
        for client in clients {
            #expect(client.readUntilClosed())
            statuses.append(String(String(decoding: client.buffer, as: UTF8.self).prefix(12)))
        }
        let cut = statuses.filter { $0 == "HTTP/1.1 431" }.count
        #expect(cut > 0 && statuses.filter { $0 == "HTTP/1.1 408" }.count == clients.count - cut, "\(statuses)")
    }
}
