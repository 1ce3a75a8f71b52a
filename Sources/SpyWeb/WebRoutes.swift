/// What the host does with a complete request.
public enum WebRoute: Sendable, Equatable {
    /// Write this response, then close.
    case respond(HTTPResponse)
    /// Write this `101` response and speak WebSocket from now on.
    case upgrade(HTTPResponse)
}

/// The host's routes: the page's assets by fixed name, and `/ws`.
public enum WebRoutes {
    /// The WebSocket route.
    public static let webSocketPath = "/ws"

    /// Routes a parsed request.
    public static func route(_ request: HTTPRequest) -> WebRoute {
        if request.path == webSocketPath {
            switch WebSocketHandshake.accept(request) {
            case .success(let response): return .upgrade(response)
            case .failure(let refusal): return .respond(refusal.response)
            }
        }
        if request.path == JoinQR.path { return .respond(JoinQR.response(request)) }
        guard let asset = WebAssets.byPath[request.path] else {
            return .respond(.problem(.notFound, "There is nothing at this address."))
        }
        var headers = [HTTPHeader("Content-Type", asset.contentType)] + HTTPResponse.securityHeaders
        headers += [HTTPHeader("ETag", asset.etag), HTTPHeader("Cache-Control", "no-cache")]
        if matches(request.headerTokens("If-None-Match"), asset.etag) {
            return .respond(HTTPResponse(status: .notModified, headers: headers))
        }
        return .respond(HTTPResponse(status: .ok, headers: headers, body: asset.bytes))
    }

    /// RFC 9110 weak comparison of `If-None-Match` against a tag.
    static func matches(_ candidates: [String], _ etag: String) -> Bool {
        candidates.contains { candidate in
            candidate == "*" || (candidate.hasPrefix("W/") ? String(candidate.dropFirst(2)) : candidate) == etag
        }
    }
}
