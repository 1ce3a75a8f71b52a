import Foundation
import SpyGame
import SpyHostHarness
import SpyProtocol
import Testing

@testable import SpyHost

/// The error table of docs/PROTOCOL.md is the host's: each code it lists is one the host sends, provoked here by the
/// very input its row names. (That the table lists every code of `ErrorCode`, with its fatality, is
/// `ProtocolDocTests`'s.)
@Suite struct ErrorCodeConformanceTests {
    /// What the core cannot be made to send: the listener of `spyd` refuses a connection past the caps before the
    /// core hears of it (see LimitsTests), and `internal` stands for a problem no input is meant to cause.
    static let notFromTheCore: Set<ErrorCode> = [.tooManyConnections, .internal]

    @Test func everyCodeOfTheTableIsOneTheHostSends() throws {
        var seen: Set<ErrorCode> = []
        seen.formUnion(try framing())
        seen.formUnion(try handshake())
        seen.formUnion(try passwords())
        seen.formUnion(try rooms())
        seen.formUnion(try claims())
        seen.formUnion(try moves())
        seen.formUnion(try connectionEnds())
        let listed = Set(try ProtocolDocument.errorTable().keys.compactMap(ErrorCode.init(rawValue:)))
        #expect(seen.isDisjoint(with: Self.notFromTheCore))
        #expect(seen.subtracting(listed).isEmpty, "sent but not in the table: \(seen.subtracting(listed))")
        let missing = listed.subtracting(seen).subtracting(Self.notFromTheCore)
        #expect(missing.isEmpty, "in the table but never sent: \(missing.map(\.rawValue).sorted())")
    }

    // MARK: Scenarios, each returning the codes it saw

    /// The errors connection `id` received since its messages were last read.
    private func errors(_ host: EmbeddedHost, _ ids: UInt64...) -> Set<ErrorCode> {
        Set(ids.flatMap { EmbeddedHost.errors(in: host.messages(on: $0)) })
    }

