import Glibc
import SpyProtocol

/// A `Connection` served by an `EventLoop`: it finishes a non-blocking connect, asks for writability only while
/// output waits, is flushed once at the end of each wake it was written to, and closes either at once or at the
/// end of the wake (`closeSoon`), after its last bytes.
///
/// Its owner keeps it alive; letting go of it unregisters it and closes its socket. The loop refers to it without
/// keeping it: its handler holds it unowned, and the loop holds it only until the end of a wake in which it was
/// written to or asked to close. While open it keeps its loop alive (it unregisters through it); closed, it lets
/// go of it. No reference here is weak: the first weak reference to an object gives it a side table whose address
/// the object's header keeps in a form LeakSanitizer does not read, so a side table that outlives its weak
/// references is reported as leaked at exit.
public final class LoopConnection {
    /// What the loop tells the connection's owner.
    public enum Event: Equatable, Sendable {
        /// A connect that was in progress has finished; queued output is on its way.
        case connected
        /// Input (or the end of the stream, or an error to collect) waits: call `read`.
        case readable
        /// Connecting or writing failed. The connection is still open: the owner decides when to close it.
        case failed(SocketError)
    }

    /// The socket, its frame inbox and its capped outbox.
    public let connection: Connection
    /// Whether a non-blocking connect is still under way.
    @exclusivity(unchecked) public private(set) var isConnecting: Bool
    /// Whether `close()` has run (directly or at the end of a wake after `closeSoon`).
    @exclusivity(unchecked) public private(set) var isClosed = false
    /// Called for every event; set by the owner (capture the owner unowned: the connection keeps the closure).
    @exclusivity(unchecked) public var onEvent: (Event) -> Void

    /// The loop serving it, until it closes.
    @exclusivity(unchecked) private var loop: EventLoop?
    @exclusivity(unchecked) private var registration: EventLoop.Registration?
    // Without run-time exclusivity checks, as the loop's lists are (see `EventLoop.handlers`).
    @exclusivity(unchecked) private var watchingWrite: Bool
    @exclusivity(unchecked) var queuedForFlush = false
    @exclusivity(unchecked) var queuedForClose = false
    private var shutsWriteWhenDrained = false
    private var writeShut = false

    /// Registers `connection` with `loop`. `connecting: true` for a socket whose connect is still in progress.
    public init(
        loop: EventLoop, connection: Connection, connecting: Bool = false,
        onEvent: @escaping (Event) -> Void = { _ in }
    ) throws(SocketError) {
        self.connection = connection
        self.loop = loop
        self.isConnecting = connecting
        self.watchingWrite = connecting
        self.onEvent = onEvent
        registration = try loop.register(fd: connection.socket.fd, read: !connecting, write: connecting) {
            [unowned self] readiness in self.ready(readiness)
        }
    }

    deinit {
        if let registration { loop?.unregister(registration) }
    }

    /// Starts connecting to `address` without waiting; every connection of the process gets an id from `ids`.
    public static func connect(
        to address: Socket.Address, loop: EventLoop, ids: inout ConnectionIDGenerator,
        maxPayload: Int = FrameLimits.defaultMaxPayload, outboxCap: Int = 1 << 20
    ) throws(SocketError) -> LoopConnection {
        let (socket, inProgress) = try Socket.connectNonBlocking(to: address)
        return try adopt(
            socket, connecting: inProgress, remoteAddress: address.text, loop: loop, id: ids.next(),
            maxPayload: maxPayload, outboxCap: outboxCap)
    }

    /// Starts connecting to the first address of `host` that takes a connect, without waiting.
    public static func connect(
        host: String, port: UInt16, loop: EventLoop, ids: inout ConnectionIDGenerator,
        maxPayload: Int = FrameLimits.defaultMaxPayload, outboxCap: Int = 1 << 20
    ) throws(SocketError) -> LoopConnection {
        let (socket, inProgress) = try Socket.connectNonBlocking(host: host, port: port)
        return try adopt(
            socket, connecting: inProgress, remoteAddress: host, loop: loop, id: ids.next(), maxPayload: maxPayload,
            outboxCap: outboxCap)
    }

    private static func adopt(
        _ socket: Socket, connecting: Bool, remoteAddress: String, loop: EventLoop, id: UInt64, maxPayload: Int,
        outboxCap: Int
    ) throws(SocketError) -> LoopConnection {
        socket.setNoDelay()
        let connection = Connection(
            id: id, socket: socket, remoteAddress: remoteAddress, maxPayload: maxPayload, outboxCap: outboxCap)
        do {
            return try LoopConnection(loop: loop, connection: connection, connecting: connecting)
        } catch {
            connection.close()
            throw error
        }
    }

