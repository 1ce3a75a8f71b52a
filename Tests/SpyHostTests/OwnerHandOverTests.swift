import SpyBank
import SpyGame
import SpyHostHarness
import SpyProtocol
import Testing

@testable import SpyHost

/// Every phone is told why the room changed hands: the `owner` message carries the reason, on the wire too.
@Suite struct OwnerHandOverTests {
    static func handOvers(in messages: [ServerMessage]) -> [ServerMessage.Owner] {
        messages.compactMap { if case .owner(let body) = $0 { body } else { nil } }
    }

    @Test func anOwnerAwayThirtySecondsInTheLobbyHandsOverSayingTheyWereAway() throws {
        let host = EmbeddedHost()
        let ann = try host.join("Ann")
        let ben = try host.join("Ben")
        _ = host.messages(on: ben.connection)
        _ = host.payloads(on: ben.connection)
        host.drop(ann.connection)
        host.advance(seconds: 29.9)
        #expect(Self.handOvers(in: host.messages(on: ben.connection)).isEmpty)
        host.advance(seconds: 0.2)
        let payloads = host.payloads(on: ben.connection).map { String(decoding: $0, as: UTF8.self) }
        #expect(
            Self.handOvers(in: host.messages(on: ben.connection)) == [
                .init(player: ben.player, previous: ann.player, reason: .away)
            ])
        #expect(payloads.contains { $0.contains(#""type":"owner""#) && $0.hasSuffix(#","reason":"away"}"#) })
    }

    @Test func anOwnerWhoLeavesHandsOverSayingTheyLeft() throws {
        let host = EmbeddedHost()
        let ann = try host.join("Ann")
        let ben = try host.join("Ben")
        _ = host.messages(on: ben.connection)
        try host.send(.leave, on: ann.connection)
        #expect(
            Self.handOvers(in: host.messages(on: ben.connection)) == [
                .init(player: ben.player, previous: ann.player, reason: .left)
            ])
    }
}
