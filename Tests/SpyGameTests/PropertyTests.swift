import Foundation
import SpyProtocol
import Testing

@testable import SpyGame

/// Thousands of games with random settings and random legal events (plus some illegal ones), checking the
/// promises every game must keep. The seeds are split into a few ranges, tested side by side.
@Suite struct PropertyTests {
    /// The 1,000 seeds of the random games, in ranges of 250.
    static let seedRanges: [Range<UInt64>] = stride(from: 0, to: 1_000, by: 250).map { $0..<$0 + 250 }

    @Test(arguments: seedRanges)
    func randomGamesEndAndKeepSecrets(seeds: Range<UInt64>) throws {
        var endings: [Winner: Int] = [:]
        for seed in seeds {
            var game = RandomGame(seed: seed)
            let winner = try game.play(checkJSON: seed % 10 == 0)
            endings[winner, default: 0] += 1
        }
        // Every kind of ending happens somewhere in the sample.
        #expect(endings[.civilians] ?? 0 > 0)
        #expect(endings[.spies] ?? 0 > 0)
        #expect(endings[.blank] ?? 0 > 0)
    }

    /// A watcher (the board) sees the room through `catchUp(for: nil)` and `RoomEffect.watcherMessage`: it must
    /// never learn a word, nor a role the game has not revealed to everyone, before game over, whenever it arrives.
    @Test(arguments: seedRanges)
    func aWatcherNeverSeesAWordBeforeGameOver(seeds: Range<UInt64>) throws {
        var sawGameOver = 0
        var messagesChecked = 0
        for seed in seeds {
            var game = RandomGame(seed: seed)
            _ = try game.play(checkJSON: false)
            let dealt = try #require(game.room.game)
            let words = [dealt.civilianWord, dealt.spyWord]
            #expect(words.allSatisfy { !$0.isEmpty })
            // The room as it stood when a watcher arrived (before the deal for some seeds), then what the game
            // produced from there on, as recorded when it was played.
            var room = Room(code: "TEST", settings: game.initialSettings, seed: seed)
            let arrival = Int(seed % UInt64(game.events.count))
            for (event, now) in game.events[..<arrival] { _ = room.apply(event, now: now) }
            var received = room.catchUp(for: nil, now: game.events[arrival].1)
            for effects in game.effects[arrival...] { received += effects.compactMap(\.watcherMessage) }
            var over = false
            for message in received {
                switch message {
                case .deal, .welcome:
                    Issue.record("seed \(seed): a watcher was sent \(message.type)")
                case .gameOver(let result):
                    over = true
                    #expect(Set([result.civilianWord, result.spyWord]) == Set(words))
                default:
                    break
                }
                guard !over else { continue }
                let json = WireCodec.encodePayload(message)
                for word in words {
                    #expect(
                        !WatcherTests.bytes(json, contain: Array(word.utf8)), "seed \(seed): \(message.type) has a word"
                    )
                }
                if case .room(let view) = message {
                    for seat in view.seats where seat.revealed != nil {
                        #expect(!seat.alive, "seed \(seed): a role shown for a player still in")
                    }
                }
                messagesChecked += 1
            }
            #expect(over, "seed \(seed): the watcher never saw game over")
            if over { sawGameOver += 1 }
        }
        #expect(sawGameOver == seeds.count)
        #expect(messagesChecked > 10 * seeds.count)
    }

    @Test func theSameSeedAndEventsGiveTheSameGame() throws {
        for seed in 0..<100 as Range<UInt64> {
            var first = RandomGame(seed: seed)
            _ = try first.play(checkJSON: false)
            var replay = Room(code: "TEST", settings: first.initialSettings, seed: seed)
            var effects: [[RoomEffect]] = []
            for (event, now) in first.events {
                effects.append((try? replay.apply(event, now: now).get()) ?? [])
            }
            #expect(effects == first.effects, "seed \(seed)")
            #expect(replay == first.room)
        }
    }

    @Test func aRoomRestoredFromItsEncodingContinuesIdentically() throws {
        let encoder = JSONEncoder()
        let decoder = JSONDecoder()
        for seed in 0..<100 as Range<UInt64> {
            var original = RandomGame(seed: seed)
            _ = try original.play(checkJSON: false)
            let cut = original.events.count / 2
            var room = Room(code: "TEST", settings: original.initialSettings, seed: seed)
            for (event, now) in original.events[..<cut] { _ = room.apply(event, now: now) }
            var restored = try decoder.decode(Room.self, from: encoder.encode(room))
            #expect(restored == room)
            for (index, (event, now)) in original.events.enumerated().dropFirst(cut) {
                let effects = (try? restored.apply(event, now: now).get()) ?? []
                #expect(effects == original.effects[index], "seed \(seed) event \(index)")
            }
            #expect(restored == original.room)
        }
    }
}

