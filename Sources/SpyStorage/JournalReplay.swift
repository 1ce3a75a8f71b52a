import Foundation
import SpyGame
import SpyHost
import SpyProtocol

extension RoomSnapshot {
    /// Carries out a logged change the way the host did: the event through `Room.apply` at its time, the bots
    /// learning from exactly the messages the host handed them, seats the room gave up losing their tokens, then
    /// the host's own changes.
    mutating func replay(_ change: RoomChange) throws(Rejection) {
        if let logged = change.event {
            guard let event = logged.event else {
                throw Rejection(.internal, "a logged \(logged.kind.rawValue) event lacks a field")
            }
            let effects = try room.apply(event, now: change.now).get()
            var driver = BotDriver(memory: bots)
            driver.learn(from: effects, in: room)
            bots = driver.memory
            for case .removed(let player, _) in effects { tokens[player] = nil }
        }
        for (player, token) in change.tokens ?? [:] { tokens[player] = token }
        if let joined = change.joinedByOthers { joinedByOthers = joined }
    }
}

/// The rooms a journal's records hold: each room's last snapshot with its later changes replayed.
package struct JournalRooms {
    /// What is known of one room.
    package struct Entry {
        package var snapshot: RoomSnapshot
        /// Changes replayed after the snapshot.
        package var changes = 0
        /// The room clock of the last change replayed.
        package var lastChange: Millis?
        /// When the snapshot was written, if the host said.
        package var savedAt: Int64? { snapshot.savedAt }
    }

    /// The rooms, in the order they first appear.
    package var rooms: [Entry] = []
    /// Rooms whose records cannot be trusted, with why: they are reported, not loaded.
    package var refused: [(code: String, problem: String, snapshot: RoomSnapshot)] = []
    /// Changes that did not replay; the room is kept as it was before the first of them.
    package var unreplayed: [(code: String, problem: String)] = []

    package init(_ records: [JournalRecord]) {
        var order: [String] = []
        var latest: [String: (snapshot: RoomSnapshot?, changes: [RoomChange])] = [:]
        for record in records {
            switch record {
            case .snapshot(let snapshot):
                let code = snapshot.room.code
                if latest[code] == nil { order.append(code) }
                latest[code] = (snapshot, [])
            case .change(let change):
                // A change before any snapshot of its room cannot be replayed; the host never writes one.
                guard latest[change.room]?.snapshot != nil else {
                    unreplayed.append((change.room, "a change of a room the journal holds no snapshot of"))
                    continue
                }
                latest[change.room]?.changes.append(change)
            case .closed(let code):
                latest[code] = nil
                order.removeAll { $0 == code }
            case .migrated:
                break
            }
        }
        for code in order {
            guard let (first, changes) = latest[code], var snapshot = first else { continue }
            if snapshot.format != 1 {
                refused.append((code, "unknown format \(snapshot.format)", snapshot))
                continue
            }
            if let wrong = snapshot.room.integrityProblem ?? snapshot.integrityProblem {
                refused.append((code, wrong, snapshot))
                continue
            }
            var room = Entry(snapshot: snapshot)
            for change in changes {
                do {
                    try snapshot.replay(change)
                } catch {
                    unreplayed.append((code, "\(error.code.rawValue): \(error.message)"))
                    break
                }
                room.changes += 1
                room.lastChange = change.now
            }
            if let wrong = snapshot.room.integrityProblem ?? snapshot.integrityProblem {
                refused.append((code, "after replay: \(wrong)", snapshot))
                continue
            }
            let seated = Set(snapshot.room.playerIDs)
            snapshot.tokens = snapshot.tokens.filter { seated.contains($0.key) }
            room.snapshot = snapshot
            rooms.append(room)
        }
    }
}
