import Foundation
import SpyProtocol
import XCTest

@testable import SpyGame

/// Whole games scripted by role (the seed decides who holds which role; the script reads it back).
final class ScriptedGameTests: XCTestCase {
    func testCiviliansWinWhenTheOnlySpyIsVotedOut() throws {
        var table = Table(seed: 7)
        let ids = table.seat(5)
        let startEffects = table.start()
        XCTAssertEqual(table.phase, .describing)
        for id in ids {
            let deals = startEffects.sent(to: id).compactMap { message -> ServerMessage.Deal? in
                if case .deal(let deal) = message { return deal } else { return nil }
            }
            XCTAssertEqual(deals.count, 1)
            XCTAssertEqual(deals.first?.word, table.game.word(for: id))
        }
        XCTAssertEqual(startEffects.turns.count, 1)
        let spy = table.players(.spy)[0]
        let effects = table.voteOut(spy)
        XCTAssertEqual(effects.voteResults.last?.out, spy)
        XCTAssertEqual(effects.voteResults.last?.identity, .spy)
        let over = try XCTUnwrap(effects.gameOver)
        XCTAssertEqual(over.winner, .civilians)
        XCTAssertEqual(table.phase, .gameOver)
        XCTAssertEqual(over.reveal.map(\.player), ids)
        XCTAssertEqual(over.civilianWord, table.game.civilianWord)
        XCTAssertNotEqual(over.civilianWord, over.spyWord)
        // Civilians, all still in: 2 + 1; the spy: nothing.
        for entry in over.scores {
            XCTAssertEqual(entry.score, entry.player == spy ? 0 : 3)
        }
        XCTAssertNil(table.room.nextDeadline)
        XCTAssertEqual(table.room.view(now: table.now).winner, .civilians)
        XCTAssertEqual(table.room.view(now: table.now).seats.map(\.revealed), ids.map { table.role($0) })
    }

    func testSpiesWinWhenThreePlayersAreLeft() throws {
        var table = Table(seed: 11)
        table.seat(4)
        table.start()
        let spy = table.players(.spy)[0]
        let civilian = table.players(.civilian)[0]
        let over = try XCTUnwrap(table.voteOut(civilian).gameOver)
        XCTAssertEqual(over.winner, .spies)
        XCTAssertEqual(over.scores.first { $0.player == spy }?.score, 3)
        XCTAssertEqual(over.scores.filter { $0.score == 0 }.count, 3)
    }

    func testSpiesWinWhenTheyAreAsManyAsTheOthersUnderTheParityRule() throws {
        var table = Table(seed: 12, settings: GameSettings(spies: 2, spyWin: .parity))
        table.seat(6)
        table.start()
        XCTAssertEqual(table.players(.spy).count, 2)
        let civilians = table.players(.civilian)
        XCTAssertNil(table.voteOut(civilians[0]).gameOver, "5 left, 2 spies: the game goes on")
        XCTAssertEqual(table.game.round, 2)
        let over = try XCTUnwrap(table.voteOut(civilians[1]).gameOver)
        XCTAssertEqual(over.winner, .spies)
    }

    func testBlankSurvivingAllSpiesWinsUnderTheSurviveRule() throws {
        var table = Table(seed: 3, settings: GameSettings(blank: true))
        table.seat(5)
        table.start()
        let blank = table.players(.blank)[0]
        XCTAssertNil(table.game.word(for: blank))
        let over = try XCTUnwrap(table.voteOut(table.players(.spy)[0]).gameOver)
        XCTAssertEqual(over.winner, .blank)
        XCTAssertEqual(over.reveal.first { $0.player == blank }?.word, nil)
        XCTAssertEqual(over.scores.first { $0.player == blank }?.score, 3)
        XCTAssertEqual(over.scores.filter { $0.score > 0 }.count, 1)
    }

    func testCiviliansWinWhenBlankAndSpyAreBothOut() throws {
        var table = Table(seed: 4, settings: GameSettings(blank: true))
        table.seat(7)
        table.start()
        let first = table.voteOut(table.players(.blank)[0])
        XCTAssertNil(first.gameOver)
        XCTAssertEqual(first.voteResults.last?.identity, .blank)
        XCTAssertEqual(table.phase, .describing)
        let over = try XCTUnwrap(table.voteOut(table.players(.spy)[0]).gameOver)
        XCTAssertEqual(over.winner, .civilians)
    }