/// One random game and the checks made on every effect it produces.
struct RandomGame {
    var room: Room
    var driver: SplitMix64
    var now: Millis = 0
    let initialSettings: GameSettings
    let players: Int
    var events: [(RoomEvent, Millis)] = []
    /// Effects of every event, refused ones as `[]`.
    var effects: [[RoomEffect]] = []
    var lastRound = 0
    /// Also search the JSON of every public message for the words (slower, so only for some games).
    var checkJSON = false

    init(seed: UInt64) {
        driver = SplitMix64(seed: seed ^ 0xDEAD_BEEF)
        var settings = GameSettings()
        settings.maxPlayers = 20
        players = 4 + driver.next(below: 9)
        settings.spies = 1 + driver.next(below: min(3, GameSettings.maxSpies(forPlayers: players)))
        settings.blank =
            driver.nextBool() && Rules.civiliansAreMajority(players: players, spies: settings.spies, blank: true)
        settings.clueMode = driver.nextBool() ? .typed : .spoken
        settings.turnSeconds = driver.next(below: 3) == 0 ? 10 + driver.next(below: 50) : 0
        settings.voteSeconds = driver.next(below: 3) == 0 ? 10 + driver.next(below: 50) : 0
        settings.tieRule = TieRule.allCases[driver.next(below: TieRule.allCases.count)]
        settings.revealOut = driver.next(below: 4) != 0
        settings.blankRule = driver.nextBool() ? .survive : .guess
        initialSettings = settings
        room = Room(code: "TEST", settings: settings, seed: seed)
    }

    private mutating func pick<T>(_ items: [T]) -> T? {
        items.isEmpty ? nil : items[driver.next(below: items.count)]
    }

    private mutating func chance(_ percent: Int) -> Bool {
        driver.next(below: 100) < percent
    }

    /// Plays until game over; returns the winner.
    mutating func play(checkJSON: Bool) throws -> Winner {
        self.checkJSON = checkJSON
        let settings = initialSettings
        for index in 0..<players {
            try step(.join(name: index % 3 == 0 ? "" : "N\(index)", bot: chance(20)))
        }
        let pairs = (0..<3).map { WordPair(civilian: "civword\($0)", spy: "spyword\($0)") }
        let owner = try #require(room.ownerID)
        let started = try step(.start(by: owner, pairs: pairs))
        guard started else {
            Issue.record("start refused for \(players) players with \(settings)")
            return .civilians
        }
        let game = try #require(room.game)
        #expect(TextFold.key(game.civilianWord) != TextFold.key(game.spyWord))
        #expect(game.roles[game.firstSpeaker] != .blank)

        var steps = 0
        while room.phase != .gameOver {
            steps += 1
            guard steps < 5_000 else {
                Issue.record("game did not end")
                return .civilians
            }
            try randomEvent()
        }
        return try #require(room.game?.winner)
    }

