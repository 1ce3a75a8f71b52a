import Foundation
import Glibc
import SpyNet
import SpyProtocol
import SpyTestSupport
import SpyWeb

/// A byte-level client for HTTP and WebSocket tests: sends what it is given, reads with deadlines.
final class RawClient {
    let socket: Socket
    private(set) var buffer: [UInt8] = []
    private(set) var closed = false

    init(port: UInt16) throws {
        socket = try Socket.connect(host: "127.0.0.1", port: port, timeoutMs: 5000)
    }

    private var socketClosed = false

    deinit {
        close()
    }

    /// Closes the socket (once) without a word, as a dropped network would.
    func close() {
        guard !socketClosed else { return }
        socketClosed = true
        socket.close()
    }

    func send(_ bytes: [UInt8]) throws {
        var sent = 0
        let deadline = Deadline.after(seconds: 10)
        while sent < bytes.count {
            let offset = sent
            let result = try bytes.withUnsafeBytes { raw in
                try socket.write(UnsafeRawBufferPointer(rebasing: raw[offset...]))
            }
            switch result {
            case .wrote(let count): sent += count
            case .wouldBlock:
                guard wait(Int16(POLLOUT), deadline) else { throw DaemonError(description: "send timed out") }
            }
        }
    }

    func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    /// Reads once (waiting until `deadline`); false when nothing came in time. Sets `closed` at end of stream
    /// or on a reset.
    @discardableResult
    func readSome(deadline: Deadline) -> Bool {
        guard !closed else { return false }
        var scratch = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let result = scratch.withUnsafeMutableBytes { raw in Result { try socket.read(into: raw) } }
            switch result {
            case .success(.bytes(let count)):
                buffer += scratch[0..<count]
                return true
            case .success(.endOfStream), .failure:
                closed = true
                return false
            case .success(.wouldBlock):
                guard wait(Int16(POLLIN), deadline) else { return false }
            }
        }
    }

    /// Reads until the host closes the connection; true when it did before the deadline.
    func readUntilClosed(seconds: Double = 10) -> Bool {
        let deadline = Deadline.after(seconds: seconds)
        while !closed && !deadline.hasPassed { readSome(deadline: deadline) }
        return closed
    }

    /// Takes `count` bytes from the front of the buffer.
    func take(_ count: Int) -> [UInt8] {
        let taken = Array(buffer.prefix(count))
        buffer.removeFirst(min(count, buffer.count))
        return taken
    }

    /// Reads a whole HTTP response head (and the body its Content-Length announces).
    func readResponse(seconds: Double = 10) throws -> HTTPReply {
        let deadline = Deadline.after(seconds: seconds)
        let end: [UInt8] = [13, 10, 13, 10]
        while true {
            if let range = buffer.firstRange(of: end) {
                let head = String(decoding: buffer[..<range.lowerBound], as: UTF8.self)
                var reply = HTTPReply(head: head)
                let length = Int(reply.header("Content-Length") ?? "0") ?? 0
                let wantsBody = reply.status != 304 && reply.status != 101 && !reply.isHeadRequest
                while wantsBody && buffer.count - range.upperBound < length && !closed && !deadline.hasPassed {
                    readSome(deadline: deadline)
                }
                let bodyEnd = wantsBody ? min(buffer.count, range.upperBound + length) : range.upperBound
                reply.body = Array(buffer[range.upperBound..<bodyEnd])
                buffer.removeFirst(bodyEnd)
                return reply
            }
            guard !closed, !deadline.hasPassed else {
                throw DaemonError(description: "no HTTP response; got \(String(decoding: buffer, as: UTF8.self))")
            }
            readSome(deadline: deadline)
        }
    }

    private func wait(_ events: Int16, _ deadline: Deadline) -> Bool {
        while true {
            let remaining = deadline.remainingMs
            guard remaining > 0 else { return false }
            var entry = pollfd(fd: socket.fd, events: events, revents: 0)
            let count = poll(&entry, 1, Int32(clamping: remaining))
            if count > 0 { return true }
            if count < 0 && errno != EINTR { return false }
        }
    }
}

/// An HTTP response as read by a test.
struct HTTPReply {
    var status: Int
    var headers: [(String, String)]
    var body: [UInt8] = []
    var isHeadRequest = false

    init(head: String) {
        let lines = head.components(separatedBy: "\r\n")
        let statusParts = lines.first?.split(separator: " ") ?? []
        status = statusParts.count > 1 ? Int(statusParts[1]) ?? 0 : 0
        headers = lines.dropFirst().compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
    }

    func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }
}

/// A frame the host sent.
struct ServerFrame: Equatable {
    var fin: Bool
    var opcode: UInt8
    var payload: [UInt8]

    /// The close code of a close frame.
    var closeCode: UInt16? {
        guard opcode == 0x8, payload.count >= 2 else { return nil }
        return UInt16(payload[0]) << 8 | UInt16(payload[1])
    }
}

/// A hand-written WebSocket client (RFC 6455) over `RawClient`: masks what it sends, checks what it receives.
final class WebSocketTestClient {
    let raw: RawClient
    let port: UInt16
    /// Every protocol message received, in order.
    private(set) var history: [ServerMessage] = []
    /// Every text payload received.
    private(set) var payloads: [[UInt8]] = []
    /// The close frame the host sent, once it came.
    private(set) var closeFrame: ServerFrame?

