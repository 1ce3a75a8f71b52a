import Foundation
import SpyNet
import SpyWeb
import Testing

/// The host serves its own names only: a site that points its DNS name at the host gets no page and no WebSocket.
@Suite struct WebHostTests {
    static func status(_ request: String, port: UInt16) throws -> Int {
        let client = try RawClient(port: port)
        try client.send(request)
        return try client.readResponse().status
    }

    @Test(.tags(.shell), .tags(.shell)) func aRebindingNameGetsNoPageAndNoWebSocket() throws {
        let daemon = try InProcessHost(["--public-name", "spy.lan"])
        let port = daemon.port
        let key = "dGhlIHNhbXBsZSBub25jZQ=="
        let rebound = "attacker.example:\(port)"
        #expect(try Self.status("GET / HTTP/1.1\r\nHost: \(rebound)\r\n\r\n", port: port) == 421)
        // The same-origin upgrade a rebinding page would send: its Origin matches its Host, and still it is refused.
        let upgrade = WebSocketTestClient.upgradeRequest(port: port, key: key, origin: "http://\(rebound)")
            .replacingOccurrences(of: "Host: 127.0.0.1:\(port)", with: "Host: \(rebound)")
        #expect(try Self.status(upgrade, port: port) == 421)

        for name in ["127.0.0.1:\(port)", "localhost:\(port)", "spy.lan:\(port)", "[::1]:\(port)"] {
            #expect(try Self.status("GET / HTTP/1.1\r\nHost: \(name)\r\n\r\n", port: port) == 200, "\(name)")
            let allowed = WebSocketTestClient.upgradeRequest(port: port, key: key, origin: "http://\(name)")
                .replacingOccurrences(of: "Host: 127.0.0.1:\(port)", with: "Host: \(name)")
            #expect(try Self.status(allowed, port: port) == 101, "\(name)")
        }
        // The Origin check stays: a page of another site on a name the host answers to is still refused.
        let foreign = WebSocketTestClient.upgradeRequest(port: port, key: key, origin: "http://attacker.example")
        #expect(try Self.status(foreign, port: port) == 403)
    }
}