    private mutating func randomEvent() throws {
        let game = try #require(room.game)
        let present = room.playerIDs
        let roll = driver.next(below: 100)
        if roll < 4, let player = pick(present) {
            try step(room.isConnected(player) ? .disconnected(player) : .connected(player))
            return
        }
        if roll < 5, chance(30), let player = pick(present) {
            if let owner = room.ownerID, owner != player, chance(50) {
                try step(.move(owner, .kick(.init(player: player))))
            } else {
                try step(.leave(player))
            }
            return
        }
        if roll < 12, let player = pick(present) {
            // Something probably illegal; a refusal must leave the room unchanged (checked in `step`).
            let target = pick(present) ?? player
            let moves: [ClientMessage] = [
                .pass, .vote(.init(target: target)), .guess(.init(word: "x")), .clue(.init(text: "hello")),
                .settings(SettingsChange(spies: 1)), .kick(.init(player: player)),
            ]
            try step(.move(player, pick(moves)!))
            return
        }
        if roll < 25, let deadline = room.nextDeadline {
            now = max(now, deadline)
            try step(.tick)
            return
        }
        now += Millis(driver.next(below: 3_000))
        switch room.phase {
        case .describing:
            let speaker = try #require(game.currentSpeaker)
            if room.settings.clueMode == .typed && chance(70) {
                try step(.move(speaker, .clue(.init(text: "clue \(driver.next(below: 1000))"))))
            } else {
                try step(.move(speaker, .pass))
            }
        case .voting:
            let waiting = game.voters.filter { game.ballots[$0] == nil }
            guard let voter = pick(chance(90) && !waiting.isEmpty ? waiting : game.voters) else { return }
            guard let target = pick(game.candidates.filter { $0 != voter }) else { return }
            try step(.move(voter, .vote(.init(target: target))))
        case .guessing:
            let guesser = try #require(game.guesser)
            let guess = pick([game.civilianWord, game.spyWord, "nothing"])!
            try step(.move(guesser, .guess(.init(word: guess))))
        case .lobby, .gameOver:
            Issue.record("unexpected phase \(room.phase)")
        }
    }

    /// Applies an event, records it and checks every effect. Returns whether it was accepted.
    @discardableResult
    private mutating func step(_ event: RoomEvent) throws -> Bool {
        let before = room
        events.append((event, now))
        switch room.apply(event, now: now) {
        case .failure:
            #expect(room == before, "refused \(event) changed the room")
            effects.append([])
            return false
        case .success(let produced):
            effects.append(produced)
            // Every state the rules reach is one a start would load.
            if let wrong = room.integrityProblem { Issue.record("after \(event): \(wrong)") }
            try check(produced, checkJSON: checkJSON)
            return true
        }
    }

    private mutating func check(_ produced: [RoomEffect], checkJSON: Bool) throws {
        guard let game = room.game else { return }
        let secretWords = [game.civilianWord, game.spyWord]
        let over = room.phase == .gameOver
        for effect in produced {
            switch effect {
            case .send(let player, .deal(let deal)):
                #expect(deal.word == game.word(for: player), "a deal carries only the player's own word")
                #expect(deal.blank == (game.roles[player] == .blank))
            case .send(_, let message), .broadcast(let message):
                if case .deal = message { Issue.record("deal broadcast") }
                if case .gameOver = message {
                    #expect(over, "game over sent before the end")
                } else if case .history(let history) = message {
                    // Records only of games that are over: this one once it ended, and the earlier ones.
                    for record in history.games {
                        #expect(record.game < game.number || (over && record.game == game.number))
                    }
                } else {
                    try checkPublic(message, game: game, words: secretWords, json: checkJSON)
                }
            case .log(let line):
                if !over { for word in secretWords { #expect(!line.contains(word), "\(line)") } }
                for role in ["spy", "civilian", "blank"] where !over { #expect(!line.contains(role), "\(line)") }
            case .joined, .removed:
                break
            }
            if case .broadcast(.turn(let turn)) = effect, !turn.pk, turn.round != lastRound {
                lastRound = turn.round
                #expect(game.roles[turn.player] != .blank, "the blank never opens a round")
            }
        }
    }

    /// A message anyone may see: no word, and roles only where the game has revealed them.
    private func checkPublic(_ message: ServerMessage, game: Game, words: [String], json: Bool) throws {
        switch message {
        case .room(let view):
            let seated = room.playerIDs
            for seat in view.seats {
                guard let revealed = seat.revealed else { continue }
                #expect(revealed == game.roles[seat.id])
                if view.phase != .gameOver {
                    #expect(!seat.alive, "a role shown for a player still in")
                    let departed = !seated.contains(seat.id)
                    let guessing = game.guesser == seat.id || game.blankGuess != nil || revealed == .blank
                    #expect(room.settings.revealOut || departed || guessing, "role shown with reveal off")
                }
            }
        case .voteResult(let result):
            if let identity = result.identity {
                #expect(room.settings.revealOut)
                #expect(identity == game.roles[result.out ?? ""])
            }
        case .clue(let clue):
            if let text = clue.text { for word in words { #expect(!text.contains(word)) } }
        default:
            break
        }
        guard json else { return }
        let encoded = String(decoding: try JSONEncoder().encode(message), as: UTF8.self)
        for word in words { #expect(!encoded.contains(word), "\(message.type) carries a word") }
    }
}