    func testBlankGuessingTheWordWinsUnderTheGuessRule() throws {
        var table = Table(seed: 5, settings: GameSettings(blank: true, blankRule: .guess))
        table.seat(6)
        table.start(pairs: [WordPair(civilian: "Apple Pie", spy: "Cherry Tart", language: .en)])
        let blank = table.players(.blank)[0]
        let effects = table.voteOut(blank)
        XCTAssertEqual(table.phase, .guessing)
        XCTAssertTrue(effects.broadcasts.contains(.guessing(.init(player: blank))))
        let civilian = table.players(.civilian)[0]
        table.refused(.move(civilian, .guess(.init(word: "x"))), .notYourTurn)
        table.refused(.move(blank, .guess(.init(word: "  "))), .badClue)
        // Width, case and spacing do not matter.
        let guess = table.game.civilianWord == "Apple Pie" ? "ａｐｐｌｅpie" : "CHERRY  tart"
        let over = try XCTUnwrap(table.ok(.move(blank, .guess(.init(word: guess)))).gameOver)
        XCTAssertEqual(over.winner, .blank)
        XCTAssertEqual(over.blankGuess, guess)
        XCTAssertEqual(over.scores.first { $0.player == blank }?.score, 2, "a blank voted out earns no survivor bonus")
    }

    func testWrongGuessLetsTheGameGoOn() throws {
        var table = Table(seed: 6, settings: GameSettings(blank: true, blankRule: .guess))
        table.seat(6)
        table.start()
        let blank = table.players(.blank)[0]
        table.voteOut(blank)
        let effects = table.ok(.move(blank, .guess(.init(word: table.game.spyWord))))
        XCTAssertNil(effects.gameOver)
        XCTAssertEqual(table.phase, .describing)
        XCTAssertEqual(table.game.round, 2)
        XCTAssertEqual(table.game.blankGuess, table.game.spyWord)
        let over = try XCTUnwrap(table.voteOut(table.players(.spy)[0]).gameOver)
        XCTAssertEqual(over.winner, .civilians)
    }

    func testUnansweredGuessTimesOutAsWrong() throws {
        var table = Table(seed: 8, settings: GameSettings(blank: true, turnSeconds: 30, blankRule: .guess))
        table.seat(6)
        table.start()
        let blank = table.players(.blank)[0]
        let effects = table.voteOut(blank)
        XCTAssertTrue(effects.broadcasts.contains(.guessing(.init(player: blank, timerMs: 30_000, timerKind: .turn))))
        XCTAssertEqual(table.room.nextDeadline, table.now + 30_000)
        table.advance(by: 30_000)
        table.ok(.tick)
        XCTAssertEqual(table.phase, .describing)
        XCTAssertNil(table.game.blankGuess)
    }

    func testBlankGuessRuleWithNoSpyLeftMeansCiviliansWin() throws {
        var table = Table(seed: 9, settings: GameSettings(blank: true, blankRule: .guess))
        table.seat(5)
        table.start()
        let over = try XCTUnwrap(table.voteOut(table.players(.spy)[0]).gameOver)
        XCTAssertEqual(over.winner, .civilians, "the blank still in does not win under the guess rule")
    }

    func testHiddenIdentityWhenRevealIsOff() throws {
        var table = Table(seed: 10, settings: GameSettings(revealOut: false))
        let ids = table.seat(6)
        table.start()
        let civilian = table.players(.civilian)[0]
        let effects = table.voteOut(civilian)
        XCTAssertEqual(effects.voteResults.last?.out, civilian)
        XCTAssertNil(effects.voteResults.last?.identity)
        let seat = table.room.view(now: table.now).seats.first { $0.id == civilian }
        XCTAssertEqual(seat?.alive, false)
        XCTAssertNil(seat?.revealed)
        let over = try XCTUnwrap(table.voteOut(table.players(.spy)[0]).gameOver)
        XCTAssertEqual(over.reveal.count, ids.count)
        XCTAssertNotNil(table.room.view(now: table.now).seats.first { $0.id == civilian }?.revealed)
    }

