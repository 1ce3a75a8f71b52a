import Foundation
import SpyProtocol
import XCTest

@testable import SpyGame

/// Places where docs/PROTOCOL.md says exactly what the rules engine does where a client could guess otherwise: each
/// test checks the sentence is in the document and the engine does what it says.
final class DocumentedRulesTests: XCTestCase {
    private func expectDocumentSays(_ sentence: String, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertTrue(try ProtocolDocument.says(sentence), "PROTOCOL.md says: \(sentence)", file: file, line: line)
    }

    private func seat(_ player: PlayerID, in table: Table) -> SeatView? {
        table.room.view(now: table.now).seats.first { $0.id == player }
    }

    /// A seat away at the deal shows `sittingOut` through that game's game over, resumed or not, until the next deal.
    func testSittingOutLastsUntilTheNextDeal() throws {
        try expectDocumentSays(
            "its seat shows `sittingOut: true` from that deal until the next one, so also in the game-over snapshot")
        try expectDocumentSays(
            "It stays on through that game's game over (a resumed seat too) and goes at the next deal")
        var table = Table(seed: 86)
        let ids = table.seat(5)
        table.ok(.disconnected(ids[4]))
        table.start()
        table.ok(.connected(ids[4]))
        while table.phase != .gameOver {
            let spy = try XCTUnwrap(table.players(.spy).first { table.game.isIn($0) })
            if table.phase == .describing { table.describeAll() }
            _ = table.everyoneVotes(for: spy)
        }
        XCTAssertEqual(seat(ids[4], in: table)?.sittingOut, true)
        XCTAssertEqual(seat(ids[4], in: table)?.connected, true)
        table.start()
        XCTAssertNil(seat(ids[4], in: table)?.sittingOut)
    }

    /// A speaker dropping mid-turn is told in one snapshot that carries the 20 s; no second `turn`.
    func testASpeakerDroppingMidTurnIsOneSnapshotWithTheAbsentTimer() throws {
        try expectDocumentSays("A player's turn to describe begins: one `turn` per turn.")
        try expectDocumentSays(
            "show only in the `room` snapshot that shows them away (`timerMs`, `timerKind: \"absent\"`)")
        var table = Table(seed: 31)
        table.seat(5)
        table.start()
        let speaker = try XCTUnwrap(table.speaker)
        let dropped = table.ok(.disconnected(speaker)).broadcasts
        XCTAssertEqual(dropped.count, 1)
        guard case .room(let view) = dropped.first else { return XCTFail("one room snapshot, got \(dropped)") }
        XCTAssertEqual(view.turn, speaker)
        XCTAssertEqual(view.timerMs, Int(Rules.absentTurnMillis))
        XCTAssertEqual(view.timerKind, .absent)
        XCTAssertEqual(view.seats.first { $0.id == speaker }?.connected, false)
        table.advance(by: 3_000)
        let back = table.ok(.connected(speaker)).broadcasts
        XCTAssertEqual(back.count, 1)
        guard case .room(let after) = back.first else { return XCTFail("one room snapshot, got \(back)") }
        XCTAssertNil(after.timerMs)
        XCTAssertNil(after.timerKind)
    }

    /// The seat of a player who left during the game is marked `left`, unlike a voted-out player who dropped.
    func testASeatThatLeftIsShownAsLeft() throws {
        try expectDocumentSays(
            "| `left` | boolean | no | `true` for the seat of a player who left or was kicked during the game shown")
        var table = Table(seed: 51)
        let ids = table.seat(6)
        table.start()
        let out = try XCTUnwrap(table.players(.civilian).first { $0 != ids[0] })
        table.voteOut(out)
        table.ok(.disconnected(out))
        let leaver = try XCTUnwrap(table.players(.civilian).first { $0 != ids[0] && table.game.isIn($0) })
        table.ok(.leave(leaver))
        XCTAssertNil(seat(out, in: table)?.left)
        XCTAssertEqual(seat(out, in: table)?.connected, false)
        XCTAssertEqual(seat(leaver, in: table)?.left, true)
        XCTAssertEqual(seat(leaver, in: table)?.alive, false)
        XCTAssertNotNil(seat(leaver, in: table)?.revealed)
        XCTAssertTrue(table.room.view(now: table.now).seats.filter { $0.id != leaver }.allSatisfy { $0.left == nil })
        // It lasts through the game over and goes with the seat at the next deal.
        while table.phase != .gameOver {
            let spy = try XCTUnwrap(table.players(.spy).first { table.game.isIn($0) })
            if table.phase == .describing { table.describeAll() }
            _ = table.everyoneVotes(for: spy)
        }
        XCTAssertEqual(seat(leaver, in: table)?.left, true)
        table.start()
        XCTAssertNil(seat(leaver, in: table))
    }

    /// `owner` names two people: a room's first owner and a room left without a person show in the snapshot only.
    func testOwnerIsAnnouncedForEveryHandOverBetweenPeopleAndOnlyThen() throws {
        try expectDocumentSays("so `owner` always names two people.")
        var table = Table(seed: 85)
        let first = table.ok(.join(name: "Ann", bot: false))
        XCTAssertFalse(first.broadcasts.contains { $0.type == "owner" })
        XCTAssertEqual(table.room.ownerID, "p1")
        table.ok(.join(name: "Bot", bot: true))
        table.ok(.join(name: "Ben", bot: false))
        let handOver = table.ok(.leave("p1")).broadcasts
        XCTAssertEqual(
            handOver.filter { $0.type == "owner" }, [.owner(.init(player: "p3", previous: "p1", reason: .left))])
        let last = table.ok(.leave("p3")).broadcasts
        XCTAssertNil(table.room.ownerID)
        XCTAssertFalse(last.contains { $0.type == "owner" })
        let joined = table.ok(.join(name: "Cy", bot: false)).broadcasts
        XCTAssertEqual(table.room.ownerID, "p4")
        XCTAssertFalse(joined.contains { $0.type == "owner" })
    }

    /// When every player still in is tied, the PK's candidates come in the order they spoke, not in seat order.
    func testAnAllTiedPKListsItsCandidatesInSpeakingOrder() throws {
        try expectDocumentSays(
            "in a PK the tied players in the order they described in it, which is the order they spoke in the round")
        try expectDocumentSays("| `voters` | array of strings | yes | Who may vote, in seat order")
        for seed in UInt64(1)...40 {
            var table = Table(seed: seed)
            let ids = table.seat(4)
            table.start()
            let order = table.game.speakers
            guard order != ids else { continue }
            table.describeAll()
            // Each votes for the next in seat order: one vote each, all four tied.
            for (index, voter) in ids.enumerated() { table.vote(voter, ids[(index + 1) % ids.count]) }
            XCTAssertEqual(table.room.view(now: table.now).pk, order)
            table.describeAll()
            XCTAssertEqual(table.game.candidates, order)
            XCTAssertEqual(table.game.voters, ids, "voters stay in seat order")
            return
        }
        XCTFail("no seed opened with someone other than the first seat")
    }

    /// Categories are kept as the owner spelled them (trimmed), not in the bank's spelling.
    func testCategoriesAreShownAsTheOwnerSpelledThem() throws {
        try expectDocumentSays(
            "`room.settings` shows them as the owner spelled them (trimmed), not in the bank's spelling")
        var table = Table()
        let owner = table.seat(1)[0]
        table.ok(.move(owner, .settings(SettingsChange(categories: [" FOOD ", "drinks"]))))
        XCTAssertEqual(table.room.view(now: table.now).settings.categories, ["FOOD", "drinks"])
    }
}
