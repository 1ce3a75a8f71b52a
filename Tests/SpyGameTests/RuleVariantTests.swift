import Foundation
import SpyProtocol
import XCTest

@testable import SpyGame

/// The two variants other versions play: the blank's guess once a round, and the spy's last chance.
final class RuleVariantTests: XCTestCase {
    static let pair = WordPair(civilian: "Apple Pie", spy: "Cherry Tart", language: .en)

    func testTheDefaultsAreTheSeedsRules() throws {
        let settings = GameSettings()
        XCTAssertEqual(settings.blankRule, .survive)
        XCTAssertFalse(settings.spyLastChance)
        // Settings saved before the last chance existed load without it.
        var object = try XCTUnwrap(
            JSONSerialization.jsonObject(with: JSONEncoder().encode(GameSettings(spyLastChance: true)))
                as? [String: Any])
        object["spyLastChance"] = nil
        let old = try JSONDecoder().decode(GameSettings.self, from: JSONSerialization.data(withJSONObject: object))
        XCTAssertEqual(old, GameSettings())
    }

    // MARK: The blank's guess once a round

    private func eachRoundTable(seed: UInt64) -> Table {
        var table = Table(seed: seed, settings: GameSettings(blank: true, blankRule: .guessEachRound))
        table.seat(6)
        table.start(pairs: [Self.pair])
        return table
    }

    func testTheBlankGuessingRightWhileTheVoteIsOpenWinsAtOnce() throws {
        var table = eachRoundTable(seed: 61)
        let blank = table.players(.blank)[0]
        table.refused(.move(blank, .guess(.init(word: table.game.civilianWord))), .wrongPhase)
        table.describeAll()
        XCTAssertEqual(table.phase, .voting)
        let effects = table.ok(.move(blank, .guess(.init(word: table.game.civilianWord.uppercased()))))
        XCTAssertTrue(effects.broadcasts.contains(.guessResult(.init(player: blank, role: .blank, correct: true))))
        let over = try XCTUnwrap(effects.gameOver)
        XCTAssertEqual(over.winner, .blank)
        XCTAssertEqual(over.scores.first { $0.player == blank }?.score, 3, "a winner still in: 2 + 1")
        XCTAssertEqual(table.room.records.last?.guesses.first?.correct, true)
    }

    func testAWrongGuessPutsTheBlankOutAndTheVoteGoesOnWithoutThem() throws {
        var table = eachRoundTable(seed: 62)
        let blank = table.players(.blank)[0]
        let spy = table.players(.spy)[0]
        let civilian = table.players(.civilian)[0]
        table.describeAll()
        table.vote(civilian, blank)
        table.vote(blank, civilian)
        let effects = table.ok(.move(blank, .guess(.init(word: table.game.spyWord))))
        XCTAssertTrue(
            effects.broadcasts.contains(.guessResult(.init(player: blank, role: .blank, correct: false, out: true))))
        XCTAssertNil(effects.gameOver)
        XCTAssertEqual(table.phase, .voting)
        XCTAssertFalse(table.game.isIn(blank))
        XCTAssertEqual(table.room.view(now: table.now).seats.first { $0.id == blank }?.revealed, .blank)
        // The blank's ballot and the ballot against the blank are gone; the civilian is waited for again.
        XCTAssertFalse(table.game.voters.contains(blank))
        XCTAssertFalse(table.game.candidates.contains(blank))
        XCTAssertNil(table.game.ballots[civilian])
        let progress = effects.broadcasts.compactMap { if case .voteProgress(let p) = $0 { p } else { nil } }.last
        XCTAssertEqual(progress?.voted, [])
        // The guess word stays hidden until the game is over.
        for message in effects.broadcasts {
            XCTAssertFalse(String(decoding: WireCodec.encodePayload(message), as: UTF8.self).contains("Cherry"))
        }
        table.refused(.move(blank, .guess(.init(word: table.game.civilianWord))), .notPlaying)
        table.refused(.move(civilian, .guess(.init(word: table.game.civilianWord))), .notYourTurn)
        let over = try XCTUnwrap(table.everyoneVotes(for: spy).gameOver)
        XCTAssertEqual(over.winner, .civilians)
        let record = try XCTUnwrap(table.room.records.last)
        XCTAssertEqual(record.outs.first, .init(player: blank, round: 1, reason: .guessed))
        XCTAssertEqual(record.guesses, [.init(player: blank, round: 1, word: table.game.spyWord, correct: false)])
        XCTAssertEqual(over.blankGuess, table.game.spyWord)
    }

    func testUnderTheEachRoundRuleTheBlankDoesNotWinBySurvivingAndIsNotAskedWhenVotedOut() throws {
        var table = eachRoundTable(seed: 63)
        let over = try XCTUnwrap(table.voteOut(table.players(.spy)[0]).gameOver)
        XCTAssertEqual(over.winner, .civilians)

        var other = eachRoundTable(seed: 64)
        let blank = other.players(.blank)[0]
        XCTAssertNil(other.voteOut(blank).gameOver)
        XCTAssertEqual(other.phase, .describing, "no guessing phase under this rule")
    }

