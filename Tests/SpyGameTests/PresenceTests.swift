import Foundation
import SpyProtocol
import XCTest

@testable import SpyGame

/// Absent players, resuming, leaving and kicking.
final class PresenceTests: XCTestCase {
    func testAbsentSpeakerTurnPassesAfterTheDefaultEvenWithTimersOff() throws {
        var table = Table(seed: 31)
        table.seat(5)
        table.start()
        XCTAssertNil(table.room.nextDeadline)
        let speaker = try XCTUnwrap(table.speaker)
        table.ok(.disconnected(speaker))
        XCTAssertEqual(table.room.nextDeadline, table.now + Rules.absentTurnMillis)
        XCTAssertEqual(table.room.view(now: table.now).seats.first { $0.id == speaker }?.connected, false)
        table.advance(by: Rules.absentTurnMillis)
        let timedOut = table.ok(.tick)
        XCTAssertTrue(timedOut.broadcasts.contains(.clue(ClueView(player: speaker, round: 1))))
        XCTAssertNotEqual(table.speaker, speaker)
        XCTAssertEqual(table.room.nextDeadline, nil, "the next speaker is here: no timer")
    }

    func testAbsentSpeakerWhoComesBackGetsTheirTurnWithoutTimer() throws {
        var table = Table(seed: 32)
        table.seat(5)
        table.start()
        let speaker = try XCTUnwrap(table.speaker)
        table.ok(.disconnected(speaker))
        let back = table.ok(.connected(speaker))
        XCTAssertEqual(table.room.nextDeadline, nil)
        XCTAssertEqual(table.speaker, speaker)
        let sent = back.sent(to: speaker)
        XCTAssertEqual(sent.count, 3)
        guard case .room = sent[0] else { return XCTFail("room first") }
        XCTAssertEqual(sent[1], .deal(.init(game: 1, word: table.game.word(for: speaker))))
        XCTAssertEqual(sent[2], .turn(.init(round: 1, player: speaker)))
    }

    func testTurnOfAPlayerAlreadyAwayStartsWithTheAbsentDeadline() throws {
        var table = Table(seed: 33)
        table.seat(5)
        table.start()
        let first = try XCTUnwrap(table.speaker)
        let second = table.game.speakers[1]
        table.ok(.disconnected(second))
        XCTAssertNil(table.room.nextDeadline)
        let effects = table.ok(.move(first, .pass))
        XCTAssertEqual(table.speaker, second)
        XCTAssertEqual(table.room.nextDeadline, table.now + Rules.absentTurnMillis)
        XCTAssertEqual(effects.turns.last?.timerMs, Int(Rules.absentTurnMillis))
    }

    func testVoteClosesWhenEveryConnectedVoterHasVotedAndAbsentOnesAbstain() throws {
        var table = Table(seed: 34)
        table.seat(5)
        table.start()
        table.describeAll()
        let civilians = table.players(.civilian)
        let spy = table.players(.spy)[0]
        table.ok(.disconnected(civilians[3]))
        XCTAssertEqual(table.phase, .voting)
        for voter in civilians.prefix(3) { table.vote(voter, spy) }
        XCTAssertEqual(table.phase, .voting)
        table.vote(spy, civilians[0])
        XCTAssertEqual(table.phase, .voting, "the absent voter is waited for during the absent window")
        table.advance(by: Rules.absentTurnMillis)
        let result = try XCTUnwrap(table.ok(.tick).voteResults.first)
        XCTAssertEqual(result.abstained, [civilians[3]])
        XCTAssertEqual(result.out, spy)
    }

    func testVoterDroppingLastClosesTheVoteOnlyWhenTheAbsentWindowEnds() throws {
        var table = Table(seed: 35)
        table.seat(5)
        table.start()
        table.describeAll()
        let civilians = table.players(.civilian)
        let spy = table.players(.spy)[0]
        for voter in civilians.prefix(3) { table.vote(voter, spy) }
        table.vote(spy, civilians[0])
        XCTAssertEqual(table.ok(.disconnected(civilians[3])).voteResults, [])
        XCTAssertEqual(table.room.nextDeadline, table.now + Rules.absentTurnMillis)
        table.advance(by: Rules.absentTurnMillis)
        let result = try XCTUnwrap(table.ok(.tick).voteResults.first)
        XCTAssertEqual(result.abstained, [civilians[3]])
        XCTAssertEqual(table.phase, .gameOver)
    }

    func testResumeDuringTheVoteShowsTheBallotBoxButNotTheBallots() throws {
        var table = Table(seed: 36)
        let ids = table.seat(5)
        table.start()
        table.describeAll()
        table.vote(ids[0], ids[1])
        table.ok(.disconnected(ids[2]))
        let back = table.ok(.connected(ids[2]))
        let sent = back.sent(to: ids[2])
        XCTAssertEqual(sent.count, 4)
        XCTAssertEqual(sent[1], .deal(.init(game: 1, word: table.game.word(for: ids[2]))))
        guard case .voting(let voting) = sent[2] else { return XCTFail("voting expected") }
        XCTAssertEqual(voting.voters, ids)
        XCTAssertEqual(sent[3], .voteProgress(.init(voted: [ids[0]], waiting: Array(ids.dropFirst()))))
        XCTAssertTrue(back.broadcasts.contains { if case .room = $0 { return true } else { return false } })
    }

