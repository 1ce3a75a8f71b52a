import Foundation
import SpyGame
import SpyHost
import SpyNet
import SpyProtocol

/// The host's rooms on disk, seen from the event loop: the changes of one wake, buffered in the journal, and what
/// is needed to take them all back should their commit fail.
///
/// Every accepted change is recorded when the room takes it; the wake's messages wait in the outboxes; at the end
/// of the wake one commit makes every change durable, and only then are the outboxes flushed. When the commit
/// fails, every room the wake touched goes back to its state before the wake, the wake's output is dropped, and
/// the journal refuses changes until it has been rewritten whole.
package final class DurableRooms: HostStorage {
    let journal: Journal
    /// The rooms the journal held at start.
    package let recovered: [RoomSnapshot]
    /// The journal holds records that were set aside or not replayed: the host rewrites it once it has resumed,
    /// so they are reported once, not at every start.
    package let needsRewrite: Bool

    /// This wake's number, which `RoomHost.notedInWake` is compared with.
    private var wakeNumber: UInt64 = 1
    /// Each room this wake changed, as it was before the wake (`nil` for a room the journal did not hold yet), in
    /// the order they were first changed. Kept from one wake to the next, emptied.
    private var noted: [(code: String, before: RoomSnapshot?)] = []
    /// Connections seated in this wake.
    private var seatedInWake: Set<UInt64> = []
    /// A record could not be encoded: the wake cannot commit.
    private var unrecordable: Error?

    /// Opens the journal of `directory` at `now` (wall-clock ms, from the host's clock: it names the files set
    /// aside) and replays it; what it cannot trust is reported through `warn`.
    package init(directory: String, now: Int64, warn: (String) -> Void) throws {
        let (journal, contents) = try Journal.open(directory: directory, now: now, warn: warn)
        self.journal = journal
        let rooms = contents.rooms
        for (offset, problem) in rooms.skipped {
            warn("the journal's record at byte \(offset) is skipped: \(problem)")
        }
        for (code, problem) in rooms.unreplayed {
            warn(
                "room \(JournalRooms.displayName(code)): a change in the journal does not replay "
                    + "(\(JournalRooms.printable(problem, limit: 400))); the "
                    + "room is kept as before it")
        }
        let stamp = now / 1000
        for aside in rooms.refused {
            let bytes: [UInt8]
            switch aside.kept {
            case .record(let offset, let size): bytes = (try? journal.payload(at: offset, size: size)) ?? []
            case .snapshot(let snapshot): bytes = (try? StreamingJSONEncoder.encode(snapshot)) ?? []
            }
            // The code names the file only when it is a room code: the journal's bytes never choose a path.
            let name = JournalRooms.isRoomCode(aside.code) ? "room-\(aside.code)" : "room-at-\(aside.offset)"
            let path = "\(directory)/\(name).corrupt-\(stamp)"
            try? AtomicFile.write(bytes, to: path, mode: 0o600)
            warn(
                "room \(JournalRooms.displayName(aside.code)) in the journal is corrupt "
                    + "(\(JournalRooms.printable(aside.problem, limit: 400))); moved "
                    + "aside to \(path)")
        }
        recovered = rooms.rooms.map(\.snapshot)
        needsRewrite = !rooms.refused.isEmpty || !rooms.unreplayed.isEmpty || !rooms.skipped.isEmpty
    }

    /// Whether the journal refuses changes (a commit failed and the file is not rewritten yet).
    package var isFailing: Bool { journal.isBroken }

    /// Notes a room's state before the wake's first change to it; call before the host's side of the room
    /// (tokens, `joinedByOthers`) changes.
    package func touch(_ host: RoomHost, roomBefore: Room) {
        guard host.notedInWake != wakeNumber else { return }
        host.notedInWake = wakeNumber
        let before = RoomSnapshot(
            room: roomBefore, tokens: host.tokens, permanent: host.permanent, bots: host.bots.memory,
            joinedByOthers: host.joinedByOthers)
        let code = host.code
        if journal.holds(code) {
            noted.append((code, before))
        } else {
            noted.append((code, nil))
            append(.snapshot(before))
        }
    }

    package var roomsDueForSnapshot: Set<String> { journal.roomsDueForSnapshot }

    package var wantsCompaction: Bool { journal.wantsCompaction }

    package func recordsAsChange(_ event: RoomEvent) -> Bool { LoggedEvent.logs(event) }

    package func recordChange(
        room: String, now: Millis, event: RoomEvent?, tokens: [PlayerID: String]?, joinedByOthers: Bool?
    ) {
        do {
            try journal.appendChange(
                room: room, now: now, event: event, tokens: tokens,
                joinedByOthers: joinedByOthers)
        } catch {
            unrecordable = error
        }
    }

    package func recordSnapshot(_ snapshot: RoomSnapshot) { append(.snapshot(snapshot)) }

    package func recordClosed(_ code: String) { append(.closed(code)) }

    package func rewrite(_ snapshots: [RoomSnapshot]) throws { try journal.rewrite(snapshots) }

    func append(_ record: JournalRecord) {
        do {
            try journal.append(record)
        } catch {
            unrecordable = error
        }
    }

    /// Notes a connection seated in this wake.
    package func seated(_ id: UInt64) {
        seatedInWake.insert(id)
    }

    /// Forgets the wake while the journal refuses changes: what it buffered (closings, snapshots) is said again
    /// by the rewrite that mends the journal.
    package func skipWake() {
        journal.discardPending()
        startNextWake()
        unrecordable = nil
    }

    /// Makes the wake's changes durable; on failure returns the wake for the caller to take back (on success an
    /// empty one: nothing is taken back).
    package func commit() -> (StorageWake, (any Error)?) {
        var failure = unrecordable
        unrecordable = nil
        if failure == nil {
            do { try journal.commit() } catch { failure = error }
        } else {
            journal.discardPending()
        }
        defer { startNextWake() }
        guard let failure else { return (StorageWake(), nil) }
        var failed = StorageWake()
        failed.seated = seatedInWake
        // A code closed and opened again within the wake keeps its state before the wake: the first noted.
        failed.before = Dictionary(noted.map { ($0.code, $0.before) }, uniquingKeysWith: { first, _ in first })
        return (failed, failure)
    }

    /// The lists keep their storage: at a hundred rooms a wake, growing them afresh each time moved every room's
    /// state again at each doubling, into newly faulted pages.
    private func startNextWake() {
        wakeNumber += 1
        noted.removeAll(keepingCapacity: true)
        seatedInWake.removeAll(keepingCapacity: true)
    }
}
