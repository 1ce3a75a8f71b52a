import Foundation
import Glibc
import SpyGame
import SpyNet
import SpyProtocol
import Testing

@testable import SpyHost
@testable import SpyStorage

/// The journal's format, its recovery (snapshot plus replay) and what a failing disk does to it.
@Suite struct JournalTests {
    func privateDirectory() throws -> String {
        let directory = try Scratch.directory()
        chmod(directory.path, 0o700)
        return directory.path
    }

    func snapshot(_ code: String = "KFRW", seed: UInt64 = 3) -> RoomSnapshot {
        var room = Room(code: code, seed: seed)
        _ = room.apply(.join(name: "Amy", bot: false), now: 0)
        return RoomSnapshot(
            room: room, tokens: ["p1": String(repeating: "a", count: 32)], permanent: true, bots: .init(),
            joinedByOthers: false)
    }

    func join(_ name: String, _ code: String = "KFRW", now: Millis, token: String? = nil) -> RoomChange {
        RoomChange(
            room: code, now: now, event: LoggedEvent(.join(name: name, bot: token == nil)),
            tokens: token.map { ["p\(name.count)": $0] }, joinedByOthers: true)
    }

    /// A change that any number of can follow: the room's clock ticks, and its first seat's token is issued again.
    func tick(_ code: String = "KFRW", now: Millis) -> RoomChange {
        RoomChange(
            room: code, now: now, event: LoggedEvent(.tick), tokens: ["p1": String(repeating: "c", count: 32)])
    }

    func rooms(in directory: String, warnings: inout [String]) throws -> [RoomSnapshot] {
        var collected: [String] = []
        let (_, contents) = try Journal.open(directory: directory, now: 0) { collected.append($0) }
        warnings = collected
        return contents.rooms.rooms.map(\.snapshot)
    }

    func rooms(in directory: String) throws -> [RoomSnapshot] {
        var warnings: [String] = []
        let found = try rooms(in: directory, warnings: &warnings)
        #expect(warnings.isEmpty)
        return found
    }

