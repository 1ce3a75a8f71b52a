import Glibc
import SpyProtocol

/// One resolved socket address of the host.
struct ResolvedAddress {
    var family: Int32
    var storage: sockaddr_storage
    var length: socklen_t

    /// Every TCP address `host` resolves to, in the resolver's order.
    static func resolve(_ address: HostAddress) -> [ResolvedAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(address.host, String(address.port), &hints, &list) == 0 else { return [] }
        defer { freeaddrinfo(list) }
        var result: [ResolvedAddress] = []
        var node = list
        while let current = node {
            var storage = sockaddr_storage()
            let length = current.pointee.ai_addrlen
            withUnsafeMutableBytes(of: &storage) { target in
                target.copyMemory(from: UnsafeRawBufferPointer(start: current.pointee.ai_addr, count: Int(length)))
            }
            result.append(ResolvedAddress(family: current.pointee.ai_family, storage: storage, length: length))
            node = current.pointee.ai_next
        }
        return result
    }
}

/// What reading from the host gave: whole messages, and whether the connection ended after them (a fatal
/// `error` is followed by the close, and must still be shown).
struct LinkRead {
    var messages: [ServerMessage] = []
    var closed = false
}

/// A non-blocking TCP connection to the host that speaks length-prefixed frames.
final class HostLink {
    let descriptor: Int32
    /// Whether the TCP handshake has finished.
    private(set) var isOpen = false
    private var decoder = FrameDecoder()
    private var outbox: [UInt8] = []
    private var closed = false

    /// Starts connecting; the connection is usable once `finishConnect()` returns 0 after the socket is writable.
    init?(_ address: ResolvedAddress) {
        descriptor = socket(
            address.family,
            Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
                | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        var storage = address.storage
        let result = withUnsafePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, address.length) }
        }
        if result == 0 {
            isOpen = true
        } else if errno != EINPROGRESS {
            Glibc.close(descriptor)
            return nil
        }
        var noDelay: Int32 = 1
        _ = setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
    }

    deinit { close() }

    /// Whether the poll loop should wait for the socket to become writable.
    var wantsWrite: Bool { !isOpen || !outbox.isEmpty }

    /// After the socket became writable while connecting: 0 when connected, else the errno of the failure.
    func finishConnect() -> Int32 {
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length) == 0 else { return errno }
        if error == 0 { isOpen = true }
        return error
    }

    /// Queues a message; `flush()` sends it.
    func send(_ message: ClientMessage) {
        guard let frame = try? WireCodec.encodeFrame(message) else { return }
        outbox += frame
    }

    /// Writes as much of the outbox as the socket takes. False when the connection broke.
    func flush() -> Bool {
        guard isOpen else { return true }
        while !outbox.isEmpty {
            let written = outbox.withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if written < 0 {
                if errno == EINTR { continue }
                return errno == EAGAIN || errno == EWOULDBLOCK
            }
            outbox.removeFirst(written)
        }
        return true
    }

    /// Waits up to `milliseconds` for the outbox to drain (used for the last `leave`).
    func drain(milliseconds: Int32) {
        let deadline = monotonicMillis() + Millis(milliseconds)
        while !outbox.isEmpty, flush() {
            let left = deadline - monotonicMillis()
            guard left > 0 else { return }
            var entry = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            _ = poll(&entry, 1, Int32(left))
        }
    }

    /// Reads what arrived and decodes whole messages. Unknown message types are skipped so that a newer host
    /// does not break an older client, and so are messages with numbers out of range (`HostMessages`).
    func receive() -> LinkRead {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        var result = LinkRead()
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { break }
            if count <= 0 {
                result.closed = true
                break
            }
            decoder.feed(buffer[0..<count])
            do {
                while let payload = try decoder.next() {
                    if let message = HostMessages.decode(payload) {
                        result.messages.append(message)
                    }
                }
            } catch {
                result.closed = true
                break
            }
            if count < buffer.count { break }
        }
        return result
    }

    func close() {
        guard !closed else { return }
        closed = true
        Glibc.close(descriptor)
    }
}
