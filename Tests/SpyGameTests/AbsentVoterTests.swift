import Foundation
import SpyProtocol
import XCTest

@testable import SpyGame

/// Votes while voters are away: a host restart or everyone dropping at once never decides a vote, and a player who
/// comes back learns where the vote stands or how it ended.
final class AbsentVoterTests: XCTestCase {
    /// Five players at the vote, two ballots in.
    private func voteWithTwoBallots(seed: UInt64, settings: GameSettings = GameSettings()) -> (Table, [PlayerID]) {
        var table = Table(seed: seed, settings: settings)
        let ids = table.seat(5)
        table.start()
        table.describeAll()
        XCTAssertEqual(table.phase, .voting)
        table.vote(ids[0], ids[2])
        table.vote(ids[1], ids[2])
        return (table, ids)
    }

    func testARestartMidVoteWithTwoOfFiveBallotsDecidesNothing() throws {
        var (table, ids) = voteWithTwoBallots(seed: 51)
        let restarted = table.ok(.hostRestarted)
        XCTAssertEqual(restarted.voteResults, [], "the vote must not close on the ballots of players reconnecting")
        XCTAssertEqual(table.phase, .voting)
        XCTAssertTrue(table.room.view(now: table.now).seats.allSatisfy { !$0.connected })
        XCTAssertEqual(table.room.nextDeadline, table.now + Rules.absentTurnMillis)
        table.advance(by: Rules.absentTurnMillis - 1)
        XCTAssertEqual(table.ok(.tick).voteResults, [])
        XCTAssertEqual(table.phase, .voting)
        // The voters who had voted come back and see their own ballot; the vote is still waiting for the others.
        let back = table.ok(.connected(ids[0])).sent(to: ids[0])
        guard case .voting(let voting) = back.first(where: { if case .voting = $0 { true } else { false } }) else {
            return XCTFail("voting expected on resume, got \(back)")
        }
        XCTAssertEqual(voting.ballot, ids[2])
        XCTAssertTrue(back.contains(.voteProgress(.init(voted: [ids[0], ids[1]], waiting: Array(ids[2...])))))
    }

    func testTheFirstPlayerBackVotingAloneDoesNotCloseTheVote() throws {
        var (table, ids) = voteWithTwoBallots(seed: 52)
        table.ok(.hostRestarted)
        table.advance(by: 5_000)
        table.ok(.connected(ids[3]))
        let alone = table.ok(.move(ids[3], .vote(.init(target: ids[2]))))
        XCTAssertEqual(alone.voteResults, [], "the only connected voter must not decide the vote")
        XCTAssertEqual(
            alone.broadcasts.last, .voteProgress(.init(voted: [ids[0], ids[1], ids[3]], waiting: [ids[2], ids[4]])))
        // The others are waited for 20 s from when the host came back, then abstain.
        table.advance(by: Rules.absentTurnMillis - 5_000)
        let closed = try XCTUnwrap(table.ok(.tick).voteResults.first)
        XCTAssertEqual(closed.abstained, [ids[2], ids[4]])
        XCTAssertEqual(closed.tally, [TallyEntry(player: ids[2], voters: [ids[0], ids[1], ids[3]])])
        // A player who was away when the vote closed gets its result on resume, once.
        let resumed = table.ok(.connected(ids[4])).sent(to: ids[4])
        XCTAssertTrue(resumed.contains(.voteResult(closed)), "\(resumed)")
        table.ok(.disconnected(ids[4]))
        XCTAssertFalse(table.ok(.connected(ids[4])).sent(to: ids[4]).contains(.voteResult(closed)))
        // The one who saw it live is not told twice.
        XCTAssertFalse(table.ok(.disconnected(ids[3])).isEmpty)
        XCTAssertFalse(table.ok(.connected(ids[3])).sent(to: ids[3]).contains(.voteResult(closed)))
    }

    func testEveryoneDroppingAtOnceLeavesTheVoteOpenForTheAbsentWindow() throws {
        var (table, ids) = voteWithTwoBallots(seed: 53)
        for id in ids { XCTAssertEqual(table.ok(.disconnected(id)).voteResults, []) }
        XCTAssertEqual(table.phase, .voting)
        table.advance(by: 1_000)
        table.ok(.connected(ids[4]))
        table.vote(ids[4], ids[2])
        XCTAssertEqual(table.phase, .voting)
        table.advance(by: Rules.absentTurnMillis)
        let closed = try XCTUnwrap(table.ok(.tick).voteResults.first)
        XCTAssertEqual(closed.abstained, [ids[2], ids[3]])
    }

