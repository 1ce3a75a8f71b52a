import SpyGame
import SpyProtocol
import Testing

@testable import SpyHost

/// What docs/PROTOCOL.md promises a client of the host itself (beyond the rules engine), checked on the core with
/// no socket or clock: the order of refusals, the error budget, what the host says when.
@Suite struct ProtocolPromiseTests {
    /// The host checks the bank's pairs only after the room's own refusals: a start from someone who may not start,
    /// or at a table too small, is told so, not that the categories hold no pair.
    @Test func aStartIsRefusedForTheRoomsReasonsBeforeTheBanks() throws {
        let host = EmbeddedHost()
        let seats = try ["Ann", "Ben", "Cat"].map { try host.join($0) }
        try host.send(.settings(.init(categories: ["Nope"])), on: seats[0].connection)
        for seat in seats { _ = host.messages(on: seat.connection) }
        try host.send(.start, on: seats[1].connection)
        #expect(EmbeddedHost.errors(in: host.messages(on: seats[1].connection)) == [.notOwner])
        try host.send(.start, on: seats[0].connection)
        #expect(EmbeddedHost.errors(in: host.messages(on: seats[0].connection)) == [.tooFewPlayers])
        let dan = try host.join("Dan")
        _ = host.messages(on: dan.connection)
        try host.send(.start, on: seats[0].connection)
        #expect(EmbeddedHost.errors(in: host.messages(on: seats[0].connection)) == [.badSettings])
    }

    /// An integer with a fraction or an exponent is a `bad_message`, so the id a `pong` echoes is always the one
    /// the `ping` carried.
    @Test func integersWithAFractionOrAnExponentAreRefused() throws {
        let host = EmbeddedHost()
        let ann = try host.join("Ann")
        _ = host.messages(on: ann.connection)
        for number in ["1.0", "1e2", "1.5"] {
            let payload = Array(#"{"type":"ping","id":\#(number)}"#.utf8)
            try host.send(payload: payload, on: ann.connection)
        }
        try host.send(.ping(.init(id: 100)), on: ann.connection)
        let answers = host.messages(on: ann.connection)
        #expect(EmbeddedHost.errors(in: answers) == [.badMessage, .badMessage, .badMessage])
        #expect(answers.last == .pong(.init(id: 100)))
    }

    /// "Refused frames or moves per minute: 30": thirty refusals are answered, the thirty-first closes.
    @Test func theErrorBudgetAnswersThirtyRefusalsAMinute() throws {
        let host = EmbeddedHost()
        let ann = try host.join("Ann")
        _ = host.messages(on: ann.connection)
        let nonsense = Array(#"{"type":"nonsense"}"#.utf8)
        for _ in 0..<30 { try host.send(payload: nonsense, on: ann.connection) }
        #expect(EmbeddedHost.errors(in: host.messages(on: ann.connection)) == Array(repeating: .unknownType, count: 30))
        // A minute after the first, the budget is whole again.
        host.advance(seconds: 30)
        try host.send(.pong(.init(id: 1)), on: ann.connection)
        host.advance(seconds: 30.001)
        _ = host.messages(on: ann.connection)
        for _ in 0..<30 { try host.send(payload: nonsense, on: ann.connection) }
        #expect(EmbeddedHost.errors(in: host.messages(on: ann.connection)).count == 30)
        try host.send(payload: nonsense, on: ann.connection)
        #expect(EmbeddedHost.errors(in: host.messages(on: ann.connection)) == [.tooManyErrors])
        #expect(host.shut.contains(ann.connection))
    }
}
