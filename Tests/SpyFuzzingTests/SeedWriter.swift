import Foundation
import SpyGame
import SpyProtocol
import Testing

@testable import SpyFuzzing

/// Writes the room-state seeds: rooms saved in each phase, as the host's state file holds them, each followed by
/// a few events to play on. Run after the room's encoding changes, then commit Fuzz/corpus/room-state:
/// `SPY_WRITE_FUZZ_SEEDS=1 swift test --filter SeedWriter`.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["SPY_WRITE_FUZZ_SEEDS"] == "1"))
struct SeedWriter {
    @Test func writeRoomStateSeeds() throws {
        let folder = CorpusReplayTests.fuzzDirectory.appendingPathComponent("corpus/room-state")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var room = Room(code: "SEED", seed: 7)
        var now: Millis = 1_700_000_000_000
        var rooms: [Room] = [room]
        for name in ["Amy", "Ben", "小明", "Dana", "Bot 1"] {
            _ = room.apply(.join(name: name, bot: name.hasPrefix("Bot")), now: now)
        }
        rooms.append(room)
        _ = room.apply(.start(by: "p1", pairs: RoomScriptTarget.pairs), now: now)
        rooms.append(room)
        for player in room.playerIDs {
            _ = room.apply(.move(player, .pass), now: now)
        }
        _ = room.apply(.disconnected("p3"), now: now)
        rooms.append(room)
        for player in room.playerIDs {
            _ = room.apply(.move(player, .vote(.init(target: "p2"))), now: now)
        }
        now += 60_000
        _ = room.apply(.tick, now: now)
        rooms.append(room)
        let events: [UInt8] = [0x07, 0x00, 0x08, 0x01, 0x02, 0x0c, 0x00, 0x03, 0x45, 0x76, 0x65, 0x00]
        for (index, saved) in rooms.enumerated() {
            let file = Array(try JSONEncoder().encode(saved))
            let seed = [UInt8(file.count >> 8), UInt8(file.count & 0xff)] + file + events
            try Data(seed).write(to: folder.appendingPathComponent("saved-room-\(index)"))
        }
    }
}
