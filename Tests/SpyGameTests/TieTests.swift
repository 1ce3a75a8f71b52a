import Foundation
import SpyProtocol
import XCTest

@testable import SpyGame

/// Ties under each tie rule, including a second tie in a PK.
final class TieTests: XCTestCase {
    private func twoWayTie(_ rule: TieRule, seed: UInt64 = 21) -> (
        table: Table, tied: [PlayerID], result: ServerMessage.VoteResult
    ) {
        var table = Table(seed: seed, settings: GameSettings(tieRule: rule))
        table.seat(6)
        table.start()
        table.describeAll()
        let civilians = table.players(.civilian)
        let spy = table.players(.spy)[0]
        let (x, y) = (civilians[0], civilians[1])
        table.vote(x, y)
        table.vote(y, x)
        table.vote(civilians[2], x)
        table.vote(civilians[3], y)
        table.vote(civilians[4], spy)
        let effects = table.ok(.move(spy, .vote(.init(target: civilians[4]))))
        let result = effects.voteResults.first!
        return (table, [x, y].sortedBySeat(table), result)
    }

    func testPKLetsTheTiedDescribeAgainThenOthersVoteAmongThem() throws {
        var (table, tied, result) = twoWayTie(.pk)
        XCTAssertEqual(result.outcome, .pk)
        XCTAssertEqual(Set(result.tied), Set(tied))
        XCTAssertNil(result.out)
        XCTAssertEqual(table.phase, .describing)
        XCTAssertEqual(table.game.round, 1, "a PK belongs to the same round")
        XCTAssertEqual(Set(table.room.view(now: table.now).pk), Set(tied))
        var speakers: [PlayerID] = []
        while let speaker = table.speaker {
            XCTAssertTrue(table.room.view(now: table.now).turn == speaker)
            let effects = table.ok(.move(speaker, .pass))
            speakers.append(speaker)
            if table.phase == .describing { XCTAssertEqual(effects.turns.last?.pk, true) }
        }
        XCTAssertEqual(Set(speakers), Set(tied))
        XCTAssertEqual(table.phase, .voting)
        XCTAssertEqual(Set(table.game.candidates), Set(tied))
        XCTAssertEqual(Set(table.game.voters), Set(table.alive).subtracting(tied))
        let outsider = table.game.voters[0]
        table.refused(.move(tied[0], .vote(.init(target: tied[1]))), .notPlaying)
        let other = table.alive.first { !tied.contains($0) && $0 != outsider }!
        table.refused(.move(outsider, .vote(.init(target: other))), .badTarget)
        let effects = table.everyoneVotes(for: tied[1])
        XCTAssertEqual(effects.voteResults.first?.out, tied[1])
        XCTAssertEqual(table.game.round, 2)
        XCTAssertEqual(table.room.view(now: table.now).pk, [])
    }

    func testSecondTieInAPKSendsNobodyOut() throws {
        var (table, tied, _) = twoWayTie(.pk)
        table.describeAll()
        let voters = table.game.voters
        XCTAssertEqual(voters.count, 4)
        table.vote(voters[0], tied[0])
        table.vote(voters[1], tied[0])
        table.vote(voters[2], tied[1])
        let result = try XCTUnwrap(table.ok(.move(voters[3], .vote(.init(target: tied[1])))).voteResults.first)
        XCTAssertEqual(result.outcome, .nobody)
        XCTAssertEqual(Set(result.tied), Set(tied))
        XCTAssertNil(result.out)
        XCTAssertEqual(table.alive.count, 6)
        XCTAssertEqual(table.game.round, 2)
        XCTAssertEqual(table.phase, .describing)
    }

    func testNobodyRuleSendsNobodyOut() {
        let (table, tied, result) = twoWayTie(.nobody)
        XCTAssertEqual(result.outcome, .nobody)
        XCTAssertEqual(Set(result.tied), Set(tied))
        XCTAssertEqual(table.alive.count, 6)
        XCTAssertEqual(table.game.round, 2)
    }

    func testRandomRuleSendsOneOfTheTiedOutAndBothCanBeDrawn() {
        var drawn: Set<Int> = []
        for seed in 30..<60 as Range<UInt64> {
            let (table, tied, result) = twoWayTie(.random, seed: seed)
            XCTAssertEqual(result.outcome, .out)
            let out = try! XCTUnwrap(result.out)
            XCTAssertTrue(tied.contains(out))
            XCTAssertEqual(Set(result.tied), Set(tied))
            XCTAssertFalse(table.game.isIn(out))
            drawn.insert(tied.firstIndex(of: out)!)
        }
        XCTAssertEqual(drawn, [0, 1])
    }

    func testWhenEveryoneIsTiedEveryoneVotesInThePK() throws {
        var table = Table(seed: 22)
        let ids = table.seat(4)
        table.start()
        table.describeAll()
        // A ring of votes: one each.
        for (index, voter) in ids.enumerated() { table.vote(voter, ids[(index + 1) % ids.count]) }
        XCTAssertEqual(table.phase, .describing)
        XCTAssertEqual(Set(table.game.pk), Set(ids))
        table.describeAll()
        XCTAssertEqual(Set(table.game.voters), Set(ids))
        table.refused(.move(ids[0], .vote(.init(target: ids[0]))), .selfVote)
    }

    func testNoBallotsAtAllSendsNobodyOut() throws {
        var table = Table(seed: 23, settings: GameSettings(voteSeconds: 10))
        table.seat(4)
        table.start()
        table.describeAll()
        table.advance(by: 10_000)
        let result = try XCTUnwrap(table.ok(.tick).voteResults.first)
        XCTAssertEqual(result.outcome, .nobody)
        XCTAssertEqual(result.tied, [])
        XCTAssertEqual(result.tally, [])
        XCTAssertEqual(result.abstained.count, 4)
    }
}
