import Foundation
import SpyProtocol
import XCTest

@testable import SpyGame

/// The history of the evening: each finished game's record, made at its end and kept by the room.
final class HistoryTests: XCTestCase {
    /// Seven players, a blank under the guess rule: a tie and a PK in round 1, a player leaving and the blank voted
    /// out (guessing wrong) in round 2, the spy voted out in round 3.
    func testTheRecordOfAGameWithAPKABlanksGuessAndAPlayerWhoLeft() throws {
        var table = Table(seed: 41, settings: GameSettings(blank: true, blankRule: .guess))
        let ids = table.seat(7)
        table.start()
        let spy = table.players(.spy)[0]
        let blank = table.players(.blank)[0]
        let civilians = table.players(.civilian)
        let (first, second, leaver) = (civilians[0], civilians[1], civilians[2])

        // Round 1: three ballots each for two civilians, one elsewhere: a tie, then the PK sends `first` out.
        table.describeAll()
        let others = table.game.voters.filter { $0 != first && $0 != second }
        table.vote(first, second)
        table.vote(second, first)
        for (index, voter) in others.enumerated() {
            let target = [first, first, second, second][safe: index] ?? others.first { $0 != voter }!
            table.vote(voter, target)
        }
        XCTAssertEqual(table.game.pk.sorted(), [first, second].sorted())
        table.describeAll()
        let pkVoters = table.game.voters
        let pkEffects = table.everyoneVotes(for: first)
        XCTAssertEqual(pkEffects.voteResults.last?.out, first)
        XCTAssertTrue(pkEffects.broadcasts.allSatisfy { if case .history = $0 { false } else { true } })

        // Round 2: a civilian leaves, then the blank is voted out and guesses wrong.
        table.ok(.leave(leaver))
        table.voteOut(blank)
        XCTAssertEqual(table.phase, .guessing)
        table.ok(.move(blank, .guess(.init(word: table.game.spyWord))))
        XCTAssertEqual(table.game.round, 3)

        let end = table.voteOut(spy)
        let over = try XCTUnwrap(end.gameOver)
        XCTAssertEqual(over.winner, .civilians)
        let history = try XCTUnwrap(
            end.broadcasts.lazy.compactMap { if case .history(let history) = $0 { history } else { nil } }.first)
        XCTAssertEqual(history.games.count, 1)
        let record = try XCTUnwrap(history.games.first)
        XCTAssertEqual(table.room.records, [record])

        XCTAssertEqual(record.game, 1)
        XCTAssertEqual(record.winner, .civilians)
        XCTAssertEqual([record.civilianWord, record.spyWord], [over.civilianWord, over.spyWord])
        XCTAssertEqual(record.players.map(\.player), ids)
        XCTAssertEqual(record.players.map(\.name), ["A", "B", "C", "D", "E", "F", "G"])
        for entry in record.players {
            XCTAssertEqual(entry.role, over.reveal.first { $0.player == entry.player }?.role)
        }
        XCTAssertEqual(
            record.outs,
            [
                .init(player: first, round: 1, reason: .voted, votes: pkVoters.count, pk: true),
                .init(player: leaver, round: 2, reason: .left),
                .init(player: blank, round: 2, reason: .voted, votes: 4, pk: false),
                .init(player: spy, round: 3, reason: .voted, votes: 3, pk: false),
            ])
        XCTAssertEqual(
            record.guesses, [.init(player: blank, round: 2, word: table.game.spyWord, correct: false)])
        // Winners still in: 2 + 1; a winner voted out: 2; the player who left: nothing; spy and blank: nothing.
        let points = Dictionary(uniqueKeysWithValues: record.players.map { ($0.player, $0.points) })
        XCTAssertEqual(points[first], 2)
        XCTAssertEqual(points[leaver], 0)
        XCTAssertEqual(points[spy], 0)
        XCTAssertEqual(points[blank], 0)
        let survivors = [second] + civilians.dropFirst(3)
        for civilian in survivors { XCTAssertEqual(points[civilian], 3) }
        XCTAssertEqual(record.players.filter(\.survived).map(\.player).sorted(), survivors.sorted())
        // The score change matches the scores game over shows.
        for entry in over.scores { XCTAssertEqual(points[entry.player], entry.score) }
    }

