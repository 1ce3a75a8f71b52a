import Foundation
import Glibc
import SpyGame
import Testing

@testable import SpyHost
@testable import SpyStorage

/// The wake as the loop sees it: what a failed commit hands back to be taken back, and nothing more.
@Suite struct DurableRoomsTests {
    private func room(_ code: String, players: [String]) -> RoomHost {
        var room = Room(code: code, seed: 5)
        for name in players { _ = room.apply(.join(name: name, bot: false), now: 0) }
        return RoomHost(room: room, permanent: true)
    }

    /// Changes `host`'s room by one join, as the core does: touch first, then record.
    private func join(_ name: String, in host: RoomHost, store: DurableRooms, now: Millis) {
        let before = host.room
        _ = host.room.apply(.join(name: name, bot: false), now: now)
        store.touch(host, roomBefore: before)
        store.recordChange(
            room: host.code, now: now, event: .join(name: name, bot: false), tokens: nil, joinedByOthers: true)
    }

    /// A wake that committed is settled: the next wake's failure takes back only the rooms that wake changed, as
    /// they were when it began (before its first change, however many it made), however many rooms the wakes before
    /// it touched.
    @Test func aFailedCommitHandsBackOnlyItsOwnWake() throws {
        let directory = try Scratch.directory().path
        chmod(directory, 0o700)
        defer {
            for path in [directory, directory + ".away"] { try? FileManager.default.removeItem(atPath: path) }
        }
        let store = try DurableRooms(directory: directory, now: 0) { Issue.record("\($0)") }
        let hosts = (0..<40).map { room(String(format: "R%03d", $0), players: ["Amy"]) }

        for round in 1...3 {
            for host in hosts { join("P\(round)", in: host, store: store, now: Millis(round)) }
            let (wake, failure) = store.commit()
            #expect(failure == nil)
            #expect(wake.before.isEmpty, "a committed wake has nothing to take back")
        }

        let changed = hosts[7]
        let seatsBefore = changed.room.playerIDs
        join("Late", in: changed, store: store, now: 10)
        join("Later", in: changed, store: store, now: 11)
        #expect(rename(directory, directory + ".away") == 0)
        let (wake, failure) = store.commit()
        #expect(failure != nil)
        #expect(Array(wake.before.keys) == [changed.code])
        #expect(wake.before[changed.code]??.room.playerIDs == seatsBefore)
    }

    /// A room closed and a new one opened under the same code within one wake: the new room's first change comes
    /// after a snapshot of its own, so the next start finds it as it is.
    @Test func aCodeClosedAndOpenedAgainWithinAWakeIsFoundAgainAtStart() throws {
        let directory = try Scratch.directory().path
        chmod(directory, 0o700)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try DurableRooms(directory: directory, now: 0) { Issue.record("\($0)") }
        let first = room("RRRR", players: ["Amy"])
        join("Bo", in: first, store: store, now: 1)
        #expect(store.commit().1 == nil)

        join("Cy", in: first, store: store, now: 2)
        store.recordClosed(first.code)
        let second = room("RRRR", players: ["Dee"])
        join("Eve", in: second, store: store, now: 3)
        #expect(store.commit().1 == nil)

        let reopened = try DurableRooms(directory: directory, now: 0) { Issue.record("at start: \($0)") }
        #expect(reopened.recovered.map(\.room.code) == ["RRRR"])
        // The first room had three seats when it closed; the second has two.
        #expect(reopened.recovered.first?.room.playerIDs.count == 2)
    }
}
