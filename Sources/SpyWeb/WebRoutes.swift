/// What the host does with a complete request.
public enum WebRoute: Sendable, Equatable {
    /// Write this response, then close.
    case respond(HTTPResponse)
    /// Write this `101` response and speak WebSocket from now on.
    case upgrade(HTTPResponse)
}

/// What the routes keep between requests: the names the host answers to, and the join codes drawn so far.
/// Used from the event loop's thread only.
public final class WebSite {
    public let hostNames: HostNames
    /// `/qr.svg` answers by the address they draw; at most `maxJoinCodes` are kept.
    private var joinCodes: [String: HTTPResponse] = [:]
    static let maxJoinCodes = 64
    /// Codes drawn so far (tests read it: a code is drawn once per address, not once per request).
    private(set) var joinCodesDrawn = 0

    public init(hostNames: HostNames) {
        self.hostNames = hostNames
    }

    /// The `/qr.svg` answer for `request`, drawn once per address it draws.
    func joinCode(_ request: HTTPRequest) -> HTTPResponse {
        guard let url = JoinQR.joinURL(request) else { return JoinQR.response(request) }
        if let drawn = joinCodes[url] { return drawn }
        let response = JoinQR.response(request)
        joinCodesDrawn += 1
        // Names are few but ports and literals are not: a full table starts again rather than growing.
        if joinCodes.count >= Self.maxJoinCodes { joinCodes.removeAll(keepingCapacity: true) }
        joinCodes[url] = response
        return response
    }
}

@available(*, unavailable)
extension WebSite: Sendable {}

/// The host's routes: the page's assets by fixed name, and `/ws`.
public enum WebRoutes {
    /// The WebSocket route.
    public static let webSocketPath = "/ws"

    /// Routes a parsed request. A `Host` that is not one of the host's names is refused before any route (a
    /// request without one, which only HTTP/1.0 allows, names no other site and is served).
    public static func route(_ request: HTTPRequest, site: WebSite) -> WebRoute {
        if let host = request.header("Host"), !site.hostNames.accepts(host) {
            return .respond(.problem(.misdirectedRequest, "This host does not answer to that name."))
        }
        if request.path == webSocketPath {
            switch WebSocketHandshake.accept(request) {
            case .success(let response): return .upgrade(response)
            case .failure(let refusal): return .respond(refusal.response)
            }
        }
        if request.path == JoinQR.path { return .respond(site.joinCode(request)) }
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
