import SpyProtocol

/// One peer of a server: its socket, the frames arriving from it and the bytes waiting to go to it.
///
/// Known by a monotonic `id` that is never reused, so a late event for a closed connection can never reach a
/// newer one that got the same file descriptor.
public final class Connection {
    /// What happened when the outbox was given more bytes.
    public enum EnqueueResult: Equatable, Sendable {
        /// The bytes are queued.
        case queued
        /// The outbox would exceed its cap: the peer does not read fast enough. Nothing was queued.
        case overCap
    }

    /// What a read pass found.
    public enum ReadOutcome: Equatable, Sendable {
        /// Bytes were read (or none were waiting); the connection is still open.
        case open(bytesRead: Int)
        /// The peer closed its side (after `bytesRead` more bytes).
        case endOfStream(bytesRead: Int)
    }

    /// Unique for the life of the process.
    public let id: UInt64
    /// The socket; closed by `close()`.
    public let socket: Socket
    /// The peer's numeric address.
    public let remoteAddress: String
    /// Frames arriving from the peer.
    public var inbox: FrameDecoder
    /// Largest number of unsent bytes allowed before the peer counts as a slow consumer.
    public let outboxCap: Int
    /// Whether `close()` has run.
    public private(set) var isClosed = false

    /// The bytes to write. Bytes queued on an empty outbox become it, so they are written from the very array their
    /// owner encoded; only bytes queued behind unwritten ones are copied. A drained outbox gives its storage back,
    /// or ten thousand mostly idle players would each hold what their busiest moment needed.
    /// Without run-time exclusivity checks, as the loop's lists are (see `EventLoop.handlers`): written only by this
    /// class's own methods, none of which hands out an access or calls out while holding one.
    @exclusivity(unchecked) private var outbox: [UInt8] = []
    /// Bytes of storage the outbox holds now, sent or not.
    public var outboxCapacity: Int { outbox.capacity }
    /// Index of the first unsent byte in `outbox`.
    @exclusivity(unchecked) private var outboxStart = 0

    public init(
        id: UInt64, socket: Socket, remoteAddress: String, maxPayload: Int = FrameLimits.defaultMaxPayload,
        outboxCap: Int = 1 << 20
    ) {
        self.id = id
        self.socket = socket
        self.remoteAddress = remoteAddress
        self.inbox = FrameDecoder(maxPayload: maxPayload)
        self.outboxCap = outboxCap
    }

    /// Bytes queued and not yet written.
    public var pendingOutputCount: Int { outbox.count - outboxStart }

    /// Whether bytes wait to be written (the poller should watch for POLLOUT only then).
    public var hasPendingOutput: Bool { outbox.count > outboxStart }

    /// Queues bytes (normally a whole frame) to send. `overCap: true` queues them even past the cap, for the one
    /// last error frame before a slow consumer is cut off.
    @discardableResult
    public func enqueue(_ bytes: [UInt8], overCap: Bool = false) -> EnqueueResult {
        guard overCap || pendingOutputCount + bytes.count <= outboxCap else { return .overCap }
        if outboxStart == outbox.count {
            outbox = bytes
            outboxStart = 0
            return .queued
        }
        if outboxStart > 0 && outboxStart * 2 >= outbox.count {
            outbox.removeSubrange(0..<outboxStart)
            outboxStart = 0
        }
        outbox.append(contentsOf: bytes)
        return .queued
    }

    /// Drops the queued bytes after the first `count` unsent ones: output that must not go out after all.
    public func dropOutput(keeping count: Int) {
        let end = outboxStart + max(0, count)
        if end < outbox.count { outbox.removeSubrange(end...) }
    }

    /// Writes queued bytes until the outbox is empty or the kernel's buffer is full. Returns true when all is sent.
    public func flush() throws(SocketError) -> Bool {
        while outboxStart < outbox.count {
            let start = outboxStart
            let attempt = outbox.withUnsafeBytes { raw in
                Result { () throws(SocketError) in try socket.write(UnsafeRawBufferPointer(rebasing: raw[start...])) }
            }
            switch try attempt.get() {
            case .wrote(let count):
                outboxStart += count
            case .wouldBlock:
                return false
            }
        }
        outbox = []
        outboxStart = 0
        return true
    }

    /// Reads up to `budget` bytes into the inbox through `scratch`, so one busy peer cannot starve the others.
    public func readAvailable(budget: Int, scratch: UnsafeMutableRawBufferPointer) throws(SocketError) -> ReadOutcome {
        try readAvailable(budget: budget, scratch: scratch) { inbox.feed($0) }
    }

    /// Reads up to `budget` bytes and hands each read to `deliver` instead of the frame inbox, for a server that
    /// decides per connection how its bytes are framed (the daemon's HTTP and WebSocket peers).
    public func readAvailable(
        budget: Int, scratch: UnsafeMutableRawBufferPointer, deliver: (UnsafeRawBufferPointer) -> Void
    ) throws(SocketError) -> ReadOutcome {
        var total = 0
        while total < budget {
            let room = min(scratch.count, budget - total)
            switch try socket.read(into: UnsafeMutableRawBufferPointer(rebasing: scratch[0..<room])) {
            case .bytes(let count):
                total += count
                deliver(UnsafeRawBufferPointer(rebasing: scratch[0..<count]))
                if count < room { return .open(bytesRead: total) }
            case .wouldBlock:
                return .open(bytesRead: total)
            case .endOfStream:
                return .endOfStream(bytesRead: total)
            }
        }
        return .open(bytesRead: total)
    }

    /// Closes the socket once; later calls do nothing.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        socket.close()
        outbox = []
        outboxStart = 0
    }

    deinit {
        if !isClosed { socket.close() }
    }
}

@available(*, unavailable)
extension Connection: Sendable {}

/// Hands out connection ids: monotonic, starting at 1, never reused.
public struct ConnectionIDGenerator: Sendable {
    private var last: UInt64 = 0

    public init() {}

    /// The next id.
    public mutating func next() -> UInt64 {
        last += 1
        return last
    }
}
