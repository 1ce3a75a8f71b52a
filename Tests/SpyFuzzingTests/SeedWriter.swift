import Foundation
import SpyBank
import SpyGame
import SpyProtocol
import Testing

@testable import SpyFuzzing

/// Writes the seeds made from real play: for `room-state`, rooms saved in each phase, as the host's state file
/// holds them, each followed by a few events to play on; for `client`, what one seat receives over a whole game.
/// Run after the room's encoding or the messages change, then commit Fuzz/corpus/room-state and Fuzz/corpus/client:
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

    @Test func writeClientSeeds() throws {
        let folder = CorpusReplayTests.fuzzDirectory.appendingPathComponent("corpus/client")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var room = Room(code: "SEED", seed: 11)
        var now: Millis = 1_700_000_000_000
        var received: [ServerMessage] = []
        func play(_ event: RoomEvent) {
            guard case .success(let effects) = room.apply(event, now: now) else { return }
            for effect in effects {
                switch effect {
                case .send("p3", let message), .broadcast(let message): received.append(message)
                default: break
                }
            }
        }
        for name in ["Amy", "Ben", "小明", "Dana", "Eve"] { play(.join(name: name, bot: false)) }
        play(.move("p1", .settings(SettingsChange(blank: true, clueMode: .typed, turnSeconds: 30, voteSeconds: 30))))
        play(.start(by: "p1", pairs: RoomScriptTarget.pairs))
        for round in 0..<4 {
            for player in room.playerIDs { play(.move(player, .clue(.init(text: "clue \(round) 線索")))) }
            play(.disconnected("p5"))
            now += 31_000
            play(.tick)
            for player in room.playerIDs { play(.move(player, .vote(.init(target: room.playerIDs[round % 2])))) }
            now += 31_000
            play(.tick)
            play(.connected("p5"))
        }
        // The stream cut into seeds that fit the fuzzer's 8 KiB, each opening with the welcome a seat gets: a
        // terminal of 80x24, 60x16 or 120x41, in Chinese or English, then each message, a second apart.
        let welcome = ServerMessage.welcome(
            .init(
                you: "p3", token: String(repeating: "t", count: 32), room: "SEED",
                categories: [.init(name: "食物", language: .zhTW, pairs: 40, partyPairs: 2)]))
        func step(_ message: ServerMessage) -> [UInt8] {
            let payload = WireCodec.encodePayload(message)
            return [0, UInt8(payload.count >> 8), UInt8(payload.count & 0xff)] + payload + [5, 1, 0]
        }
        let heads: [[UInt8]] = [[79, 23, 0], [59, 15, 1], [119, 40, 0]]
        var seed: [UInt8] = []
        var count = 0
        for message in received {
            if seed.isEmpty { seed = heads[count % heads.count] + step(welcome) }
            seed += step(message)
            if seed.count > 6_000 || message == received.last {
                try Data(seed).write(to: folder.appendingPathComponent("one-seat-a-game-\(count)"))
                count += 1
                seed = []
            }
        }
    }

    /// The owner's side of a party: a new owner, a claim of an away seat asked and ended, a seat sitting out.
    @Test func writeClientPartySeed() throws {
        let folder = CorpusReplayTests.fuzzDirectory.appendingPathComponent("corpus/client")
        let seats = [
            SeatView(id: "p1", seat: 1, name: "Amy"), SeatView(id: "p2", seat: 2, name: "小明", owner: true),
            SeatView(id: "p3", seat: 3, name: "Ben", connected: false, sittingOut: true),
            SeatView(id: "p4", seat: 4, name: "Dana"),
        ]
        let messages: [ServerMessage] = [
            .welcome(.init(you: "p2", token: String(repeating: "t", count: 32), room: "SEED")),
            .room(RoomView(room: "SEED", phase: .lobby, seats: seats)),
            .owner(.init(player: "p2", previous: "p1")),
            .claim(.init(player: "p3", name: "Ben")),
            .claimDone(.init(player: "p3")),
            .claim(.init(player: "p3", name: "班")),
            .room(RoomView(room: "SEED", phase: .describing, game: 1, round: 1, seats: seats, turn: "p1")),
            .claimPending(.init(player: "p3")),
        ]
        var seed: [UInt8] = [79, 23, 1]
        for message in messages {
            let payload = WireCodec.encodePayload(message)
            seed += [0, UInt8(payload.count >> 8), UInt8(payload.count & 0xff)] + payload + [5, 1, 0]
        }
        // The owner answers with y on the screen, then with the line-mode command.
        seed += [3, 1, UInt8(ascii: "y"), 4, 1, UInt8(ascii: "n")]
        try Data(seed).write(to: folder.appendingPathComponent("party-owner"))
    }

    @Test func writeBankCacheSeeds() throws {
        let folder = CorpusReplayTests.fuzzDirectory.appendingPathComponent("corpus/bank-cache")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("bank-cache-seeds-\(getpid())")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let cache = BankCache(directory: scratch)
        var withClues = WordPair(civilian: "牛奶", spy: "豆漿", category: "飲料", language: .zhTW)
        withClues.civilianClues = ["白色的", "早餐喝"]
        withClues.spyClues = ["黃豆做的"]
        let sets: [[WordPair]] = [
            [withClues], Array(EmbeddedBank.pairs(in: .zhTW).prefix(12)),
            Array(EmbeddedBank.pairs(in: .en).prefix(12)) + [WordPair(civilian: "kiss", spy: "hug", label: .party)],
        ]
        for (index, pairs) in sets.enumerated() {
            try cache.write(BankCacheTarget.source, format: .csv, pairs: pairs, savedAt: Date(timeIntervalSince1970: 0))
            try FileManager.default.copyItem(
                at: cache.fileURL(for: BankCacheTarget.source), to: folder.appendingPathComponent("saved-\(index)"))
        }
    }

    @Test func writeDiscoverySeeds() throws {
        let folder = CorpusReplayTests.fuzzDirectory.appendingPathComponent("corpus/discovery")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let answer = DiscoveryAnswer(
            name: "客廳的筆電", port: 7777, protocol: 1, password: false,
            rooms: [
                .init(code: "KXPT", seated: 5, free: 3, playing: true),
                .init(code: "ABCD", seated: 0, free: 8, playing: false),
            ],
            more: 2)
        let seeds: [(String, [UInt8])] = [
            ("probe", Discovery.probe()),
            ("probe-longest", Discovery.probe(length: Discovery.maximumDatagramBytes)),
            ("answer", answer.encoded(limit: Discovery.maximumAnswerBytes) ?? []),
            // Sources 1 to 4 probing in turn, a tenth of a second apart, then one source flooding.
            ("limiter", (0..<64).flatMap { [UInt8($0 % 4 + 1), 0x8A] } + (0..<64).map { _ in 9 }),
        ]
        for (name, bytes) in seeds {
            try Data(bytes).write(to: folder.appendingPathComponent(name))
        }
    }
}
