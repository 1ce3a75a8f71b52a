import Foundation
import SpyProtocol
import XCTest

@testable import SpyGame

/// A watcher (the board) sees the room through `catchUp(for: nil)` and `RoomEffect.watcherMessage`: it must never
/// learn a word, nor a role the game has not revealed to everyone, before game over (over a thousand random games:
/// `PropertyTests.aWatcherNeverSeesAWordBeforeGameOver`).
final class WatcherTests: XCTestCase {
    /// Whether `needle` occurs in `haystack` (a plain scan: the words searched for are short).
    static func bytes(_ haystack: [UInt8], contain needle: [UInt8]) -> Bool {
        guard let first = needle.first, haystack.count >= needle.count else { return false }
        var index = 0
        while index <= haystack.count - needle.count {
            if haystack[index] == first {
                var matched = 1
                while matched < needle.count && haystack[index + matched] == needle[matched] { matched += 1 }
                if matched == needle.count { return true }
            }
            index += 1
        }
        return false
    }

    func testTheByteSearchFindsWords() {
        XCTAssertTrue(Self.bytes(Array("{\"word\":\"civword1\"}".utf8), contain: Array("civword1".utf8)))
        XCTAssertFalse(Self.bytes(Array("civword".utf8), contain: Array("civword1".utf8)))
        XCTAssertTrue(Self.bytes(Array("蘋果".utf8), contain: Array("果".utf8)))
    }

    func testAWatcherCatchesUpLikeAPlayerWithoutTheDeal() {
        var table = Table(seed: 3)
        let players = table.seat(4)
        table.ok(.start(by: players[0], pairs: [Table.pair]))
        let now = table.now
        let watcher = table.room.catchUp(for: nil, now: now)
        let player = table.room.catchUp(for: players[1], now: now)
        XCTAssertEqual(player.count, watcher.count + 1)
        XCTAssertEqual(player.filter { if case .deal = $0 { return false } else { return true } }, watcher)
        guard case .room = watcher.first, case .turn = watcher.last else {
            return XCTFail("expected the room and the turn, got \(watcher)")
        }
    }

    func testOnlyBroadcastsReachAWatcher() {
        let view = Table().room.view(now: 0)
        XCTAssertEqual(RoomEffect.broadcast(.room(view)).watcherMessage, .room(view))
        XCTAssertNil(RoomEffect.send("p1", .deal(.init(game: 1, word: "蘋果"))).watcherMessage)
        XCTAssertNil(RoomEffect.send("p1", .room(view)).watcherMessage)
        XCTAssertNil(RoomEffect.log("line").watcherMessage)
    }
}
