import Foundation
import SpyBank
import SpyGame
import SpyHost
import SpyProtocol
import SpyWeb

/// A `HostCore` driven by hand, with no socket, thread or clock: connections are numbers the test opens, bytes go
/// in as inputs, and the core's actions are carried out on a model of the shell that writes every byte at once.
/// Time moves only with `advance`, which fires the core's timers in the order they fall due, each in a wake of its
/// own, as the shell's loop would.
package final class EmbeddedHost {
    package let core: HostCore
    package let storage: FakeStorage?
    package let lines = LogLines()
    /// The time of the next input.
    package private(set) var now = HostTime(mono: 1_000_000, wall: 1_800_000_000_000)
    /// Every action the core handed out, in order.
    package private(set) var actions: [HostAction] = []
    /// The core's armed timers and when they are due (monotonic ms).
    package private(set) var timers: [HostTimer: Int64] = [:]
    /// Connections the core closed, and those whose write side it shut.
    package private(set) var closed: Set<UInt64> = []
    package private(set) var shut: Set<UInt64> = []
    private var decoders: [UInt64: FrameDecoder] = [:]
    private var received: [UInt64: [ServerMessage]] = [:]
    private var receivedPayloads: [UInt64: [[UInt8]]] = [:]
    private var lastID: UInt64 = 0
    /// Inputs gathered for the next wake.
    private var wake = HostWake()

    /// A core built as `spyd` builds it (`HostCore.assemble`), with the host's defaults (one room, a fixed seed)
    /// changed by `configure`, dealing from `bank`: by default the embedded bank, which a host without sources
    /// plays. Its categories go in every `welcome`, and choices of language, categories and party pairs are
    /// checked against it.
    package convenience init(
        storage: FakeStorage? = nil, bank: [WordPair] = EmbeddedBank.pairs,
        _ configure: (inout HostConfiguration) -> Void = { _ in }
    ) {
        var config = HostConfiguration()
        config.seed = 7
        configure(&config)
        self.init(config: config, bank: bank, storage: storage)
    }

    /// A core built as `spyd` builds it from `config` (as `spyd` makes it of its options), dealing from `bank`.
    package init(config: HostConfiguration, bank: [WordPair], storage: FakeStorage? = nil) {
        let lines = self.lines
        var tokens = SplitMix64(seed: 99)
        let tokenSource = LockedTokens(next: { String(format: "%016llx%016llx", tokens.next(), tokens.next()) })
        self.storage = storage
        core = HostCore.assemble(
            config: config, bank: bank,
            log: HostLog(enabled: { _ in true }, write: { lines.append("\($0): \($1)") }), kept: storage?.kept,
            webSite: WebSite(hostNames: HostNames(machineName: "embedded", publicNames: [])),
            randomness: HostRandomness(token: { tokenSource.take() }, seed: { 1 }), at: now)
        perform(core.handle([], at: now))
    }

    // MARK: Connections

    /// Opens a connection from `address`.
    package func connect(from address: String = "10.0.0.2") -> UInt64 {
        lastID += 1
        decoders[lastID] = FrameDecoder()
        perform(handle(.opened(lastID, address: address)))
        return lastID
    }

    /// Sends `message` as one frame on connection `id`.
    package func send(_ message: ClientMessage, on id: UInt64) throws {
        perform(handle(.bytes(id, try WireCodec.encodeFrame(message))))
    }

    /// Sends `payload`, whatever it holds, as one frame on connection `id`.
    package func send(payload: [UInt8], on id: UInt64) throws {
        send(bytes: try WireCodec.frame(payload), on: id)
    }

    /// Sends raw bytes on connection `id`.
    package func send(bytes: [UInt8], on id: UInt64) {
        perform(handle(.bytes(id, bytes)))
    }

    /// The host shuts down: it says goodbye to every connection.
    package func shutDown() {
        perform(handle(.shutDown))
    }

    /// Adds an input to the wake being gathered, which `endWake` hands to the core.
    package func take(_ input: HostInput) {
        wake.take(input)
    }

    /// Hands the gathered wake to the core, saying the shell still holds `unsent` bytes for those connections, and
    /// returns its actions without carrying them out: the test plays the shell's part.
    package func endWake(unsent: [UInt64: Int] = [:]) -> [HostAction] {
        defer { wake.removeAll() }
        wake.unsent = unsent
        return core.handle(wake, at: now)
    }

    /// One input as a wake of its own, after what was gathered; its actions are not carried out.
    package func handle(_ input: HostInput) -> [HostAction] {
        wake.take(input)
        return endWake()
    }

    /// The peer of connection `id` goes away.
    package func drop(_ id: UInt64) {
        perform(handle(.endOfStream(id)))
    }

    /// Connects and joins the host's room as `name`; returns the connection and the seat.
    package func join(_ name: String) throws -> (connection: UInt64, player: PlayerID) {
        let id = connect()
        try send(.hello(.init(name: name)), on: id)
        for message in messages(on: id) {
            if case .welcome(let welcome) = message { return (id, welcome.you) }
        }
        throw EmbeddedHostError("\(name) was not welcomed: \(lines.text)")
    }

    /// The messages connection `id` has received since the last call.
    package func messages(on id: UInt64) -> [ServerMessage] {
        defer { received[id] = [] }
        return received[id] ?? []
    }

    /// The payloads connection `id` has received since the last call, byte for byte.
    package func payloads(on id: UInt64) -> [[UInt8]] {
        defer { receivedPayloads[id] = [] }
        return receivedPayloads[id] ?? []
    }

    /// The error codes among `messages`.
    package static func errors(in messages: [ServerMessage]) -> [ErrorCode] {
        messages.compactMap {
            if case .error(let error) = $0 { return error.code }
            return nil
        }
    }

    // MARK: Time

    /// Moves the clock `seconds` forward, firing every timer due on the way, each when it falls due.
    package func advance(seconds: Double) {
        let target = now.mono + Int64(seconds * 1000)
        while let (timer, due) = timers.filter({ $0.value <= target }).min(by: { $0.value < $1.value }) {
            move(to: max(due, now.mono))
            timers[timer] = nil
            perform(handle(.timer(timer)))
        }
        move(to: target)
    }

    /// Moves the clock to the first timer due and fires it; false when no timer is armed.
    @discardableResult
    package func fireNextTimer() -> Bool {
        guard let (timer, due) = timers.min(by: { $0.value < $1.value }) else { return false }
        move(to: max(due, now.mono))
        timers[timer] = nil
        perform(handle(.timer(timer)))
        return true
    }

    private func move(to mono: Int64) {
        now = HostTime(mono: mono, wall: now.wall + mono - now.mono)
    }

    // MARK: The shell's part

    private func perform(_ handed: [HostAction]) {
        actions += handed
        for action in handed {
            switch action {
            case .send(let id, let bytes):
                storage?.events.append("send \(id)")
                decoders[id, default: FrameDecoder()].feed(bytes)
                while let payload = try? decoders[id]?.next() {
                    receivedPayloads[id, default: []].append(payload)
                    if let message = try? WireCodec.decode(ServerMessage.self, from: payload) {
                        received[id, default: []].append(message)
                    }
                }
            case .shutWriteWhenDrained(let id):
                shut.insert(id)
            case .close(let id):
                closed.insert(id)
                timers[.connection(id)] = nil
            case .arm(let timer, let deadline):
                timers[timer] = deadline
            case .cancel(let timer):
                timers[timer] = nil
            case .persist(let records):
                guard let storage else { continue }
                perform(handle(.committed(storage.commit(records))))
            case .rewrite(let snapshots):
                guard let storage else { continue }
                perform(handle(.rewritten(failure: storage.rewrite(snapshots))))
            }
        }
    }
}

