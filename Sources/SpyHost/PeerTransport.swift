import SpyProtocol
import SpyWeb

/// How a connection's bytes are framed, each transport with the decoder it needs and none of the others'. One
/// port serves both the framed protocol and HTTP: a frame's 4-byte length is at most 65,536, so its first byte is
/// always 0, while an HTTP request starts with a method in capitals (`GET ` is 0x47455420 as a length, far over the
/// limit). The two can never be confused, and the first bytes select the transport.
enum PeerTransport {
    /// Too few bytes have arrived to tell; they are held until they do.
    case sniffing(held: [UInt8])
    /// Length-prefixed JSON frames, through the connection's `FrameDecoder`.
    case framed
    /// An HTTP request head is arriving.
    case http(HTTPRequestParser)
    /// The request has been answered; nothing more is read from it.
    case answered
    /// RFC 6455 frames after a successful upgrade on `/ws`; each text message is one protocol message.
    /// `closeSent` once the one close frame the connection gets is queued.
    case webSocket(WebSocketDecoder, closeSent: Bool)

    /// Bytes of unfinished input this transport's own decoder holds (the framed protocol's are the connection's
    /// inbox), counted against the host's one budget of unfinished input.
    var bufferedByteCount: Int {
        switch self {
        case .sniffing(let held): held.count
        case .http(let parser): parser.bufferedByteCount
        case .webSocket(let decoder, _): decoder.bufferedByteCount
        case .framed, .answered: 0
        }
    }

    var isHTTP: Bool {
        if case .http = self { return true }
        return false
    }
}

/// One thing a peer's input produced.
enum PeerInput {
    /// A protocol message's JSON: a frame's payload or a WebSocket text message.
    case message([UInt8])
    /// The framed protocol's stream broke (a bad length).
    case badFrame
    /// A complete HTTP request head and the bytes that followed it.
    case request(HTTPRequest, leftover: [UInt8])
    /// An HTTP request refused before it was complete.
    case refused(HTTPStatus, String)
    /// A WebSocket control frame.
    case control(WebSocketEvent)
    /// The WebSocket stream broke; close with this code.
    case webSocketFailed(WebSocketFailure)
}

extension Peer {
    /// Whether bytes starting like `bytes` are HTTP (`true`), the framed protocol (`false`), or too few to tell.
    static func looksLikeHTTP(_ bytes: [UInt8]) -> Bool? {
        for (index, byte) in bytes.prefix(4).enumerated() {
            let capital = byte >= 0x41 && byte <= 0x5A
            if !(capital || (index == 3 && byte == 0x20)) { return false }
        }
        return bytes.count >= 4 ? true : nil
    }

    // A decoder is taken out of `transport` (which holds `.answered` meanwhile) before it is fed, so it is fed in
    // place rather than copied with every read.

    /// Takes what a read returned.
    func accept(_ bytes: UnsafeRawBufferPointer) {
        switch transport {
        case .framed:
            inbox.feed(bytes)
        case .http(var parser):
            transport = .answered
            _ = parser.feed(bytes)
            transport = .http(parser)
        case .webSocket(var decoder, let closeSent):
            transport = .answered
            decoder.feed(bytes)
            transport = .webSocket(decoder, closeSent: closeSent)
        case .answered:
            break
        case .sniffing(var held):
            held.append(contentsOf: bytes)
            guard let isHTTP = Self.looksLikeHTTP(held) else {
                transport = .sniffing(held: held)
                return
            }
            if isHTTP {
                var parser = HTTPRequestParser()
                _ = parser.feed(held)
                transport = .http(parser)
            } else {
                transport = .framed
                inbox.feed(held)
            }
        }
    }

    /// The next input to act on, or nil when more bytes are needed.
    func nextInput() -> PeerInput? {
        switch transport {
        case .sniffing, .answered:
            return nil
        case .framed:
            do {
                return try inbox.next().map { .message($0) }
            } catch {
                return .badFrame
            }
        case .http(let parser):
            switch parser.outcome {
            case .needMore:
                return nil
            case .complete(let request, let leftover):
                transport = .answered
                return .request(request, leftover: leftover)
            case .failed(let status, let detail):
                transport = .answered
                return .refused(status, detail)
            }
        case .webSocket(var decoder, let closeSent):
            transport = .answered
            defer { transport = .webSocket(decoder, closeSent: closeSent) }
            // A message may be as large as a frame: 4 KiB until hello is accepted, then the full frame limit.
            decoder.maxMessage = inbox.maxPayload
            do {
                switch try decoder.next() {
                case .text(let payload)?: return .message(payload)
                case let event?: return .control(event)
                case nil: return nil
                }
            } catch {
                return .webSocketFailed(error)
            }
        }
    }

    /// Bytes of unfinished input held for this peer, whatever its transport: a frame, a WebSocket message or a
    /// request head, all counted alike against the host's budget.
    var unfinishedInputBytes: Int {
        inbox.bufferedByteCount + transport.bufferedByteCount
    }

    /// Drops the unfinished input the transport's decoder holds.
    func releaseTransportInput() {
        switch transport {
        case .http(let parser) where parser.bufferedByteCount > 0:
            transport = .http(HTTPRequestParser())
        case .webSocket(let decoder, let closeSent) where decoder.bufferedByteCount > 0:
            transport = .webSocket(WebSocketDecoder(maxMessage: decoder.maxMessage), closeSent: closeSent)
        default:
            break
        }
    }

    /// Starts speaking WebSocket after the `101` answer.
    func startWebSocket(leftover: [UInt8]) {
        var decoder = WebSocketDecoder(maxMessage: inbox.maxPayload)
        decoder.feed(leftover)
        transport = .webSocket(decoder, closeSent: false)
    }

    /// Marks the one close frame of a WebSocket peer as queued; false for any other peer, or when it was already.
    func takeWebSocketClose() -> Bool {
        guard case .webSocket(let decoder, closeSent: false) = transport else { return false }
        transport = .webSocket(decoder, closeSent: true)
        return true
    }

    /// Whether the peer's messages go out as length-prefixed frames.
    var speaksFrames: Bool {
        switch transport {
        case .sniffing, .framed: return true
        case .webSocket, .http, .answered: return false
        }
    }

    /// The bytes that carry `message` on this peer's transport; nil while it speaks plain HTTP.
    func wire(_ message: OutgoingMessage) -> [UInt8]? {
        switch transport {
        case .sniffing, .framed: return message.framed
        case .webSocket: return message.webSocketText
        case .http, .answered: return nil
        }
    }
}

/// A server message encoded once for all its recipients, as a frame (what nearly every peer speaks), and framed
/// lazily as a WebSocket message for the peers that speak that (a broadcast may go to both).
package final class OutgoingMessage {
    /// The length header and the JSON, written in one array.
    package let framed: [UInt8]
    private(set) lazy var webSocketText: [UInt8] = WebSocketFrame.text(Array(framed[FrameLimits.headerSize...]))

    /// Oldest clues a room snapshot left out to fit a frame (see `WireCodec.encodePayloadFitting`).
    let trimmedClues: Int

    /// Nil when the message does not fit in a frame, even shortened.
    package init?(_ message: ServerMessage) {
        guard let (framed, trimmed) = WireCodec.encodeFrameFitting(message) else { return nil }
        self.framed = framed
        trimmedClues = trimmed
    }
}

@available(*, unavailable)
extension OutgoingMessage: Sendable {}
