import Foundation
import SpyProtocol
import XCTest

@testable import SpyGame

/// Thousands of games with random settings and random legal events (plus some illegal ones), checking the
/// promises every game must keep.
final class PropertyTests: XCTestCase {
    func testRandomGamesEndAndKeepSecrets() throws {
        var endings: [Winner: Int] = [:]
        for seed in 0..<1_000 as Range<UInt64> {
            var game = RandomGame(seed: seed)
            let winner = try game.play(checkJSON: seed % 10 == 0)
            endings[winner, default: 0] += 1
        }
        // Every kind of ending happens somewhere in the sample.
        XCTAssertGreaterThan(endings[.civilians] ?? 0, 0)
        XCTAssertGreaterThan(endings[.spies] ?? 0, 0)
        XCTAssertGreaterThan(endings[.blank] ?? 0, 0)
    }

    func testTheSameSeedAndEventsGiveTheSameGame() throws {
        for seed in 0..<100 as Range<UInt64> {
            var first = RandomGame(seed: seed)
            _ = try first.play(checkJSON: false)
            var replay = Room(code: "TEST", settings: first.initialSettings, seed: seed)
            var effects: [[RoomEffect]] = []
            for (event, now) in first.events {
                effects.append((try? replay.apply(event, now: now).get()) ?? [])
            }
            XCTAssertEqual(effects, first.effects, "seed \(seed)")
            XCTAssertEqual(replay, first.room)
        }
    }

    func testARoomRestoredFromItsEncodingContinuesIdentically() throws {
        let encoder = JSONEncoder()
        let decoder = JSONDecoder()
        for seed in 0..<100 as Range<UInt64> {
            var original = RandomGame(seed: seed)
            _ = try original.play(checkJSON: false)
            let cut = original.events.count / 2
            var room = Room(code: "TEST", settings: original.initialSettings, seed: seed)
            for (event, now) in original.events[..<cut] { _ = room.apply(event, now: now) }
            var restored = try decoder.decode(Room.self, from: encoder.encode(room))
            XCTAssertEqual(restored, room)
            for (index, (event, now)) in original.events.enumerated().dropFirst(cut) {
                let effects = (try? restored.apply(event, now: now).get()) ?? []
                XCTAssertEqual(effects, original.effects[index], "seed \(seed) event \(index)")
            }
            XCTAssertEqual(restored, original.room)
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
        let owner = try XCTUnwrap(room.ownerID)
        let started = try step(.start(by: owner, pairs: pairs))
        guard started else {
            XCTFail("start refused for \(players) players with \(settings)")
            return .civilians
        }
        let game = try XCTUnwrap(room.game)
        XCTAssertNotEqual(TextFold.key(game.civilianWord), TextFold.key(game.spyWord))
        XCTAssertNotEqual(game.roles[game.firstSpeaker], .blank)

        var steps = 0
        while room.phase != .gameOver {
            steps += 1
            guard steps < 5_000 else {
                XCTFail("game did not end")
                return .civilians
            }
            try randomEvent()
        }
        return try XCTUnwrap(room.game?.winner)
    }

    private mutating func randomEvent() throws {
        let game = try XCTUnwrap(room.game)
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
            let speaker = try XCTUnwrap(game.currentSpeaker)
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
            let guesser = try XCTUnwrap(game.guesser)
            let guess = pick([game.civilianWord, game.spyWord, "nothing"])!
            try step(.move(guesser, .guess(.init(word: guess))))
        case .lobby, .gameOver:
            XCTFail("unexpected phase \(room.phase)")
        }
    }

    /// Applies an event, records it and checks every effect. Returns whether it was accepted.
    @discardableResult
    private mutating func step(_ event: RoomEvent) throws -> Bool {
        let before = room
        events.append((event, now))
        switch room.apply(event, now: now) {
        case .failure:
            XCTAssertEqual(room, before, "refused \(event) changed the room")
            effects.append([])
            return false
        case .success(let produced):
            effects.append(produced)
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
                XCTAssertEqual(deal.word, game.word(for: player), "a deal carries only the player's own word")
                XCTAssertEqual(deal.blank, game.roles[player] == .blank)
            case .send(_, let message), .broadcast(let message):
                if case .deal = message { XCTFail("deal broadcast") }
                if case .gameOver = message {
                    XCTAssertTrue(over, "game over sent before the end")
                } else {
                    try checkPublic(message, game: game, words: secretWords, json: checkJSON)
                }
            case .log(let line):
                if !over { for word in secretWords { XCTAssertFalse(line.contains(word), line) } }
                for role in ["spy", "civilian", "blank"] where !over { XCTAssertFalse(line.contains(role), line) }
            case .joined, .removed, .deadline:
                break
            }
            if case .broadcast(.turn(let turn)) = effect, !turn.pk, turn.round != lastRound {
                lastRound = turn.round
                XCTAssertNotEqual(game.roles[turn.player], .blank, "the blank never opens a round")
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
                XCTAssertEqual(revealed, game.roles[seat.id])
                if view.phase != .gameOver {
                    XCTAssertFalse(seat.alive, "a role shown for a player still in")
                    let departed = !seated.contains(seat.id)
                    let guessing = game.guesser == seat.id || game.blankGuess != nil || revealed == .blank
                    XCTAssertTrue(room.settings.revealOut || departed || guessing, "role shown with reveal off")
                }
            }
        case .voteResult(let result):
            if let identity = result.identity {
                XCTAssertTrue(room.settings.revealOut)
                XCTAssertEqual(identity, game.roles[result.out ?? ""])
            }
        case .clue(let clue):
            if let text = clue.text { for word in words { XCTAssertFalse(text.contains(word)) } }
        default:
            break
        }
        guard json else { return }
        let encoded = String(decoding: try JSONEncoder().encode(message), as: UTF8.self)
        for word in words { XCTAssertFalse(encoded.contains(word), "\(message.type) carries a word") }
    }
}
