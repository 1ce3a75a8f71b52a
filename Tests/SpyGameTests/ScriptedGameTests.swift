import Foundation
import SpyProtocol
import XCTest

@testable import SpyGame

final class ScriptedGameTests: XCTestCase {
    func testCiviliansWinWhenTheOnlySpyIsVotedOut() {
        var table = Table(seed: 7)
        let ids = table.seat(5)
        let startEffects = table.start()
        XCTAssertEqual(table.phase, .describing)
        for id in ids {
            let deals = startEffects.sent(to: id).compactMap {
                if case .deal(let d) = $0 { return d } else { return nil }
            }
            XCTAssertEqual(deals.count, 1)
        }
        let spy = table.players(.spy)[0]
        let effects = table.voteOut(spy)
        XCTAssertEqual(effects.voteResults.last?.out, spy)
        XCTAssertEqual(effects.voteResults.last?.identity, .spy)
        let over = try! XCTUnwrap(effects.gameOver)
        XCTAssertEqual(over.winner, .civilians)
        XCTAssertEqual(table.phase, .gameOver)
        XCTAssertEqual(Set(over.reveal.map(\.player)), Set(ids))
        // Civilians still in: 2 + 1; the spy: 0.
        for entry in over.scores {
            XCTAssertEqual(entry.score, entry.player == spy ? 0 : 3)
        }
        XCTAssertNil(table.room.nextDeadline)
    }
}
