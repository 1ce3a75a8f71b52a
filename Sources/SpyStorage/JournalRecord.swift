import Foundation
import SpyGame
import SpyHost
import SpyNet
import SpyProtocol

/// A room event as the journal keeps it. `start` is not among them: it carries the bank's pairs, so the host
/// writes the room's snapshot after a start instead.
package struct LoggedEvent: Codable, Equatable {
    enum Kind: String, Codable {
        case join, connected, disconnected, leave, move, tick, hostRestarted
    }

    var kind: Kind
    var player: PlayerID?
    var name: String?
    var bot: Bool?
    var message: ClientMessage?

    /// The event in logged form; `nil` for a `start`.
    init?(_ event: RoomEvent) {
        switch event {
        case .join(let name, let bot): self.init(kind: .join, name: name, bot: bot)
        case .connected(let player): self.init(kind: .connected, player: player)
        case .disconnected(let player): self.init(kind: .disconnected, player: player)
        case .leave(let player): self.init(kind: .leave, player: player)
        case .move(let player, let message): self.init(kind: .move, player: player, message: message)
        case .tick: self.init(kind: .tick)
        case .hostRestarted: self.init(kind: .hostRestarted)
        case .start, .words, .moderatorPair: return nil
        }
    }

    private init(
        kind: Kind, player: PlayerID? = nil, name: String? = nil, bot: Bool? = nil, message: ClientMessage? = nil
    ) {
        self.kind = kind
        self.player = player
        self.name = name
        self.bot = bot
        self.message = message
    }

    /// The room event again; `nil` when a field the kind needs is missing.
    var event: RoomEvent? {
        switch kind {
        case .join: return name.map { .join(name: $0, bot: bot ?? false) }
        case .connected: return player.map { .connected($0) }
        case .disconnected: return player.map { .disconnected($0) }
        case .leave: return player.map { .leave($0) }
        case .move:
            guard let player, let message else { return nil }
            return .move(player, message)
        case .tick: return .tick
        case .hostRestarted: return .hostRestarted
        }
    }
}

/// One accepted change of a room: the event it applied at `now` (none when only the host's side changed), and
/// what the host changed around it that the event's effects do not say.
package struct RoomChange: Codable, Equatable {
    /// The room's code.
    var room: String
    /// The room clock the event was applied at.
    var now: Millis
    var event: LoggedEvent?
    /// Resume tokens the host issued with this change: a new seat, a seat given back.
    var tokens: [PlayerID: String]?
    /// Set when the change made the room one that someone besides its opener joined.
    var joinedByOthers: Bool?
}

