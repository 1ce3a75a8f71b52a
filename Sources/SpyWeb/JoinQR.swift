import SpyQR

/// `/qr.svg`: the QR code of the address players open, drawn for the board to show beside that address.
///
/// The address is the one the board itself was opened with (its `Host`), so the code and the printed address
/// always agree; the host prints its LAN addresses for the board to be opened with. Only a `Host` made of the
/// characters of a host name or address and a port is drawn, and only a well-formed room code is added, so the
/// request can never put anything else into the code.
enum JoinQR {
    static let path = "/qr.svg"

    static func response(_ request: HTTPRequest) -> HTTPResponse {
        guard let url = joinURL(request), let code = try? QRCode(text: url) else {
            return .problem(.notFound, "There is no join address to draw.")
        }
        let headers =
            [HTTPHeader("Content-Type", "image/svg+xml")] + HTTPResponse.securityHeaders
            + [HTTPHeader("Cache-Control", "no-cache")]
        return HTTPResponse(status: .ok, headers: headers, body: Array(code.svg().utf8))
    }

    /// `http://HOST/`, with `?room=CODE` when the board names a room.
    static func joinURL(_ request: HTTPRequest) -> String? {
        guard let host = request.header("Host"), (1...255).contains(host.utf8.count),
            host.utf8.allSatisfy(isHostByte)
        else { return nil }
        var url = "http://\(host)/"
        if let query = request.query, query.hasPrefix("room="), case let code = query.dropFirst(5).utf8,
            code.count == 4, code.allSatisfy({ (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) })
        {
            url += "?room=\(String(decoding: code, as: UTF8.self))"
        }
        return url
    }

    /// Letters, digits, `.`, `-`, `:` and the brackets of an IPv6 literal.
    private static func isHostByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: ":"),
            UInt8(ascii: "["), UInt8(ascii: "]"):
            return true
        default:
            return false
        }
    }
}
