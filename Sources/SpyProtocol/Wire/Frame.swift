import Foundation

/// Limits shared by both ends of the wire.
public enum FrameLimits {
    /// Default largest payload a frame may carry, in bytes.
    public static let defaultMaxPayload = 65_536
    /// Size of the length header.
    public static let headerSize = 4
}

/// Why a byte stream cannot be framed. Each is fatal for the connection.
public enum FrameError: Error, Equatable, Sendable {
    /// The header announced a payload of 0 bytes, or more than the maximum.
    case badLength(UInt32)
    /// The stream ended inside a frame (`buffered` bytes of it, header included, had arrived).
    case truncated(buffered: Int)
}

/// Incremental length-prefixed frame decoder.
///
/// Feed it whatever a read returned; it hands back complete payloads in order. The announced length is checked
/// as soon as the four header bytes are in, so a hostile length never makes it buffer anything, and storage grows
/// with the bytes that actually arrived, never with the length a header announced: a peer that announces 64 KiB and
/// sends ten bytes costs ten bytes (rounded up to the allocator's step), not 64 KiB.
public struct FrameDecoder: Sendable {
    private enum State: Sendable {
        /// Fewer than four header bytes are buffered.
        case waitingForHeader
        /// The header announced `length` payload bytes.
        case waitingForFrame(length: Int)
        /// A bad length was seen; the stream is unusable.
        case failed(FrameError)
    }

    /// Largest payload accepted. It may change between frames (a host accepts only small frames before `hello`);
    /// a new limit applies from the next header read.
    public var maxPayload: Int {
        didSet { precondition(maxPayload > 0 && maxPayload <= Int(UInt32.max)) }
    }
    private var state: State = .waitingForHeader
    private var buffer: [UInt8] = []
    /// Index of the first unconsumed byte in `buffer`.
    private var readIndex = 0

    public init(maxPayload: Int = FrameLimits.defaultMaxPayload) {
        precondition(maxPayload > 0 && maxPayload <= Int(UInt32.max))
        self.maxPayload = maxPayload
    }

    /// Bytes held but not yet returned as a frame.
    public var bufferedByteCount: Int { buffer.count - readIndex }

    /// Bytes of storage the decoder holds, for memory accounting.
    public var capacity: Int { buffer.capacity }

    /// Storage kept between frames; a larger buffer is given back once its frame is out, so a connection that once
    /// sent a big frame does not hold that memory for the rest of its life.
    public static let idleCapacity = 4 * 1024

