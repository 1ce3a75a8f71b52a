import Foundation
import SpyProtocol
import XCTest

@testable import SpyGame

/// A party on phones: an owner's lost phone never blocks the table, an away seat sits a new game out, and the game
/// waits for an away seat only once.
final class PartyRulesTests: XCTestCase {
    // MARK: Ownership

    func testOwnerAwayThirtySecondsInTheLobbyHandsTheRoomToTheLongestSeatedConnectedPerson() {
        var table = Table(seed: 81)
        let ids = table.seat(4)
        table.ok(.disconnected(ids[0]))
        XCTAssertEqual(table.room.nextDeadline, table.now + Rules.ownerAwayMillis)
        XCTAssertEqual(table.room.view(now: table.now).timerMs, nil, "the hand-over is not a game timer")
        table.advance(by: Rules.ownerAwayMillis - 1)
        XCTAssertTrue(table.ok(.tick).broadcasts.isEmpty, "not yet")
        XCTAssertEqual(table.room.ownerID, ids[0])
        table.advance(by: 1)
        let handed = table.ok(.tick)
        XCTAssertEqual(table.room.ownerID, ids[1])
        XCTAssertEqual(handed.broadcasts.first, .owner(.init(player: ids[1], previous: ids[0], reason: .away)))
        guard case .room(let view)? = handed.broadcasts.last else { return XCTFail("the snapshot comes last") }
        XCTAssertEqual(view.seats.first { $0.owner }?.id, ids[1])
        XCTAssertEqual(table.room.nextDeadline, nil)
        // The former owner comes back as a player.
        let back = table.ok(.connected(ids[0]))
        XCTAssertEqual(table.room.ownerID, ids[1])
        XCTAssertFalse(back.broadcasts.contains { if case .owner = $0 { return true } else { return false } })
    }

    func testTheHeirIsNeverABotNorAnAwayPerson() {
        var table = Table(seed: 82)
        let owner = table.seat(1)[0]
        table.ok(.join(name: "Bot 1", bot: true))
        let ids = ["X", "Y", "Z"].map { name in
            table.ok(.join(name: name, bot: false)).compactMap { if case .joined(let id) = $0 { id } else { nil } }[0]
        }
        table.ok(.disconnected(ids[1]))
        table.ok(.disconnected(owner))
        table.advance(by: Rules.ownerAwayMillis)
        table.ok(.tick)
        // Seat order: owner, bot, X, Y (away), Z: the heir is X.
        XCTAssertEqual(table.room.ownerID, ids[0])
    }

    func testWithNobodyToTakeOverTheFirstPersonBackTakesTheRoom() {
        var table = Table(seed: 83)
        let ids = table.seat(2)
        table.ok(.disconnected(ids[1]))
        table.ok(.disconnected(ids[0]))
        XCTAssertNil(table.room.nextDeadline, "nobody could take over")
        table.advance(by: Rules.ownerAwayMillis + 5_000)
        let back = table.ok(.connected(ids[1]))
        XCTAssertEqual(table.room.ownerID, ids[1])
        XCTAssertTrue(back.broadcasts.contains(.owner(.init(player: ids[1], previous: ids[0], reason: .away))))
    }

    func testOwnershipDoesNotMoveForAbsenceDuringAGameButAtItsEnd() throws {
        var table = Table(seed: 84)
        let ids = table.seat(5)
        table.start()
        let spy = try XCTUnwrap(table.players(.spy).first)
        XCTAssertNotEqual(spy, ids[0], "this seed deals the spy word to someone else than the owner")
        table.ok(.disconnected(ids[0]))
        table.advance(by: Rules.ownerAwayMillis * 2)
        if table.room.nextDeadline.map({ $0 <= table.now }) == true { table.ok(.tick) }
        XCTAssertEqual(table.room.ownerID, ids[0], "no hand-over during the game")
        // The spy gives up: the civilians win, and the owner, away for a minute, hands over at game over.
        let ended = table.ok(.leave(spy))
        XCTAssertEqual(table.phase, .gameOver)
        XCTAssertEqual(table.room.ownerID, ids[1])
        let broadcasts = ended.broadcasts
        let ownerIndex = try XCTUnwrap(
            broadcasts.firstIndex(of: .owner(.init(player: ids[1], previous: ids[0], reason: .away))))
        let overIndex = try XCTUnwrap(broadcasts.firstIndex { if case .gameOver = $0 { true } else { false } })
        XCTAssertLessThan(overIndex, ownerIndex)
    }

    func testAnOwnerWhoLeavesIsAnnounced() {
        var table = Table(seed: 85)
        let ids = table.seat(3)
        let effects = table.ok(.leave(ids[0]))
        XCTAssertEqual(table.room.ownerID, ids[1])
        let broadcasts = effects.broadcasts
        XCTAssertEqual(broadcasts.count, 2)
        XCTAssertEqual(broadcasts.first, .owner(.init(player: ids[1], previous: ids[0], reason: .left)))
    }

    // MARK: Sitting out