/// A record of the journal.
package enum JournalRecord: Equatable {
    /// A room as a whole; it replaces everything the journal said about the room before.
    case snapshot(RoomSnapshot)
    /// A change after the room's last snapshot.
    case change(RoomChange)
    /// The room closed.
    case closed(String)
    /// The room files of an older host this journal was made from (name → CRC-32C of its bytes), so a start
    /// interrupted before they were set aside knows them again.
    case migrated([String: UInt32])

    enum Kind: UInt8 {
        case snapshot = 1, change = 2, closed = 3, migrated = 4
    }

    var kind: Kind {
        switch self {
        case .snapshot: return .snapshot
        case .change: return .change
        case .closed: return .closed
        case .migrated: return .migrated
        }
    }

    /// The code of the room the record is about (`nil` for `migrated`).
    var roomCode: String? {
        switch self {
        case .snapshot(let snapshot): return snapshot.room.code
        case .change(let change): return change.room
        case .closed(let code): return code
        case .migrated: return nil
        }
    }

    /// Writes the record's payload to `output`.
    func writePayload(to output: inout JSONOutput) throws {
        switch self {
        case .snapshot(let snapshot): output.verbatim(try StreamingJSONEncoder.encode(snapshot))
        case .change(let change): try change.write(to: &output)
        case .closed(let code): output.verbatim(Array(code.utf8))
        case .migrated(let files): output.verbatim(try StreamingJSONEncoder.encode(files))
        }
    }

    /// The record a checksummed payload holds, or why it holds none this host reads (and which room it is about,
    /// when that can be told).
    package static func decode(kind: UInt8, payload: [UInt8]) -> DecodedRecord {
        let data = Data(payload)
        let decoder = JSONDecoder()
        func unreadable(_ error: any Error, room: String?) -> DecodedRecord {
            .unreadable(kind: kind, room: room, problem: DecodedRecord.describe(error, in: data))
        }
        switch Kind(rawValue: kind) {
        case .snapshot:
            do {
                return .record(.snapshot(try decoder.decode(RoomSnapshot.self, from: data)))
            } catch {
                return unreadable(error, room: try? decoder.decode(SnapshotRoom.self, from: data).room.code)
            }
        case .change:
            do {
                return .record(.change(try decoder.decode(RoomChange.self, from: data)))
            } catch {
                return unreadable(error, room: try? decoder.decode(ChangeRoom.self, from: data).room)
            }
        case .closed:
            guard let code = String(validating: payload, as: UTF8.self), !code.isEmpty else {
                return .unreadable(kind: kind, room: nil, problem: "a closing that names no room")
            }
            return .record(.closed(code))
        case .migrated:
            do {
                return .record(.migrated(try decoder.decode([String: UInt32].self, from: data)))
            } catch {
                return unreadable(error, room: nil)
            }
        case nil:
            return .unreadable(
                kind: kind, room: nil, problem: "a record of kind \(kind), which this host does not write")
        }
    }

    /// Only the room's code of a snapshot, to tell whose it is when the rest does not decode.
    private struct SnapshotRoom: Decodable {
        struct Room: Decodable {
            var code: String
        }
        var room: Room
    }

    /// Only the room's code of a change.
    private struct ChangeRoom: Decodable {
        var room: String
    }
}

/// What a record whose checksum matches holds.
package enum DecodedRecord: Equatable {
    case record(JournalRecord)
    /// A payload this host cannot read (a value of the wrong type or out of its range, a field missing, a kind it
    /// does not know): about `room` when its code could still be read.
    case unreadable(kind: UInt8, room: String?, problem: String)

    /// A decoding error of `data` in a few words: where in the payload, and what was wrong there.
    static func describe(_ error: any Error, in data: Data) -> String {
        let context: DecodingError.Context
        var missing: String?
        switch error as? DecodingError {
        case .typeMismatch(_, let found), .valueNotFound(_, let found), .dataCorrupted(let found):
            context = found
        case .keyNotFound(let key, let found):
            context = found
            missing = key.stringValue
        case nil:
            return "it is not JSON this host reads"
        @unknown default:
            return "it is not JSON this host reads"
        }
        // The decoder reports a number that does not fit where it is read (too large, or a fraction where a
        // whole number belongs) as JSON that is not valid, at no path.
        if case .dataCorrupted = error as? DecodingError, context.codingPath.isEmpty,
            (try? JSONSerialization.jsonObject(with: data)) != nil
        {
            return "a number that does not fit the field it is in (too large, or not a whole number)"
        }
        let path =
            (context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue } + [missing].compactMap { $0 })
            .joined(separator: ".")
        let what = missing == nil ? context.debugDescription : "missing"
        return JournalRooms.printable(path.isEmpty ? what : "\(path): \(what)", limit: 160)
    }
}

