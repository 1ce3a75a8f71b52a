/// A response to write: status, headers, body. `Connection: close` always: every HTTP connection answers one
/// request, so a browser's connections never sit in the host's per-address cap.
public struct HTTPResponse: Sendable, Equatable {
    public var status: HTTPStatus
    /// Headers in the order written (after the status line, before `Content-Length` and `Connection`).
    public var headers: [HTTPHeader]
    public var body: [UInt8]
    /// Whether `Content-Length` and `Connection: close` are written (not for `101 Switching Protocols`).
    public var closesConnection: Bool

    public init(status: HTTPStatus, headers: [HTTPHeader] = [], body: [UInt8] = [], closesConnection: Bool = true) {
        self.status = status
        self.headers = headers
        self.body = body
        self.closesConnection = closesConnection
    }

    /// Headers every response of the host carries: no inline script or style, no type sniffing, no referrer.
    public static let securityHeaders = [
        HTTPHeader("Content-Security-Policy", "default-src 'self'"),
        HTTPHeader("X-Content-Type-Options", "nosniff"),
        HTTPHeader("Referrer-Policy", "no-referrer"),
    ]

    /// A short plain-text answer for a refused request.
    public static func problem(_ status: HTTPStatus, _ detail: String, extra: [HTTPHeader] = []) -> HTTPResponse {
        HTTPResponse(
            status: status,
            headers: [HTTPHeader("Content-Type", "text/plain; charset=utf-8")] + securityHeaders
                + [HTTPHeader("Cache-Control", "no-store")] + extra,
            body: Array("\(status.rawValue) \(status.reason): \(detail)\n".utf8))
    }

    /// The bytes on the wire; `includeBody: false` for HEAD (the length still says what GET would send).
    public func serialized(includeBody: Bool = true) -> [UInt8] {
        var head = "HTTP/1.1 \(status.rawValue) \(status.reason)\r\n"
        for header in headers { head += "\(header.name): \(header.value)\r\n" }
        if closesConnection {
            if status != .notModified { head += "Content-Length: \(body.count)\r\n" }
            head += "Connection: close\r\n"
        }
        head += "\r\n"
        var bytes = Array(head.utf8)
        if includeBody && status != .notModified { bytes += body }
        return bytes
    }
}
