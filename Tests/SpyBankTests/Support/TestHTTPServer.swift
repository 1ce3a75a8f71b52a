import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A minimal HTTP/1.1 server on 127.0.0.1 and an ephemeral port, one thread per connection, for fetch tests.
/// Each connection reads one request head, sends what `handler` says for its path, and closes.
final class TestHTTPServer: @unchecked Sendable {
    /// What to send back for a path.
    enum Reply: Sendable {
        /// A well-formed response; `Content-Length` is sent when `announceLength`.
        case response(status: Int, headers: [(String, String)] = [], body: [UInt8], announceLength: Bool = true)
        /// Bytes written as they are, not HTTP at all.
        case raw([UInt8])
        /// Waits until the server is stopped before answering: a response slower than any test timeout.
        case stall
        /// A 200 response whose body is made while it is sent, one chunk per call of `next` until it returns
        /// `nil` or the client goes away: a body of hundreds of megabytes without holding it. `length` is sent as
        /// `Content-Length` when given.
        case streamed(headers: [(String, String)] = [], length: Int?, next: @Sendable (_ index: Int) -> [UInt8]?)
    }

    let port: UInt16
    private let listener: Int32
    private let handler: @Sendable (String) -> Reply
    private let lock = NSCondition()
    // Guarded by `lock`.
    private var stopped = false
    private var requestedPaths: [String] = []
    private var streamsEnded = 0

    init(handler: @escaping @Sendable (String) -> Reply) throws {
        self.handler = handler
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(descriptor, generic, length) == 0 && listen(descriptor, 16) == 0
                    && getsockname(descriptor, generic, &length) == 0
            }
        }
        guard bound else {
            let code = errno
            close(descriptor)
            throw POSIXError(.init(rawValue: code) ?? .EIO)
        }
        listener = descriptor
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    /// `http://127.0.0.1:PORT/path`.
    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// Paths requested so far, in arrival order.
    var requests: [String] { lock.withLock { requestedPaths } }

    /// Releases stalled replies and stops accepting; safe to call twice.
    func stop() {
        lock.lock()
        let wasStopped = stopped
        stopped = true
        lock.broadcast()
        lock.unlock()
        // Only the accept thread closes the listener: closing it here could let a new server reuse the descriptor
        // number while this thread is about to call accept on it, and serve that server's clients.
        if !wasStopped { shutdown(listener, Int32(SHUT_RDWR)) }
    }

    /// Waits until `count` streamed replies have ended (sent in full, or cut off by the client closing).
    func waitForStreamsToEnd(_ count: Int, timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        lock.lock()
        defer { lock.unlock() }
        while streamsEnded < count {
            if !lock.wait(until: deadline) { return streamsEnded >= count }
        }
        return true
    }

    private var isStopped: Bool { lock.withLock { stopped } }

    private func acceptLoop() {
        defer { close(listener) }
        while !isStopped {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if isStopped || errno == EBADF || errno == EINVAL { return }
                continue
            }
            if isStopped {
                close(connection)
                return
            }
            let thread = Thread { [self] in serve(connection) }
            thread.start()
        }
    }

    private func serve(_ connection: Int32) {
        defer { close(connection) }
        guard let path = readRequestPath(connection) else { return }
        lock.withLock { requestedPaths.append(path) }
        switch handler(path) {
        case .raw(let bytes):
            send(bytes, to: connection)
        case .stall:
            lock.lock()
            while !stopped { lock.wait() }
            lock.unlock()
            send(Array("HTTP/1.1 200 OK\r\nContent-Length: 8\r\n\r\na,b\nc,d\n".utf8), to: connection)
        case .response(let status, let headers, let body, let announceLength):
            var head = "HTTP/1.1 \(status) Test\r\n"
            for (name, value) in headers { head += "\(name): \(value)\r\n" }
            if announceLength { head += "Content-Length: \(body.count)\r\n" }
            head += "Connection: close\r\n\r\n"
            send(Array(head.utf8) + body, to: connection)
        case .streamed(let headers, let length, let next):
            var head = "HTTP/1.1 200 OK\r\n"
            for (name, value) in headers { head += "\(name): \(value)\r\n" }
            if let length { head += "Content-Length: \(length)\r\n" }
            head += "Connection: close\r\n\r\n"
            guard send(Array(head.utf8), to: connection) else { return }
            var index = 0
            while let chunk = next(index), send(chunk, to: connection) { index += 1 }
            lock.withLock {
                streamsEnded += 1
                lock.broadcast()
            }
        }
    }

    private func readRequestPath(_ connection: Int32) -> String? {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let terminator = Array("\r\n\r\n".utf8)
        while received.count < 65536 {
            let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return nil }
            received += buffer[..<count]
            if received.count >= 4,
                (0...(received.count - 4)).contains(where: { Array(received[$0..<$0 + 4]) == terminator })
            {
                break
            }
        }
        guard let head = String(validating: received, as: UTF8.self),
            let requestLine = head.split(separator: "\r\n").first
        else { return nil }
        let parts = requestLine.split(separator: " ")
        return parts.count >= 2 ? String(parts[1]) : nil
    }

    /// Whether every byte went out (false once the client has closed).
    @discardableResult
    private func send(_ bytes: [UInt8], to connection: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                Glibc.send(connection, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
            }
            if count <= 0 { return false }
            offset += count
        }
        return true
    }
}
