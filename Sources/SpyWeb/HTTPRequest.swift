/// HTTP status codes the host answers with.
public enum HTTPStatus: Int, Sendable, Equatable {
    case switchingProtocols = 101
    case ok = 200
    case notModified = 304
    case badRequest = 400
    case forbidden = 403
    case notFound = 404
    case methodNotAllowed = 405
    case requestTimeout = 408
    case payloadTooLarge = 413
    case misdirectedRequest = 421
    case upgradeRequired = 426
    case headersTooLarge = 431

    /// The reason phrase of the status line.
    public var reason: String {
        switch self {
        case .switchingProtocols: return "Switching Protocols"
        case .ok: return "OK"
        case .notModified: return "Not Modified"
        case .badRequest: return "Bad Request"
        case .forbidden: return "Forbidden"
        case .notFound: return "Not Found"
        case .methodNotAllowed: return "Method Not Allowed"
        case .requestTimeout: return "Request Timeout"
        case .payloadTooLarge: return "Payload Too Large"
        case .misdirectedRequest: return "Misdirected Request"
        case .upgradeRequired: return "Upgrade Required"
        case .headersTooLarge: return "Request Header Fields Too Large"
        }
    }
}

/// One request header as received (the name keeps its case; compare with `HTTPRequest.header(_:)`).
public struct HTTPHeader: Sendable, Equatable {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// A complete request head: only GET and HEAD get this far, always without a body.
public struct HTTPRequest: Sendable, Equatable {
    /// `GET` or `HEAD`.
    public var method: String
    /// The path of the target, before any `?`.
    public var path: String
    /// The query after `?`, if any (never used to find a file).
    public var query: String?
    /// `HTTP/1.0` or `HTTP/1.1`.
    public var version: String
    public var headers: [HTTPHeader]

    public init(method: String, path: String, query: String?, version: String, headers: [HTTPHeader]) {
        self.method = method
        self.path = path
        self.query = query
        self.version = version
        self.headers = headers
    }

    /// Whether the response carries no body.
    public var isHead: Bool { method == "HEAD" }

    /// The first value of the header `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.name.lowercased() == wanted }?.value
    }

    /// Every value of the header `name`, comma-separated lists split and trimmed.
    public func headerTokens(_ name: String) -> [String] {
        let wanted = name.lowercased()
        return headers.filter { $0.name.lowercased() == wanted }.flatMap { header in
            header.value.split(separator: ",").map { $0.trimmingASCIIWhitespace() }
        }.filter { !$0.isEmpty }
    }

    /// How many times the header `name` appears.
    public func headerCount(_ name: String) -> Int {
        let wanted = name.lowercased()
        return headers.filter { $0.name.lowercased() == wanted }.count
    }
}

extension Substring {
    func trimmingASCIIWhitespace() -> String {
        var slice = self[...]
        while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
        return String(slice)
    }
}

/// Incremental parser of one request head (request line and headers), as a state machine fed whatever a read
/// returned.
///
/// The head is capped at `maxHeadBytes` in total, so a client can never make it hold more; it never buffers a
/// body (a request announcing one is refused with 413), and takes at most `maxHeaderLines` header lines (431 past
/// them), each appended in place so a head costs time in proportion to its length. Lines end with CRLF (a bare LF is accepted, a bare CR is
/// not). Only GET and HEAD are served; any other method gets 405 once the head is in.
public struct HTTPRequestParser: Sendable {
    /// Largest request head accepted: request line and every header line with their line ends.
    public static let maxHeadBytes = 8 * 1024

    /// Where the parse stands after a feed.
    public enum Outcome: Sendable, Equatable {
        /// The head is not complete yet.
        case needMore
        /// The head is complete; `leftover` bytes that followed it are kept for the next protocol (a WebSocket).
        case complete(HTTPRequest, leftover: [UInt8])
        /// The request is refused with this status; the connection should close after the answer.
        case failed(HTTPStatus, String)
    }

    /// Most header lines accepted: a head of thousands of tiny lines is refused long before it costs anything.
    public static let maxHeaderLines = 100

    private enum State: Sendable {
        case requestLine
        case headers(method: String, target: String, version: String)
        case done(Outcome)
    }

    private var state: State = .requestLine
    /// The headers so far, kept out of `state` so that each is appended in place rather than the list copied.
    private var headers: [HTTPHeader] = []
    /// Bytes of the current, unfinished line.
    private var line: [UInt8] = []
    /// Bytes of the head consumed so far, line ends included.
    private var headBytes = 0
    /// Headers copied to new storage so far, as the header list grew: what keeps a head's parsing linear is that
    /// this stays within twice the header count (tests read it; nothing is timed).
    private(set) var headersMoved = 0

    public init() {}

    /// Bytes of an unfinished head held (the line so far and the headers before it): input the host counts in
    /// its budget of unfinished input like a frame's.
    public var bufferedByteCount: Int {
        if case .done = state { return 0 }
        return headBytes
    }

    /// The outcome so far, without feeding anything.
    public var outcome: Outcome {
        if case .done(let outcome) = state { return outcome }
        return .needMore
    }