/// The journal's bytes: a header, then records.
///
///     header:  "SPYJRNL\n" (8 bytes) · format (UInt32 LE) · CRC-32C of the previous 12 bytes (UInt32 LE)
///     record:  payload length N (UInt32 LE) · CRC-32C of kind and payload (UInt32 LE) · kind (1 byte) · payload
package enum JournalFormat {
    static let magic: [UInt8] = Array("SPYJRNL\n".utf8)
    package static let version: UInt32 = 1
    static let headerBytes = 16
    static let recordHeaderBytes = 9
    /// Largest payload a record may have; a room's snapshot is a few KiB.
    static let maxPayloadBytes = 16 << 20

    static func header(version: UInt32 = version) -> [UInt8] {
        var bytes = magic
        append(version, to: &bytes)
        append(CRC32C.checksum(bytes), to: &bytes)
        return bytes
    }

    static func append(_ value: UInt32, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    static func uint32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
            | UInt32(bytes[offset + 3]) << 24
    }

    /// Appends `record`, framed, to `bytes`; returns the framed size. The payload is written after room for the
    /// header, which is filled in once its length and checksum are known; on failure `bytes` is as it was.
    @discardableResult
    static func frame(_ record: JournalRecord, into bytes: inout [UInt8]) throws -> Int {
        var output = JSONOutput(leadingBytes: recordHeaderBytes, capacity: 256)
        try record.writePayload(to: &output)
        return try seal(&output, kind: record.kind, into: &bytes)
    }

    /// Appends the record of a change, framed, to `bytes`; returns the framed size. The same bytes as `frame` of
    /// the `RoomChange` with the event's logged form, written from the event itself: the host does this for nearly
    /// every move, and making the logged form first copies the event's message twice.
    @discardableResult
    static func frameChange(
        room: String, now: Millis, event: RoomEvent?, tokens: [PlayerID: String]?, joinedByOthers: Bool?,
        into bytes: inout [UInt8]
    ) throws -> Int {
        var output = JSONOutput(leadingBytes: recordHeaderBytes, capacity: 256)
        try RoomChange.write(
            room: room, now: now, tokens: tokens, joinedByOthers: joinedByOthers, to: &output
        ) { output in
            guard let event else { return false }
            return try LoggedEvent.write(event, to: &output)
        }
        return try seal(&output, kind: .change, into: &bytes)
    }

    /// Fills in the header `output` left room for (`recordHeaderBytes`, kind last) and appends the record to
    /// `bytes`; returns its framed size.
    private static func seal(
        _ output: inout JSONOutput, kind: JournalRecord.Kind, into bytes: inout [UInt8]
    ) throws -> Int {
        let length = output.byteCount - recordHeaderBytes
        guard length <= maxPayloadBytes else { throw RecordTooLarge(bytes: length) }
        output.withUnsafeMutableBytes { raw in
            raw[recordHeaderBytes - 1] = kind.rawValue
            let checksum = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: raw[(recordHeaderBytes - 1)...]))
            raw.storeBytes(of: UInt32(length).littleEndian, toByteOffset: 0, as: UInt32.self)
            raw.storeBytes(of: checksum.littleEndian, toByteOffset: 4, as: UInt32.self)
        }
        output.append(to: &bytes)
        return output.byteCount
    }

    /// Appends a record of `kind` with `payload` as it stands, framed and checksummed: any bytes at all, the way
    /// a tool (or a test playing a hostile disk) writes them.
    static func frame(kind: UInt8, payload: [UInt8], into bytes: inout [UInt8]) {
        append(UInt32(payload.count), to: &bytes)
        append(CRC32C.checksum([kind] + payload), to: &bytes)
        bytes.append(kind)
        bytes += payload
    }

    struct RecordTooLarge: Error, CustomStringConvertible {
        var bytes: Int
        var description: String { "a record of \(bytes) bytes is larger than a journal record may be" }
    }

    /// Why the header is not one this host reads, if it is not.
    package enum HeaderProblem: Equatable {
        /// Not a journal's header (too short, wrong magic or checksum).
        case notAJournal
        /// A journal of another format.
        case format(UInt32)
    }

    package static func headerProblem(_ bytes: [UInt8]) -> HeaderProblem? {
        guard bytes.count >= headerBytes, Array(bytes[0..<8]) == magic,
            uint32(bytes, at: 12) == CRC32C.checksum(bytes[0..<12])
        else { return .notAJournal }
        let format = uint32(bytes, at: 8)
        return format == version ? nil : .format(format)
    }
}
