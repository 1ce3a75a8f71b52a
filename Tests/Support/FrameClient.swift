import Glibc
import SpyNet
import SpyProtocol

/// Why a `FrameClient` call failed.
public enum FrameClientError: Error, Equatable, Sendable {
    /// The host closed the connection.
    case closed
    /// The host's byte stream could not be framed.
    case frame(FrameError)
    /// A frame was not a message this client understands.
    case message(MessageError)
    /// A system call failed.
    case socket(SocketError)
    /// Sending did not finish before the deadline.
    case sendTimeout
}

/// A small blocking client of the protocol, with a deadline on every wait, for the end-to-end tests.
///
/// Each instance belongs to one thread.
public final class FrameClient {
    /// The connected socket.
    public let socket: Socket
    private var decoder: FrameDecoder
    private var scratch = [UInt8](repeating: 0, count: 64 * 1024)
    private var isClosed = false
    /// When true, every payload received is kept in `receivedPayloads`.
    public var recordsPayloads = false
    /// Every payload received while `recordsPayloads` was on, in order.
    public private(set) var receivedPayloads: [[UInt8]] = []

    /// Connects to `host`:`port`, waiting at most `connectTimeoutMs`.
    public init(
        host: String, port: UInt16, connectTimeoutMs: Int = 5000, maxPayload: Int = FrameLimits.defaultMaxPayload
    ) throws(FrameClientError) {
        do {
            socket = try Socket.connect(host: host, port: port, timeoutMs: connectTimeoutMs)
        } catch {
            throw .socket(error)
        }
        socket.setNoDelay()
        decoder = FrameDecoder(maxPayload: maxPayload)
    }

    deinit {
        if !isClosed { socket.close() }
    }

    /// Whether received bytes wait in this client's buffer. A caller multiplexing several clients with `poll`
    /// must drain those first: the socket no longer shows them as readable.
    public var hasBufferedInput: Bool { decoder.bufferedByteCount > 0 }

    /// Sends one message, waiting for the kernel to take it until `deadline`.
    public func send(_ message: ClientMessage, deadline: Deadline = .after(seconds: 10)) throws(FrameClientError) {
        let bytes: [UInt8]
        do {
            bytes = try WireCodec.encodeFrame(message)
        } catch {
            throw .frame(error)
        }
        try sendRaw(bytes, deadline: deadline)
    }

    /// Sends bytes as they are (tests use it for malformed frames).
    public func sendRaw(_ bytes: [UInt8], deadline: Deadline = .after(seconds: 10)) throws(FrameClientError) {
        var sent = 0
        while sent < bytes.count {
            let result: WriteResult
            let offset = sent
            let attempt = bytes.withUnsafeBytes { raw in
                Result { () throws(SocketError) in try socket.write(UnsafeRawBufferPointer(rebasing: raw[offset...])) }
            }
            do {
                result = try attempt.get()
            } catch {
                throw error.code == EPIPE || error.code == ECONNRESET ? .closed : .socket(error)
            }
            switch result {
            case .wrote(let count):
                sent += count
            case .wouldBlock:
                guard try waitReady(events: Int16(POLLOUT), deadline: deadline) else { throw .sendTimeout }
            }
        }
    }

    /// The next payload, or `nil` when none arrived before `deadline`. Throws `.closed` at end of stream.
    public func receivePayload(deadline: Deadline) throws(FrameClientError) -> [UInt8]? {
        while true {
            do {
                if let payload = try decoder.next() {
                    if recordsPayloads { receivedPayloads.append(payload) }
                    return payload
                }
            } catch {
                throw .frame(error)
            }
            let result: ReadResult
            let socket = self.socket
            let attempt = scratch.withUnsafeMutableBytes { raw in
                Result { () throws(SocketError) in try socket.read(into: raw) }
            }
            do {
                result = try attempt.get()
            } catch {
                if error.code == ECONNRESET { throw .closed }
                throw .socket(error)
            }
            switch result {
            case .bytes(let count):
                scratch.withUnsafeBytes { decoder.feed(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            case .endOfStream:
                throw .closed
            case .wouldBlock:
                guard try waitReady(events: Int16(POLLIN), deadline: deadline) else { return nil }
            }
        }
    }

    /// The next message, or `nil` when none arrived before `deadline`.
    public func receive(deadline: Deadline) throws(FrameClientError) -> ServerMessage? {
        guard let payload = try receivePayload(deadline: deadline) else { return nil }
        do {
            return try WireCodec.decode(ServerMessage.self, from: payload)
        } catch {
            throw .message(error)
        }
    }

    /// Reads messages until one satisfies `predicate` (returned) or `deadline` passes (`nil`). Messages before
    /// the match are handed to `skipped`.
    public func waitFor(
        deadline: Deadline, skipped: (ServerMessage) -> Void = { _ in },
        where predicate: (ServerMessage) -> Bool
    ) throws(FrameClientError) -> ServerMessage? {
        while let message = try receive(deadline: deadline) {
            if predicate(message) { return message }
            skipped(message)
        }
        return nil
    }

    /// Waits until the host closes the connection (true) or `deadline` passes (false), discarding messages.
    public func waitForClose(deadline: Deadline) -> Bool {
        while true {
            do {
                guard try receivePayload(deadline: deadline) != nil else { return false }
            } catch {
                return true
            }
        }
    }

    /// Closes the connection. Later calls do nothing.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        socket.close()
    }

    /// Waits for `events` on the socket; false when the deadline passed first.
    private func waitReady(events: Int16, deadline: Deadline) throws(FrameClientError) -> Bool {
        while true {
            let remaining = deadline.remainingMs
            guard remaining > 0 else { return false }
            var entry = pollfd(fd: socket.fd, events: events, revents: 0)
            let count = poll(&entry, 1, Int32(clamping: remaining))
            if count > 0 { return true }
            if count < 0 && errno != EINTR { throw .socket(SocketError("poll")) }
        }
    }
}

@available(*, unavailable)
extension FrameClient: Sendable {}
