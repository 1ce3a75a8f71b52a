import Foundation
import Glibc
import SpyGame
import SpyNet
import SpyProtocol
import Testing

@testable import SpyHost
@testable import SpyStorage

/// The state directory and its files: who may write there, what a failed write or an unreadable file means.
@Suite struct StateStoreTests {
    struct DiskFull: Error {}

    private func snapshot(_ code: String = "KFRW") -> RoomSnapshot {
        var room = Room(code: code, seed: 3)
        _ = room.apply(.join(name: "Amy", bot: false), now: 0)
        return RoomSnapshot(
            room: room, tokens: ["p1": String(repeating: "a", count: 32)], permanent: true, bots: .init())
    }

    @Test func aFailingWriterMakesSaveThrowAndLeavesTheOldFile() throws {
        let directory = try Scratch.directory()
        chmod(directory.path, 0o700)
        let good = try StateStore(directory: directory.path)
        try good.save(snapshot())
        let before = try Data(contentsOf: directory.appendingPathComponent("room-KFRW.json"))
        let full = try StateStore(directory: directory.path) { _, _ in throw DiskFull() }
        var changed = snapshot()
        changed.permanent = false
        #expect(throws: DiskFull.self) { try full.save(changed) }
        #expect(try Data(contentsOf: directory.appendingPathComponent("room-KFRW.json")) == before)
        #expect(try good.loadAll(warn: { Issue.record("\($0)") }) == [snapshot()])
    }

    /// A room mid-vote, with bots, a blank, typed clues that need escaping and a bot's memory of the vote, comes back
    /// from its file exactly as it was saved.
    @Test func aRoomMidVoteComesBackFromItsFileExactly() throws {
        let directory = try Scratch.directory()
        chmod(directory.path, 0o700)
        let store = try StateStore(directory: directory.path)
        var room = Room(code: "QVTN", seed: 11)
        for (name, bot) in [("阿美", false), ("Bo \"B\"", false), ("Cy", false), ("Dee", true), ("Eve", true)] {
            _ = room.apply(.join(name: name, bot: bot), now: 1_000)
        }
        var change = SettingsChange()
        change.clueMode = .typed
        change.blank = true
        _ = room.apply(.move("p1", .settings(change)), now: 2_000)
        let pair = WordPair(civilian: "牛奶", spy: "豆漿", category: "飲料")
        var effects = try room.apply(.start(by: "p1", pairs: [pair]), now: 3_000).get()
        var voting: ServerMessage.Voting?
        var now: Millis = 4_000
        while voting == nil {
            var speaker: PlayerID?
            for case .broadcast(let message) in effects {
                if case .turn(let turn) = message { speaker = turn.player }
                if case .voting(let vote) = message { voting = vote }
            }
            guard voting == nil else { break }
            let player = try #require(speaker, "no turn and no vote after \(effects)")
            now += 1_000
            effects = try room.apply(.move(player, .clue(.init(text: "像 \"白\" 的\\東西 \(player)"))), now: now).get()
        }
        let vote = try #require(voting)
        _ = try room.apply(.move(vote.voters[0], .vote(.init(target: vote.candidates[1]))), now: now + 500).get()
        var bots = BotMemory()
        bots.cards["p4"] = .init(game: 1, word: "豆漿")
        bots.cards["p5"] = .init(game: 1, word: nil)
        bots.voting = vote
        let saved = RoomSnapshot(
            room: room, tokens: ["p1": String(repeating: "a", count: 32), "p2": String(repeating: "b", count: 32)],
            permanent: false, bots: bots, joinedByOthers: true)
        try store.save(saved)
        let loaded = try store.loadAll(warn: { Issue.record("\($0)") })
        #expect(loaded == [saved])
    }

    @Test func aDirectoryWritableByOthersIsRefused() throws {
        let directory = try Scratch.directory()
        for mode: mode_t in [0o777, 0o770, 0o722] {
            chmod(directory.path, mode)
            let error = #expect(throws: StorageError.self) { try StateStore(directory: directory.path) }
            #expect(error?.description.contains("writable by group or others") == true)
            #expect(error?.description.contains(directory.path) == true)
        }
        chmod(directory.path, 0o755)
        _ = try StateStore(directory: directory.path)
    }

    @Test func aDirectoryOfAnotherUserIsRefused() throws {
        try #require(geteuid() == 0, "needs root to give a directory away")
        let directory = try Scratch.directory()
        chmod(directory.path, 0o700)
        chown(directory.path, 65_534, 65_534)
        let error = #expect(throws: StorageError.self) { try StateStore(directory: directory.path) }
        #expect(error?.description.contains("belongs to another user") == true)
    }

    @Test func aNewDirectoryIsPrivateWhateverTheUmask() throws {
        let parent = try Scratch.directory()
        let directory = parent.appendingPathComponent("a/b/state").path
        let old = umask(0)
        defer { umask(old) }
        _ = try StateStore(directory: directory)
        var info = stat()
        #expect(stat(directory, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o700)
    }

