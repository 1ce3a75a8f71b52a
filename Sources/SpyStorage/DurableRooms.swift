import Foundation
import SpyGame
import SpyHost
import SpyNet
import SpyProtocol

/// The host's rooms on disk, as the shell writes them for the core: the rooms the journal held at start, each wake's
/// records committed with one write and one sync (`HostAction.persist`), and the journal rewritten whole
/// (`HostAction.rewrite`). When a commit fails, the journal refuses changes until it has been rewritten whole; the
/// core takes the wake back.
package final class DurableRooms {
    let journal: Journal
    /// The rooms the journal held at start, for the core to resume.
    package let kept: KeptRooms

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
        kept = KeptRooms(
            rooms: rooms.rooms.map(\.snapshot),
            needsRewrite: !rooms.refused.isEmpty || !rooms.unreplayed.isEmpty || !rooms.skipped.isEmpty)
    }

    /// Whether the journal refuses changes (a commit failed and the file is not rewritten yet).
    package var isFailing: Bool { journal.isBroken }

    /// Appends a wake's records and makes them durable with one write and one sync; says what came of it, and what
    /// the journal has learned about itself.
    package func commit(_ records: [JournalEntry]) -> CommitOutcome {
        var failure: (any Error)?
        do {
            for record in records {
                switch record {
                case .snapshot(let snapshot): try journal.append(.snapshot(snapshot))
                case .change(let room, let now, let event, let tokens, let joinedByOthers):
                    try journal.appendChange(
                        room: room, now: now, event: event, tokens: tokens, joinedByOthers: joinedByOthers)
                case .closed(let code): try journal.append(.closed(code))
                }
            }
        } catch {
            // A record that cannot be encoded: the wake cannot commit.
            failure = error
            journal.discardPending()
        }
        if failure == nil {
            do { try journal.commit() } catch { failure = error }
        }
        return CommitOutcome(
            failure: failure.map { "\($0)" }, roomsDueForSnapshot: journal.roomsDueForSnapshot,
            wantsCompaction: journal.wantsCompaction)
    }

    /// Replaces the journal with these snapshots, one per room; a failure leaves the file as it was.
    package func rewrite(_ snapshots: [RoomSnapshot]) throws { try journal.rewrite(snapshots) }
}
