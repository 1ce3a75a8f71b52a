import Foundation
import Glibc
import SpyGame
import Testing

@testable import SpyHost
@testable import SpyStorage

/// The shell's side of the journal: a wake's records committed as the core hands them out, what a failed commit
/// leaves, and what a rewrite mends.
@Suite struct DurableRoomsTests {
    private func snapshot(_ code: String, players: [String]) -> RoomSnapshot {
        var room = Room(code: code, seed: 5)
        for name in players { _ = room.apply(.join(name: name, bot: false), now: 0) }
        return RoomSnapshot(room: room, tokens: [:], permanent: true, bots: BotMemory())
    }

    private func join(_ name: String, in code: String, now: Millis) -> JournalEntry {
        .change(room: code, now: now, event: .join(name: name, bot: false), tokens: nil, joinedByOthers: true)
    }

    private func scratch() throws -> String {
        let directory = try Scratch.directory().path
        chmod(directory, 0o700)
        return directory
    }

    /// A commit that fails says why, and the journal refuses every later commit until a rewrite mends it; what the
    /// rewrite wrote, and what was committed after it, is what the next start finds.
    @Test func aFailedCommitRefusesChangesUntilARewrite() throws {
        let directory = try scratch()
        defer {
            for path in [directory, directory + ".away"] { try? FileManager.default.removeItem(atPath: path) }
        }
        let store = try DurableRooms(directory: directory, now: 0) { Issue.record("\($0)") }
        let first = snapshot("AAAA", players: ["Amy"])
        #expect(store.commit([.snapshot(first), join("Bo", in: "AAAA", now: 1)]).failure == nil)

        #expect(rename(directory, directory + ".away") == 0)
        #expect(store.commit([join("Cy", in: "AAAA", now: 2)]).failure != nil)
        #expect(rename(directory + ".away", directory) == 0)
        #expect(store.isFailing)
        #expect(store.commit([join("Cy", in: "AAAA", now: 2)]).failure != nil, "a broken journal takes nothing")

        var mended = first
        _ = mended.room.apply(.join(name: "Bo", bot: false), now: 1)
        try store.rewrite([mended])
        #expect(!store.isFailing)
        #expect(store.commit([join("Dee", in: "AAAA", now: 3)]).failure == nil)
        let reopened = try DurableRooms(directory: directory, now: 0) { Issue.record("at start: \($0)") }
        let room = try #require(reopened.kept.rooms.first?.room)
        #expect(room.playerIDs.compactMap(room.name(of:)) == ["Amy", "Bo", "Dee"])
    }

    /// A room closed and a new one opened under the same code within one wake: the new room's first change comes
    /// after a snapshot of its own, so the next start finds it as it is.
    @Test func aCodeClosedAndOpenedAgainWithinAWakeIsFoundAgainAtStart() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try DurableRooms(directory: directory, now: 0) { Issue.record("\($0)") }
        #expect(
            store.commit([.snapshot(snapshot("RRRR", players: ["Amy"])), join("Bo", in: "RRRR", now: 1)]).failure == nil
        )
        let wake: [JournalEntry] = [
            join("Cy", in: "RRRR", now: 2), .closed("RRRR"), .snapshot(snapshot("RRRR", players: ["Dee"])),
            join("Eve", in: "RRRR", now: 3),
        ]
        #expect(store.commit(wake).failure == nil)

        let reopened = try DurableRooms(directory: directory, now: 0) { Issue.record("at start: \($0)") }
        #expect(reopened.kept.rooms.map(\.room.code) == ["RRRR"])
        // The first room had three seats when it closed; the second has two.
        #expect(reopened.kept.rooms.first?.room.playerIDs.count == 2)
        #expect(!reopened.kept.needsRewrite)
    }
}
