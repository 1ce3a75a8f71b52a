import Foundation
import SpyBank
import SpyGame
import SpyProtocol
import Testing

@testable import SpyHost
@testable import spyd

/// Long bot games driven the way the daemon drives them (a `Room`, a `BotDriver` planning every bot's move, an
/// injected clock), with ties forced until the table has heard far more clues than a snapshot carries.
@Suite struct BotLongGameTests {
    /// What became of one long game.
    struct Outcome {
        var over: ServerMessage.GameOver?
        var clues = 0
        var rounds = 0
        var stuck: String?
    }

    /// Seats one person (the owner, played by the test: passes, votes for the first candidate) and `players - 1`
    /// bots, forces a tie and a tied PK in each of the first `forcedRounds` rounds, then lets the bots vote.
    static func play(players: Int, spies: Int, forcedRounds: Int, seed: UInt64) -> Outcome {
        var settings = GameSettings(clueMode: .typed)
        settings.maxPlayers = players
        settings.spies = spies
        var room = Room(code: "LONG", settings: settings, seed: seed)
        var driver = BotDriver()
        // The pairs and the knowledge of the room's language (`both`), as the host hands them to a room.
        let pairs = EmbeddedBank.pairs(in: settings.language)
        let knowledge = BotVocabulary(pairs: EmbeddedBank.pairs).knowledge(for: settings.language)
        var random = SplitMix64(seed: seed)
        var now: Millis = 1_000
        var outcome = Outcome()
        func carryOut(_ result: Result<[RoomEffect], Rejection>) {
            guard case .success(let effects) = result else { return }
            for effect in effects {
                switch effect {
                case .send(let player, let message):
                    if room.isBot(player) { driver.observe(message, recipient: player) }
                case .broadcast(let message):
                    driver.observe(message, recipient: nil)
                    if case .gameOver(let over) = message { outcome.over = over }
                    if case .clue = message { outcome.clues += 1 }
                default:
                    break
                }
            }
        }
        carryOut(room.apply(.join(name: "Host", bot: false), now: now))
        let person = room.playerIDs[0]
        for number in 1..<players { carryOut(room.apply(.join(name: "Bot \(number)", bot: true), now: now)) }
        carryOut(room.apply(.start(by: person, pairs: pairs), now: now))
        var steps = 0
        while outcome.over == nil {
            steps += 1
            now += 10
            let view = room.view(now: now)
            outcome.rounds = view.round
            guard steps < 20_000, view.round <= 60 else {
                outcome.stuck = "no end after \(view.round) rounds"
                return outcome
            }
            driver.plan(room: room, now: now, delayMs: 0, level: .normal, knowledge: knowledge, random: &random)
            let moves = driver.takeDue(now: now)
            if view.phase == .voting && view.round <= forcedRounds {
                // Two bots get the same number of votes: a PK, where the voters split evenly again.
                let candidates = view.pk.isEmpty ? view.seats.filter(\.alive).map(\.id) : view.pk
                let tied = Array(candidates.filter { $0 != person }.prefix(2))
                let voters = view.seats.filter { $0.alive && !tied.contains($0.id) }.map(\.id)
                for (index, voter) in voters.enumerated() {
                    carryOut(room.apply(.move(voter, .vote(.init(target: tied[index % 2]))), now: now))
                }
                if view.pk.isEmpty {
                    carryOut(room.apply(.move(tied[0], .vote(.init(target: tied[1]))), now: now))
                    carryOut(room.apply(.move(tied[1], .vote(.init(target: tied[0]))), now: now))
                }
                continue
            }
            var acted = false
            if view.phase == .describing && view.turn == person {
                carryOut(room.apply(.move(person, .pass), now: now))
                acted = true
            }
            if view.phase == .voting, view.seats.contains(where: { $0.id == person && $0.alive && !$0.voted }) {
                // The room refuses a ballot from a tied player in a PK; then the bots decide alone.
                for seat in view.seats where seat.alive && seat.id != person {
                    let result = room.apply(.move(person, .vote(.init(target: seat.id))), now: now)
                    if case .success = result {
                        carryOut(result)
                        acted = true
                        break
                    }
                }
            }
            if !acted && moves.isEmpty {
                outcome.stuck =
                    "waiting forever in round \(view.round) (\(view.phase.rawValue), pk \(!view.pk.isEmpty)) "
                    + "after \(outcome.clues) clues"
                return outcome
            }
            for move in moves { carryOut(room.apply(.move(move.bot, move.message), now: now)) }
        }
        return outcome
    }

    @Test(arguments: [(10, 2), (10, 3), (16, 3)])
    func tiedGamesPastTheSnapshotsClueWindowStillEnd(players: Int, spies: Int) {
        let forced = Rules.cluesInView / players + 2
        for seed in UInt64(1)...2 {
            let outcome = Self.play(players: players, spies: spies, forcedRounds: forced, seed: seed)
            #expect(outcome.stuck == nil, "\(players) players, seed \(seed): \(outcome.stuck ?? "")")
            #expect(outcome.over != nil)
            #expect(outcome.clues > Rules.cluesInView, "only \(outcome.clues) clues")
        }
    }
}