    func fileBytes(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    // MARK: Checksum and format

    @Test func crc32cMatchesTheVectorsOfRFC3720() {
        #expect(CRC32C.checksum([UInt8](repeating: 0, count: 32)) == 0x8A91_36AA)
        #expect(CRC32C.checksum([UInt8](repeating: 0xFF, count: 32)) == 0x62A8_AB43)
        #expect(CRC32C.checksum((0..<32).map { UInt8($0) }) == 0x46DD_794E)
        #expect(CRC32C.checksum((0..<32).reversed().map { UInt8($0) }) == 0x113F_DB5C)
        let readCommand: [UInt8] =
            [0x01, 0xC0] + [UInt8](repeating: 0, count: 14) + [
                0x14, 0, 0, 0, 0, 0, 0x04, 0, 0, 0, 0, 0x14, 0, 0, 0, 0x18,
            ]
            + [0x28, 0, 0, 0, 0, 0, 0, 0, 0x02, 0, 0, 0, 0, 0, 0, 0]
        #expect(readCommand.count == 48)
        #expect(CRC32C.checksum(readCommand) == 0xD996_3A56)
        #expect(CRC32C.checksum(Array("123456789".utf8)) == 0xE306_9283)
        let split = CRC32C.checksum(Array("56789".utf8), continuing: CRC32C.checksum(Array("1234".utf8)))
        #expect(split == 0xE306_9283)
    }

    @Test func committedChangesComeBackThroughReplay() throws {
        let directory = try privateDirectory()
        let (journal, contents) = try Journal.open(directory: directory, now: 0) { Issue.record("\($0)") }
        #expect(contents.rooms.recordCount == 0)
        var expected = snapshot()
        try journal.append(.snapshot(expected))
        let changes = [join("Bo", now: 10, token: String(repeating: "b", count: 32)), join("Cy", now: 20)]
        for change in changes {
            try journal.append(.change(change))
            try expected.replay(change)
        }
        try journal.commit()
        let found = try rooms(in: directory)
        #expect(found == [expected])
        #expect(found[0].room.playerIDs.count == 3)
        #expect(found[0].tokens["p2"] == String(repeating: "b", count: 32))
        #expect(found[0].joinedByOthers == true)
    }

    @Test func aClosedRoomIsGoneAndALaterSnapshotReplacesEarlierChanges() throws {
        let directory = try privateDirectory()
        let (journal, _) = try Journal.open(directory: directory, now: 0) { Issue.record("\($0)") }
        try journal.append(.snapshot(snapshot("AAAA")))
        try journal.append(.snapshot(snapshot("BBBB")))
        try journal.append(.change(join("Bo", "AAAA", now: 5)))
        try journal.append(.closed("BBBB"))
        var fresh = snapshot("AAAA", seed: 9)
        fresh.permanent = false
        try journal.append(.snapshot(fresh))
        try journal.commit()
        #expect(try rooms(in: directory) == [fresh])
    }

    /// A bots' game, logged as the host logs it (a snapshot after each start, a change for every other event),
    /// comes back from the journal equal to the live room, bots' memory included.
    @Test func aReplayedBotGameEqualsTheLiveRoom() throws {
        let directory = try privateDirectory()
        let (journal, _) = try Journal.open(directory: directory, now: 0) { Issue.record("\($0)") }
        let pairs = [
            WordPair(civilian: "牛奶", spy: "豆漿", category: "飲料"),
            WordPair(civilian: "cat", spy: "tiger", category: "animal"),
        ]
        let knowledge = BotVocabulary(pairs: pairs).knowledge
        var random = SplitMix64(seed: 77)
        var live = RoomSnapshot(
            room: Room(code: "BOTS", seed: 21), tokens: [:], permanent: true, bots: .init(), joinedByOthers: false)
        var driver = BotDriver()
        try journal.append(.snapshot(live))
        var now: Millis = 1_000
        var starts = 0
        var logged = 0
        func step(_ event: RoomEvent, token: String? = nil) throws {
            now += 250
            guard case .success(let effects) = live.room.apply(event, now: now) else { return }
            driver.learn(from: effects, in: live.room)
            for case .removed(let player, _) in effects { live.tokens[player] = nil }
            live.bots = driver.memory
            if case .joined(let player)? = effects.first(where: { if case .joined = $0 { true } else { false } }),
                let token
            {
                live.tokens[player] = token
            }
            if let loggedEvent = LoggedEvent(event) {
                let tokens = token.flatMap { token in live.tokens.first { $0.value == token }.map { [$0.key: token] } }
                try journal.append(.change(RoomChange(room: "BOTS", now: now, event: loggedEvent, tokens: tokens)))
                logged += 1
            } else {
                try journal.append(.snapshot(live))
                starts += 1
            }
            driver.plan(
                room: live.room, now: now, delayMs: 0, level: .normal, knowledge: knowledge, random: &random)
        }
        try step(.join(name: "Amy", bot: false), token: String(repeating: "c", count: 32))
        for number in 1...5 { try step(.join(name: "Bot \(number)", bot: true)) }
        try step(.disconnected("p1"))
        try step(.connected("p1"))
        var steps = 0
        while starts < 2, steps < 2_000 {
            steps += 1
            if live.room.phase == .lobby || live.room.phase == .gameOver {
                try step(.start(by: "p1", pairs: pairs))
                continue
            }
            let moves = driver.takeDue(now: .max)
            for move in moves { try step(.move(move.bot, move.message)) }
            if !moves.isEmpty { continue }
            let view = live.room.view(now: now)
            if view.turn == "p1" {
                try step(.move("p1", .pass))
            } else if view.phase == .voting, let target = view.seats.first(where: { $0.id != "p1" && $0.alive }) {
                try step(.move("p1", .vote(.init(target: target.id))))
            } else {
                try step(.tick)
            }
        }
        try journal.commit()
        #expect(starts == 2)
        #expect(logged > 20)
        #expect(!live.bots.cards.isEmpty)
        #expect(try rooms(in: directory) == [live])
    }

    // MARK: Torn and corrupt tails

    /// Whatever byte the last record is cut at, and whether the file ends there or zeros written ahead follow
    /// the cut, the journal loads the state before that record, cuts the torn bytes off the file and keeps them
    /// aside (without the zeros after them).
    @Test func aLogCutAtEveryByteOfItsLastRecordLoadsTheStateBeforeIt() throws {
        let directory = try privateDirectory()
        let (journal, _) = try Journal.open(directory: directory, now: 0) { Issue.record("\($0)") }
        var before = snapshot()
        try journal.append(.snapshot(before))
        try journal.append(.change(join("Bo", now: 10)))
        try before.replay(join("Bo", now: 10))
        try journal.commit()
        let start = journal.committedBytes
        try journal.append(.change(join("Cy", now: 20)))
        try journal.commit()
        let file = try fileBytes(journal.path)
        #expect(file.count > journal.committedBytes)
        #expect(file[journal.committedBytes...].allSatisfy { $0 == 0 })
        let whole = Array(file[..<journal.committedBytes])
        for cut in start..<whole.count {
            for zerosAfter in [false, true] {
                let copy = try privateDirectory()
                let path = "\(copy)/\(Journal.fileName)"
                let torn = Array(whole[..<cut]) + (zerosAfter ? [UInt8](repeating: 0, count: file.count - cut) : [])
                try Data(torn).write(to: URL(fileURLWithPath: path))
                let label = "cut at \(cut), zeros after: \(zerosAfter)"
                var warnings: [String] = []
                #expect(try rooms(in: copy, warnings: &warnings) == [before], "\(label)")
                let kept = Array(whole[start..<cut].reversed().drop { $0 == 0 }.reversed())
                if kept.isEmpty {
                    #expect(warnings.isEmpty, "\(label): \(warnings)")
                    #expect(try fileBytes(path) == torn, "\(label)")
                    continue
                }
                #expect(warnings.count == 1 && warnings[0].contains("not trusted"), "\(label): \(warnings)")
                #expect(warnings.first?.contains("the last \(kept.count) bytes") == true, "\(label): \(warnings)")
                let aside = try FileManager.default.contentsOfDirectory(atPath: copy).filter { $0.contains(".tail-") }
                #expect(aside.count == 1)
                #expect(try fileBytes("\(copy)/\(aside[0])") == kept, "\(label)")
                #expect(try fileBytes(path).count == start, "\(label)")
            }
        }
    }

    /// A journal keeps zeros written ahead of its last record: they load as its clean end, and the next records
    /// go over them, right after the last one, without the file growing until they run out.
    @Test func zerosWrittenAheadAreTheCleanEndAndTakeTheNextRecords() throws {
        let directory = try privateDirectory()
        var policy = Journal.Policy()
        policy.preallocationBytes = 4_096
        let (journal, _) = try Journal.open(directory: directory, now: 0, policy: policy) { Issue.record("\($0)") }
        var expected = snapshot()
        try journal.append(.snapshot(expected))
        try journal.commit()
        let size = try fileBytes(journal.path).count
        #expect(size % 4_096 == 0 && size >= journal.committedBytes + 2_048)
        #expect(journal.fileBytes == size)

        // The next commits write over the zeros: the file keeps its size.
        var now: Millis = 0
        func change() throws {
            now += 10
            let next = tick(now: now)
            try journal.append(.change(next))
            try journal.commit()
            try expected.replay(next)
        }
        try change()
        #expect(try fileBytes(journal.path).count == size)
        #expect(try rooms(in: directory) == [expected])

        // Reopened: every record loads, nothing is cut or set aside, and appends follow the last record.
        let (again, contents) = try Journal.open(directory: directory, now: 0, policy: policy) { Issue.record("\($0)") }
        #expect(contents.cutBytes == 0 && contents.rooms.recordCount == 2)
        #expect(again.committedBytes == journal.committedBytes)
        #expect(again.fileBytes == size)
        let reopened = again
        now += 10
        let next = tick(now: now)
        try reopened.append(.change(next))
        try reopened.commit()
        try expected.replay(next)
        let file = try fileBytes(journal.path)
        #expect(file.count == size)
        #expect(file[reopened.committedBytes...].allSatisfy { $0 == 0 })
        #expect(try rooms(in: directory) == [expected])
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory).allSatisfy { !$0.contains(".tail-") })

