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
        case .start, .words: return nil
        }
    }

    /// Whether the event has a logged form (all but a `start`), without making it.
    static func logs(_ event: RoomEvent) -> Bool {
        switch event {
        case .start, .words: return false
        default: break
        }
        return true
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

    /// The record a checksummed payload holds; `nil` when the bytes do not make one.
    init?(kind: UInt8, payload: ArraySlice<UInt8>) {
        let data = Data(payload)
        let decoder = JSONDecoder()
        switch Kind(rawValue: kind) {
        case .snapshot:
            guard let snapshot = try? decoder.decode(RoomSnapshot.self, from: data) else { return nil }
            self = .snapshot(snapshot)
        case .change:
            guard let change = try? decoder.decode(RoomChange.self, from: data) else { return nil }
            self = .change(change)
        case .closed:
            guard let code = String(validating: payload, as: UTF8.self), !code.isEmpty else { return nil }
            self = .closed(code)
        case .migrated:
            guard let files = try? decoder.decode([String: UInt32].self, from: data) else { return nil }
            self = .migrated(files)
        case nil:
            return nil
        }
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

    struct RecordTooLarge: Error, CustomStringConvertible {
        var bytes: Int
        var description: String { "a record of \(bytes) bytes is larger than a journal record may be" }
    }

    /// What the bytes of a journal hold.
    package struct Parsed {
        /// Each whole, checksummed record with its offset.
        package var records: [(offset: Int, record: JournalRecord)] = []
        /// Bytes up to the end of the last good record.
        package var goodBytes = 0
        /// Why the bytes after `goodBytes` are not records, when some of them are not zero.
        package var tailProblem: String?
        /// Bytes of the torn or corrupt tail, up to its last byte that is not zero (0 when the tail is whole).
        package var tailBytes = 0
        /// Zeros after the last record: space the host wrote ahead for its next records, not a tail.
        package var preallocatedBytes = 0
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

    /// The records of a journal whose header is good, up to the first one that is torn or corrupt. Where the
    /// records stop, the rest of the file is either all zeros (written ahead by the host: the journal ends there,
    /// whole) or a tail that cannot be trusted. No record is all zeros: its checksum covers its nonzero kind.
    package static func parse(_ bytes: [UInt8]) -> Parsed {
        var parsed = parseRecords(bytes)
        if let last = bytes.lastIndex(where: { $0 != 0 }), last >= parsed.goodBytes {
            parsed.tailBytes = last + 1 - parsed.goodBytes
        } else {
            parsed.tailProblem = nil
            parsed.preallocatedBytes = bytes.count - parsed.goodBytes
        }
        return parsed
    }

    private static func parseRecords(_ bytes: [UInt8]) -> Parsed {
        var parsed = Parsed(goodBytes: headerBytes)
        var offset = headerBytes
        while offset < bytes.count {
            guard bytes.count - offset >= recordHeaderBytes else {
                parsed.tailProblem = "a record header cut short"
                break
            }
            let length = Int(uint32(bytes, at: offset))
            let checksum = uint32(bytes, at: offset + 4)
            guard length <= maxPayloadBytes else {
                parsed.tailProblem = "a record length of \(length) bytes"
                break
            }
            let end = offset + recordHeaderBytes + length
            guard end <= bytes.count else {
                parsed.tailProblem = "a record cut short"
                break
            }
            guard CRC32C.checksum(bytes[(offset + 8)..<end]) == checksum else {
                parsed.tailProblem = "a record whose checksum does not match"
                break
            }
            guard let record = JournalRecord(kind: bytes[offset + 8], payload: bytes[(offset + 9)..<end]) else {
                parsed.tailProblem = "a checksummed record that is not one this host writes"
                break
            }
            parsed.records.append((offset, record))
            offset = end
            parsed.goodBytes = end
        }
        return parsed
    }
}
