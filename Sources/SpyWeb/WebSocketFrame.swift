/// Close codes of RFC 6455, section 7.4.1, that the host sends.
public enum WebSocketCloseCode: UInt16, Sendable, Equatable {
    case normal = 1000
    case goingAway = 1001
    case protocolError = 1002
    case unsupportedData = 1003
    case invalidPayload = 1007
    case policyViolation = 1008
    case messageTooBig = 1009
    case internalError = 1011
}

/// Why a WebSocket stream cannot go on: the close code and reason to answer with. Fatal for the connection.
public struct WebSocketFailure: Error, Sendable, Equatable {
    public var code: WebSocketCloseCode
    public var reason: String

    public init(_ code: WebSocketCloseCode, _ reason: String) {
        self.code = code
        self.reason = reason
    }
}

/// What a client sent, message by message.
public enum WebSocketEvent: Sendable, Equatable {
    /// A whole text message (fragments joined), valid UTF-8.
    case text([UInt8])
    /// A ping; answer with a pong carrying the same bytes.
    case ping([UInt8])
    /// A pong (unsolicited or not); nothing to do.
    case pong([UInt8])
    /// The client's close: its code (nil when it sent none) and reason. Nothing follows.
    case close(code: UInt16?, reason: String)
}

/// Frame opcodes (RFC 6455, section 5.2).
enum WebSocketOpcode: UInt8 {
    case continuation = 0x0
    case text = 0x1
    case binary = 0x2
    case close = 0x8
    case ping = 0x9
    case pong = 0xA
}

/// Server-to-client frames: unmasked, never fragmented.
public enum WebSocketFrame {
    /// Largest payload of a control frame.
    public static let maxControlPayload = 125

    /// A text frame carrying `payload` (which must be UTF-8).
    public static func text(_ payload: [UInt8]) -> [UInt8] {
        frame(.text, payload)
    }

    /// A pong echoing a ping's payload.
    public static func pong(_ payload: [UInt8]) -> [UInt8] {
        frame(.pong, Array(payload.prefix(maxControlPayload)))
    }

    /// A close frame with a code and a short reason (cut to fit a control frame on a character boundary).
    public static func close(_ code: WebSocketCloseCode, reason: String = "") -> [UInt8] {
        close(code: code.rawValue, reason: reason)
    }

    /// A close frame with any code, such as one a client sent that is echoed back.
    public static func close(code: UInt16, reason: String = "") -> [UInt8] {
        var payload = [UInt8(code >> 8), UInt8(code & 0xFF)]
        var reasonBytes: [UInt8] = []
        for character in reason {
            let bytes = Array(String(character).utf8)
            if payload.count + reasonBytes.count + bytes.count > maxControlPayload { break }
            reasonBytes += bytes
        }
        payload += reasonBytes
        return frame(.close, payload)
    }

