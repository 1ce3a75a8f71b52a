import Foundation
import SpyGame
import SpyHostHarness
import SpyProtocol
import Testing

@testable import SpyHost

/// An audit of every frame of two scripted games with a moderator and the room's own list, through the host's core:
/// no player's connection and no board ever receives another player's word, a role, a word of the list or the
/// moderator's typed pair before the game that reveals it is over; the moderator's connection receives all of it.
@Suite struct EveningSecrecyTests {
    /// What one connection received, frame by frame, with the game each frame came during (0: none running).
    final class Transcript {
        var frames: [(json: String, message: ServerMessage)] = []
        var voted: Set<String> = []
    }

    static let listPairs = [("園遊會", "運動會"), ("喜帖", "紅包"), ("伴郎", "伴娘"), ("婚紗", "禮服"), ("蛋糕", "喜餅")]
    static let typedPair = ("祕密甲", "祕密乙")

    /// Lets every seat act (pass on its turn, one ballot a vote) until `games` games are over for everyone.
    static func play(
        _ host: EmbeddedHost, _ seats: [(connection: UInt64, player: PlayerID)], transcripts: [UInt64: Transcript],
        watchers: [UInt64], untilGames games: Int
    ) throws {
        func collect(_ id: UInt64) -> [ServerMessage] {
            let fresh = host.payloads(on: id).map { payload in
                (String(decoding: payload, as: UTF8.self), try! WireCodec.decode(ServerMessage.self, from: payload))
            }
            transcripts[id]!.frames += fresh
            return fresh.map(\.1)
        }
        var rounds = 0
        while rounds < 2_000 {
            rounds += 1
            for id in watchers { _ = collect(id) }
            let finished = seats.allSatisfy { seat in
                transcripts[seat.connection]!.frames.contains {
                    if case .gameOver(let over) = $0.message { over.game == games } else { false }
                }
            }
            if finished { return }
            var acted = false
            for seat in seats {
                for message in collect(seat.connection) {
                    switch message {
                    case .turn(let turn) where turn.player == seat.player:
                        try host.send(.pass, on: seat.connection)
                        acted = true
                    case .voting(let voting) where voting.voters.contains(seat.player):
                        let over = transcripts[seat.connection]!.frames.count {
                            if case .gameOver = $0.message { true } else { false }
                        }
                        let key = "\(over)/\(voting.round)/\(voting.pk)/\(voting.candidates)"
                        guard transcripts[seat.connection]!.voted.insert(key).inserted else { continue }
                        let target = voting.candidates.first { $0 != seat.player }!
                        try host.send(.vote(.init(target: target)), on: seat.connection)
                        acted = true
                    default:
                        break
                    }
                }
            }
            if !acted { host.advance(seconds: 1) }
        }
        Issue.record("the games did not end")
    }

    @Test func noFrameLeaksAndTheModeratorSeesItAll() throws {
        let host = EmbeddedHost { $0.settings.revealOut = false }
        let seats = try ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"].map { try host.join($0) }
        let board = host.connect()
        try host.send(.hello(.init(name: "", watch: true)), on: board)
        var transcripts: [UInt64: Transcript] = [:]
        for id in seats.map(\.connection) + [board] {
            transcripts[id] = Transcript()
            _ = host.payloads(on: id)
        }
        let (owner, judge) = (seats[0], seats[5])
        let listText = Self.listPairs.map { "\($0.0),\($0.1)" }.joined(separator: "\n")
        try host.send(.words(.init(text: listText)), on: owner.connection)
        try host.send(.settings(.init(spies: 1, wordSource: .ours)), on: owner.connection)
        try host.send(.moderator(.init(player: judge.player)), on: owner.connection)
        try host.send(.moderatorAnswer(.init(accept: true)), on: judge.connection)
        let players = Array(seats.prefix(5))

        try host.send(.start, on: judge.connection)
        try Self.play(host, players, transcripts: transcripts, watchers: [board, judge.connection], untilGames: 1)
        try host.send(.moderatorPair(.init(civilian: Self.typedPair.0, spy: Self.typedPair.1)), on: judge.connection)
        try host.send(.start, on: judge.connection)
        try Self.play(host, players, transcripts: transcripts, watchers: [board, judge.connection], untilGames: 2)

        let listWords = Self.listPairs.flatMap { [$0.0, $0.1] }
        let secretWords = listWords + [Self.typedPair.0, Self.typedPair.1]
        // Each connection that is not the moderator's: within each game, from its deal to its game over, no frame
        // holds a word but the player's own, nor a role; a word of the list or the typed pair shows only in the
        // player's own deal, or once the game that dealt it is over.
        var revealed: Set<String> = []
        var checked = 0
        for id in players.map(\.connection) + [board] {
            revealed = []
            var running = false
            var own: String?
            for frame in transcripts[id]!.frames {
                switch frame.message {
                case .deal(let deal):
                    running = true
                    own = deal.word
                    continue
                case .gameOver(let over):
                    running = false
                    revealed.formUnion([over.civilianWord, over.spyWord])
                    continue
                case .room(let view) where view.phase == .describing && view.round == 1:
                    running = true
                default:
                    break
                }
                checked += 1
                for word in secretWords where word != own && !revealed.contains(word) {
                    #expect(!frame.json.contains(word), "connection \(id) saw \(word): \(frame.json.prefix(120))")
                }
                if running {
                    for key in [#""role""#, #""revealed""#, #""identity""#] {
                        #expect(!frame.json.contains(key), "connection \(id) saw a role: \(frame.json.prefix(120))")
                    }
                    #expect(!frame.json.contains("moderator_view"))
                }
            }
        }
        #expect(checked > 100)

        // The moderator saw every word of both games, every ballot, and the typed pair before it was dealt.
        let views = transcripts[judge.connection]!.frames.compactMap {
            if case .moderatorView(let view) = $0.message { view } else { nil }
        }
        let dealtWords = Set(views.flatMap { $0.players.compactMap(\.word) })
        let games = Set(
            transcripts[owner.connection]!.frames.compactMap {
                if case .gameOver(let over) = $0.message { [over.civilianWord, over.spyWord] } else { nil }
            }.flatMap { $0 })
        #expect(dealtWords == games)
        #expect(games.isSuperset(of: [Self.typedPair.0, Self.typedPair.1]))
        #expect(views.contains { $0.nextPair == ListedPair(civilian: Self.typedPair.0, spy: Self.typedPair.1) })
        #expect(views.contains { !$0.ballots.isEmpty })
        #expect(!transcripts[judge.connection]!.frames.contains { if case .deal = $0.message { true } else { false } })
        // The typed pair is in nobody's list.
        try host.send(.wordsExport, on: owner.connection)
        let list = host.messages(on: owner.connection).compactMap { if case .wordList(let l) = $0 { l } else { nil } }
        #expect(list.first?.pairs.count == Self.listPairs.count)
    }
}
