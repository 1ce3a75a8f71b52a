import Foundation
import Glibc
import SpyGame
import SpyProtocol
import Testing

@testable import SpyHost
@testable import SpyStorage

/// Recovery as a hostile disk would test it: journals written from the format, every record under a valid
/// checksum, one room's records bad. Only that room is set aside; every other room comes back whole.
@Suite struct RecoveryTests {
    static let now: Int64 = 1_700_000_000_000

    private func privateDirectory() throws -> String {
        let directory = try Scratch.directory()
        chmod(directory.path, 0o700)
        return directory.path
    }

    /// A room of two players, each with a resume token.
    static func room(_ code: String, seed: UInt64 = 3) -> RoomSnapshot {
        var room = Room(code: code, seed: seed)
        _ = room.apply(.join(name: "Amy", bot: false), now: 0)
        _ = room.apply(.join(name: "Bo", bot: false), now: 0)
        return RoomSnapshot(
            room: room, tokens: ["p1": String(repeating: "a", count: 32), "p2": String(repeating: "b", count: 32)],
            permanent: false, bots: .init(), joinedByOthers: true)
    }

    static func join(_ name: String, _ code: String, now: Millis) -> RoomChange {
        RoomChange(room: code, now: now, event: LoggedEvent(.join(name: name, bot: false)))
    }

    /// The snapshot's JSON as the host writes it, edited as text by `spoil`, which must change it.
    static func spoiled(_ snapshot: RoomSnapshot, _ spoil: (String) -> String) throws -> [UInt8] {
        let text = String(decoding: try StreamingJSONEncoder.encode(snapshot), as: UTF8.self)
        let edited = spoil(text)
        try #require(edited != text, "the edit changed nothing in \(text)")
        return Array(edited.utf8)
    }

