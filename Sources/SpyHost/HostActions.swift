import SpyGame
import SpyProtocol

/// The two times of one input, both read by the shell: the monotonic clock of its loop (connection deadlines, rates,
/// timers) and the wall clock (room deadlines, which are saved with the room and outlive a restart).
package struct HostTime: Sendable, Equatable {
    /// Monotonic milliseconds.
    package var mono: Int64
    /// Milliseconds since 1970-01-01 UTC.
    package var wall: Int64

    package init(mono: Int64, wall: Int64) {
        self.mono = mono
        self.wall = wall
    }

    /// Monotonic milliseconds.
    package func monoMs() -> Int64 { mono }

    /// Milliseconds since 1970-01-01 UTC.
    package func wallMs() -> Int64 { wall }

    /// The monotonic moment at which the wall clock reads `wallDeadline` (now, when that has passed).
    package func monoMs(atWall wallDeadline: Int64) -> Int64 {
        mono + max(0, wallDeadline - wall)
    }
}

/// A deadline the core keeps: one per connection, one per room, and the once-a-second sweep.
package enum HostTimer: Hashable, Sendable {
    case connection(UInt64)
    case room(String)
    case sweep
}

/// What happened that the core must decide about.
package enum HostInput {
    /// A connection was accepted from `address`.
    case opened(UInt64, address: String)
    /// Bytes arrived on a connection.
    case bytes(UInt64, [UInt8])
    /// The peer closed its side of the connection.
    case endOfStream(UInt64)
    /// Reading from or writing to the connection failed; it is gone.
    case failed(UInt64, String)
    /// A timer the core armed is due.
    case timer(HostTimer)
    /// The shell committed the wake's records (`HostAction.persist`), or says why it could not.
    case committed(CommitOutcome)
    /// The shell rewrote the journal (`HostAction.rewrite`); `failure` says why it could not, the file as it was.
    case rewritten(failure: String?)
    /// The host is stopping: every connection hears goodbye and every room is saved.
    case shutDown
}

/// One wake of the shell's loop, as the core takes it (`HostCore.handle`): what happened, in order, with the bytes
/// each read returned, and what the shell still holds unwritten for each connection, which the output cap counts.
package struct HostWake {
    enum Event {
        case input(HostInput)
        /// Bytes read from a connection: `bytes[range]`.
        case read(UInt64, Range<Int>)
    }

    private(set) var events: [Event] = []
    /// The bytes of every read of the wake, one after another: one buffer, kept from one wake to the next.
    private(set) var bytes: [UInt8] = []
    /// Bytes the shell holds for a connection and has not written yet; a connection not named holds none.
    package var unsent: [UInt64: Int] = [:]

    package init() {}

    package init(_ inputs: [HostInput], unsent: [UInt64: Int] = [:]) {
        events = inputs.map { .input($0) }
        self.unsent = unsent
    }

    /// Whether the wake has no input.
    package var isEmpty: Bool { events.isEmpty }

    package mutating func take(_ input: HostInput) {
        events.append(.input(input))
    }

    /// Bytes a read returned for connection `id`, copied into the wake; reads of one connection in a row join.
    package mutating func read(_ id: UInt64, _ read: UnsafeRawBufferPointer) {
        let start = bytes.count
        bytes.append(contentsOf: read)
        if case .read(id, let range)? = events.last, range.upperBound == start {
            events[events.count - 1] = .read(id, range.lowerBound..<bytes.count)
        } else {
            events.append(.read(id, start..<bytes.count))
        }
    }

    /// The most read bytes whose storage an empty wake keeps for the next: a flood of reads (up to
    /// `maxEventsPerWake` × the read budget, tens of MiB) must not stay allocated after the wake that needed it.
    package static let keptByteCapacity = 1 << 20

    /// Empties the wake, keeping its storage unless a large wake grew it past `keptByteCapacity`.
    package mutating func removeAll() {
        let keep = bytes.capacity <= Self.keptByteCapacity
        events.removeAll(keepingCapacity: keep)
        bytes.removeAll(keepingCapacity: keep)
        unsent.removeAll(keepingCapacity: true)
    }

    /// How many bytes the wake's read buffer can hold without growing.
    package var byteCapacity: Int { bytes.capacity }
}

extension HostWake: ExpressibleByArrayLiteral {
    package init(arrayLiteral inputs: HostInput...) {
        self.init(inputs)
    }
}

/// What the core decided the shell must do. A connection's bytes and its close come at the end of a wake, after
/// the wake's changes are on disk; timers come as they are decided.
package enum HostAction: Equatable, Sendable {
    /// Write these bytes to the connection (the core has already counted them against its output cap).
    case send(UInt64, [UInt8])
    /// Shut the connection's write side once its bytes are written; close it once the peer closes.
    case shutWriteWhenDrained(UInt64)
    /// Close the connection after the bytes sent before; the core has forgotten it.
    case close(UInt64)
    /// Arm (or move) a timer for a monotonic moment; when due, feed `HostInput.timer` back.
    case arm(HostTimer, at: Int64)
    /// Disarm a timer.
    case cancel(HostTimer)
    /// Append the wake's records to the journal and commit them with one write and one sync, then feed the outcome
    /// back (`HostInput.committed`); the wake's bytes wait for it.
    case persist([JournalEntry])
    /// Replace the journal with these snapshots, one per room, atomically; then feed the outcome back
    /// (`HostInput.rewritten`).
    case rewrite([RoomSnapshot])
}