    func testAnAwayVoterPastTheWindowIsListedAsAbstainingUntilTheyComeBack() throws {
        var (table, ids) = voteWithTwoBallots(seed: 54)
        table.ok(.disconnected(ids[4]))
        let waiting = ServerMessage.VoteProgress(voted: [ids[0], ids[1]], waiting: [ids[2], ids[3], ids[4]])
        table.advance(by: Rules.absentTurnMillis)
        // The connected voters have not voted: the vote goes on, and says it no longer waits for the away one.
        let tick = table.ok(.tick)
        XCTAssertEqual(tick.voteResults, [])
        XCTAssertEqual(
            tick.broadcasts.first,
            .voteProgress(.init(voted: [ids[0], ids[1]], waiting: [ids[2], ids[3]], abstaining: [ids[4]])))
        XCTAssertNil(table.room.nextDeadline)
        // Back before the vote closes: waited for again.
        let back = table.ok(.connected(ids[4]))
        XCTAssertTrue(back.broadcasts.contains(.voteProgress(waiting)))
        table.vote(ids[2], ids[3])
        table.vote(ids[3], ids[2])
        XCTAssertEqual(table.phase, .voting)
        let result = try XCTUnwrap(table.everyoneVotes(for: ids[2]).voteResults.first)
        XCTAssertEqual(result.abstained, [])
    }

    /// The vote progress messages `player` receives from `effects`: those sent to them and those sent to all.
    private func progress(heardBy player: PlayerID, in effects: [RoomEffect]) -> [ServerMessage.VoteProgress] {
        effects.compactMap { effect in
            switch effect {
            case .send(player, .voteProgress(let progress)), .broadcast(.voteProgress(let progress)): return progress
            default: return nil
            }
        }
    }

    func testTheLastAwaitedVoterAbstainingIsAnnouncedBeforeTheVoteCloses() throws {
        var (table, ids) = voteWithTwoBallots(seed: 55)
        table.vote(ids[2], ids[1])
        table.ok(.disconnected(ids[3]))
        table.advance(by: 5_000)
        table.ok(.disconnected(ids[4]))
        table.advance(by: Rules.absentTurnMillis - 5_000)
        let first = table.ok(.tick)
        XCTAssertEqual(
            first.broadcasts.first,
            .voteProgress(.init(voted: Array(ids[..<3]), waiting: [ids[4]], abstaining: [ids[3]])))
        table.advance(by: 5_000)
        let last = table.ok(.tick).broadcasts
        XCTAssertEqual(
            last.first, .voteProgress(.init(voted: Array(ids[..<3]), waiting: [], abstaining: [ids[3], ids[4]])))
        guard last.count > 1, case .voteResult(let result) = last[1] else {
            return XCTFail("the vote result follows the progress: \(last)")
        }
        XCTAssertEqual(result.abstained, [ids[3], ids[4]])
    }

    func testAVoteOpeningWithAVoterNoLongerWaitedForSaysSoAtOnce() throws {
        var table = Table(seed: 56)
        let ids = table.seat(5)
        table.start()
        let away = ids[4]
        table.ok(.disconnected(away))
        var opening: [RoomEffect] = []
        while table.phase == .describing, let speaker = table.speaker {
            if speaker == away {
                table.advance(by: Rules.absentTurnMillis)
                opening = table.ok(.tick)
            } else {
                opening = table.ok(.move(speaker, .pass))
            }
        }
        XCTAssertEqual(table.phase, .voting)
        let broadcasts = opening.broadcasts
        let voting = try XCTUnwrap(broadcasts.firstIndex { $0.type == "voting" })
        XCTAssertEqual(
            broadcasts[voting + 1],
            .voteProgress(.init(voted: [], waiting: ids.filter { $0 != away }, abstaining: [away])))
        // A vote whose voters are all waited for opens with `voting` alone.
        table.ok(.connected(away))
        let civilian = try XCTUnwrap(table.players(.civilian).first { $0 != away })
        _ = table.everyoneVotes(for: civilian)
        XCTAssertEqual(table.phase, .describing)
        while table.phase == .describing, let speaker = table.speaker { opening = table.ok(.move(speaker, .pass)) }
        XCTAssertEqual(opening.broadcasts.map(\.type), ["clue", "voting", "room"])
    }

    func testAReturningVoterHearsTheVoteProgressOnce() throws {
        var (table, ids) = voteWithTwoBallots(seed: 57)
        // Back within the absent window: the catch-up says where the vote stands, and nothing else does.
        table.ok(.disconnected(ids[3]))
        table.advance(by: 1_000)
        let soon = table.ok(.connected(ids[3]))
        XCTAssertEqual(progress(heardBy: ids[3], in: soon).count, 1)
        XCTAssertTrue(soon.sent(to: ids[3]).contains { $0.type == "vote_progress" })
        // Back after it: everyone hears the voter is waited for again, the voter once, with everyone else.
        table.ok(.disconnected(ids[4]))
        table.advance(by: Rules.absentTurnMillis)
        table.ok(.tick)
        let late = table.ok(.connected(ids[4]))
        let heard = progress(heardBy: ids[4], in: late)
        XCTAssertEqual(heard, [.init(voted: [ids[0], ids[1]], waiting: Array(ids[2...]))])
        XCTAssertFalse(late.sent(to: ids[4]).contains { $0.type == "vote_progress" })
        XCTAssertTrue(late.sent(to: ids[4]).contains { $0.type == "voting" })
    }

