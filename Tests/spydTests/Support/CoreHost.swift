import Foundation
import SpyBank
import SpyHost
import SpyHostHarness
import SpyNet
import SpyProtocol
import SpyTestSupport

@testable import spyd

/// The host as `spyd --host` builds it from its arguments (`HostCommand`, `Spyd.loadBank`, `Spyd.settle`,
/// `HostCore.assemble`), driven in the test's own process with no socket, thread or clock: each connection is an
/// `EmbeddedHost` connection from 127.0.0.1, every message is answered before `send` returns, and time moves only
/// with `advance`. The host's rules are tested here; what only the shell does (accepting, flushing, closing,
/// WebSocket framing, discovery) is tested on `InProcessHost` and `DaemonProcess`.
final class CoreHost {
    let embedded: EmbeddedHost
    /// The options as `spyd` settled them on the bank, and the bank.
    let options: HostOptions
    let bank: [WordPair]

    /// Builds the host as `spyd --host` would with `arguments` in `environment`, without a state directory.
    init(_ arguments: [String] = [], environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let all = ["--host", "--no-discovery", "--no-state"] + arguments
        guard case .run(let parsed) = HostCommand.spec.resolve(all, version: HostCommand.version) else {
            throw DaemonError(description: "spyd refuses the arguments \(arguments)")
        }
        var options = try HostCommand.options(from: parsed, environment: environment)
        let output = OutputCollector()
        let log = Log(level: options.logLevel, label: "spyd") { output.append(Data($0.utf8)) }
        guard let bank = Spyd.loadBank(options, log: log)?.pairs else {
            throw DaemonError(description: "no bank:\n\(output.text)")
        }
        if case .failure(let error) = Spyd.settle(&options, bank: bank) { throw error }
        (self.options, self.bank) = (options, bank)
        embedded = EmbeddedHost(config: options.hostConfiguration, bank: bank)
    }

    /// Every line the host logged so far.
    var log: String { embedded.lines.text }

    /// The first log line containing `text`. Nothing is logged later than the input that caused it, so there is
    /// nothing to wait for.
    @discardableResult
    func waitForLine(containing text: String) -> String? {
        log.split(separator: "\n").first { $0.contains(text) }.map(String.init)
    }

    /// A connection from 127.0.0.1 (throwing, as a socket's connect does, so tests read the same on either host).
    func connect() throws -> MemoryLink {
        MemoryLink(host: embedded, id: embedded.connect(from: "127.0.0.1"))
    }

    /// Shuts the host down as SIGTERM would: every connection is told.
    func stop() {
        embedded.shutDown()
    }

    /// Moves the host's clock forward, firing every timer due on the way, each when it falls due.
    func advance(seconds: Double) {
        embedded.advance(seconds: seconds)
    }
}

/// What a `TestPlayer` needs of its connection, over a real socket (`FrameClient`) or to a `CoreHost`.
protocol PlayerLink: AnyObject {
    var recordsPayloads: Bool { get set }
    var receivedPayloads: [[UInt8]] { get }
    /// Bytes read and not yet framed into a message.
    var hasBufferedInput: Bool { get }
    /// The descriptor to wait on, or nil for a link whose answers are all there once `send` returns.
    var pollDescriptor: Int32? { get }
    func send(_ message: ClientMessage, deadline: Deadline) throws
    func sendRaw(_ bytes: [UInt8], deadline: Deadline) throws
    func receive(deadline: Deadline) throws -> ServerMessage?
    func close()
}

extension PlayerLink {
    func send(_ message: ClientMessage) throws { try send(message, deadline: .after(seconds: 10)) }

    func sendRaw(_ bytes: [UInt8]) throws { try sendRaw(bytes, deadline: .after(seconds: 10)) }
}

extension FrameClient: PlayerLink {
    var pollDescriptor: Int32? { socket.fd }
}

/// A connection to a `CoreHost`, with `FrameClient`'s calls: what the host said is there as soon as the input that
/// caused it was sent, so a receive that finds nothing returns at once instead of waiting for its deadline.
final class MemoryLink: PlayerLink {
    let host: EmbeddedHost
    let id: UInt64
    var recordsPayloads = false
    private(set) var receivedPayloads: [[UInt8]] = []
    private var unread: [[UInt8]] = []
    private var isClosed = false

    init(host: EmbeddedHost, id: UInt64) {
        self.host = host
        self.id = id
    }

    var hasBufferedInput: Bool { false }
    var pollDescriptor: Int32? { nil }

    func send(_ message: ClientMessage, deadline: Deadline = .after(seconds: 10)) throws {
        guard !isClosed else { throw FrameClientError.closed }
        try host.send(message, on: id)
    }

    func sendRaw(_ bytes: [UInt8], deadline: Deadline = .after(seconds: 10)) throws {
        guard !isClosed else { throw FrameClientError.closed }
        host.send(bytes: bytes, on: id)
    }

    /// The next payload, or `nil` when the host has said nothing more. Throws `.closed` once the host closed the
    /// connection (or shut its side) and every payload before that was read.
    func receivePayload(deadline: Deadline) throws(FrameClientError) -> [UInt8]? {
        unread += host.payloads(on: id)
        if !unread.isEmpty {
            let payload = unread.removeFirst()
            if recordsPayloads { receivedPayloads.append(payload) }
            return payload
        }
        if isClosed || host.closed.contains(id) || host.shut.contains(id) { throw .closed }
        return nil
    }

    func receive(deadline: Deadline) throws(FrameClientError) -> ServerMessage? {
        guard let payload = try receivePayload(deadline: deadline) else { return nil }
        do {
            return try WireCodec.decode(ServerMessage.self, from: payload)
        } catch {
            throw .message(error)
        }
    }

    /// Reads messages until one satisfies `predicate` (returned) or the host has said nothing more (`nil`).
    func waitFor(
        deadline: Deadline, skipped: (ServerMessage) -> Void = { _ in },
        where predicate: (ServerMessage) -> Bool
    ) throws(FrameClientError) -> ServerMessage? {
        while let message = try receive(deadline: deadline) {
            if predicate(message) { return message }
            skipped(message)
        }
        return nil
    }

    /// Whether the host has closed the connection, discarding messages before the close.
    func waitForClose(deadline: Deadline) -> Bool {
        while true {
            do {
                guard try receivePayload(deadline: deadline) != nil else { return false }
            } catch {
                return true
            }
        }
    }

    /// Goes away: the host reads the end of the stream. Later calls do nothing.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        if !host.closed.contains(id) { host.drop(id) }
    }
}