    /// Feeds received bytes; once the outcome is not `.needMore` it stays, and further bytes are ignored (after
    /// a complete head they are returned as `leftover` with the first feed that completes it).
    public mutating func feed<Bytes: Collection>(_ bytes: Bytes) -> Outcome where Bytes.Element == UInt8 {
        if case .done(let outcome) = state { return outcome }
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            bytes.formIndex(after: &index)
            headBytes += 1
            if headBytes > Self.maxHeadBytes {
                return finish(.failed(.headersTooLarge, "The request head is over 8 KiB."))
            }
            guard byte == 0x0A else {
                line.append(byte)
                continue
            }
            if line.last == 0x0D { line.removeLast() }
            // The line's storage is lent to `take` and reused for the next line, never copied.
            var finished: [UInt8] = []
            swap(&finished, &line)
            let taken = take(line: finished)
            finished.removeAll(keepingCapacity: true)
            swap(&finished, &line)
            if let outcome = taken {
                if case .complete(let request, _) = outcome {
                    return finish(.complete(request, leftover: Array(bytes[index...])))
                }
                return finish(outcome)
            }
        }
        return .needMore
    }

    private mutating func finish(_ outcome: Outcome) -> Outcome {
        state = .done(outcome)
        line = []
        headers = []
        return outcome
    }

    /// Takes one complete line; returns an outcome when the head is done or refused.
    private mutating func take(line: [UInt8]) -> Outcome? {
        if line.contains(0x0D) { return .failed(.badRequest, "A bare CR in the request head.") }
        switch state {
        case .requestLine:
            // RFC 9112: a server should ignore at least one empty line before the request line.
            if line.isEmpty && headBytes <= 2 { return nil }
            guard let (method, target, version) = Self.requestLine(line) else {
                return .failed(.badRequest, "The request line is not METHOD TARGET HTTP/1.x.")
            }
            state = .headers(method: method, target: target, version: version)
            return nil
        case .headers(let method, let target, let version):
            if line.isEmpty { return Self.complete(method: method, target: target, version: version, headers) }
            if line.first == 0x20 || line.first == 0x09 {
                return .failed(.badRequest, "Folded header lines are not accepted.")
            }
            guard headers.count < Self.maxHeaderLines else {
                return .failed(.headersTooLarge, "More than \(Self.maxHeaderLines) header lines.")
            }
            guard let header = Self.header(line) else { return .failed(.badRequest, "A malformed header line.") }
            let storage = headers.withUnsafeBufferPointer { $0.baseAddress }
            headers.append(header)
            if headers.withUnsafeBufferPointer({ $0.baseAddress }) != storage { headersMoved += headers.count - 1 }
            return nil
        case .done(let outcome):
            return outcome
        }
    }

    private static func requestLine(_ line: [UInt8]) -> (String, String, String)? {
        let parts = line.split(separator: 0x20, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty, parts[0].allSatisfy(isTokenByte),
            parts[1].allSatisfy({ $0 > 0x20 && $0 < 0x7F })
        else { return nil }
        let version = String(decoding: parts[2], as: UTF8.self)
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else { return nil }
        return (String(decoding: parts[0], as: UTF8.self), String(decoding: parts[1], as: UTF8.self), version)
    }

    private static func header(_ line: [UInt8]) -> HTTPHeader? {
        guard let colon = line.firstIndex(of: 0x3A), colon > 0 else { return nil }
        let name = line[..<colon]
        guard name.allSatisfy(isTokenByte) else { return nil }
        let value = line[(colon + 1)...]
        // Visible ASCII, spaces and tabs, and bytes of UTF-8 (obs-text); never a control character.
        guard value.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }) else { return nil }
        let text = String(decoding: value, as: UTF8.self)[...].trimmingASCIIWhitespace()
        return HTTPHeader(String(decoding: name, as: UTF8.self), text)
    }

    private static func complete(method: String, target: String, version: String, _ headers: [HTTPHeader])
        -> Outcome
    {
        guard method == "GET" || method == "HEAD" else {
            return .failed(.methodNotAllowed, "Only GET and HEAD are served.")
        }
        guard target.hasPrefix("/") else { return .failed(.badRequest, "The target must be a path.") }
        let request: HTTPRequest
        if let question = target.firstIndex(of: "?") {
            request = HTTPRequest(
                method: method, path: String(target[..<question]),
                query: String(target[target.index(after: question)...]), version: version, headers: headers)
        } else {
            request = HTTPRequest(method: method, path: target, query: nil, version: version, headers: headers)
        }
        if version == "HTTP/1.1" && request.headerCount("Host") != 1 {
            return .failed(.badRequest, "HTTP/1.1 needs exactly one Host header.")
        }
        if request.headerCount("Host") > 1 { return .failed(.badRequest, "More than one Host header.") }
        if request.header("Transfer-Encoding") != nil {
            return .failed(.payloadTooLarge, "A request body is not accepted.")
        }
        // RFC 9112, 6.3: differing lengths make the message's end ambiguous; the host takes no second one at all.
        if request.headerCount("Content-Length") > 1 {
            return .failed(.badRequest, "More than one Content-Length header.")
        }
        if let length = request.header("Content-Length") {
            guard !length.isEmpty, length.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                return .failed(.badRequest, "A malformed Content-Length.")
            }
            if length.utf8.contains(where: { $0 != 0x30 }) {
                return .failed(.payloadTooLarge, "A request body is not accepted.")
            }
        }
        return .complete(request, leftover: [])
    }

    /// RFC 9110 `tchar`.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default: return false
        }
    }
}
