import Foundation
import SpyProtocol
import XCTest

@testable import SpyGame

/// Claims of away seats: who approves, what is refused, and how long a claim waits (on the test clock).
final class SeatClaimsTests: XCTestCase {
    /// Four people, the third away.
    private func tableWithAnAwaySeat() -> (Table, [PlayerID]) {
        var table = Table(seed: 71)
        let ids = table.seat(4)
        table.ok(.disconnected(ids[2]))
        return (table, ids)
    }

    func testTheOwnerApprovesAndAnAnswerEndsTheClaim() throws {
        let (table, ids) = tableWithAnAwaySeat()
        var claims = SeatClaims()
        let claim = try claims.open(seat: ids[2], name: " Cee ", claimer: 7, room: table.room, now: table.now).get()
        XCTAssertEqual(claim.approver, ids[0])
        XCTAssertEqual(claim.name, "Cee", "cleaned like any name")
        XCTAssertEqual(claim.expires, table.now + Rules.claimMillis)
        XCTAssertEqual(claims.nextDeadline, claim.expires)
        XCTAssertEqual(claims.answer(seat: ids[2], from: ids[1]).failureCode, .notAllowed, "only the one asked")
        XCTAssertEqual(try claims.answer(seat: ids[2], from: ids[0]).get(), claim)
        XCTAssertTrue(claims.isEmpty)
        XCTAssertEqual(claims.answer(seat: ids[2], from: ids[0]).failureCode, .notAllowed, "already answered")
    }

    func testWithoutATypedNameTheApproverSeesTheSeatsName() throws {
        let (table, ids) = tableWithAnAwaySeat()
        var claims = SeatClaims()
        XCTAssertEqual(try claims.open(seat: ids[2], name: "", claimer: 1, room: table.room, now: 0).get().name, "C")
    }

    func testTheOwnersOwnSeatIsApprovedByTheLongestSeatedConnectedPerson() throws {
        var table = Table(seed: 72)
        let ids = table.seat(4)
        table.ok(.disconnected(ids[1]))
        table.ok(.disconnected(ids[0]))
        var claims = SeatClaims()
        XCTAssertEqual(
            try claims.open(seat: ids[0], name: "A", claimer: 1, room: table.room, now: 0).get().approver, ids[2])
    }

    func testRefusals() {
        var (table, ids) = tableWithAnAwaySeat()
        table.ok(.join(name: "Bot 1", bot: true))
        let bot = table.room.playerIDs.last!
        var claims = SeatClaims()
        for seat in [ids[0], bot, "p99", ""] {
            XCTAssertEqual(
                claims.open(seat: seat, name: "x", claimer: 1, room: table.room, now: 0).failureCode, .claimInvalid,
                seat)
        }
        XCTAssertEqual(
            claims.open(seat: ids[2], name: "\u{202E}x", claimer: 1, room: table.room, now: 0).failureCode, .badName)
        XCTAssertNotNil(try? claims.open(seat: ids[2], name: "C", claimer: 1, room: table.room, now: 0).get())
        XCTAssertEqual(
            claims.open(seat: ids[2], name: "C", claimer: 2, room: table.room, now: 0).failureCode, .claimBusy)
        var alone = Table(seed: 73)
        let pair = alone.seat(2)
        alone.ok(.disconnected(pair[0]))
        alone.ok(.disconnected(pair[1]))
        var none = SeatClaims()
        XCTAssertEqual(
            none.open(seat: pair[0], name: "A", claimer: 1, room: alone.room, now: 0).failureCode, .claimUnavailable)
    }

    func testAClaimRunsOutAfterSixtySeconds() throws {
        let (table, ids) = tableWithAnAwaySeat()
        var claims = SeatClaims()
        let claim = try claims.open(seat: ids[2], name: "C", claimer: 1, room: table.room, now: table.now).get()
        XCTAssertEqual(claims.review(room: table.room, now: table.now + Rules.claimMillis - 1), [])
        XCTAssertEqual(claims.review(room: table.room, now: table.now + Rules.claimMillis), [.ended(claim, .expired)])
        XCTAssertTrue(claims.isEmpty)
        XCTAssertNil(claims.nextDeadline)
    }

    func testAClaimEndsWhenTheSeatIsNoLongerAway() throws {
        var (table, ids) = tableWithAnAwaySeat()
        var claims = SeatClaims()
        let claim = try claims.open(seat: ids[2], name: "C", claimer: 1, room: table.room, now: table.now).get()
        table.ok(.connected(ids[2]))
        XCTAssertEqual(claims.review(room: table.room, now: table.now), [.ended(claim, .seatTaken)])
        let again = claims.open(seat: ids[3], name: "D", claimer: 2, room: table.room, now: table.now)
        XCTAssertEqual(again.failureCode, .claimInvalid, "a connected seat cannot be claimed")
        table.ok(.disconnected(ids[3]))
        let kicked = try claims.open(seat: ids[3], name: "D", claimer: 2, room: table.room, now: table.now).get()
        table.ok(.move(ids[0], .kick(.init(player: ids[3]))))
        XCTAssertEqual(claims.review(room: table.room, now: table.now), [.ended(kicked, .seatTaken)])
    }

    func testWhenTheApproverLeavesTheClaimGoesToTheNext() throws {
        var (table, ids) = tableWithAnAwaySeat()
        var claims = SeatClaims()
        var claim = try claims.open(seat: ids[2], name: "C", claimer: 1, room: table.room, now: table.now).get()
        table.ok(.disconnected(ids[0]))
        claim.approver = ids[1]
        XCTAssertEqual(claims.review(room: table.room, now: table.now), [.asked(claim)])
        XCTAssertEqual(claims.answer(seat: ids[2], from: ids[0]).failureCode, .notAllowed)
        XCTAssertEqual(try claims.answer(seat: ids[2], from: ids[1]).get().seat, ids[2])
    }

    func testAWithdrawnClaimFreesTheSeatForAnother() throws {
        let (table, ids) = tableWithAnAwaySeat()
        var claims = SeatClaims()
        let claim = try claims.open(seat: ids[2], name: "C", claimer: 5, room: table.room, now: 0).get()
        XCTAssertNil(claims.withdraw(claimer: 6))
        XCTAssertEqual(claims.withdraw(claimer: 5), claim)
        XCTAssertNotNil(try? claims.open(seat: ids[2], name: "C", claimer: 6, room: table.room, now: 0).get())
    }

    func testANameThatClashesWithAnAwaySeatPointsAtIt() {
        var (table, ids) = tableWithAnAwaySeat()
        XCTAssertEqual(table.room.awaySeat(matchingName: " c "), ids[2])
        XCTAssertNil(table.room.awaySeat(matchingName: "A"), "a connected seat is not claimed by name")
        XCTAssertNil(table.room.awaySeat(matchingName: ""))
        XCTAssertNil(table.room.awaySeat(matchingName: "Zed"))
        table.ok(.leave(ids[2]))
        XCTAssertNil(table.room.awaySeat(matchingName: "C"))
    }
}

extension Result where Failure == Rejection {
    fileprivate var failureCode: ErrorCode? {
        if case .failure(let rejection) = self { return rejection.code }
        return nil
    }
}