    func testASeatAwayAtTheDealSitsTheGameOutAndPlaysTheNextOne() throws {
        var table = Table(seed: 86)
        let ids = table.seat(5)
        table.ok(.disconnected(ids[4]))
        let dealt = table.start()
        XCTAssertEqual(table.game.dealt, Array(ids.prefix(4)))
        XCTAssertTrue(dealt.sent(to: ids[4]).isEmpty, "no word for a seat sitting out")
        let seat = try XCTUnwrap(table.room.view(now: table.now).seats.first { $0.id == ids[4] })
        XCTAssertEqual(seat.sittingOut, true)
        XCTAssertNil(table.room.view(now: table.now).seats.first { $0.id == ids[0] }?.sittingOut)
        // Coming back mid-game: seated, but still no word, turn or ballot.
        let back = table.ok(.connected(ids[4]))
        XCTAssertFalse(back.sent(to: ids[4]).contains { if case .deal = $0 { return true } else { return false } })
        table.describeAll()
        XCTAssertFalse(table.game.voters.contains(ids[4]))
        table.refused(.move(ids[4], .vote(.init(target: ids[0]))), .notPlaying)
        // Play to the end: spies out.
        while table.phase != .gameOver {
            let spy = try XCTUnwrap(table.players(.spy).first { table.game.isIn($0) })
            if table.phase == .describing { table.describeAll() }
            _ = table.everyoneVotes(for: spy)
        }
        XCTAssertEqual(table.room.view(now: table.now).seats.first { $0.id == ids[4] }?.sittingOut, true)
        let next = table.start()
        XCTAssertTrue(table.game.dealt.contains(ids[4]))
        XCTAssertEqual(next.sent(to: ids[4]).count, 1)
        XCTAssertNil(table.room.view(now: table.now).seats.first { $0.id == ids[4] }?.sittingOut)
    }

    func testOnlyDealtPlayersCountForTheTableSize() {
        var table = Table(seed: 87)
        let ids = table.seat(4)
        table.ok(.disconnected(ids[3]))
        table.refused(.start(by: ids[0], pairs: [Table.pair]), .tooFewPlayers)
    }

    func testTheOwnerCanKickASeatSittingOut() {
        var table = Table(seed: 88)
        let ids = table.seat(5)
        table.ok(.disconnected(ids[4]))
        table.start()
        let kicked = table.ok(.move(ids[0], .kick(.init(player: ids[4]))))
        XCTAssertTrue(kicked.contains(.removed(ids[4], reason: .kicked)))
        XCTAssertFalse(table.room.playerIDs.contains(ids[4]))
        XCTAssertEqual(table.phase, .describing, "the game goes on: the seat was never in it")
    }

    // MARK: Waiting once

    func testAnAwaySpeakerIsWaitedForOnceThenTheirTurnsPassAtOnce() throws {
        var table = Table(seed: 89)
        let ids = table.seat(5)
        table.start()
        let away = try XCTUnwrap(table.game.speakers.dropFirst().first)
        table.ok(.disconnected(away))
        while table.speaker != away { table.ok(.move(try XCTUnwrap(table.speaker), .pass)) }
        XCTAssertEqual(table.room.nextDeadline, table.now + Rules.absentTurnMillis, "the first wait")
        table.advance(by: Rules.absentTurnMillis)
        table.ok(.tick)
        table.describeAll()
        // A civilian other than the away player goes out: four are left, so round 2 follows.
        let target = try XCTUnwrap(ids.first { $0 != away && table.role($0) == .civilian })
        var effects = table.everyoneVotes(for: target)
        XCTAssertEqual(table.phase, .describing)
        XCTAssertEqual(table.game.round, 2)
        while let speaker = table.speaker {
            XCTAssertNotEqual(speaker, away, "never waited for again")
            effects += table.ok(.move(speaker, .pass))
        }
        XCTAssertTrue(effects.broadcasts.contains(.clue(ClueView(player: away, round: 2))), "passed at once")
    }

    func testAnAwayVoterAbstainsAtOnceAfterTheFirstVoteClosedWithoutThem() throws {
        var table = Table(seed: 90, settings: GameSettings(maxPlayers: 8, voteSeconds: 60))
        let ids = table.seat(6)
        table.start()
        let away = ids[5]
        table.ok(.disconnected(away))
        table.describeAll()
        let spy = try XCTUnwrap(table.players(.spy).first)
        let target = try XCTUnwrap(ids.first { $0 != away && $0 != spy && table.role($0) == .civilian })
        for voter in table.game.voters where voter != away && table.phase == .voting {
            table.vote(voter, voter == target ? spy : target)
        }
        XCTAssertEqual(table.phase, .voting, "the first vote waits for the away voter until the vote timer")
        table.advance(by: 60_000)
        table.ok(.tick)
        XCTAssertEqual(table.phase, .describing, "a civilian went out; five are left")
        table.describeAll()
        let voters = table.game.voters.filter { $0 != away }
        for voter in voters where table.phase == .voting {
            table.vote(voter, voter == spy ? voters.first { $0 != spy }! : spy)
        }
        XCTAssertNotEqual(table.phase, .voting, "the away voter abstains at once")
    }

    func testResumingResetsTheWait() throws {
        var table = Table(seed: 91)
        let ids = table.seat(5)
        table.start()
        let away = try XCTUnwrap(table.game.speakers.dropFirst().first)
        table.ok(.disconnected(away))
        while table.speaker != away { table.ok(.move(try XCTUnwrap(table.speaker), .pass)) }
        table.advance(by: Rules.absentTurnMillis)
        table.ok(.tick)
        XCTAssertTrue(table.room.isPassedOver(away))
        table.ok(.connected(away))
        table.ok(.disconnected(away))
        XCTAssertFalse(table.room.isPassedOver(away), "waited for once more after coming back")
        XCTAssertEqual(ids.count, 5)
    }

    func testWithNobodyStillInConnectedEveryTurnIsWaitedFor() throws {
        var table = Table(seed: 92)
        let ids = table.seat(5)
        table.start()
        for id in ids { table.ok(.disconnected(id)) }
        let first = try XCTUnwrap(table.speaker)
        table.advance(by: Rules.absentTurnMillis)
        table.ok(.tick)
        XCTAssertFalse(table.room.isPassedOver(first), "a game with nobody here does not run on by itself")
        XCTAssertNotNil(table.room.nextDeadline)
    }
}
