import Foundation
import SpyProtocol
import Testing

@testable import SpyGame

/// The check a start makes of a room it loads refuses only what the rules never make: every state reached by
/// random play over several games, with players joining, leaving, kicked, dropping and coming back, settings
/// changed between games and the host restarting, passes it.
@Suite struct ReachableStateTests {
    static let seedRanges: [Range<UInt64>] = [0..<60, 60..<120]

    @Test(arguments: seedRanges)
    func everyStateTheRulesReachPassesTheLoadCheck(seeds: Range<UInt64>) {
        var games = 0
        for seed in seeds {
            var play = RandomPlay(seed: seed)
            for step in 0..<800 {
                let event = play.nextEvent()
                play.now += Millis(play.random.next(below: 4_000))
                if case .tick = event, let due = play.room.nextDeadline { play.now = max(play.now, due) }
                let before = play.room.latestGame
                guard case .success = play.room.apply(event, now: play.now) else { continue }
                games += play.room.latestGame - before
                if let wrong = play.room.integrityProblem {
                    Issue.record("seed \(seed), step \(step), after \(event): \(wrong)")
                    break
                }
            }
        }
        // The sample reaches many games, so every phase is seen many times.
        #expect(games > 3 * seeds.count)
    }
}

/// Random events, mostly legal ones, for one room.
private struct RandomPlay {
    var room: Room
    var random: SplitMix64
    var now: Millis = 1_000
    private var names = 0
    private let pairs = (0..<4).map { WordPair(civilian: "word\($0)", spy: "other\($0)") }

    init(seed: UInt64) {
        room = Room(code: "LOAD", seed: seed)
        random = SplitMix64(seed: seed ^ 0x5EED)
    }

    private mutating func pick<T>(_ items: [T]) -> T? {
        items.isEmpty ? nil : items[random.next(below: items.count)]
    }

    mutating func nextEvent() -> RoomEvent {
        let seated = room.playerIDs
        let owner = room.ownerID ?? seated.first ?? "p1"
        let roll = random.next(below: 100)
        switch roll {
        case 0..<8:
            names += 1
            return .join(name: "Player \(names)", bot: random.next(below: 4) == 0)
        case 8..<10:
            return pick(seated).map { .leave($0) } ?? .tick
        case 10..<12:
            return pick(seated).map { .move(owner, .kick(.init(player: $0))) } ?? .tick
        case 12..<18:
            guard let player = pick(seated) else { return .tick }
            return room.isConnected(player) ? .disconnected(player) : .connected(player)
        case 18..<19:
            return .hostRestarted
        case 19..<30:
            return .tick
        case 30..<34:
            var change = SettingsChange()
            change.maxPlayers = 4 + random.next(below: 17)
            change.spies = 1 + random.next(below: 3)
            change.blank = random.nextBool()
            change.turnSeconds = random.nextBool() ? 0 : 10 + random.next(below: 20)
            change.voteSeconds = random.nextBool() ? 0 : 10 + random.next(below: 20)
            change.tieRule = TieRule.allCases[random.next(below: TieRule.allCases.count)]
            change.blankRule = random.nextBool() ? .survive : .guess
            return .move(owner, .settings(change))
        case 34..<40:
            // Everyone back before a deal, most of the time, so that games start.
            if let away = seated.first(where: { !room.isConnected($0) }), random.next(below: 4) != 0 {
                return .connected(away)
            }
            return .start(by: owner, pairs: pairs)
        default:
            return move(seated: seated)
        }
    }

    private mutating func move(seated: [PlayerID]) -> RoomEvent {
        guard let game = room.game else { return .tick }
        switch room.phase {
        case .describing:
            guard let speaker = game.currentSpeaker else { return .tick }
            return random.nextBool() ? .move(speaker, .pass) : .move(speaker, .clue(.init(text: "like a thing")))
        case .voting:
            guard let voter = pick(game.voters), let target = pick(game.candidates.filter { $0 != voter }) else {
                return .tick
            }
            return .move(voter, .vote(.init(target: target)))
        case .guessing:
            guard let guesser = game.guesser else { return .tick }
            return .move(guesser, .guess(.init(word: random.nextBool() ? game.civilianWord : "nothing")))
        case .lobby, .gameOver:
            return pick(seated).map { .move($0, .pass) } ?? .tick
        }
    }
}