    /// Connects and upgrades on `/ws` with a same-origin request; fails unless the host answers 101 correctly.
    init(port: UInt16, origin: String? = nil) throws {
        self.port = port
        raw = try RawClient(port: port)
        let key = Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        try raw.send(Self.upgradeRequest(port: port, key: key, origin: origin ?? "http://127.0.0.1:\(port)"))
        let reply = try raw.readResponse()
        guard reply.status == 101 else {
            throw DaemonError(
                description: "upgrade refused: \(reply.status) \(String(decoding: reply.body, as: UTF8.self))")
        }
        guard reply.header("Sec-WebSocket-Accept") == Self.expectedAccept(key) else {
            throw DaemonError(description: "bad Sec-WebSocket-Accept \(reply.header("Sec-WebSocket-Accept") ?? "none")")
        }
    }

    static func upgradeRequest(port: UInt16, key: String?, origin: String?, extra: String = "") -> String {
        var text = "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        text += "Sec-WebSocket-Version: 13\r\n"
        if let key { text += "Sec-WebSocket-Key: \(key)\r\n" }
        if let origin { text += "Origin: \(origin)\r\n" }
        return text + extra + "\r\n"
    }

    /// The accept value for a key (SpyWeb's SHA-1 is checked against RFC 3174 and the RFC 6455 example in
    /// SpyWebTests).
    static func expectedAccept(_ key: String) -> String {
        WebSocketHandshake.acceptValue(forKey: key)
    }

    /// A masked client frame.
    static func frame(_ opcode: UInt8, _ payload: [UInt8], fin: Bool = true, masked: Bool = true) -> [UInt8] {
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        let maskBit: UInt8 = masked ? 0x80 : 0
        if payload.count < 126 {
            bytes.append(maskBit | UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            bytes += [maskBit | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            bytes.append(maskBit | 127)
            for shift in stride(from: 56, through: 0, by: -8) {
                bytes.append(UInt8(truncatingIfNeeded: payload.count >> shift))
            }
        }
        guard masked else { return bytes + payload }
        let mask = (0..<4).map { _ in UInt8.random(in: 0...255) }
        return bytes + mask + payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
    }

    func send(_ message: ClientMessage) throws {
        try raw.send(Self.frame(0x1, WireCodec.encodePayload(message)))
    }

    func sendRaw(_ bytes: [UInt8]) throws {
        try raw.send(bytes)
    }

    /// The next frame from the host, or nil at the deadline or the end of the stream.
    func nextFrame(deadline: Deadline) throws -> ServerFrame? {
        while true {
            if let frame = try parseFrame() { return frame }
            guard raw.readSome(deadline: deadline) else { return nil }
        }
    }

    private func parseFrame() throws -> ServerFrame? {
        let bytes = raw.buffer
        guard bytes.count >= 2 else { return nil }
        guard bytes[1] & 0x80 == 0 else { throw DaemonError(description: "the host masked a frame") }
        guard bytes[0] & 0x70 == 0 else { throw DaemonError(description: "the host set reserved bits") }
        var length = Int(bytes[1] & 0x7F)
        var header = 2
        if length == 126 {
            guard bytes.count >= 4 else { return nil }
            length = Int(bytes[2]) << 8 | Int(bytes[3])
            header = 4
        } else if length == 127 {
            guard bytes.count >= 10 else { return nil }
            length = bytes[2..<10].reduce(0) { $0 << 8 | Int($1) }
            header = 10
        }
        guard bytes.count >= header + length else { return nil }
        let frame = ServerFrame(
            fin: bytes[0] & 0x80 != 0, opcode: bytes[0] & 0x0F, payload: Array(bytes[header..<header + length]))
        _ = raw.take(header + length)
        return frame
    }

    /// The next protocol message (answering the host's `ping`), or nil at the deadline, a close or the end.
    func next(deadline: Deadline) throws -> ServerMessage? {
        while let frame = try nextFrame(deadline: deadline) {
            switch frame.opcode {
            case 0x1:
                guard frame.fin else { throw DaemonError(description: "the host fragmented a message") }
                payloads.append(frame.payload)
                let message = try WireCodec.decode(ServerMessage.self, from: frame.payload)
                history.append(message)
                if case .ping(let ping) = message { try send(.pong(.init(id: ping.id))) }
                return message
            case 0x8:
                closeFrame = frame
                return nil
            case 0x9, 0xA:
                continue
            default:
                throw DaemonError(description: "unexpected opcode \(frame.opcode)")
            }
        }
        return nil
    }

    /// Reads until a message matches, or fails at the deadline.
    @discardableResult
    func waitFor(_ what: String, seconds: Double = 10, where predicate: (ServerMessage) -> Bool) throws -> ServerMessage
    {
        let deadline = Deadline.after(seconds: seconds)
        while let message = try next(deadline: deadline) {
            if predicate(message) { return message }
        }
        throw DaemonError(description: "waited in vain for \(what); last: \(history.suffix(3))")
    }

    /// Reads frames until the host's close frame and the end of the stream; returns the close code (0 for a close
    /// without one), or nil when the connection did not close before the deadline.
    func waitForClose(seconds: Double = 10) -> UInt16? {
        let deadline = Deadline.after(seconds: seconds)
        while closeFrame == nil, !raw.closed, !deadline.hasPassed {
            _ = try? next(deadline: deadline)
        }
        guard let closeFrame, raw.readUntilClosed(seconds: max(0.1, Double(deadline.remainingMs) / 1000)) else {
            return nil
        }
        return closeFrame.closeCode ?? 0
    }
}