    /// Appends received bytes. Call `next()` until it returns `nil` after each feed: that is what keeps the
    /// buffer under twice the largest frame (for reads of at most one frame's size). Bytes fed after the stream
    /// has failed are dropped.
    public mutating func feed<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        guard makeRoom(for: bytes.underestimatedCount) else { return }
        buffer.append(contentsOf: bytes)
    }

    /// Appends received bytes from a raw buffer.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer) {
        guard makeRoom(for: bytes.count) else { return }
        buffer.append(contentsOf: bytes)
    }

    /// The next complete payload, `nil` when more bytes are needed.
    public mutating func next() throws(FrameError) -> [UInt8]? {
        while true {
            switch state {
            case .failed(let error):
                throw error
            case .waitingForHeader:
                guard bufferedByteCount >= FrameLimits.headerSize else { return nil }
                let length =
                    UInt32(buffer[readIndex]) << 24 | UInt32(buffer[readIndex + 1]) << 16
                    | UInt32(buffer[readIndex + 2]) << 8 | UInt32(buffer[readIndex + 3])
                readIndex += FrameLimits.headerSize
                guard length > 0, UInt64(length) <= UInt64(maxPayload) else {
                    let error = FrameError.badLength(length)
                    state = .failed(error)
                    buffer = []
                    readIndex = 0
                    throw error
                }
                state = .waitingForFrame(length: Int(length))
            case .waitingForFrame(let length):
                guard bufferedByteCount >= length else { return nil }
                let payload = Array(buffer[readIndex..<readIndex + length])
                readIndex += length
                state = .waitingForHeader
                if readIndex == buffer.count {
                    buffer.removeAll(keepingCapacity: buffer.capacity <= Self.idleCapacity)
                    readIndex = 0
                }
                return payload
            }
        }
    }

    /// Call at end of stream, once `next()` has returned `nil`: throws `truncated` when a frame was cut off
    /// (its `buffered` count includes the header bytes), or the error that failed the stream.
    public func finish() throws(FrameError) {
        switch state {
        case .failed(let error):
            throw error
        case .waitingForHeader:
            if bufferedByteCount > 0 { throw .truncated(buffered: bufferedByteCount) }
        case .waitingForFrame:
            throw .truncated(buffered: FrameLimits.headerSize + bufferedByteCount)
        }
    }

    /// Bytes of the largest possible frame, header included.
    private var frameLimit: Int { FrameLimits.headerSize + maxPayload }

    /// Prepares the buffer for `incoming` more bytes; `false` when the stream has failed and they are dropped.
    ///
    /// Consumed bytes are dropped once they are at least half the buffer, or when keeping them would force a
    /// reallocation anyway, so each byte is moved at most once on average. Growth is geometric in the bytes held
    /// (so capacity stays under twice what arrived, plus the idle allowance) and capped at twice the largest frame,
    /// because Array's own doubling could otherwise reach four times that.
    private mutating func makeRoom(for incoming: Int) -> Bool {
        if case .failed = state { return false }
        if readIndex > 0, readIndex * 2 >= buffer.count || buffer.count + incoming > buffer.capacity {
            buffer.removeSubrange(0..<readIndex)
            readIndex = 0
        }
        let needed = buffer.count + incoming
        if needed > buffer.capacity {
            buffer.reserveCapacity(max(needed, min(2 * buffer.count, 2 * frameLimit)))
        }
        return true
    }
}

/// Why a payload could not be turned into a message. Maps onto an `ErrorCode`.
public struct MessageError: Error, Equatable, Sendable {
    public var code: ErrorCode
    public var detail: String

    public init(_ code: ErrorCode, _ detail: String) {
        self.code = code
        self.detail = detail
    }
}

/// Frame encoding and message (de)serialisation.
public enum WireCodec {
    /// One decoder for every frame: it holds only options, so there is nothing to build per message.
    private static let decoder = JSONDecoder()

    /// Prefixes a payload with its length. Throws `badLength` for an empty payload or one over `maxPayload`.
    public static func frame(_ payload: [UInt8], maxPayload: Int = FrameLimits.defaultMaxPayload) throws(FrameError)
        -> [UInt8]
    {
        guard !payload.isEmpty, payload.count <= maxPayload else {
            throw .badLength(UInt32(clamping: payload.count))
        }
        let length = UInt32(payload.count)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(payload.count + FrameLimits.headerSize)
        bytes.append(UInt8(truncatingIfNeeded: length >> 24))
        bytes.append(UInt8(truncatingIfNeeded: length >> 16))
        bytes.append(UInt8(truncatingIfNeeded: length >> 8))
        bytes.append(UInt8(truncatingIfNeeded: length))
        bytes.append(contentsOf: payload)
        return bytes
    }

    /// JSON bytes of a message (no header).
    public static func encodePayload<Message: Encodable>(_ message: Message) -> [UInt8] {
        // The streaming encoder fails only on a non-finite number; the wire types hold strings, integers,
        // booleans and arrays of them, which always encode.
        try! StreamingJSONEncoder.encode(message)
    }

    /// A complete frame (header and JSON) for a message.
    public static func encodeFrame<Message: Encodable>(
        _ message: Message, maxPayload: Int = FrameLimits.defaultMaxPayload
    ) throws(FrameError) -> [UInt8] {
        // The header is written in front of the JSON in the same array (see `encodePayload` for the `try!`).
        var bytes = try! StreamingJSONEncoder.encode(message, leadingBytes: FrameLimits.headerSize)
        try writeHeader(into: &bytes, maxPayload: maxPayload)
        return bytes
    }

    /// JSON bytes of a server message (no header), written by hand rather than through `Encodable`.
    public static func encodePayload(_ message: ServerMessage) -> [UInt8] {
        message.jsonBytes()
    }