    func testResumeAtGameOverRepeatsTheResult() throws {
        var table = Table(seed: 37)
        let ids = table.seat(4)
        table.start()
        let over = try XCTUnwrap(table.voteOut(table.players(.spy)[0]).gameOver)
        table.ok(.disconnected(ids[0]))
        let sent = table.ok(.connected(ids[0])).sent(to: ids[0])
        XCTAssertEqual(Array(sent.suffix(2)), [.gameOver(over), .history(.init(games: table.room.records))])
    }

    func testOwnerLeavingMidGamePassesOwnershipAndIsOutAndRevealed() throws {
        var table = Table(seed: 38)
        let ids = table.seat(7)
        table.start()
        let owner = ids[0]
        XCTAssertEqual(table.room.ownerID, owner)
        let role = table.role(owner)
        let effects = table.ok(.leave(owner))
        XCTAssertTrue(effects.contains(.removed(owner, reason: nil)))
        XCTAssertEqual(table.room.ownerID, ids[1])
        XCTAssertEqual(table.room.playerIDs, Array(ids.dropFirst()))
        let seat = try XCTUnwrap(table.room.view(now: table.now).seats.first { $0.id == owner })
        XCTAssertEqual(seat.revealed, role)
        XCTAssertFalse(seat.alive)
        XCTAssertFalse(seat.connected)
        XCTAssertEqual(table.room.view(now: table.now).seats.filter(\.owner).map(\.id), [ids[1]])
        table.refused(.move(owner, .pass), .notPlaying)
        XCTAssertEqual(role, .civilian, "the seed makes the owner a civilian, so the game goes on")
        XCTAssertEqual(table.phase, .describing)
        XCTAssertNotEqual(table.speaker, owner)
        let over = try XCTUnwrap(table.voteOut(table.players(.spy)[0]).gameOver)
        XCTAssertTrue(over.reveal.contains { $0.player == owner })
        XCTAssertFalse(over.scores.contains { $0.player == owner })
        // The next game is dealt to the seats still here, and the new owner starts it.
        table.ok(.start(by: ids[1], pairs: [Table.pair]))
        XCTAssertEqual(table.game.dealt, Array(ids.dropFirst()))
        XCTAssertEqual(table.room.view(now: table.now).seats.count, 6)
    }

    func testKickingTheAbsentSpeakerMovesTheTurnOn() throws {
        var table = Table(seed: 39)
        let ids = table.seat(6)
        table.start()
        var speaker = try XCTUnwrap(table.speaker)
        if speaker == ids[0] {
            table.ok(.move(speaker, .pass))
            speaker = try XCTUnwrap(table.speaker)
        }
        let role = table.role(speaker)
        table.ok(.disconnected(speaker))
        table.refused(.move(ids[1] == speaker ? ids[2] : ids[1], .kick(.init(player: speaker))), .notOwner)
        let effects = table.ok(.move(ids[0], .kick(.init(player: speaker))))
        XCTAssertTrue(effects.contains(.removed(speaker, reason: .kicked)))
        XCTAssertEqual(table.room.view(now: table.now).seats.first { $0.id == speaker }?.revealed, role)
        XCTAssertEqual(role, .civilian, "the seed makes the kicked speaker a civilian, so the game goes on")
        XCTAssertEqual(table.phase, .describing)
        XCTAssertNotEqual(table.speaker, speaker)
        XCTAssertEqual(table.room.nextDeadline, nil, "the absent deadline goes with the kicked speaker")
    }

    func testKickedCandidateDropsTheBallotsForThem() throws {
        var table = Table(seed: 40)
        let ids = table.seat(7)
        table.start()
        table.describeAll()
        let civilians = table.players(.civilian).filter { $0 != ids[0] }
        table.vote(civilians[1], civilians[0])
        table.vote(civilians[2], civilians[0])
        table.ok(.move(ids[0], .kick(.init(player: civilians[0]))))
        XCTAssertEqual(table.phase, .voting)
        XCTAssertEqual(table.game.ballots, [:])
        XCTAssertFalse(table.game.candidates.contains(civilians[0]))
        XCTAssertFalse(table.game.voters.contains(civilians[0]))
    }