        // Records that reach the end of the zeros write the next step of them.
        while reopened.committedBytes < size {
            now += 10
            let more = tick(now: now)
            try reopened.append(.change(more))
            try reopened.commit()
            try expected.replay(more)
        }
        let grown = try fileBytes(journal.path)
        #expect(grown.count > size && grown.count % 4_096 == 0)
        #expect(grown.count >= reopened.committedBytes + 2_048)
        #expect(grown[reopened.committedBytes...].allSatisfy { $0 == 0 })
        #expect(try rooms(in: directory) == [expected])
    }

    /// The rewrite that compacts the journal (or mends it) writes zeros ahead too, and a journal that has them
    /// reads as whole in `spyd state check`.
    @Test func aRewrittenJournalHasZerosAheadAndLoads() throws {
        let directory = try privateDirectory()
        var policy = Journal.Policy()
        policy.preallocationBytes = 8_192
        let (journal, _) = try Journal.open(directory: directory, now: 0, policy: policy) { Issue.record("\($0)") }
        let rooms = [snapshot("AAAA"), snapshot("BBBB")]
        try journal.rewrite(rooms)
        let file = try fileBytes(journal.path)
        #expect(file.count % 8_192 == 0 && file.count >= journal.committedBytes + 4_096)
        #expect(file[journal.committedBytes...].allSatisfy { $0 == 0 })
        #expect(try self.rooms(in: directory) == rooms)
        let parsed = JournalFormat.parse(file)
        #expect(parsed.tailProblem == nil && parsed.tailBytes == 0)
        #expect(parsed.goodBytes == journal.committedBytes)
        #expect(parsed.preallocatedBytes == file.count - journal.committedBytes)
    }

    @Test func aFlippedBitInTheLastRecordIsCaughtByItsChecksum() throws {
        let directory = try privateDirectory()
        let (journal, _) = try Journal.open(directory: directory, now: 0) { Issue.record("\($0)") }
        let before = snapshot()
        try journal.append(.snapshot(before))
        try journal.commit()
        let start = journal.committedBytes
        try journal.append(.change(join("Bo", now: 10)))
        try journal.commit()
        var bytes = try fileBytes(journal.path)
        for offset in stride(from: start, to: journal.committedBytes, by: 7) {
            bytes[offset] ^= 0x10
            let copy = try privateDirectory()
            try Data(bytes).write(to: URL(fileURLWithPath: "\(copy)/\(Journal.fileName)"))
            var warnings: [String] = []
            #expect(try rooms(in: copy, warnings: &warnings) == [before], "flip at \(offset)")
            #expect(warnings.contains { $0.contains("not trusted") })
            bytes[offset] ^= 0x10
        }

        // A byte that is not zero among the zeros after the last record is a tail that cannot be trusted too; the
        // records before it all load.
        var after = before
        try after.replay(join("Bo", now: 10))
        #expect(bytes.count > journal.committedBytes + 100)
        bytes[journal.committedBytes + 100] = 1
        let copy = try privateDirectory()
        try Data(bytes).write(to: URL(fileURLWithPath: "\(copy)/\(Journal.fileName)"))
        var warnings: [String] = []
        #expect(try rooms(in: copy, warnings: &warnings) == [after])
        #expect(warnings.count == 1 && warnings[0].contains("the last 101 bytes are not trusted"), "\(warnings)")
    }

    // MARK: Snapshots and compaction

    @Test func snapshotsAreDueByChangesAndTheFileIsCompactedBehindThem() throws {
        let directory = try privateDirectory()
        var policy = Journal.Policy()
        policy.eventsPerSnapshot = 3
        policy.compactAfterBytes = 2_000
        let (journal, _) = try Journal.open(directory: directory, now: 0, policy: policy) { Issue.record("\($0)") }
        var room = snapshot()
        try journal.append(.snapshot(room))
        for (number, name) in ["Bo", "Cy", "Dee"].enumerated() {
            #expect(journal.roomsDueForSnapshot.isEmpty)
            let change = join(name, now: Millis(number))
            try journal.append(.change(change))
            try room.replay(change)
        }
        #expect(journal.roomsDueForSnapshot == ["KFRW"])
        try journal.append(.snapshot(room))
        #expect(journal.roomsDueForSnapshot.isEmpty)
        for _ in 0..<6 { try journal.append(.snapshot(room)) }
        try journal.commit()
        #expect(journal.wantsCompaction)
        let large = journal.committedBytes
        try journal.rewrite([room])
        #expect(!journal.wantsCompaction)
        #expect(journal.committedBytes < large / 3)
        #expect(try rooms(in: directory) == [room])
    }

    // MARK: Older state directories and what is refused

    @Test func roomFilesOfAnOlderHostMoveIntoTheJournal() throws {
        let directory = try privateDirectory()
        try OlderRoomFile.write(snapshot("AAAA"), in: directory)
        try OlderRoomFile.write(snapshot("BBBB"), in: directory)
        var warnings: [String] = []
        let found = try rooms(in: directory, warnings: &warnings)
        #expect(Set(found.map(\.room.code)) == ["AAAA", "BBBB"])
        #expect(warnings.count == 1 && warnings[0].contains("2 room file(s)"))
        let names = try FileManager.default.contentsOfDirectory(atPath: directory)
        #expect(names.contains("room-AAAA.json.migrated") && names.contains("room-BBBB.json.migrated"))
        #expect(!names.contains("room-AAAA.json"))

        // A start that stopped before the files were set aside sets them aside the next time.
        rename("\(directory)/room-AAAA.json.migrated", "\(directory)/room-AAAA.json")
        #expect(Set(try rooms(in: directory, warnings: &warnings).map(\.room.code)) == ["AAAA", "BBBB"])
        #expect(!FileManager.default.fileExists(atPath: "\(directory)/room-AAAA.json"))

        // A room file the journal was not made from is refused, not dropped.
        try OlderRoomFile.write(snapshot("CCCC"), in: directory)
        #expect(throws: StorageError.self) { _ = try Journal.open(directory: directory, now: 0) { _ in } }
        #expect(FileManager.default.fileExists(atPath: "\(directory)/room-CCCC.json"))
    }

    @Test func aSymlinkedOrNewerJournalStopsTheStart() throws {
        let directory = try privateDirectory()
        let elsewhere = try privateDirectory() + "/target"
        try Data(JournalFormat.header()).write(to: URL(fileURLWithPath: elsewhere))
        #expect(symlink(elsewhere, "\(directory)/\(Journal.fileName)") == 0)
        #expect(throws: StorageError.self) { _ = try Journal.open(directory: directory, now: 0) { _ in } }

        let newer = try privateDirectory()
        try Data(JournalFormat.header(version: 2)).write(to: URL(fileURLWithPath: "\(newer)/\(Journal.fileName)"))
        let error = #expect(throws: StorageError.self) { _ = try Journal.open(directory: newer, now: 0) { _ in } }
        #expect(error?.description.contains("format 2") == true)
    }

    @Test func aFileThatIsNotAJournalIsMovedAside() throws {
        let directory = try privateDirectory()
        try Data("not a journal at all".utf8).write(to: URL(fileURLWithPath: "\(directory)/\(Journal.fileName)"))
        var warnings: [String] = []
        #expect(try rooms(in: directory, warnings: &warnings).isEmpty)
        #expect(warnings.contains { $0.contains("moved aside") })
        let names = try FileManager.default.contentsOfDirectory(atPath: directory)
        #expect(names.contains { $0.hasPrefix("\(Journal.fileName).corrupt-") })
        #expect(JournalFormat.headerProblem(try fileBytes("\(directory)/\(Journal.fileName)")) == nil)
    }
}
