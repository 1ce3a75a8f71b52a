import Glibc

/// A failed system call on a socket, with the `errno` it left.
public struct SocketError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The call or step that failed, such as `connect` or `getaddrinfo`.
    public var operation: String
    /// The C error number (or the `getaddrinfo` code for name lookups).
    public var code: Int32
    /// Human text for the error.
    public var reason: String

    public init(_ operation: String, code: Int32 = errno) {
        self.operation = operation
        self.code = code
        self.reason = String(cString: strerror(code))
    }

    init(_ operation: String, code: Int32, reason: String) {
        self.operation = operation
        self.code = code
        self.reason = reason
    }

    public var description: String { "\(operation): \(reason)" }
}

/// What a non-blocking read returned.
public enum ReadResult: Equatable, Sendable {
    /// This many bytes were read (more than zero).
    case bytes(Int)
    /// Nothing to read now.
    case wouldBlock
    /// The peer closed its side.
    case endOfStream
}

/// What a non-blocking write returned.
public enum WriteResult: Equatable, Sendable {
    /// This many bytes were written (possibly fewer than offered).
    case wrote(Int)
    /// The kernel's send buffer is full.
    case wouldBlock
}

/// A non-blocking TCP socket over Glibc: a file descriptor with the few calls the programs need.
///
/// A plain value; whoever opened it closes it once. Every socket is created non-blocking and close-on-exec, and
/// every send uses `MSG_NOSIGNAL`, so a peer that went away gives an error instead of a SIGPIPE.
public struct Socket: Hashable, Sendable {
    /// The file descriptor.
    public let fd: Int32

    public init(fd: Int32) { self.fd = fd }