    func testTypedCluesAreShownAndMayNotContainTheWord() throws {
        var table = Table(seed: 13, settings: GameSettings(clueMode: .typed))
        table.seat(4)
        table.start(pairs: [WordPair(civilian: "Coffee", spy: "Tea", language: .en)])
        let speaker = try XCTUnwrap(table.speaker)
        let word = try XCTUnwrap(table.game.word(for: speaker))
        table.refused(.move(speaker, .clue(.init(text: "I love \(word.uppercased()) every day"))), .clueHasWord)
        let fullWidth = String(word.unicodeScalars.map { Character(Unicode.Scalar($0.value + 0xFEE0)!) })
        table.refused(.move(speaker, .clue(.init(text: "so \(fullWidth)!"))), .clueHasWord)
        table.refused(.move(speaker, .clue(.init(text: "   "))), .badClue)
        table.refused(.move(speaker, .clue(.init(text: String(repeating: "a", count: 101)))), .badClue)
        table.refused(.move(speaker, .clue(.init(text: "bad\u{7}bell"))), .badClue)
        let effects = table.ok(.move(speaker, .clue(.init(text: "  hot drink  "))))
        XCTAssertTrue(effects.broadcasts.contains(.clue(ClueView(player: speaker, round: 1, text: "hot drink"))))
        XCTAssertEqual(table.room.view(now: table.now).clues, [ClueView(player: speaker, round: 1, text: "hot drink")])
        let next = try XCTUnwrap(table.speaker)
        table.ok(.move(next, .pass))
        XCTAssertEqual(table.room.view(now: table.now).clues.last, ClueView(player: next, round: 1))
    }

    func testSpokenModeTakesNoTypedClue() throws {
        var table = Table(seed: 14)
        table.seat(4)
        table.start()
        let speaker = try XCTUnwrap(table.speaker)
        table.refused(.move(speaker, .clue(.init(text: "round"))), .wrongPhase)
    }

    func testSpeakingOrderFollowsSeatsFromTheFirstSpeakerAndSkipsThoseOut() throws {
        // The first seed whose first speaker is a civilian, so voting them out keeps the game going.
        var table = Table(seed: 15)
        var ids: [PlayerID] = []
        for seed in 15..<100 as Range<UInt64> {
            table = Table(seed: seed)
            ids = table.seat(7)
            table.start()
            if table.role(table.game.firstSpeaker) == .civilian { break }
        }
        let first = table.game.firstSpeaker
        let start = ids.firstIndex(of: first)!
        let expected = ids.indices.map { ids[(start + $0) % ids.count] }
        var spoken: [PlayerID] = []
        while let speaker = table.speaker {
            spoken.append(speaker)
            table.ok(.move(speaker, .pass))
        }
        XCTAssertEqual(spoken, expected)
        // Vote out the first speaker: round 2 opens with the next player in seat order.
        XCTAssertEqual(table.role(first), .civilian)
        _ = table.everyoneVotes(for: first)
        XCTAssertEqual(table.speaker, expected[1])
        XCTAssertEqual(table.room.view(now: table.now).round, 2)
        var secondRound: [PlayerID] = []
        while let speaker = table.speaker {
            secondRound.append(speaker)
            table.ok(.move(speaker, .pass))
        }
        XCTAssertEqual(secondRound, Array(expected.dropFirst()))
    }

    func testTurnTimerPassesTheTurn() throws {
        var table = Table(seed: 16, settings: GameSettings(turnSeconds: 15))
        table.seat(4)
        let effects = table.start()
        XCTAssertEqual(table.room.nextDeadline, table.now + 15_000)
        XCTAssertEqual(effects.turns.first?.timerMs, 15_000)
        let speaker = try XCTUnwrap(table.speaker)
        table.advance(by: 14_999)
        XCTAssertEqual(table.ok(.tick), [], "an early tick changes nothing")
        XCTAssertEqual(table.room.view(now: table.now).timerMs, 1)
        table.advance(by: 1)
        let timedOut = table.ok(.tick)
        XCTAssertTrue(timedOut.broadcasts.contains(.clue(ClueView(player: speaker, round: 1))))
        XCTAssertNotEqual(table.speaker, speaker)
        XCTAssertEqual(table.room.nextDeadline, table.now + 15_000)
    }