    /// Edits of a snapshot's JSON that a host cannot load: values of the wrong type, out of range, out of the rules.
    static let spoilers: [(name: String, edit: @Sendable (String) -> String)] = [
        (
            "nextPlayerNumber 2^64",
            { $0.replacing(#""nextPlayerNumber":3"#, with: #""nextPlayerNumber":18446744073709551616"#) }
        ),
        (
            "nextPlayerNumber 2^63",
            { $0.replacing(#""nextPlayerNumber":3"#, with: #""nextPlayerNumber":9223372036854775808"#) }
        ),
        (
            "nextPlayerNumber Int64.max",
            { $0.replacing(#""nextPlayerNumber":3"#, with: #""nextPlayerNumber":9223372036854775807"#) }
        ),
        ("nextPlayerNumber a string", { $0.replacing(#""nextPlayerNumber":3"#, with: #""nextPlayerNumber":"3""#) }),
        ("nextPlayerNumber 1.5", { $0.replacing(#""nextPlayerNumber":3"#, with: #""nextPlayerNumber":1.5"#) }),
        ("a score as a string", { $0.replacing(#""score":0"#, with: #""score":"0""#, maxReplacements: 1) }),
        ("an unknown phase", { $0.replacing(#""phase":"lobby""#, with: #""phase":"dancing""#) }),
        ("a token that is a number", { $0.replacing(#""p1":"aaaa"#, with: #""p1":7,"x":"aaaa"#) }),
        ("a table of 30", { $0.replacing(#""maxPlayers":10"#, with: #""maxPlayers":30"#) }),
        ("settings that are null", { $0.replacing(#""settings":{"#, with: #""settings":null,"s":{"#) }),
    ]

    /// Opens `bytes` as the journal of a fresh directory, as the host does at start.
    private func open(_ bytes: [UInt8]) throws -> (directory: String, store: DurableRooms, warnings: [String]) {
        let directory = try privateDirectory()
        try Data(bytes).write(to: URL(fileURLWithPath: "\(directory)/\(Journal.fileName)"))
        var warnings: [String] = []
        let store = try DurableRooms(directory: directory, now: Self.now) { warnings.append($0) }
        return (directory, store, warnings)
    }

    @Test(arguments: 0..<spoilers.count)
    func aSnapshotThatDoesNotLoadSetsAsideItsRoomOnly(spoiler: Int) throws {
        let (name, edit) = Self.spoilers[spoiler]
        let bad = try Self.spoiled(Self.room("BBBB"), edit)
        var expected = [Self.room("AAAA"), Self.room("CCCC", seed: 4)]
        try expected[0].replay(Self.join("Cy", "AAAA", now: 10))
        try expected[1].replay(Self.join("Dee", "CCCC", now: 20))
        for first in [true, false] {
            var bytes = JournalFormat.header()
            if first { JournalFormat.frame(kind: 1, payload: bad, into: &bytes) }
            try JournalFormat.frame(.snapshot(Self.room("AAAA")), into: &bytes)
            if !first { JournalFormat.frame(kind: 1, payload: bad, into: &bytes) }
            try JournalFormat.frame(.change(Self.join("Cy", "AAAA", now: 10)), into: &bytes)
            try JournalFormat.frame(.snapshot(Self.room("CCCC", seed: 4)), into: &bytes)
            try JournalFormat.frame(.change(Self.join("Eve", "BBBB", now: 15)), into: &bytes)
            try JournalFormat.frame(.change(Self.join("Dee", "CCCC", now: 20)), into: &bytes)
            let label = "\(name), \(first ? "first" : "in the middle")"

            let (directory, store, warnings) = try open(bytes)
            #expect(store.kept.rooms == expected, "\(label)")
            #expect(store.kept.needsRewrite, "\(label)")
            #expect(warnings.count == 1, "\(label): \(warnings)")
            #expect(warnings.first?.hasPrefix("room BBBB in the journal is corrupt (") == true, "\(label): \(warnings)")
            #expect(warnings.first?.contains("1 later record(s) of it ignored") == true, "\(label): \(warnings)")
            #expect(!warnings.contains { $0.contains("not trusted") }, "\(label)")
            // Kept aside as it was in the journal, byte for byte.
            let aside = "\(directory)/room-BBBB.corrupt-\(Self.now / 1000)"
            #expect(try Data(contentsOf: URL(fileURLWithPath: aside)) == Data(bad), "\(label)")
            // The journal itself is whole: nothing was cut off.
            #expect(store.journal.committedBytes == bytes.count, "\(label)")
            // The room set aside is not the journal's any more: a new room under its code starts with a snapshot.
            #expect(!store.journal.holds("BBBB"), "\(label)")
        }
    }

    @Test func aChangeThatDoesNotDecodeSetsAsideItsRoomAsItStood() throws {
        var bytes = JournalFormat.header()
        try JournalFormat.frame(.snapshot(Self.room("AAAA")), into: &bytes)
        try JournalFormat.frame(.snapshot(Self.room("BBBB")), into: &bytes)
        var before = Self.room("BBBB")
        try JournalFormat.frame(.change(Self.join("Cy", "BBBB", now: 5)), into: &bytes)
        try before.replay(Self.join("Cy", "BBBB", now: 5))
        JournalFormat.frame(kind: 2, payload: Array(#"{"room":"BBBB","now":"soon"}"#.utf8), into: &bytes)
        try JournalFormat.frame(.change(Self.join("Dee", "BBBB", now: 30)), into: &bytes)
        try JournalFormat.frame(.change(Self.join("Eve", "AAAA", now: 40)), into: &bytes)
        var expected = Self.room("AAAA")
        try expected.replay(Self.join("Eve", "AAAA", now: 40))

        let (directory, store, warnings) = try open(bytes)
        #expect(store.kept.rooms == [expected])
        #expect(warnings.count == 1 && warnings[0].contains("room BBBB in the journal is corrupt"), "\(warnings)")
        #expect(warnings.first?.contains("the change at byte") == true, "\(warnings)")
        let aside = try Data(contentsOf: URL(fileURLWithPath: "\(directory)/room-BBBB.corrupt-\(Self.now / 1000)"))
        #expect(try JSONDecoder().decode(RoomSnapshot.self, from: aside) == before)
    }

    @Test func aChangeAtATimeOutOfRangeSetsAsideItsRoom() throws {
        for now in [Int64.max, -1, Room.maxLoadedDeadline + 1] {
            var bytes = JournalFormat.header()
            try JournalFormat.frame(.snapshot(Self.room("AAAA")), into: &bytes)
            try JournalFormat.frame(.snapshot(Self.room("BBBB")), into: &bytes)
            try JournalFormat.frame(
                .change(RoomChange(room: "BBBB", now: now, event: LoggedEvent(.disconnected("p1")))), into: &bytes)
            let (_, store, warnings) = try open(bytes)
            #expect(store.kept.rooms == [Self.room("AAAA")], "\(now)")
            #expect(warnings.count == 1 && warnings[0].contains("a time out of range"), "\(now): \(warnings)")
        }
    }

    /// A later snapshot of the room replaces everything before it, the bad record included.
    @Test func aLaterSnapshotOfTheRoomReplacesTheBadRecord() throws {
        var bytes = JournalFormat.header()
        let bad = try Self.spoiled(Self.room("BBBB"), Self.spoilers[0].edit)
        JournalFormat.frame(kind: 1, payload: bad, into: &bytes)
        try JournalFormat.frame(.change(Self.join("Cy", "BBBB", now: 5)), into: &bytes)
        try JournalFormat.frame(.snapshot(Self.room("BBBB", seed: 8)), into: &bytes)
        let (_, store, warnings) = try open(bytes)
        #expect(store.kept.rooms == [Self.room("BBBB", seed: 8)])
        #expect(warnings.isEmpty, "\(warnings)")
    }

    /// A record whose room cannot be told (not JSON, no room code, a kind this host does not write) is skipped;
    /// every room around it loads.
    @Test func aRecordThatNamesNoRoomIsSkipped() throws {
        let strays: [(UInt8, String)] = [
            (1, "not json at all"), (1, #"{"room":{"seats":[]}}"#), (2, #"{"now":5}"#), (3, ""), (4, "[1,2]"),
            (9, #"{"room":"AAAA"}"#),
        ]
        for (kind, payload) in strays {
            var bytes = JournalFormat.header()
            try JournalFormat.frame(.snapshot(Self.room("AAAA")), into: &bytes)
            JournalFormat.frame(kind: kind, payload: Array(payload.utf8), into: &bytes)
            try JournalFormat.frame(.snapshot(Self.room("BBBB")), into: &bytes)
            let (_, store, warnings) = try open(bytes)
            #expect(store.kept.rooms.map(\.room.code) == ["AAAA", "BBBB"], "\(kind) \(payload)")
            #expect(store.kept.needsRewrite)
            #expect(warnings.count == 1 && warnings[0].contains("is skipped"), "\(kind) \(payload): \(warnings)")
        }
    }

    /// Only a room code names the file a room is set aside to: a code that climbs out of the directory names none.
    @Test func aRoomCodeThatIsAPathNamesNoFile() throws {
        var hostile = Self.room("AAAA")
        hostile.room = try JSONDecoder().decode(
            Room.self,
            from: Data(
                String(decoding: try JSONEncoder().encode(hostile.room), as: UTF8.self)
                    .replacing(#""code":"AAAA""#, with: #""code":"..\/..\/..\/tmp\/x\u001b[2J""#).utf8))
        var bytes = JournalFormat.header()
        try JournalFormat.frame(.snapshot(hostile), into: &bytes)
        try JournalFormat.frame(.snapshot(Self.room("BBBB")), into: &bytes)
        let (directory, store, warnings) = try open(bytes)
        #expect(store.kept.rooms.map(\.room.code) == ["BBBB"])
        let names = try FileManager.default.contentsOfDirectory(atPath: directory)
        #expect(names.contains("room-at-16.corrupt-\(Self.now / 1000)"), "\(names)")
        #expect(warnings.count == 1 && !warnings[0].contains("\u{1b}"), "\(warnings)")
    }

    /// A record larger than the reader's window is checked as it streams and then read whole; a length that
    /// garbage made up, up to the limit, is found out by its checksum without being read into memory first.
    @Test func recordsLargerThanTheWindowLoadAndGarbageLengthsDoNot() throws {
        var large = Self.room("LRGE")
        large.bots.cards = [:]
        large.room = try JSONDecoder().decode(
            Room.self,
            from: Data(
                String(decoding: try JSONEncoder().encode(large.room), as: UTF8.self)
                    .replacing(
                        #""usedPairKeys":[]"#,
                        with: #""usedPairKeys":["# + (0..<20_000).map { "\"key \($0)\"" }.joined(separator: ",") + "]"
                    ).utf8))
        var bytes = JournalFormat.header()
        try JournalFormat.frame(.snapshot(Self.room("AAAA")), into: &bytes)
        let size = try JournalFormat.frame(.snapshot(large), into: &bytes)
        #expect(size > 2 * JournalReader<JournalBytesSource>.windowBytes)
        try JournalFormat.frame(.snapshot(Self.room("BBBB")), into: &bytes)
        let whole = JournalFormat.parse(bytes)
        #expect(whole.rooms.rooms.map(\.snapshot) == [Self.room("AAAA"), large, Self.room("BBBB")])
        #expect(whole.tailProblem == nil)

        // The same bytes behind a header that claims 16 MiB: a checksum that does not match, a tail.
        var claimed = Array(bytes[..<(bytes.count - 8)])
        let cut = JournalFormat.parse(claimed)
        #expect(cut.rooms.rooms.count == 2)
        #expect(cut.tailProblem == "a record cut short")
        claimed = JournalFormat.header()
        JournalFormat.append(UInt32(JournalFormat.maxPayloadBytes), to: &claimed)
        claimed += [UInt8](repeating: 0x5A, count: JournalFormat.maxPayloadBytes + 100)
        let garbage = JournalFormat.parse(claimed)
        #expect(garbage.tailProblem == "a record whose checksum does not match")
        #expect(garbage.goodBytes == JournalFormat.headerBytes)
        var tooLong = JournalFormat.header()
        JournalFormat.append(UInt32(JournalFormat.maxPayloadBytes + 1), to: &tooLong)
        tooLong += [1, 2, 3, 4, 5, 6, 7, 8, 9]
        let refused = JournalFormat.parse(tooLong)
        #expect(refused.tailProblem == "a record length of \(JournalFormat.maxPayloadBytes + 1) bytes")
    }

    /// The reader's window moves through a file of many records exactly as through the bytes in memory.
    @Test func theFileIsReadTheSameWindowByWindow() throws {
        let directory = try privateDirectory()
        let (journal, _) = try Journal.open(directory: directory, now: Self.now) { Issue.record("\($0)") }
        var expected = Self.room("AAAA")
        try journal.append(.snapshot(expected))
        for number in 0..<3_000 {
            let change = RoomChange(
                room: "AAAA", now: Millis(number), event: LoggedEvent(.tick),
                tokens: ["p1": String(repeating: "c", count: 32)])
            try journal.append(.change(change))
            try expected.replay(change)
        }
        try journal.commit()
        #expect(journal.committedBytes > 4 * JournalReader<JournalBytesSource>.windowBytes)
        let reopened = try DurableRooms(directory: directory, now: Self.now) { Issue.record("\($0)") }
        #expect(reopened.kept.rooms == [expected])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: journal.path)))
        #expect(JournalFormat.parse(bytes).rooms.rooms.map(\.snapshot) == [expected])
    }
}