    /// A complete frame for a server message, written by hand with its header in place.
    public static func encodeFrame(
        _ message: ServerMessage, maxPayload: Int = FrameLimits.defaultMaxPayload
    ) throws(FrameError) -> [UInt8] {
        var bytes = message.jsonBytes(leadingBytes: FrameLimits.headerSize)
        try writeHeader(into: &bytes, maxPayload: maxPayload)
        return bytes
    }

    /// Fills the first `headerSize` bytes of `bytes` with the length of what follows them.
    private static func writeHeader(into bytes: inout [UInt8], maxPayload: Int) throws(FrameError) {
        let count = bytes.count - FrameLimits.headerSize
        guard count > 0, count <= maxPayload else { throw .badLength(UInt32(clamping: count)) }
        for index in 0..<FrameLimits.headerSize {
            bytes[index] = UInt8(truncatingIfNeeded: count >> (8 * (FrameLimits.headerSize - 1 - index)))
        }
    }

    /// Decodes a payload, classifying failures as `bad_frame`, `unknown_type` or `bad_message`.
    ///
    /// The fast path is one `JSONDecoder` pass; only a payload that fails is looked at again to tell a broken
    /// frame from a bad message.
    public static func decode<Message: Decodable>(_ type: Message.Type, from payload: [UInt8]) throws(MessageError)
        -> Message
    {
        if let problem = encodingProblem(payload) { throw MessageError(.badFrame, problem) }
        let data = Data(payload)
        let failure: MessageError
        do {
            return try decoder.decode(Message.self, from: data)
        } catch MessageDecodingError.unknownType(let name) {
            failure = MessageError(.unknownType, "unknown message type \"\(name.prefix(40))\"")
        } catch let DecodingError.keyNotFound(key, _) {
            failure = MessageError(.badMessage, "missing field \"\(key.stringValue)\"")
        } catch let DecodingError.typeMismatch(_, context) {
            failure = MessageError(.badMessage, "wrong type for field \"\(fieldPath(context))\"")
        } catch let DecodingError.valueNotFound(_, context) {
            failure = MessageError(.badMessage, "null for field \"\(fieldPath(context))\"")
        } catch let DecodingError.dataCorrupted(context) {
            failure = MessageError(.badMessage, "bad value for field \"\(fieldPath(context))\"")
        } catch {
            failure = MessageError(.badMessage, "the message cannot be read")
        }
        if let frameProblem = frameProblem(payload) {
            throw MessageError(.badFrame, frameProblem)
        }
        throw failure
    }

    /// Why a payload is not plain UTF-8 (a byte-order mark, or invalid bytes), or `nil` when it is. Checked before
    /// decoding because JSONDecoder would read a UTF-16 payload that starts with its byte-order mark.
    public static func encodingProblem(_ payload: [UInt8]) -> String? {
        if payload.starts(with: [0xEF, 0xBB, 0xBF]) || payload.starts(with: [0xFE, 0xFF])
            || payload.starts(with: [0xFF, 0xFE])
        {
            return "payload starts with a byte-order mark"
        }
        // Valid UTF-8, but never in JSON text: it is how UTF-16 or UTF-32 without a mark looks, which JSONDecoder
        // would detect and read.
        if payload.contains(0) { return "payload holds a NUL byte" }
        guard String(validating: payload, as: UTF8.self) != nil else { return "payload is not valid UTF-8" }
        return nil
    }

    /// Why a payload is not a UTF-8 JSON object with a string `type`, or `nil` when it is one.
    public static func frameProblem(_ payload: [UInt8]) -> String? {
        guard String(validating: payload, as: UTF8.self) != nil else { return "payload is not valid UTF-8" }
        guard let object = try? JSONSerialization.jsonObject(with: Data(payload), options: []) else {
            return "payload is not JSON"
        }
        guard let dictionary = object as? [String: Any] else { return "payload is not a JSON object" }
        guard dictionary["type"] is String else { return "the object has no string \"type\" field" }
        return nil
    }

    private static func fieldPath(_ context: DecodingError.Context) -> String {
        context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
    }
}