    func testWithAVoteTimerTheTimerDecidesAndARestartGivesTheAbsentWindow() throws {
        var (table, ids) = voteWithTwoBallots(seed: 55, settings: GameSettings(voteSeconds: 30))
        let opened = try XCTUnwrap(table.room.nextDeadline)
        for id in ids.dropFirst(2) { table.ok(.disconnected(id)) }
        table.advance(by: Rules.absentTurnMillis + 1)
        XCTAssertEqual(table.ok(.tick).voteResults, [], "the vote timer, not the absent window, decides")
        XCTAssertEqual(table.room.nextDeadline, opened)
        // The host was down past the vote timer: on restart the vote still waits the absent window.
        table.advance(by: 60_000)
        table.ok(.hostRestarted)
        XCTAssertEqual(table.room.nextDeadline, table.now + Rules.absentTurnMillis)
        XCTAssertEqual(table.ok(.tick).voteResults, [])
        table.advance(by: Rules.absentTurnMillis)
        XCTAssertEqual(try XCTUnwrap(table.ok(.tick).voteResults.first).abstained, Array(ids[2...]))
    }

    func testARestartGivesAnAbsentSpeakerTheAbsentWindowFromTheHostsReturn() throws {
        var table = Table(seed: 56, settings: GameSettings(turnSeconds: 10))
        table.seat(5)
        table.start()
        let speaker = try XCTUnwrap(table.speaker)
        table.advance(by: 60_000)
        table.ok(.hostRestarted)
        XCTAssertEqual(table.room.nextDeadline, table.now + Rules.absentTurnMillis)
        XCTAssertEqual(table.ok(.tick).turns, [])
        XCTAssertEqual(table.speaker, speaker)
    }

    func testAVoteResultMissedAtTheEndOfTheGameComesBeforeGameOver() throws {
        var table = Table(seed: 57)
        let ids = table.seat(4)
        table.start()
        table.describeAll()
        let spy = table.players(.spy)[0]
        let away = try XCTUnwrap(ids.first { $0 != spy })
        table.ok(.disconnected(away))
        for voter in ids where voter != away { table.vote(voter, voter == spy ? away : spy) }
        table.advance(by: Rules.absentTurnMillis)
        let closing = table.ok(.tick)
        let result = try XCTUnwrap(closing.voteResults.first)
        let over = try XCTUnwrap(closing.gameOver)
        let sent = table.ok(.connected(away)).sent(to: away)
        XCTAssertEqual(
            Array(sent.suffix(3)), [.voteResult(result), .gameOver(over), .history(.init(games: table.room.records))])
    }
}

/// Only a person owns a room.
final class OwnershipTests: XCTestCase {
    func testOwnershipNeverPassesToABotAndTheNextPersonToJoinOwnsTheRoom() {
        var table = Table()
        let person = table.seat(1)[0]
        for number in 1...3 { table.ok(.join(name: "Bot \(number)", bot: true)) }
        table.ok(.leave(person))
        XCTAssertNil(table.room.ownerID, "a bot must not own the room")
        let newcomer = table.ok(.join(name: "Late", bot: false))
        XCTAssertEqual(table.room.ownerID, "p5")
        XCTAssertTrue(newcomer.contains(.joined("p5")))
        table.ok(.start(by: "p5", pairs: [Table.pair]))
        XCTAssertEqual(table.phase, .describing)
    }

    func testOwnershipSkipsBotsToTheNextPerson() {
        var table = Table()
        let first = table.seat(1)[0]
        table.ok(.join(name: "Bot 1", bot: true))
        table.ok(.join(name: "Second", bot: false))
        table.ok(.leave(first))
        XCTAssertEqual(table.room.ownerID, "p3")
    }

    func testABotOwnerInAStateFileIsRepairedOnRestart() throws {
        var table = Table()
        let person = table.seat(1)[0]
        table.ok(.join(name: "Bot 1", bot: true))
        // A state file written by an older host that let a bot own the room.
        var json = try XCTUnwrap(
            JSONSerialization.jsonObject(with: JSONEncoder().encode(table.room)) as? [String: Any])
        json["owner"] = "p2"
        table.room = try JSONDecoder().decode(Room.self, from: JSONSerialization.data(withJSONObject: json))
        XCTAssertEqual(table.room.ownerID, "p2")
        table.ok(.hostRestarted)
        XCTAssertEqual(table.room.ownerID, person)
        // With no person seated the room waits, ownerless, for the next person.
        table.ok(.leave(person))
        table.room = try JSONDecoder().decode(
            Room.self,
            from: JSONSerialization.data(
                withJSONObject: (JSONSerialization.jsonObject(with: JSONEncoder().encode(table.room)) as? [String: Any]
                    ?? [:]).merging(["owner": "p2"]) { $1 }))
        table.ok(.hostRestarted)
        XCTAssertNil(table.room.ownerID)
        table.ok(.join(name: "Next", bot: false))
        XCTAssertEqual(table.room.ownerID, "p3")
    }
}