    private func framing() throws -> Set<ErrorCode> {
        let host = EmbeddedHost()
        let ann = try host.join("Ann")
        try host.send(payload: Array("nope".utf8), on: ann.connection)
        try host.send(payload: Array(#"{"type":"shout"}"#.utf8), on: ann.connection)
        try host.send(payload: Array(#"{"type":"vote"}"#.utf8), on: ann.connection)
        try host.send(.hello(.init(name: "Ann")), on: ann.connection)
        var seen = errors(host, ann.connection)
        #expect(seen == [.badFrame, .unknownType, .badMessage, .alreadyJoined])
        let empty = host.connect()
        host.send(bytes: [0, 0, 0, 0], on: empty)
        seen.formUnion(errors(host, empty))
        #expect(seen.contains(.frameTooLarge))
        return seen
    }

    private func handshake() throws -> Set<ErrorCode> {
        let host = EmbeddedHost()
        let ann = try host.join("Ann")
        let early = host.connect()
        try host.send(.ping(.init(id: 1)), on: early)
        let future = host.connect()
        try host.send(.hello(.init(protocol: 2, name: "Zed")), on: future)
        let lost = host.connect()
        let code = try #require(host.core.roomOrder.first)
        try host.send(.hello(.init(name: "Zed", room: code == "QQQQ" ? "ZZZZ" : "QQQQ")), on: lost)
        let blank = host.connect()
        try host.send(.hello(.init(name: "   ")), on: blank)
        let twin = host.connect()
        try host.send(.hello(.init(name: "ANN")), on: twin)
        let stale = host.connect()
        try host.send(.hello(.init(name: "", token: String(repeating: "0", count: 32))), on: stale)
        let silent = host.connect()
        host.advance(seconds: 10)
        let seen = errors(host, early, future, lost, blank, twin, stale, silent)
        #expect(
            seen == [
                .helloRequired, .protocolVersion, .roomNotFound, .badName, .nameTaken, .badToken, .helloTimeout,
            ])
        _ = ann
        let several = EmbeddedHost { $0.rooms = 2 }
        let unsure = several.connect()
        try several.send(.hello(.init(name: "Ann")), on: unsure)
        let required = errors(several, unsure)
        #expect(required == [.roomRequired])
        return seen.union(required)
    }

    private func passwords() throws -> Set<ErrorCode> {
        let host = EmbeddedHost { $0.password = "tea-party" }
        var seen: Set<ErrorCode> = []
        for _ in 0..<4 {
            let guess = host.connect(from: "10.0.0.9")
            try host.send(.hello(.init(name: "Eve", password: "coffee")), on: guess)
            seen.formUnion(errors(host, guess))
        }
        #expect(seen == [.wrongPassword, .tooManyAttempts])
        return seen
    }

    private func rooms() throws -> Set<ErrorCode> {
        let host = EmbeddedHost {
            $0.settings.maxPlayers = 4
            $0.limits.maxRooms = 1
        }
        let seats = try ["Ann", "Ben", "Cat", "Dan"].map { try host.join($0) }
        let fifth = host.connect()
        try host.send(.hello(.init(name: "Eve")), on: fifth)
        let opener = host.connect()
        try host.send(.hello(.init(name: "Eve", create: true)), on: opener)
        try host.send(.start, on: seats[0].connection)
        let late = host.connect()
        try host.send(.hello(.init(name: "Fay")), on: late)
        let seen = errors(host, fifth, opener, late)
        #expect(seen == [.roomFull, .tooManyRooms, .gameInProgress])
        return seen
    }

    private func claims() throws -> Set<ErrorCode> {
        var seen: Set<ErrorCode> = []
        let alone = EmbeddedHost()
        let solo = try alone.join("Ann")
        alone.drop(solo.connection)
        let unapproved = alone.connect()
        try alone.send(.hello(.init(name: "Ann", claim: solo.player)), on: unapproved)
        seen.formUnion(errors(alone, unapproved))

        let host = EmbeddedHost()
        let ann = try host.join("Ann")
        let ben = try host.join("Ben")
        host.drop(ben.connection)
        let unknown = host.connect()
        try host.send(.hello(.init(name: "Zed", claim: "p9")), on: unknown)
        let first = host.connect()
        try host.send(.hello(.init(name: "Zed", claim: ben.player)), on: first)
        let second = host.connect()
        try host.send(.hello(.init(name: "Zoe", claim: ben.player)), on: second)
        try host.send(.claimAnswer(.init(player: ben.player, allow: false)), on: ann.connection)
        try host.send(.claimAnswer(.init(player: ben.player, allow: true)), on: ann.connection)
        seen.formUnion(errors(host, unknown, first, second, ann.connection))
        #expect(seen == [.claimUnavailable, .claimInvalid, .claimBusy, .claimRefused, .notAllowed])
        return seen
    }

    private func moves() throws -> Set<ErrorCode> {
        let host = EmbeddedHost { $0.settings.clueMode = .typed }
        let seats = try ["Ann", "Ben", "Cat"].map { try host.join($0) }
        let owner = seats[0].connection
        try host.send(.start, on: seats[1].connection)
        try host.send(.start, on: owner)
        try host.send(.settings(.init(maxPlayers: 5, spies: 2)), on: owner)
        try host.send(.settings(.init(maxPlayers: 99)), on: owner)
        try host.send(.words(.init(text: String(repeating: "x", count: Rules.maxWordListTextBytes + 1))), on: owner)
        var seen = errors(host, owner, seats[1].connection)
        #expect(seen == [.notOwner, .tooFewPlayers, .tooManySpies, .badSettings, .badWords])
        let all = seats + [try host.join("Dan")]
        for seat in all { _ = host.messages(on: seat.connection) }
        try host.send(.start, on: owner)
        var words: [PlayerID: String] = [:]
        var speaker: PlayerID?
        for seat in all {
            for message in host.messages(on: seat.connection) {
                if case .deal(let deal) = message { words[seat.player] = deal.word }
                if case .turn(let turn) = message { speaker = turn.player }
            }
        }
        let speaking = try #require(all.first { $0.player == speaker })
        let listening = try #require(all.first { $0.player != speaker })
        try host.send(.pass, on: listening.connection)
        try host.send(.settings(.init(maxPlayers: 6)), on: owner)
        try host.send(.clue(.init(text: "  ")), on: speaking.connection)
        let word = try #require(words[speaking.player] ?? words.values.first)
        try host.send(.clue(.init(text: "it is \(word)")), on: speaking.connection)
        seen.formUnion(errors(host, listening.connection, owner, speaking.connection))
        // Everyone passes: the vote opens.
        for _ in all {
            for seat in all { try host.send(.pass, on: seat.connection) }
        }
        for seat in all { _ = host.messages(on: seat.connection) }
        try host.send(.vote(.init(target: listening.player)), on: listening.connection)
        try host.send(.vote(.init(target: "p9")), on: listening.connection)
        let board = host.connect()
        try host.send(.hello(.init(name: "", watch: true)), on: board)
        try host.send(.pass, on: board)
        try host.send(.kick(.init(player: all[3].player)), on: owner)
        seen.formUnion(errors(host, listening.connection, board, all[3].connection))
        #expect(seen.isSuperset(of: [.wrongPhase, .notYourTurn, .badClue, .clueHasWord, .selfVote, .badTarget]))
        #expect(seen.isSuperset(of: [.notPlaying, .kicked]))
        return seen
    }

    private func connectionEnds() throws -> Set<ErrorCode> {
        var seen: Set<ErrorCode> = []
        let host = EmbeddedHost()
        let ann = try host.join("Ann")
        let ben = host.connect()
        try host.send(.hello(.init(name: "Ben")), on: ben)
        guard case .welcome(let welcome)? = host.messages(on: ben).first else {
            Issue.record("Ben was not welcomed")
            return seen
        }
        let again = host.connect()
        try host.send(.hello(.init(name: "", token: welcome.token)), on: again)
        let noisy = Array(#"{"type":"shout"}"#.utf8)
        for _ in 0...30 { try host.send(payload: noisy, on: again) }
        seen.formUnion(errors(host, ben, again))
        // Silent for a minute: pinged at 30 s, closed at 60 s.
        host.advance(seconds: 60)
        seen.formUnion(errors(host, ann.connection))
        let waiting = host.connect()
        host.shutDown()
        seen.formUnion(errors(host, waiting))
        #expect(seen == [.replaced, .unknownType, .tooManyErrors, .idleTimeout, .hostClosing])

        let slow = EmbeddedHost { $0.limits.maxOutputBytes = 200 }
        let reader = slow.connect()
        try slow.send(.hello(.init(name: "Ann")), on: reader)
        seen.formUnion(errors(slow, reader))
        #expect(seen.contains(.slowConsumer))

        let storage = FakeStorage()
        let saving = EmbeddedHost(storage: storage)
        let owner = try saving.join("Ann")
        storage.failNextCommit = true
        try saving.send(.settings(.init(maxPlayers: 8)), on: owner.connection)
        seen.formUnion(errors(saving, owner.connection))
        #expect(seen.contains(.hostStorage))
        return seen
    }
}
