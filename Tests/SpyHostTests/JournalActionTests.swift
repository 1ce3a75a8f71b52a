import Foundation
import SpyGame
import SpyHostHarness
import SpyProtocol
import Testing

@testable import SpyHost

/// The journal as the core sees it: records, commits and rewrites are actions the shell carries out and answers;
/// the core itself touches no file.
@Suite struct JournalActionTests {
    private static func kept(_ code: String) -> RoomSnapshot {
        RoomSnapshot(room: Room(code: code, seed: 5), tokens: [:], permanent: true, bots: BotMemory())
    }

    private static func rewrites(in actions: [HostAction]) -> [[String]] {
        actions.compactMap {
            if case .rewrite(let snapshots) = $0 { return snapshots.map(\.room.code) }
            return nil
        }
    }

    @Test func aJournalThatHeldRecordsItCouldNotTrustIsRewrittenByTheShellAheadOfTheFirstCommit() throws {
        let storage = FakeStorage()
        storage.recovered = [Self.kept("AAAA")]
        storage.needsRewrite = true
        let host = EmbeddedHost(storage: storage)
        #expect(Self.rewrites(in: host.actions) == [["AAAA"]])
        #expect(Array(storage.events.prefix(2)) == ["rewrite", "commit"])
        #expect(storage.committed.first == "rewrite of 1 rooms")
        #expect(host.core.roomOrder == ["AAAA"])
    }

    @Test func aJournalThatDidNotNeedItIsNotRewrittenAtStart() throws {
        let storage = FakeStorage()
        storage.recovered = [Self.kept("AAAA")]
        let host = EmbeddedHost(storage: storage)
        #expect(Self.rewrites(in: host.actions).isEmpty)
        #expect(storage.events == ["commit"])
    }

    @Test func aJournalGrownLargeIsRewrittenAfterTheCommitAndBeforeTheWakesBytesLeave() throws {
        let storage = FakeStorage()
        let host = EmbeddedHost(storage: storage)
        let ann = try host.join("Ann")
        _ = host.messages(on: ann.connection)
        storage.events = []
        storage.compactAfterNextCommit = true
        try host.send(.settings(.init(maxPlayers: 8)), on: ann.connection)
        #expect(storage.events == ["commit", "rewrite", "send \(ann.connection)"])
        #expect(Self.rewrites(in: host.actions).last == host.core.roomOrder)
        // The room plays on, its change heard.
        #expect(host.messages(on: ann.connection).contains { if case .room = $0 { return true } else { return false } })
    }

    @Test func aJournalThatCannotBeRewrittenKeepsRefusingUntilARewriteWorks() throws {
        let storage = FakeStorage()
        let host = EmbeddedHost(storage: storage)
        let ann = try host.join("Ann")
        storage.failNextCommit = true
        try host.send(.settings(.init(maxPlayers: 8)), on: ann.connection)
        #expect(EmbeddedHost.errors(in: host.messages(on: ann.connection)) == [.hostStorage])
        // The sweep asks for the rewrite; it fails, and the room still refuses moves.
        storage.rewriteFails = true
        host.advance(seconds: 1)
        #expect(storage.events.suffix(1) == ["rewrite failed"])
        try host.send(.settings(.init(maxPlayers: 9)), on: ann.connection)
        #expect(EmbeddedHost.errors(in: host.messages(on: ann.connection)) == [.hostStorage])
        // The next sweep's rewrite works: the room plays again, from the settings it had on disk.
        storage.rewriteFails = false
        host.advance(seconds: 1)
        #expect(!storage.isFailing)
        try host.send(.settings(.init(maxPlayers: 9)), on: ann.connection)
        #expect(EmbeddedHost.errors(in: host.messages(on: ann.connection)).isEmpty)
        #expect(host.core.rooms.values.first?.room.settings.maxPlayers == 9)
        guard case .snapshot(let written)? = storage.records.first else {
            Issue.record("the rewrite wrote no snapshot")
            return
        }
        #expect(written.room.settings.maxPlayers != 8)
    }

    /// The core decides; the shell does. Nothing in the core's sources reaches a file, a clock or the system.
    @Test func theCoreReachesNoFileClockOrSystem() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/SpyHost")
        let files = try FileManager.default.contentsOfDirectory(atPath: sources.path).filter { $0.hasSuffix(".swift") }
        #expect(!files.isEmpty)
        let forbidden = [
            "import Glibc", "import SpyNet", "import SpyStorage", "FileManager", "FileHandle", "Date()", "fsync",
            "fdatasync", "String(contentsOf", "Data(contentsOf", "clock_gettime",
        ]
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for word in forbidden {
                #expect(!text.contains(word), "\(file) holds \(word)")
            }
        }
    }
}