/// Where the core's lines go, with the levels of the shell's log; a line below the level is never built.
package struct HostLog: Sendable {
    private let enabled: @Sendable (LogLevel) -> Bool
    private let write: @Sendable (LogLevel, String) -> Void

    package init(
        enabled: @escaping @Sendable (LogLevel) -> Bool, write: @escaping @Sendable (LogLevel, String) -> Void
    ) {
        self.enabled = enabled
        self.write = write
    }

    package func debug(_ message: @autoclosure () -> String) { line(.debug, message) }
    package func info(_ message: @autoclosure () -> String) { line(.info, message) }
    package func warning(_ message: @autoclosure () -> String) { line(.warning, message) }
    package func error(_ message: @autoclosure () -> String) { line(.error, message) }

    private func line(_ level: LogLevel, _ message: () -> String) {
        if enabled(level) { write(level, message()) }
    }
}

/// One record of the rooms' journal, as the core decides it; the shell encodes and writes it.
package enum JournalEntry: Equatable, Sendable {
    /// A room whole: the journal's record of it starts again here.
    case snapshot(RoomSnapshot)
    /// A change of a room: the event it took at `now` (none when only the host's side changed), the resume tokens
    /// it issued, whether someone but its opener joined.
    case change(room: String, now: Millis, event: RoomEvent?, tokens: [PlayerID: String]?, joinedByOthers: Bool?)
    /// A room closed.
    case closed(String)
}

extension RoomEvent {
    /// Whether the journal records the event as a change, replayed at start. A start carries the bank's pairs, and a
    /// room's own words or the moderator's pair are as large as the room: the room's snapshot is recorded instead.
    package var isRecordedAsChange: Bool {
        switch self {
        case .start, .words, .moderatorPair: return false
        default: return true
        }
    }
}

/// What the shell's commit of a wake came to, with what the journal has learned about itself by it.
package struct CommitOutcome: Sendable, Equatable {
    /// Why the records are not durable, if they are not.
    package var failure: String?
    /// Rooms whose changes since their last snapshot have grown enough to be written whole again.
    package var roomsDueForSnapshot: Set<String>
    /// Whether the journal has grown enough to be rewritten as one snapshot per room.
    package var wantsCompaction: Bool

    package init(failure: String? = nil, roomsDueForSnapshot: Set<String> = [], wantsCompaction: Bool = false) {
        self.failure = failure
        self.roomsDueForSnapshot = roomsDueForSnapshot
        self.wantsCompaction = wantsCompaction
    }
}

/// The rooms the journal held at start, when the host keeps its rooms.
package struct KeptRooms {
    package var rooms: [RoomSnapshot]
    /// The journal holds records that were set aside or not replayed: it is rewritten once the rooms are resumed.
    package var needsRewrite: Bool

    package init(rooms: [RoomSnapshot], needsRewrite: Bool = false) {
        self.rooms = rooms
        self.needsRewrite = needsRewrite
    }
}

/// What a wake changed, to take back should its commit fail.
struct StorageWake {
    /// Each room the wake changed, as it was before (`nil` for a room the journal did not hold yet).
    var before: [String: RoomSnapshot?] = [:]
    /// Connections seated in the wake: a seat that is taken back is refused to them.
    var seated: Set<UInt64> = []
}

/// The host's own settings, as the command line gave them.
package struct HostConfiguration: Sendable {
    package var limits = ServerLimits()
    /// The password every hello must give, if any.
    package var password: String?
    /// The seed of room codes and room randomness; `nil` for fresh randomness for each room.
    package var seed: UInt64?
    /// The settings a new room starts with.
    package var settings = GameSettings()
    /// Rooms the host opens at start and keeps open.
    package var rooms = 1
    /// Bots seated in the first room once its first human is there.
    package var bots = 0
    package var botLevel = BotLevel.normal
    /// The host's locale named no language (`C`, `POSIX`, none set): a new room's word language follows the
    /// interface language its first owner's `hello` gives, when the bank deals enough pairs in it.
    package var languageFromFirstOwner = false

    package init() {}
}

/// Randomness the core cannot make without the system: unguessable resume tokens and room seeds.
package struct HostRandomness: Sendable {
    package var token: @Sendable () -> String
    package var seed: @Sendable () -> UInt64

    package init(token: @escaping @Sendable () -> String, seed: @escaping @Sendable () -> UInt64) {
        self.token = token
        self.seed = seed
    }
}
