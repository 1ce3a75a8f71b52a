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
}