    @Test func aFileThatCannotBeReadStopsTheStartInsteadOfBeingMovedAside() throws {
        let directory = try Scratch.directory()
        chmod(directory.path, 0o700)
        let store = try StateStore(directory: directory.path)
        // Root reads any file whatever its mode; a directory where the file should be cannot be read by anyone.
        let path = directory.appendingPathComponent(geteuid() == 0 ? "room-KFRW.json" : "room-ABCD.json").path
        if geteuid() == 0 {
            mkdir(path, 0o700)
        } else {
            try store.save(snapshot("ABCD"))
            chmod(path, 0)
        }
        let error = #expect(throws: StorageError.self) { try store.loadAll(warn: { _ in }) }
        #expect(error?.description.contains(path) == true)
        #expect(error?.description.contains("cannot be read") == true)
        #expect(FileManager.default.fileExists(atPath: path))
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(!names.contains { $0.contains("corrupt") })
    }

    @Test func numbersOutOfRangeMakeAFileCorrupt() throws {
        let directory = try Scratch.directory()
        chmod(directory.path, 0o700)
        let store = try StateStore(directory: directory.path)
        try store.save(snapshot())
        let path = directory.appendingPathComponent("room-KFRW.json").path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("\"nextPlayerNumber\":2"))
        try text.replacingOccurrences(of: "\"nextPlayerNumber\":2", with: "\"nextPlayerNumber\":9223372036854775807")
            .write(toFile: path, atomically: true, encoding: .utf8)
        var warnings: [String] = []
        #expect(try store.loadAll(warn: { warnings.append($0) }).isEmpty)
        #expect(warnings.count == 1 && warnings[0].contains("nextPlayerNumber"))
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    /// The resume tokens and the bots' memory are checked like the room: a token is what the host makes (a
    /// shorter one would be guessable, a huge one would be copied on every resume attempt), and a bot remembers
    /// at most a table's cards of bank-sized words.
    @Test func tokensAndBotMemoryOutOfShapeMakeAFileCorrupt() throws {
        let tooManyCards: (inout RoomSnapshot) -> Void = { snapshot in
            for number in 0..<50 { snapshot.bots.cards["p\(number)"] = .init(game: 0, word: "牛奶") }
        }
        let cases: [(String, (inout RoomSnapshot) -> Void)] = [
            ("short token", { $0.tokens["p1"] = "a" }),
            ("huge token", { $0.tokens["p1"] = String(repeating: "a", count: 1 << 20) }),
            ("token with other characters", { $0.tokens["p1"] = String(repeating: "Z", count: 32) }),
            ("long bot word", { $0.bots.cards["p9"] = .init(game: 0, word: String(repeating: "長", count: 500)) }),
            ("bot card of a future game", { $0.bots.cards["p9"] = .init(game: 99, word: "牛奶") }),
            ("too many bot cards", tooManyCards),
        ]
        for (name, spoil) in cases {
            let directory = try Scratch.directory()
            chmod(directory.path, 0o700)
            let store = try StateStore(directory: directory.path)
            var bad = snapshot()
            spoil(&bad)
            try store.save(bad)
            var warnings: [String] = []
            #expect(try store.loadAll(warn: { warnings.append($0) }).isEmpty, "\(name)")
            #expect(warnings.count == 1 && warnings[0].contains("corrupt"), "\(name): \(warnings)")
        }
        let directory = try Scratch.directory()
        chmod(directory.path, 0o700)
        let store = try StateStore(directory: directory.path)
        var fine = snapshot()
        fine.tokens["p1"] = "0123456789abcdef0123456789abcdef"
        fine.bots.cards["p2"] = .init(game: 0, word: "牛奶")
        try store.save(fine)
        #expect(try store.loadAll(warn: { Issue.record("\($0)") }) == [fine])
    }

    @Test func aPlantedSymlinkIsNeverWrittenThrough() throws {
        let directory = try Scratch.directory()
        let target = directory.appendingPathComponent("victim").path
        try "precious".write(toFile: target, atomically: true, encoding: .utf8)
        let path = directory.appendingPathComponent("room-KFRW.json").path
        symlink(target, path + ".tmp")
        try AtomicFile.write(Array("new".utf8), to: path)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "precious")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new")
        var info = stat()
        #expect(lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG)
    }

    @Test func aStaleTemporaryFileFromACrashIsReplaced() throws {
        let directory = try Scratch.directory()
        let path = directory.appendingPathComponent("port").path
        try "half-writ".write(toFile: path + ".tmp", atomically: false, encoding: .utf8)
        try AtomicFile.write(Array("7777\n".utf8), to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "7777\n")
        #expect(!FileManager.default.fileExists(atPath: path + ".tmp"))
    }
}