    private static let streamFlags = Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue)

    // MARK: Listening

    /// Opens a listening socket on `host` (an address or name; `nil` or empty for every interface) and `port`
    /// (0 for an ephemeral one). Returns the socket and the port it is bound to.
    public static func listen(host: String?, port: UInt16, backlog: Int32 = 1024) throws(SocketError) -> (
        socket: Socket, port: UInt16
    ) {
        let addresses = try resolve(host: host?.isEmpty == true ? nil : host, port: port, passive: true)
        var lastError = SocketError("listen", code: EADDRNOTAVAIL)
        for address in addresses {
            let fd = Glibc.socket(address.family, streamFlags, 0)
            guard fd >= 0 else {
                lastError = SocketError("socket")
                continue
            }
            var one: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
            if address.family == AF_INET6 && host == nil {
                var zero: Int32 = 0
                setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &zero, socklen_t(MemoryLayout<Int32>.size))
            }
            let bound = address.bytes.withUnsafeBytes { raw in
                Glibc.bind(fd, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), address.length)
            }
            guard bound == 0 else {
                lastError = SocketError("bind \(address.text)")
                Glibc.close(fd)
                continue
            }
            guard Glibc.listen(fd, backlog) == 0 else {
                lastError = SocketError("listen")
                Glibc.close(fd)
                continue
            }
            let socket = Socket(fd: fd)
            return (socket, socket.localPort ?? port)
        }
        throw lastError
    }

    /// Accepts one pending connection, non-blocking and close-on-exec. `nil` when none is waiting.
    ///
    /// Errors that concern only the connection being accepted (it was reset, …) are skipped; running out of
    /// descriptors is thrown so the caller can back off.
    public func accept() throws(SocketError) -> (socket: Socket, address: String)? {
        while true {
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let fd = withUnsafeMutablePointer(to: &storage) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.accept(self.fd, $0, &length)
                }
            }
            if fd >= 0 {
                // Glibc's Swift module lacks accept4; the listening thread never forks, so setting the flags
                // right after accept leaves no window for a descriptor to leak into a child.
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                return (Socket(fd: fd), Socket.hostText(&storage))
            }
            switch errno {
            case EINTR, ECONNABORTED, EPROTO: continue
            case EAGAIN, EWOULDBLOCK: return nil
            default: throw SocketError("accept")
            }
        }
    }

    // MARK: Connecting

    /// Starts a non-blocking connect to the first address of `host`. `inProgress` is true when the caller must
    /// wait for the socket to become writable and then check `pendingError()`.
    public static func connectNonBlocking(host: String, port: UInt16) throws(SocketError) -> (
        socket: Socket, inProgress: Bool
    ) {
        var lastError = SocketError("connect", code: EADDRNOTAVAIL)
        for address in try resolve(host: host, port: port, passive: false) {
            do {
                return try connectNonBlocking(to: address)
            } catch {
                lastError = error
            }
        }
        throw lastError
    }

    /// Starts a non-blocking connect to one resolved address (a caller that tries each address of a name in
    /// turn, moving on when one fails to answer).
    public static func connectNonBlocking(to address: Address) throws(SocketError) -> (
        socket: Socket, inProgress: Bool
    ) {
        let fd = Glibc.socket(address.family, streamFlags, 0)
        guard fd >= 0 else { throw SocketError("socket") }
        var result: Int32
        repeat {
            result = address.bytes.withUnsafeBytes { raw in
                Glibc.connect(fd, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), address.length)
            }
        } while result != 0 && errno == EINTR
        if result == 0 { return (Socket(fd: fd), false) }
        if errno == EINPROGRESS { return (Socket(fd: fd), true) }
        let error = SocketError("connect \(address.text)")
        Glibc.close(fd)
        throw error
    }

    /// Every TCP address `host`:`port` resolves to, in the resolver's order.
    public static func addresses(host: String, port: UInt16) throws(SocketError) -> [Address] {
        try resolve(host: host, port: port, passive: false)
    }

    /// Connects to `host`:`port`, waiting at most `timeoutMs` milliseconds. The socket stays non-blocking.
    public static func connect(host: String, port: UInt16, timeoutMs: Int) throws(SocketError) -> Socket {
        let (socket, inProgress) = try connectNonBlocking(host: host, port: port)
        guard inProgress else { return socket }
        let deadline = SystemClock.monotonicMs() + Int64(timeoutMs)
        while true {
            let remaining = deadline - SystemClock.monotonicMs()
            guard remaining > 0 else {
                socket.close()
                throw SocketError("connect", code: ETIMEDOUT)
            }
            var entry = pollfd(fd: socket.fd, events: Int16(POLLOUT), revents: 0)
            let ready = poll(&entry, 1, Int32(clamping: remaining))
            if ready < 0 && errno == EINTR { continue }
            if ready < 0 {
                let error = SocketError("poll")
                socket.close()
                throw error
            }
            if ready == 0 { continue }
            let code = socket.pendingError()
            if code != 0 {
                socket.close()
                throw SocketError("connect", code: code)
            }
            return socket
        }
    }

    /// The error a non-blocking connect ended with (`SO_ERROR`), 0 when it succeeded.
    public func pendingError() -> Int32 {
        var code: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length) == 0 else { return errno }
        return code
    }

    // MARK: Data

    /// Reads what is available into `buffer`. `EINTR` is retried; `EAGAIN` is `.wouldBlock`.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SocketError) -> ReadResult {
        while true {
            let count = Glibc.recv(fd, buffer.baseAddress, buffer.count, 0)
            if count > 0 { return .bytes(count) }
            if count == 0 { return .endOfStream }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            default: throw SocketError("recv")
            }
        }
    }

    /// Writes as much of `bytes` as the kernel takes now. `EINTR` is retried; `EAGAIN` is `.wouldBlock`.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(SocketError) -> WriteResult {
        guard !bytes.isEmpty else { return .wrote(0) }
        while true {
            let count = Glibc.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
            if count >= 0 { return .wrote(count) }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            default: throw SocketError("send")
            }
        }
    }

    /// Turns off Nagle's algorithm, so small frames leave at once.
    public func setNoDelay() {
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Sets the kernel's receive buffer size (tests use a small one to play a client that cannot keep up).
    public func setReceiveBufferSize(_ bytes: Int32) {
        var value = bytes
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &value, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Stops sending (the peer reads end of stream) while still reading.
    public func shutdownWrite() {
        _ = Glibc.shutdown(fd, Int32(SHUT_WR))
    }

    /// Closes the descriptor. Call once.
    public func close() {
        _ = Glibc.close(fd)
    }

    /// The local port, from `getsockname`.
    public var localPort: UInt16? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard result == 0 else { return nil }
        return Socket.port(&storage)
    }

    // MARK: Addresses

    /// One resolved address, kept as bytes so it can outlive `freeaddrinfo`.
    public struct Address: Sendable {
        var family: Int32
        var bytes: [UInt8]
        var length: socklen_t
        /// The numeric host ("192.168.1.5", "::1").
        public var text: String
    }

    /// `getaddrinfo` for TCP: IPv4 and IPv6, numeric or by name.
    static func resolve(host: String?, port: UInt16, passive: Bool) throws(SocketError) -> [Address] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV | (passive ? AI_PASSIVE : 0)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0 else {
            throw SocketError(
                "getaddrinfo \(host ?? "*")", code: status, reason: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(list) }
        var addresses: [Address] = []
        var cursor = list
        while let entry = cursor?.pointee {
            if let pointer = entry.ai_addr {
                let raw = UnsafeRawBufferPointer(start: pointer, count: Int(entry.ai_addrlen))
                var storage = sockaddr_storage()
                withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: raw) }
                addresses.append(
                    Address(
                        family: entry.ai_family, bytes: Array(raw), length: entry.ai_addrlen, text: hostText(&storage)))
            }
            cursor = entry.ai_next
        }
        return addresses
    }

    /// The numeric host of a socket address ("192.168.1.5", "::1").
    static func hostText(_ storage: inout sockaddr_storage) -> String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        switch Int32(storage.ss_family) {
        case AF_INET:
            withUnsafePointer(to: &storage) { pointer in
                pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
                    var ip = address.pointee.sin_addr
                    _ = inet_ntop(AF_INET, &ip, &buffer, socklen_t(buffer.count))
                }
            }
        case AF_INET6:
            withUnsafePointer(to: &storage) { pointer in
                pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                    var ip = address.pointee.sin6_addr
                    _ = inet_ntop(AF_INET6, &ip, &buffer, socklen_t(buffer.count))
                }
            }
        default:
            return "?"
        }
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // An IPv4 client of a dual-stack socket shows as ::ffff:a.b.c.d; the plain form is what people know.
        return text.hasPrefix("::ffff:") && text.contains(".") ? String(text.dropFirst(7)) : text
    }

    static func port(_ storage: inout sockaddr_storage) -> UInt16? {
        switch Int32(storage.ss_family) {
        case AF_INET:
            return withUnsafePointer(to: &storage) { pointer in
                pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
            }
        case AF_INET6:
            return withUnsafePointer(to: &storage) { pointer in
                pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    UInt16(bigEndian: $0.pointee.sin6_port)
                }
            }
        default:
            return nil
        }
    }
}