    /// The socket.
    public var socket: Socket { connection.socket }

    // MARK: Output

    /// Queues bytes (normally one whole frame) for the end of this wake; `.overCap` when the peer does not read
    /// fast enough (nothing is queued then).
    /// `overCap: true` queues them even past the cap (a last error frame before a slow consumer is cut off).
    @discardableResult
    public func send(_ bytes: [UInt8], overCap: Bool = false) -> Connection.EnqueueResult {
        guard !isClosed else { return .queued }
        let result = connection.enqueue(bytes, overCap: overCap)
        if result == .queued { loop?.queueFlush(self) }
        return result
    }

    /// Shuts the write side once everything queued has been written, so the peer reads the end of the stream right
    /// after the last bytes, while the connection stays open to read what the peer still sends.
    public func shutWriteWhenDrained() {
        guard !isClosed else { return }
        shutsWriteWhenDrained = true
        loop?.queueFlush(self)
    }

    /// Writes what the outbox holds now, and watches for writability only while some of it is left. The loop calls
    /// it at the end of each wake; an owner calls it for a message whose timing is measured from its write.
    public func flushNow() {
        guard !isClosed, !isConnecting, let registration, let loop else { return }
        do {
            let drained = try connection.flush()
            if drained, shutsWriteWhenDrained, !writeShut {
                writeShut = true
                socket.shutdownWrite()
            }
            if drained == watchingWrite {
                try loop.update(registration, read: true, write: !drained)
                watchingWrite = !drained
            }
        } catch {
            onEvent(.failed(error))
        }
    }

    /// Waits up to `timeoutMs` for the outbox to drain, outside the loop: for a program's last words before it
    /// exits, when no further wake will come.
    public func drain(timeoutMs: Int) {
        guard !isClosed, !isConnecting else { return }
        let deadline = SystemClock.monotonicMs() + Int64(timeoutMs)
        while connection.hasPendingOutput, (try? connection.flush()) == false {
            let left = deadline - SystemClock.monotonicMs()
            guard left > 0 else { return }
            var entry = pollfd(fd: socket.fd, events: Int16(POLLOUT), revents: 0)
            _ = poll(&entry, 1, Int32(clamping: left))
        }
    }

    // MARK: Input

    /// Reads up to the loop's read budget into the frame inbox.
    public func read() throws(SocketError) -> Connection.ReadOutcome {
        guard let loop, !isClosed else { return .endOfStream(bytesRead: 0) }
        return try connection.readAvailable(budget: loop.readBudget, scratch: loop.scratch)
    }

    /// Reads up to the loop's read budget, handing each read to `deliver` instead of the frame inbox.
    public func read(deliver: (UnsafeRawBufferPointer) -> Void) throws(SocketError) -> Connection.ReadOutcome {
        guard let loop, !isClosed else { return .endOfStream(bytesRead: 0) }
        return try connection.readAvailable(budget: loop.readBudget, scratch: loop.scratch, deliver: deliver)
    }

    // MARK: Closing

    /// Closes at the end of this wake, after writing what is queued (as far as the kernel takes it); events that
    /// arrive for it meanwhile are not delivered.
    public func closeSoon() {
        guard !isClosed else { return }
        loop?.queueClose(self)
    }

    /// Whether the connection is closed or will be at the end of this wake.
    public var isClosing: Bool { isClosed || queuedForClose }

    /// Unregisters and closes now. Later calls do nothing.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        if let registration { loop?.unregister(registration) }
        registration = nil
        loop = nil
        connection.close()
    }

    // MARK: Readiness

    private func ready(_ readiness: PollReadiness) {
        guard !isClosing else { return }
        if isConnecting {
            guard readiness.writable || readiness.failed else { return }
            let code = socket.pendingError()
            guard code == 0 else {
                onEvent(.failed(SocketError("connect", code: code)))
                return
            }
            isConnecting = false
            if let registration, let loop {
                do {
                    try loop.update(registration, read: true, write: true)
                } catch {
                    onEvent(.failed(error))
                    return
                }
            }
            onEvent(.connected)
            loop?.queueFlush(self)
            return
        }
        if readiness.writable { loop?.queueFlush(self) }
        if readiness.readable || readiness.failed { onEvent(.readable) }
    }
}

@available(*, unavailable)
extension LoopConnection: Sendable {}
