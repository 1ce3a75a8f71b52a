import Foundation
import Glibc
import SpyGame
import SpyNet
import SpyProtocol
import Testing

@testable import SpyHost
@testable import SpyStorage

/// The state directory, and the room files of an older host that a start takes into the journal: what is read,
/// what is set aside, what stops the start.
@Suite struct OlderRoomFilesTests {
    private func snapshot(_ code: String = "KFRW") -> RoomSnapshot {
        var room = Room(code: code, seed: 3)
        _ = room.apply(.join(name: "Amy", bot: false), now: 0)
        return RoomSnapshot(
            room: room, tokens: ["p1": String(repeating: "a", count: 32)], permanent: true, bots: .init())
    }

    private func privateDirectory() throws -> URL {
        let directory = try Scratch.directory()
        chmod(directory.path, 0o700)
        return directory
    }

    @Test func roomsComeBackAndCorruptFilesAreMovedAside() throws {
        let directory = try privateDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let saved = snapshot()
        try OlderRoomFile.write(saved, in: directory.path)
        try Data("garbage".utf8).write(to: directory.appendingPathComponent("room-ZZZZ.json"))
        try Data("half".utf8).write(to: directory.appendingPathComponent("room-KFRW.json.tmp"))
        var warnings: [String] = []
        let older = OlderRoomFiles(directory: directory.path)
        #expect(try older.names() == ["room-KFRW.json", "room-ZZZZ.json"])
        #expect(try older.read("room-ZZZZ.json") == .failure(.init(problem: "it is not a room snapshot")))
        #expect(try older.takeIn(now: 1_700_000_000_000) { warnings.append($0) } == [saved])
        #expect(warnings.count == 1 && warnings[0].contains("room-ZZZZ.json is corrupt"), "\(warnings)")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(names.contains("room-ZZZZ.json.corrupt-1700000000"))
        #expect(!names.contains("room-KFRW.json.tmp"))
    }

    /// A room mid-vote, with bots, a blank, typed clues that need escaping and a bot's memory of the vote, comes back
    /// from its file exactly as it was saved.
    @Test func aRoomMidVoteComesBackFromItsFileExactly() throws {
        let directory = try privateDirectory()
        let older = OlderRoomFiles(directory: directory.path)
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
        try OlderRoomFile.write(saved, in: directory.path)
        #expect(try older.takeIn(now: 0, warn: { Issue.record("\($0)") }) == [saved])
    }

    @Test func aDirectoryWritableByOthersIsRefused() throws {
        let directory = try Scratch.directory()
        for mode: mode_t in [0o777, 0o770, 0o722] {
            chmod(directory.path, mode)
            let error = #expect(throws: StorageError.self) { try StateDirectory.prepare(directory.path) }
            #expect(error?.description.contains("writable by group or others") == true)
            #expect(error?.description.contains(directory.path) == true)
        }
        chmod(directory.path, 0o755)
        try StateDirectory.prepare(directory.path)
    }

    @Test func aDirectoryOfAnotherUserIsRefused() throws {
        try #require(geteuid() == 0, "needs root to give a directory away")
        let directory = try Scratch.directory()
        chmod(directory.path, 0o700)
        chown(directory.path, 65_534, 65_534)
        let error = #expect(throws: StorageError.self) { try StateDirectory.prepare(directory.path) }
        #expect(error?.description.contains("belongs to another user") == true)
    }

    @Test func aNewDirectoryIsPrivateWhateverTheUmask() throws {
        let parent = try Scratch.directory()
        let directory = parent.appendingPathComponent("a/b/state").path
        let old = umask(0)
        defer { umask(old) }
        try StateDirectory.prepare(directory)
        var info = stat()
        #expect(stat(directory, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o700)
    }

    @Test func aFileThatCannotBeReadStopsTheStartInsteadOfBeingMovedAside() throws {
        let directory = try privateDirectory()
        let older = OlderRoomFiles(directory: directory.path)
        // Root reads any file whatever its mode; a directory where the file should be cannot be read by anyone.
        let path = directory.appendingPathComponent(geteuid() == 0 ? "room-KFRW.json" : "room-ABCD.json").path
        if geteuid() == 0 {
            mkdir(path, 0o700)
        } else {
            try OlderRoomFile.write(snapshot("ABCD"), in: directory.path)
            chmod(path, 0)
        }
        let error = #expect(throws: StorageError.self) { try older.takeIn(now: 0, warn: { _ in }) }
        #expect(error?.description.contains(path) == true)
        #expect(error?.description.contains("cannot be read") == true)
        #expect(FileManager.default.fileExists(atPath: path))
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(!names.contains { $0.contains("corrupt") })
    }

    @Test func numbersOutOfRangeMakeAFileCorrupt() throws {
        let directory = try privateDirectory()
        let older = OlderRoomFiles(directory: directory.path)
        try OlderRoomFile.write(snapshot(), in: directory.path)
        let path = directory.appendingPathComponent("room-KFRW.json").path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("\"nextPlayerNumber\":2"))
        try text.replacingOccurrences(of: "\"nextPlayerNumber\":2", with: "\"nextPlayerNumber\":9223372036854775807")
            .write(toFile: path, atomically: true, encoding: .utf8)
        var warnings: [String] = []
        #expect(try older.takeIn(now: 0, warn: { warnings.append($0) }).isEmpty)
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
            let directory = try privateDirectory()
            var bad = snapshot()
            spoil(&bad)
            try OlderRoomFile.write(bad, in: directory.path)
            var warnings: [String] = []
            let older = OlderRoomFiles(directory: directory.path)
            #expect(try older.takeIn(now: 0, warn: { warnings.append($0) }).isEmpty, "\(name)")
            #expect(warnings.count == 1 && warnings[0].contains("corrupt"), "\(name): \(warnings)")
        }
        let directory = try privateDirectory()
        let older = OlderRoomFiles(directory: directory.path)
        var fine = snapshot()
        fine.tokens["p1"] = "0123456789abcdef0123456789abcdef"
        fine.bots.cards["p2"] = .init(game: 0, word: "牛奶")
        try OlderRoomFile.write(fine, in: directory.path)
        #expect(try older.takeIn(now: 0, warn: { Issue.record("\($0)") }) == [fine])
    }
}