    func testLeavingDuringAPKWithTwoTiedEndsThePK() throws {
        var table = Table(seed: 41)
        table.seat(6)
        table.start()
        table.describeAll()
        let civilians = table.players(.civilian)
        let spy = table.players(.spy)[0]
        table.vote(civilians[0], civilians[1])
        table.vote(civilians[1], civilians[0])
        table.vote(civilians[2], civilians[0])
        table.vote(civilians[3], civilians[1])
        table.vote(civilians[4], spy)
        table.vote(spy, civilians[4])
        XCTAssertEqual(table.game.pk.count, 2)
        let leaver = table.game.pk[0]
        table.ok(.leave(leaver))
        XCTAssertEqual(table.game.pk, [])
        XCTAssertEqual(table.game.round, 2)
        XCTAssertEqual(table.phase, .describing)
    }

    func testLobbyLeaveAndKickFreeTheSeat() throws {
        var table = Table(seed: 42)
        let ids = table.seat(3)
        XCTAssertEqual(table.ok(.leave(ids[0])).first, .removed(ids[0], reason: nil))
        XCTAssertEqual(table.room.ownerID, ids[1])
        XCTAssertTrue(table.ok(.move(ids[1], .kick(.init(player: ids[2])))).contains(.removed(ids[2], reason: .kicked)))
        XCTAssertEqual(table.room.playerIDs, [ids[1]])
        table.refused(.move(ids[1], .kick(.init(player: ids[1]))), .badTarget)
        table.ok(.leave(ids[1]))
        XCTAssertNil(table.room.ownerID)
        XCTAssertEqual(table.room.playerIDs, [])
        let again = table.seat(1)
        XCTAssertEqual(again, ["p4"], "ids are never reused")
        XCTAssertEqual(table.room.ownerID, "p4")
    }

    func testTheBlankResumingIsToldItIsTheBlankAgain() throws {
        var table = Table(seed: 43, settings: GameSettings(blank: true))
        table.seat(5)
        table.start()
        let blank = table.players(.blank)[0]
        table.ok(.disconnected(blank))
        let sent = table.ok(.connected(blank)).sent(to: blank)
        XCTAssertTrue(sent.contains(.deal(.init(game: 1, word: nil))))
        guard case .deal(let deal) = sent[1] else { return XCTFail("deal second") }
        XCTAssertTrue(deal.blank)
    }

    func testAPlayerVotedOutStillGetsTheirWordOnResumeButCannotAct() throws {
        var table = Table(seed: 44)
        let ids = table.seat(6)
        table.start()
        let civilian = table.players(.civilian).first { $0 != ids[0] }!
        table.voteOut(civilian)
        table.ok(.disconnected(civilian))
        let sent = table.ok(.connected(civilian)).sent(to: civilian)
        XCTAssertTrue(sent.contains(.deal(.init(game: 1, word: table.game.civilianWord))))
        table.refused(.move(civilian, .pass), .notPlaying)
    }

    func testAbsentBlankLosesTheGuessAfterTheDefault() throws {
        var table = Table(seed: 45, settings: GameSettings(blank: true, blankRule: .guess))
        table.seat(6)
        table.start()
        let blank = table.players(.blank)[0]
        table.voteOut(blank)
        XCTAssertEqual(table.phase, .guessing)
        XCTAssertNil(table.room.nextDeadline)
        table.ok(.disconnected(blank))
        XCTAssertEqual(table.room.nextDeadline, table.now + Rules.absentTurnMillis)
        table.ok(.connected(blank))
        XCTAssertEqual(table.room.nextDeadline, nil)
        table.ok(.disconnected(blank))
        table.advance(by: Rules.absentTurnMillis)
        table.ok(.tick)
        XCTAssertEqual(table.phase, .describing)
        XCTAssertNil(table.game.blankGuess)
    }

    func testTheGameWaitsForTheGuessBeforeJudgingADeparture() throws {
        var table = Table(seed: 46, settings: GameSettings(blank: true, blankRule: .guess))
        let ids = table.seat(5)
        table.start()
        let blank = table.players(.blank)[0]
        table.voteOut(blank)
        XCTAssertEqual(table.phase, .guessing)
        // The last spy leaving would end the game, but the blank still has the guess.
        let spy = table.players(.spy)[0]
        let owner = table.room.ownerID!
        if spy == owner {
            table.ok(.leave(spy))
        } else {
            table.ok(.move(owner, .kick(.init(player: spy))))
        }
        XCTAssertEqual(table.phase, .guessing)
        let over = try XCTUnwrap(table.ok(.move(blank, .guess(.init(word: table.game.civilianWord)))).gameOver)
        XCTAssertEqual(over.winner, .blank)
        XCTAssertEqual(over.reveal.count, ids.count)
    }

    func testTheGuessingBlankLeavingCountsAsAWrongGuess() throws {
        var table = Table(seed: 47, settings: GameSettings(blank: true, blankRule: .guess))
        table.seat(6)
        table.start()
        let blank = table.players(.blank)[0]
        table.voteOut(blank)
        table.ok(.leave(blank))
        XCTAssertEqual(table.phase, .describing)
        XCTAssertEqual(table.game.round, 2)
    }
}
