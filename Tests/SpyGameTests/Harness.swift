import Foundation
import SpyProtocol
import XCTest

@testable import SpyGame

/// A room plus a test clock, with helpers that fail the test on unexpected outcomes.
struct Table {
    var room: Room
    var now: Millis = 1_000_000
    /// Every effect produced so far, for secrecy checks.
    var log: [RoomEffect] = []

    init(seed: UInt64 = 1, settings: GameSettings = GameSettings()) {
        room = Room(code: "TEST", settings: settings, seed: seed)
    }

    /// Applies an event that must succeed.
    @discardableResult
    mutating func ok(
        _ event: RoomEvent, file: StaticString = #filePath, line: UInt = #line
    ) -> [RoomEffect] {
        switch room.apply(event, now: now) {
        case .success(let effects):
            log += effects
            return effects
        case .failure(let rejection):
            XCTFail("\(event) rejected: \(rejection.code) \(rejection.message)", file: file, line: line)
            return []
        }
    }

    /// Applies an event that must be refused with `code`, leaving the room unchanged.
    mutating func refused(
        _ event: RoomEvent, _ code: ErrorCode, file: StaticString = #filePath, line: UInt = #line
    ) {
        let before = room
        switch room.apply(event, now: now) {
        case .success:
            XCTFail("\(event) accepted, expected \(code)", file: file, line: line)
        case .failure(let rejection):
            XCTAssertEqual(rejection.code, code, "\(event)", file: file, line: line)
        }
        XCTAssertEqual(room, before, "room changed by a refused \(event)", file: file, line: line)
    }

    /// Seats `count` players named A, B, C, … and returns their ids.
    @discardableResult
    mutating func seat(_ count: Int) -> [PlayerID] {
        (0..<count).map { index in
            let name = String(UnicodeScalar(UInt8(65 + index)))
            let effects = ok(.join(name: name, bot: false))
            for case .joined(let id) in effects { return id }
            XCTFail("no joined effect")
            return ""
        }
    }

    static let pair = WordPair(civilian: "蘋果", spy: "香蕉")

    @discardableResult
    mutating func start(pairs: [WordPair] = [Table.pair]) -> [RoomEffect] {
        ok(.start(by: room.ownerID!, pairs: pairs))
    }

    var phase: Phase { room.phase }
    var game: Game { room.game! }
    var alive: [PlayerID] { game.alive }
    func role(_ player: PlayerID) -> Role { game.roles[player]! }
    func players(_ role: Role) -> [PlayerID] { game.dealt.filter { game.roles[$0] == role } }
    var speaker: PlayerID? { room.phase == .describing ? game.currentSpeaker : nil }

    /// Everyone still in passes until the vote opens.
    mutating func describeAll(file: StaticString = #filePath, line: UInt = #line) {
        while let speaker {
            ok(.move(speaker, .pass), file: file, line: line)
        }
    }

    mutating func vote(_ voter: PlayerID, _ target: PlayerID, file: StaticString = #filePath, line: UInt = #line) {
        ok(.move(voter, .vote(.init(target: target))), file: file, line: line)
    }

    /// Every voter votes for `target` (who votes for someone else when they are the target).
    mutating func everyoneVotes(
        for target: PlayerID, file: StaticString = #filePath, line: UInt = #line
    ) -> [RoomEffect] {
        var effects: [RoomEffect] = []
        let voters = game.voters
        for voter in voters where room.phase == .voting {
            let choice = voter != target ? target : game.candidates.first { $0 != voter }!
            effects += ok(.move(voter, .vote(.init(target: choice))), file: file, line: line)
        }
        return effects
    }

    /// Describes, then votes `target` out.
    @discardableResult
    mutating func voteOut(_ target: PlayerID, file: StaticString = #filePath, line: UInt = #line) -> [RoomEffect] {
        describeAll(file: file, line: line)
        XCTAssertEqual(room.phase, .voting, file: file, line: line)
        return everyoneVotes(for: target, file: file, line: line)
    }

    mutating func advance(by millis: Millis) {
        now += millis
    }
}

extension Array where Element == RoomEffect {
    var broadcasts: [ServerMessage] {
        compactMap { if case .broadcast(let message) = $0 { return message } else { return nil } }
    }

    var voteResults: [ServerMessage.VoteResult] {
        broadcasts.compactMap { if case .voteResult(let result) = $0 { return result } else { return nil } }
    }

    var gameOver: ServerMessage.GameOver? {
        broadcasts.lazy.compactMap { if case .gameOver(let over) = $0 { return over } else { return nil } }.first
    }

    var turns: [ServerMessage.Turn] {
        broadcasts.compactMap { if case .turn(let turn) = $0 { return turn } else { return nil } }
    }

    func sent(to player: PlayerID) -> [ServerMessage] {
        compactMap { if case .send(player, let message) = $0 { return message } else { return nil } }
    }
}