package struct EmbeddedHostError: Error, CustomStringConvertible {
    package let description: String

    package init(_ description: String) { self.description = description }
}

/// The core's log lines, kept for a test to read.
package final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    package func append(_ line: String) { lock.withLock { lines.append(line) } }

    package var text: String { lock.withLock { lines.joined(separator: "\n") } }
}

/// Resume tokens from a seeded generator, so a test's tokens are the same at every run.
final class LockedTokens: @unchecked Sendable {
    private let lock = NSLock()
    private var next: () -> String

    package init(next: @escaping () -> String) { self.next = next }

    package func take() -> String { lock.withLock { next() } }
}

/// The shell's journal, in memory: it takes the records and rewrites the core hands out, fails when a test says so,
/// and keeps what a restart would find. `events` records commits, rewrites and sends in order.
package final class FakeStorage {
    package init() {}

    /// The rooms the journal holds at start.
    package var recovered: [RoomSnapshot] = []
    package var needsRewrite = false
    package private(set) var isFailing = false
    /// Whether the next commit fails.
    package var failNextCommit = false
    /// Whether rewriting the journal fails.
    package var rewriteFails = false
    /// Whether the next commit that works finds the journal grown enough to be compacted.
    package var compactAfterNextCommit = false
    /// Commits, rewrites and sends, in the order they happened.
    package var events: [String] = []
    /// What was committed, one line a record, and the rewrites.
    package private(set) var committed: [String] = []
    /// The records committed since the last rewrite, and the rooms that rewrite wrote: what a restart replays.
    package private(set) var records: [JournalEntry] = []

    package var kept: KeptRooms { KeptRooms(rooms: recovered, needsRewrite: needsRewrite) }

    package func commit(_ wake: [JournalEntry]) -> CommitOutcome {
        if failNextCommit || isFailing {
            failNextCommit = false
            isFailing = true
            events.append("commit failed")
            return CommitOutcome(failure: "the disk refused the write")
        }
        events.append("commit")
        records += wake
        committed += wake.map {
            switch $0 {
            case .snapshot(let snapshot): "snapshot \(snapshot.room.code)"
            case .change(let room, _, _, _, _): "change \(room)"
            case .closed(let code): "closed \(code)"
            }
        }
        defer { compactAfterNextCommit = false }
        return CommitOutcome(wantsCompaction: compactAfterNextCommit)
    }

    /// Rewrites the journal; returns why it could not.
    package func rewrite(_ snapshots: [RoomSnapshot]) -> String? {
        if rewriteFails {
            events.append("rewrite failed")
            return "the disk refused the rewrite"
        }
        isFailing = false
        events.append("rewrite")
        committed.append("rewrite of \(snapshots.count) rooms")
        records = snapshots.map { .snapshot($0) }
        return nil
    }
}