    func testABlankTiedInAPKWhoGuessesWrongSettlesThePK() throws {
        var table = Table(
            seed: 65, settings: GameSettings(blank: true, blankRule: .guessEachRound))
        table.seat(7)
        table.start(pairs: [Self.pair])
        let blank = table.players(.blank)[0]
        let civilian = table.players(.civilian)[0]
        table.describeAll()
        let others = table.game.voters.filter { $0 != blank && $0 != civilian }
        table.vote(blank, civilian)
        table.vote(civilian, blank)
        for (index, voter) in others.enumerated() {
            table.vote(voter, index < 2 ? blank : index < 4 ? civilian : others[0] == voter ? others[1] : others[0])
        }
        XCTAssertEqual(Set(table.game.pk), [blank, civilian])
        table.describeAll()
        XCTAssertEqual(table.phase, .voting)
        table.ok(.move(blank, .guess(.init(word: "nope"))))
        XCTAssertEqual(table.phase, .describing)
        XCTAssertEqual(table.game.round, 2)
        XCTAssertTrue(table.game.isIn(civilian))
    }

    // MARK: The spy's last chance

    private func lastChanceTable(seed: UInt64, players: Int = 5, spies: Int = 1) -> Table {
        var table = Table(seed: seed, settings: GameSettings(spies: spies, spyLastChance: true))
        table.seat(players)
        table.start(pairs: [Self.pair])
        return table
    }

    func testASpyVotedOutGuessingRightWinsForTheSpies() throws {
        var table = lastChanceTable(seed: 71)
        let spy = table.players(.spy)[0]
        let effects = table.voteOut(spy)
        XCTAssertNil(effects.gameOver)
        XCTAssertEqual(table.phase, .guessing)
        XCTAssertTrue(effects.broadcasts.contains(.guessing(.init(player: spy, role: .spy))))
        table.refused(.move(table.players(.civilian)[0], .guess(.init(word: "x"))), .notYourTurn)
        let result = table.ok(.move(spy, .guess(.init(word: table.game.civilianWord))))
        XCTAssertTrue(result.broadcasts.contains(.guessResult(.init(player: spy, role: .spy, correct: true))))
        let over = try XCTUnwrap(result.gameOver)
        XCTAssertEqual(over.winner, .spies)
        XCTAssertNil(over.blankGuess, "a spy's guess is not the blank's")
        XCTAssertEqual(over.scores.first { $0.player == spy }?.score, 2, "a spy voted out earns no survivor bonus")
        XCTAssertEqual(table.room.records.last?.guesses.first?.player, spy)
    }

    func testTheLastSpyGuessingWrongLosesAndAnEarlierSpyGuessingWrongLetsTheGameGoOn() throws {
        var one = lastChanceTable(seed: 72)
        let spy = one.players(.spy)[0]
        one.voteOut(spy)
        let over = try XCTUnwrap(one.ok(.move(spy, .guess(.init(word: one.game.spyWord)))).gameOver)
        XCTAssertEqual(over.winner, .civilians)

        var two = lastChanceTable(seed: 73, players: 8, spies: 2)
        let first = two.players(.spy)[0]
        two.voteOut(first)
        XCTAssertEqual(two.phase, .guessing)
        XCTAssertNil(two.ok(.move(first, .guess(.init(word: "wrong")))).gameOver)
        XCTAssertEqual(two.phase, .describing)
        XCTAssertEqual(two.game.round, 2)
    }

    func testALastChanceThatRunsOutOfTimeIsAWrongGuess() throws {
        var table = Table(seed: 74, settings: GameSettings(turnSeconds: 30, spyLastChance: true))
        table.seat(5)
        table.start(pairs: [Self.pair])
        let spy = table.players(.spy)[0]
        while table.phase == .describing, let speaker = table.speaker { table.ok(.move(speaker, .pass)) }
        _ = table.everyoneVotes(for: spy)
        XCTAssertEqual(table.phase, .guessing)
        table.advance(by: 30_000)
        let over = try XCTUnwrap(table.ok(.tick).gameOver)
        XCTAssertEqual(over.winner, .civilians)
        XCTAssertEqual(table.room.records.last?.guesses, [.init(player: spy, round: 1, word: nil, correct: false)])
    }

    func testWithoutTheLastChanceASpyVotedOutIsSimplyOut() throws {
        var table = Table(seed: 75)
        table.seat(5)
        table.start(pairs: [Self.pair])
        XCTAssertEqual(table.voteOut(table.players(.spy)[0]).gameOver?.winner, .civilians)
    }
}
