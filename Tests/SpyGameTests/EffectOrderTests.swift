import Foundation
import SpyProtocol
import XCTest

@testable import SpyGame

/// The order of effects the daemon carries out: what happened first, then what comes next, then the room
/// snapshot. The room's next deadline is its state (`Room.nextDeadline`), not an effect.
final class EffectOrderTests: XCTestCase {
    private func shape(_ effects: [RoomEffect]) -> [String] {
        effects.map { effect in
            switch effect {
            case .send(let player, let message): return "send \(player) \(message.type)"
            case .broadcast(let message): return "broadcast \(message.type)"
            case .joined(let player): return "joined \(player)"
            case .removed(let player, let reason): return "removed \(player) \(reason?.rawValue ?? "-")"
            case .log: return "log"
            }
        }
    }

    func testAWholeGameInOrder() throws {
        var table = Table(seed: 61, settings: GameSettings(turnSeconds: 30))
        XCTAssertEqual(shape(table.ok(.join(name: "Host", bot: false))), ["joined p1", "log", "broadcast room"])
        table.seat(3)
        XCTAssertEqual(
            shape(table.start()),
            [
                "log", "send p1 deal", "send p2 deal", "send p3 deal", "send p4 deal", "broadcast turn",
                "broadcast room",
            ])
        XCTAssertNotNil(table.room.nextDeadline)
        let first = try XCTUnwrap(table.speaker)
        table.advance(by: 1_000)
        XCTAssertEqual(
            shape(table.ok(.move(first, .pass))), ["broadcast clue", "broadcast turn", "broadcast room"])
        XCTAssertNotNil(table.room.nextDeadline)
        while table.game.speakerIndex < table.game.speakers.count - 1 {
            table.ok(.move(table.speaker!, .pass))
        }
        XCTAssertEqual(
            shape(table.ok(.move(table.speaker!, .pass))),
            ["broadcast clue", "broadcast voting", "broadcast room"])
        XCTAssertNil(table.room.nextDeadline)
        let spy = table.players(.spy)[0]
        let civilians = table.players(.civilian)
        XCTAssertEqual(
            shape(table.ok(.move(civilians[0], .vote(.init(target: spy))))), ["broadcast vote_progress"])
        table.vote(civilians[1], spy)
        table.vote(civilians[2], spy)
        XCTAssertEqual(
            shape(table.ok(.move(spy, .vote(.init(target: civilians[0]))))),
            [
                "broadcast vote_progress", "broadcast vote_result", "log", "broadcast game_over", "broadcast history",
                "log", "broadcast room",
            ])
        XCTAssertEqual(shape(table.ok(.disconnected("p2"))), ["log", "broadcast room"])
        XCTAssertEqual(
            shape(table.ok(.connected("p2"))),
            ["send p2 room", "send p2 game_over", "send p2 history", "log", "broadcast room"])
        XCTAssertEqual(shape(table.ok(.leave("p2"))), ["removed p2 -", "log", "broadcast room"])
    }
}
