import Foundation

/// The opening handshake of RFC 6455, section 4.2, plus the host's origin rule.
public enum WebSocketHandshake {
    /// The GUID of RFC 6455 that the accept value is derived with.
    static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// Why an upgrade was refused, and the answer to send.
    public struct Refusal: Error, Sendable, Equatable {
        public var response: HTTPResponse
    }

    /// `Sec-WebSocket-Accept` for a client's `Sec-WebSocket-Key`.
    public static func acceptValue(forKey key: String) -> String {
        Data(SHA1.hash(Array((key + guid).utf8))).base64EncodedString()
    }

    /// Whether `key` is the base64 text of 16 bytes, as RFC 6455 requires.
    public static func isValidKey(_ key: String) -> Bool {
        key.utf8.count == 24 && Data(base64Encoded: key)?.count == 16
    }

    /// The `101` answer for a valid upgrade request, or the refusal.
    ///
    /// A browser always sends `Origin` with a WebSocket request, so a present `Origin` must name this host
    /// exactly (`http://` and the request's own `Host`): a page from another site cannot drive a player's browser
    /// into the game. A request with no `Origin` comes from a program that is not a browser (a script could as well
    /// speak the framed protocol) and is let in.
    public static func accept(_ request: HTTPRequest) -> Result<HTTPResponse, Refusal> {
        guard request.method == "GET", request.version == "HTTP/1.1" else {
            return refuse(.badRequest, "A WebSocket upgrade is a GET over HTTP/1.1.")
        }
        guard request.headerTokens("Upgrade").contains(where: { $0.lowercased() == "websocket" }),
            request.headerTokens("Connection").contains(where: { $0.lowercased() == "upgrade" })
        else {
            return refuse(
                .upgradeRequired, "This address speaks WebSocket only.",
                extra: [HTTPHeader("Upgrade", "websocket")])
        }
        guard request.headerTokens("Sec-WebSocket-Version") == ["13"] else {
            return refuse(
                .upgradeRequired, "Only WebSocket version 13 is spoken.",
                extra: [HTTPHeader("Sec-WebSocket-Version", "13")])
        }
        guard request.headerCount("Sec-WebSocket-Key") == 1, let key = request.header("Sec-WebSocket-Key"),
            isValidKey(key)
        else {
            return refuse(.badRequest, "Sec-WebSocket-Key must be the base64 text of 16 bytes.")
        }
        if let origin = request.header("Origin") {
            guard request.headerCount("Origin") == 1, let host = request.header("Host"),
                origin.lowercased() == "http://" + host.lowercased()
            else {
                return refuse(.forbidden, "A page from another site may not connect.")
            }
        }
        return .success(
            HTTPResponse(
                status: .switchingProtocols,
                headers: [
                    HTTPHeader("Upgrade", "websocket"), HTTPHeader("Connection", "Upgrade"),
                    HTTPHeader("Sec-WebSocket-Accept", acceptValue(forKey: key)),
                ],
                closesConnection: false))
    }

    private static func refuse(_ status: HTTPStatus, _ detail: String, extra: [HTTPHeader] = [])
        -> Result<HTTPResponse, Refusal>
    {
        .failure(Refusal(response: .problem(status, detail, extra: extra)))
    }
}