    func testVoteTimerClosesTheVoteWithMissingBallotsAbstaining() throws {
        var table = Table(seed: 17, settings: GameSettings(voteSeconds: 20))
        table.seat(5)
        table.start()
        table.describeAll()
        XCTAssertEqual(table.phase, .voting)
        XCTAssertEqual(table.room.nextDeadline, table.now + 20_000)
        let civilians = table.players(.civilian)
        let spy = table.players(.spy)[0]
        table.vote(civilians[0], spy)
        table.vote(civilians[1], spy)
        table.vote(civilians[2], civilians[0])
        table.advance(by: 20_000)
        let result = try XCTUnwrap(table.ok(.tick).voteResults.first)
        XCTAssertEqual(result.out, spy)
        XCTAssertEqual(Set(result.abstained), Set([civilians[3], spy]))
        XCTAssertEqual(
            result.tally.first, TallyEntry(player: spy, voters: [civilians[0], civilians[1]].sortedBySeat(table)))
        XCTAssertEqual(table.phase, .gameOver)
    }

    func testChangedBallotReplacesTheEarlierOne() throws {
        var table = Table(seed: 18)
        table.seat(5)
        table.start()
        table.describeAll()
        let civilians = table.players(.civilian)
        let spy = table.players(.spy)[0]
        table.vote(civilians[0], civilians[1])
        // Changing a ballot shows nothing new to anyone: who voted is unchanged and for whom stays secret.
        XCTAssertEqual(table.ok(.move(civilians[0], .vote(.init(target: spy)))).broadcasts, [])
        for voter in civilians.dropFirst() { table.vote(voter, spy) }
        let last = table.ok(.move(spy, .vote(.init(target: civilians[1]))))
        XCTAssertEqual(last.voteResults.first?.out, spy)
        XCTAssertEqual(last.voteResults.first?.tally.first?.voters.count, 4)
    }

    func testPlayAgainKeepsSeatsAndScoresAndDrawsAFreshPair() throws {
        var table = Table(seed: 19)
        let ids = table.seat(4)
        let pairs = [
            WordPair(civilian: "貓", spy: "狗"), WordPair(civilian: "茶", spy: "咖啡"), WordPair(civilian: "山", spy: "海"),
        ]
        var used: [String] = []
        for gameNumber in 1...3 {
            table.start(pairs: pairs)
            XCTAssertEqual(table.game.number, gameNumber)
            XCTAssertEqual(table.room.playerIDs, ids)
            used.append(WordPair(civilian: table.game.civilianWord, spy: table.game.spyWord).key)
            table.voteOut(table.players(.spy)[0])
            XCTAssertEqual(table.phase, .gameOver)
        }
        XCTAssertEqual(Set(used).count, 3, "no pair repeats before the bank is used up")
        table.start(pairs: pairs)
        XCTAssertTrue(used.contains(WordPair(civilian: table.game.civilianWord, spy: table.game.spyWord).key))
        XCTAssertEqual(table.room.view(now: table.now).seats.map(\.score).reduce(0, +), 3 * 9)
    }

    func testSwapsTheWordsOfAPairAboutHalfTheTime() {
        var swaps = 0
        for seed in 0..<400 as Range<UInt64> {
            var table = Table(seed: seed)
            table.seat(4)
            table.start()
            if table.game.civilianWord == Table.pair.spy { swaps += 1 }
        }
        XCTAssertTrue((150...250).contains(swaps), "\(swaps) swaps in 400 deals")
    }
}

extension Array where Element == PlayerID {
    func sortedBySeat(_ table: Table) -> [PlayerID] {
        sorted { table.game.dealt.firstIndex(of: $0)! < table.game.dealt.firstIndex(of: $1)! }
    }
}

final class SnapshotSizeTests: XCTestCase {
    func testLongTypedGameKeepsTheRoomSnapshotUnderTheFrameLimit() throws {
        let settings = GameSettings(maxPlayers: 20, clueMode: .typed, voteSeconds: 10, tieRule: .nobody)
        var table = Table(seed: 21, settings: settings)
        table.seat(20)
        table.start(pairs: [WordPair(civilian: "Coffee", spy: "Tea", language: .en)])
        let longClue = String(repeating: "很", count: Rules.maxClueCharacters)
        for _ in 0..<3 {
            while let speaker = table.speaker {
                table.ok(.move(speaker, .clue(.init(text: longClue))))
            }
            XCTAssertEqual(table.phase, .voting)
            // Nobody votes: the timer closes the vote, every ballot abstains and nobody goes out.
            table.advance(by: 10_001)
            table.ok(.tick)
        }
        let view = table.room.view(now: table.now)
        XCTAssertEqual(view.clues.count, Rules.cluesInView)
        XCTAssertEqual(view.clues.last?.round, 3)
        XCTAssertNoThrow(try WireCodec.encodeFrame(ServerMessage.room(view)))
    }
}