    func testAKickedPlayerIsRecordedAsKickedAndARightGuessAsCorrect() throws {
        var table = Table(seed: 43, settings: GameSettings(blank: true, blankRule: .guess))
        table.seat(6)
        table.start()
        let owner = try XCTUnwrap(table.room.ownerID)
        let kicked = try XCTUnwrap(table.players(.civilian).first { $0 != owner })
        table.ok(.move(owner, .kick(.init(player: kicked))))
        let blank = table.players(.blank)[0]
        table.voteOut(blank)
        table.ok(.move(blank, .guess(.init(word: table.game.civilianWord))))
        let record = try XCTUnwrap(table.room.records.last)
        XCTAssertEqual(record.winner, .blank)
        XCTAssertEqual(record.outs.first, .init(player: kicked, round: 1, reason: .kicked))
        XCTAssertEqual(record.guesses, [.init(player: blank, round: 1, word: table.game.civilianWord, correct: true)])
        XCTAssertEqual(record.players.first { $0.player == blank }?.points, 2)
    }

    func testNoRecordExistsBeforeTheGameIsOverAndEachGameAddsOne() throws {
        var table = Table(seed: 44)
        table.seat(4)
        for number in 1...3 {
            table.start()
            XCTAssertEqual(table.room.records.count, number - 1, "no record of a running game")
            XCTAssertEqual(table.room.catchUp(for: nil, now: table.now).filter(\.isHistory).count, number == 1 ? 0 : 1)
            table.voteOut(table.players(.spy)[0])
            XCTAssertEqual(table.room.records.map(\.game), Array(1...number))
        }
    }

    func testArrivalsGetEveryRecordInMessagesOfABoundedSize() throws {
        var table = Table(seed: 45)
        table.seat(4)
        let games = Rules.historyGamesPerMessage * 2 + 3
        for _ in 0..<games {
            table.start()
            table.voteOut(table.players(.spy)[0])
        }
        let chunks = table.room.catchUp(for: nil, now: table.now).compactMap { message -> [GameRecord]? in
            if case .history(let history) = message { return history.games }
            return nil
        }
        XCTAssertEqual(chunks.map(\.count), [Rules.historyGamesPerMessage, Rules.historyGamesPerMessage, 3])
        XCTAssertEqual(chunks.flatMap { $0 }.map(\.game), Array(1...games))
    }

    func testAPlayerJoiningAfterAGameHearsOfIt() throws {
        var table = Table(seed: 47)
        table.seat(4)
        table.start()
        table.voteOut(table.players(.spy)[0])
        let effects = table.ok(.join(name: "Late", bot: false))
        let late = try XCTUnwrap(effects.lazy.compactMap { if case .joined(let id) = $0 { id } else { nil } }.first)
        XCTAssertEqual(effects.sent(to: late), [.history(.init(games: table.room.records))])
    }

    func testTheRoomKeepsItsLatestGamesOnly() throws {
        var room = Room(code: "TEST", seed: 1)
        let record = GameRecord(game: 0, civilianWord: "a", spyWord: "b", winner: .spies, players: [])
        for number in 1...(Rules.maxHistoryGames + 5) {
            var next = record
            next.game = number
            room.recordInHistory(next)
        }
        XCTAssertEqual(room.records.count, Rules.maxHistoryGames)
        XCTAssertEqual(room.records.first?.game, 6)
    }

    /// The history is part of the room's encoding (what the journal keeps), and a room saved before it existed
    /// loads with none.
    func testTheHistoryTravelsWithTheRoomAndOldRoomsLoadWithout() throws {
        var table = Table(seed: 46)
        table.seat(4)
        table.start()
        table.voteOut(table.players(.spy)[0])
        let data = try JSONEncoder().encode(table.room)
        let decoded = try JSONDecoder().decode(Room.self, from: data)
        XCTAssertEqual(decoded, table.room)
        XCTAssertEqual(decoded.records.count, 1)

        var object = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        object["history"] = nil
        var game = try XCTUnwrap(object["game"] as? [String: Any])
        game["outs"] = nil
        game["guesses"] = nil
        object["game"] = game
        let old = try JSONDecoder().decode(Room.self, from: JSONSerialization.data(withJSONObject: object))
        XCTAssertEqual(old.records, [])
        XCTAssertEqual(old.phase, .gameOver)
    }
}

extension Array {
    fileprivate subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}

extension ServerMessage {
    fileprivate var isHistory: Bool {
        if case .history = self { return true }
        return false
    }
}
