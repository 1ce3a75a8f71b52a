import Foundation
import SpyGame
import SpyHost
import SpyProtocol

extension RoomSnapshot {
    /// Carries out a logged change the way the host did, through the same `HostedRoom.take` as live play: the event
    /// at its time, the bots learning from exactly the messages the host handed them, seats the room gave up losing
    /// their tokens, then the host's own changes.
    mutating func replay(_ change: RoomChange) throws(Rejection) {
        var event: RoomEvent?
        if let logged = change.event {
            guard let decoded = logged.event else {
                throw Rejection(.internal, "a logged \(logged.kind.rawValue) event lacks a field")
            }
            event = decoded
        }
        _ = try take(event, at: change.now, joinedByOthers: change.joinedByOthers) { _ in change.tokens }.get()
    }
}

/// The rooms a journal's records hold: each room's last snapshot with its later changes replayed, taken one record
/// at a time as they are read, so that what is kept is the rooms, not the records.
///
/// A record whose checksum matches but whose payload this host cannot read, or reads as values outside the rules,
/// is its room's problem and no other's: the room is set aside (reported, kept on disk, not played) and every other
/// room's records are read on. Its later changes are ignored with it; a later snapshot of the same room replaces
/// everything before it, the bad record included, as a snapshot always does. A record that names no room that can
/// be told is skipped and reported. A change the rules refuse leaves its room as it was before it (its later
/// changes are not replayed either); a room that breaks a rule once replayed is set aside.
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

    /// A room that cannot be trusted: reported and kept aside, not loaded.
    package struct SetAside {
        /// The room's code as the journal gives it (`displayName` for a log line or a file name).
        package var code: String
        package var problem: String
        /// Where the record it was set aside for starts.
        package var offset: Int
        package var kept: Kept
    }

    /// What is kept aside of a room.
    package enum Kept {
        /// The payload of the record at `offset`, `size` bytes framed, as the journal holds it.
        case record(offset: Int, size: Int)
        /// The room as it stood when it broke a rule or met a change that does not decode.
        case snapshot(RoomSnapshot)
    }

    /// The rooms that load, in the order they first appear (after `finish`).
    package private(set) var rooms: [Entry] = []
    /// Rooms whose records cannot be trusted (after `finish`).
    package private(set) var refused: [SetAside] = []
    /// Changes that did not replay; the room is kept as it was before the first of them (after `finish`).
    package private(set) var unreplayed: [(code: String, problem: String)] = []
    /// Records whose room cannot be told, by offset: skipped.
    package private(set) var skipped: [(offset: Int, problem: String)] = []
    /// The room files of an older host the journal was made from, name → CRC-32C.
    package private(set) var migrated: [String: UInt32] = [:]
    /// Records taken.
    package private(set) var recordCount = 0

    /// One room while its records are read.
    private struct Reading {
        var entry: Entry?
        /// Where its snapshot starts.
        var offset = 0
        /// Why a change did not replay: the later ones of this snapshot are not replayed either.
        var stopped: String?
        var setAside: SetAside?
        /// Records of the room ignored since it was set aside.
        var ignored = 0
    }

    private var order: [String] = []
    private var reading: [String: Reading] = [:]

    package init() {}

    /// The rooms `records` hold, all taken and finished.
    package init(_ records: [JournalRecord]) {
        for record in records { take(.record(record), offset: 0, size: 0) }
        finish()
    }

    /// Takes the next record of the journal, which starts at `offset` and is `size` bytes framed.
    package mutating func take(_ decoded: DecodedRecord, offset: Int, size: Int) {
        recordCount += 1
        switch decoded {
        case .record(.snapshot(let snapshot)):
            let code = snapshot.room.code
            if reading[code] == nil { order.append(code) }
            if let problem = Self.problem(of: snapshot) {
                let aside = SetAside(
                    code: code, problem: problem, offset: offset, kept: .record(offset: offset, size: size))
                reading[code] = Reading(offset: offset, setAside: aside)
            } else {
                reading[code] = Reading(entry: Entry(snapshot: snapshot), offset: offset)
            }
        case .record(.change(let change)):
            replay(change, offset: offset)
        case .record(.closed(let code)):
            if reading.removeValue(forKey: code) != nil { order.removeAll { $0 == code } }
        case .record(.migrated(let files)):
            migrated.merge(files) { $1 }
        case .unreadable(let kind, let code?, let problem):
            let what = "the \(Self.kindName(kind)) at byte \(offset) does not decode: \(problem)"
            if kind == JournalRecord.Kind.snapshot.rawValue {
                // Like any snapshot, it replaces what came before it about the room.
                if reading[code] == nil { order.append(code) }
                let aside = SetAside(
                    code: code, problem: what, offset: offset, kept: .record(offset: offset, size: size))
                reading[code] = Reading(offset: offset, setAside: aside)
            } else if var room = reading[code] {
                if room.setAside != nil {
                    room.ignored += 1
                } else if let entry = room.entry {
                    room.setAside = SetAside(code: code, problem: what, offset: offset, kept: .snapshot(entry.snapshot))
                    room.entry = nil
                }
                reading[code] = room
            } else {
                unreplayed.append((code, "a change of a room the journal holds no snapshot of, and \(what)"))
            }
        case .unreadable(let kind, nil, let problem):
            skipped.append((offset, "the \(Self.kindName(kind)) at byte \(offset) names no room: \(problem)"))
        }
    }

    private mutating func replay(_ change: RoomChange, offset: Int) {
        guard var room = reading[change.room] else {
            unreplayed.append((change.room, "a change of a room the journal holds no snapshot of"))
            return
        }
        defer { reading[change.room] = room }
        if room.setAside != nil {
            room.ignored += 1
            return
        }
        guard var entry = room.entry, room.stopped == nil else { return }
        if let problem = Self.problem(of: change) {
            let what = "the change at byte \(offset) \(problem)"
            room.setAside = SetAside(code: change.room, problem: what, offset: offset, kept: .snapshot(entry.snapshot))
            room.entry = nil
            return
        }
        do {
            try entry.snapshot.replay(change)
        } catch {
            room.stopped = "\(error.code.rawValue): \(error.message)"
            return
        }
        entry.changes += 1
        entry.lastChange = change.now
        room.entry = entry
    }

    /// Settles what was read: each room that loads with its tokens kept for its seats only, and what is set aside.
    package mutating func finish() {
        for code in order {
            guard let room = reading[code] else { continue }
            if var aside = room.setAside {
                if room.ignored > 0 { aside.problem += "; \(room.ignored) later record(s) of it ignored with it" }
                refused.append(aside)
                continue
            }
            guard var entry = room.entry else { continue }
            if let stopped = room.stopped { unreplayed.append((code, stopped)) }
            if entry.changes > 0, let wrong = Self.problem(of: entry.snapshot) {
                let aside = SetAside(
                    code: code, problem: "after replay: \(wrong)", offset: room.offset, kept: .snapshot(entry.snapshot))
                refused.append(aside)
                continue
            }
            let seated = Set(entry.snapshot.room.playerIDs)
            entry.snapshot.tokens = entry.snapshot.tokens.filter { seated.contains($0.key) }
            rooms.append(entry)
        }
        order = []
        reading = [:]
    }

    /// Why a snapshot cannot be played, if it cannot.
    static func problem(of snapshot: RoomSnapshot) -> String? {
        if snapshot.format != 1 { return "unknown format \(snapshot.format)" }
        return snapshot.room.integrityProblem ?? snapshot.integrityProblem
    }

    /// Why a change cannot be replayed by the rules at all, if it cannot.
    static func problem(of change: RoomChange) -> String? {
        guard (0...Room.maxLoadedDeadline).contains(change.now) else { return "has a time out of range" }
        if let logged = change.event, logged.event == nil {
            return "has a \(logged.kind.rawValue) event that lacks a field"
        }
        return nil
    }

    private static func kindName(_ kind: UInt8) -> String {
        switch JournalRecord.Kind(rawValue: kind) {
        case .snapshot: return "snapshot"
        case .change: return "change"
        case .closed: return "closing"
        case .migrated: return "list of migrated files"
        case nil: return "record of kind \(kind)"
        }
    }

    /// Whether `code` is a room code (four letters A–Z), fit to be part of a file name.
    package static func isRoomCode(_ code: String) -> Bool {
        code.utf8.count == 4 && code.utf8.allSatisfy { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }
    }

    /// A room's code as a log line shows it: a code the journal gives that is not a room code is quoted, with
    /// what a terminal would act on replaced.
    package static func displayName(_ code: String) -> String {
        isRoomCode(code) ? code : "\"\(printable(code, limit: 16))\""
    }

    /// `text` without control or format characters (each a `?`), cut to `limit` characters.
    package static func printable(_ text: String, limit: Int) -> String {
        var shown = String.UnicodeScalarView()
        for (index, scalar) in text.unicodeScalars.enumerated() {
            guard index < limit else {
                shown.append("…")
                break
            }
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned:
                shown.append("?")
            default:
                shown.append(scalar)
            }
        }
        return String(shown)
    }
}