    static func frame(_ opcode: WebSocketOpcode, _ payload: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = [0x80 | opcode.rawValue]
        bytes.reserveCapacity(payload.count + 10)
        if payload.count < 126 {
            bytes.append(UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            bytes += [126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            bytes.append(127)
            let length = UInt64(payload.count)
            for shift in stride(from: 56, through: 0, by: -8) {
                bytes.append(UInt8(truncatingIfNeeded: length >> UInt64(shift)))
            }
        }
        bytes += payload
        return bytes
    }
}

/// Incremental decoder of the frames a client sends, as a state machine fed whatever a read returned (like the
/// framed protocol's `FrameDecoder`).
///
/// Enforces RFC 6455 for a server: frames masked, reserved bits clear, known opcodes, control frames short and
/// whole, lengths in their shortest form, fragments in order. Text only: a binary message closes with 1003. A
/// message (all its fragments) may hold at most `maxMessage` bytes, checked from each header before the payload
/// arrives (1009); a 64-bit length with its top bit set is a protocol error (1002). Buffers grow with the bytes
/// received, never with a declared length.
public struct WebSocketDecoder: Sendable {
    private enum State: Sendable {
        case open
        /// The client's close was returned; later bytes are dropped.
        case closed
        case failed(WebSocketFailure)
    }

    /// Largest text message accepted, in bytes; it may change between messages (the host raises it after hello).
    public var maxMessage: Int {
        didSet { precondition(maxMessage > 0) }
    }
    private var state: State = .open
    private var buffer: [UInt8] = []
    private var readIndex = 0
    /// The fragments of a text message so far, while one is being received.
    private var fragments: [UInt8]?

    public init(maxMessage: Int) {
        precondition(maxMessage > 0)
        self.maxMessage = maxMessage
    }

    /// Bytes held but not yet returned (buffered frames and an unfinished message).
    public var bufferedByteCount: Int { buffer.count - readIndex + (fragments?.count ?? 0) }

    /// Appends received bytes. Call `next()` until it returns nil after each feed.
    public mutating func feed<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        guard case .open = state else { return }
        if readIndex > 0, readIndex * 2 >= buffer.count {
            buffer.removeSubrange(0..<readIndex)
            readIndex = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next event, nil when more bytes are needed (or after the close). Throws the failure that ends the
    /// stream, again on every later call.
    public mutating func next() throws(WebSocketFailure) -> WebSocketEvent? {
        switch state {
        case .closed: return nil
        case .failed(let failure): throw failure
        case .open: break
        }
        do {
            while true {
                guard let event = try nextFrame() else { return nil }
                if let event { return event }
            }
        } catch {
            state = .failed(error)
            buffer = []
            readIndex = 0
            fragments = nil
            throw error
        }
    }

    /// One frame: `nil` when more bytes are needed, `.some(nil)` for a fragment that completes nothing yet.
    private mutating func nextFrame() throws(WebSocketFailure) -> WebSocketEvent?? {
        let available = buffer.count - readIndex
        guard available >= 2 else { return nil }
        let first = buffer[readIndex]
        let second = buffer[readIndex + 1]
        let fin = first & 0x80 != 0
        guard first & 0x70 == 0 else { throw WebSocketFailure(.protocolError, "reserved bits set") }
        guard let opcode = WebSocketOpcode(rawValue: first & 0x0F) else {
            throw WebSocketFailure(.protocolError, "unknown opcode")
        }
        guard second & 0x80 != 0 else { throw WebSocketFailure(.protocolError, "client frames must be masked") }
        let shortLength = Int(second & 0x7F)
        let isControl = opcode.rawValue >= 0x8
        if isControl {
            guard fin else { throw WebSocketFailure(.protocolError, "fragmented control frame") }
            guard shortLength <= WebSocketFrame.maxControlPayload else {
                throw WebSocketFailure(.protocolError, "control frame over 125 bytes")
            }
        } else {
            switch opcode {
            case .binary: throw WebSocketFailure(.unsupportedData, "text frames only")
            case .continuation:
                guard fragments != nil else { throw WebSocketFailure(.protocolError, "continuation without a start") }
            default:
                guard fragments == nil else {
                    throw WebSocketFailure(.protocolError, "new message inside a fragmented one")
                }
            }
        }
        let extendedBytes = shortLength == 126 ? 2 : shortLength == 127 ? 8 : 0
        guard available >= 2 + extendedBytes else { return nil }
        var length = UInt64(shortLength)
        if extendedBytes > 0 {
            length = 0
            for offset in 0..<extendedBytes { length = length << 8 | UInt64(buffer[readIndex + 2 + offset]) }
            guard length >> 63 == 0 else { throw WebSocketFailure(.protocolError, "length with the top bit set") }
            let shortest: UInt64 = extendedBytes == 2 ? 126 : 0x1_0000
            guard length >= shortest else { throw WebSocketFailure(.protocolError, "length not in shortest form") }
        }
        if !isControl, length > UInt64(maxMessage - (fragments?.count ?? 0)) {
            throw WebSocketFailure(.messageTooBig, "message over \(maxMessage) bytes")
        }
        let headerSize = 2 + extendedBytes + 4
        let payloadLength = Int(length)
        guard available >= headerSize + payloadLength else { return nil }
        let maskStart = readIndex + 2 + extendedBytes
        let mask = (buffer[maskStart], buffer[maskStart + 1], buffer[maskStart + 2], buffer[maskStart + 3])
        var payload = Array(buffer[(readIndex + headerSize)..<(readIndex + headerSize + payloadLength)])
        for index in payload.indices {
            switch index & 3 {
            case 0: payload[index] ^= mask.0
            case 1: payload[index] ^= mask.1
            case 2: payload[index] ^= mask.2
            default: payload[index] ^= mask.3
            }
        }
        readIndex += headerSize + payloadLength
        if readIndex == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 2 * maxMessage)
            readIndex = 0
        }
        switch opcode {
        case .ping: return .some(.ping(payload))
        case .pong: return .some(.pong(payload))
        case .close: return .some(try closeEvent(payload))
        case .binary: throw WebSocketFailure(.unsupportedData, "text frames only")
        case .text, .continuation:
            var message = fragments ?? []
            message += payload
            guard fin else {
                fragments = message
                return .some(nil)
            }
            fragments = nil
            guard String(validating: message, as: UTF8.self) != nil else {
                throw WebSocketFailure(.invalidPayload, "text is not valid UTF-8")
            }
            return .some(.text(message))
        }
    }

    private mutating func closeEvent(_ payload: [UInt8]) throws(WebSocketFailure) -> WebSocketEvent {
        var code: UInt16?
        var reason = ""
        if payload.count == 1 { throw WebSocketFailure(.protocolError, "close payload of one byte") }
        if payload.count >= 2 {
            let value = UInt16(payload[0]) << 8 | UInt16(payload[1])
            guard Self.isValidReceivedCloseCode(value) else {
                throw WebSocketFailure(.protocolError, "invalid close code")
            }
            guard let text = String(validating: payload[2...], as: UTF8.self) else {
                throw WebSocketFailure(.invalidPayload, "close reason is not valid UTF-8")
            }
            code = value
            reason = text
        }
        state = .closed
        buffer = []
        readIndex = 0
        fragments = nil
        return .close(code: code, reason: reason)
    }

    /// Codes a peer may put in a close frame (RFC 6455, section 7.4, and the IANA registry).
    static func isValidReceivedCloseCode(_ code: UInt16) -> Bool {
        switch code {
        case 1000...1003, 1007...1014, 3000...4999: return true
        default: return false
        }
    }
}
