import SpyGame
import SpyHostHarness
import SpyProtocol
import Testing

@testable import SpyHost

/// What docs/PROTOCOL.md promises a client of the host itself (beyond the rules engine), checked on the core with
/// no socket or clock: the order of refusals, the error budget, what the host says when.
@Suite struct ProtocolPromiseTests {
    /// The host checks the bank's pairs only after the room's own refusals: a start from someone who may not start,
    /// or at a table too small, is told so, not that the categories hold no pair. (A room comes to choose
    /// categories its bank lacks when the host starts again on its saved rooms with another bank.)
    @Test func aStartIsRefusedForTheRoomsReasonsBeforeTheBanks() throws {
        let storage = FakeStorage()
        var settings = GameSettings()
        settings.categories = ["Nope"]
        storage.recovered = [
            RoomSnapshot(
                room: Room(code: "KFRW", settings: settings, seed: 3), tokens: [:], permanent: true, bots: .init())
        ]
        let host = EmbeddedHost(storage: storage)
        let seats = try ["Ann", "Ben", "Cat"].map { try host.join($0) }
        #expect(host.core.roomOrder == ["KFRW"])
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

    /// `watch: true` outranks a token: the hello watches, and the seat the token names keeps its connection.
    @Test func aWatchWithATokenWatchesAndTakesNoSeat() throws {
        #expect(
            try ProtocolDocument.says(
                "A `hello` with `watch: true` [watches](#watching-a-room), whatever else it carries"))
        #expect(
            try ProtocolDocument.says("`name`, `token`, `create` and `claim` are ignored, even a token of a live seat.")
        )
        let host = EmbeddedHost()
        let ann = host.connect()
        try host.send(.hello(.init(name: "Ann")), on: ann)
        guard case .welcome(let seat)? = host.messages(on: ann).first else {
            Issue.record("Ann was not welcomed")
            return
        }
        let ben = try host.join("Ben")
        host.drop(ben.connection)
        _ = host.messages(on: ann)
        for hello in [
            ClientMessage.Hello(name: "", token: seat.token, watch: true),
            ClientMessage.Hello(name: "Ben", create: true, watch: true, claim: ben.player),
        ] {
            let board = host.connect()
            try host.send(.hello(hello), on: board)
            let answer = host.messages(on: board)
            guard case .welcome(let welcome)? = answer.first else {
                Issue.record("no welcome: \(answer)")
                continue
            }
            #expect(welcome.watch == true && welcome.you == "" && welcome.token == "" && !welcome.resumed)
            #expect(!answer.contains { $0.type == "claim_pending" })
        }
        // Ann was neither replaced nor asked about a claim; the host opened no room.
        #expect(host.messages(on: ann).isEmpty)
        #expect(!host.closed.contains(ann) && !host.shut.contains(ann))
        #expect(host.core.rooms.count == 1)
    }

    /// A claimed seat keeps its name: the name the claimer typed is only shown to the approver.
    @Test func aClaimedSeatKeepsItsName() throws {
        #expect(try ProtocolDocument.says("Score, word and name stay with the seat"))
        let host = EmbeddedHost()
        let ann = try host.join("Ann")
        let ben = try host.join("Ben")
        host.drop(ben.connection)
        _ = host.messages(on: ann.connection)
        let zoe = host.connect()
        try host.send(.hello(.init(name: "Zoe", claim: ben.player)), on: zoe)
        #expect(host.messages(on: zoe) == [.claimPending(.init(player: ben.player))])
        #expect(host.messages(on: ann.connection).contains(.claim(.init(player: ben.player, name: "Zoe"))))
        try host.send(.claimAnswer(.init(player: ben.player, allow: true)), on: ann.connection)
        let given = host.messages(on: zoe)
        guard case .welcome(let welcome)? = given.first else {
            Issue.record("no welcome: \(given)")
            return
        }
        #expect(welcome.you == ben.player && welcome.resumed)
        let names = given.compactMap { message -> [String]? in
            if case .room(let view) = message { return view.seats.map(\.name) }
            return nil
        }
        #expect(!names.isEmpty && names.allSatisfy { $0 == ["Ann", "Ben"] })
    }
}
