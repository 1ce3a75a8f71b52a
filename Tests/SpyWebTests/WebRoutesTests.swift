import Testing

@testable import SpyWeb

func request(_ text: String) throws -> HTTPRequest {
    guard case .complete(let request, _) = parse(text) else { throw RouteTestError.refused(text) }
    return request
}

enum RouteTestError: Error {
    case refused(String)
}

/// A site that answers to the names these tests use.
func testSite() -> WebSite {
    WebSite(hostNames: HostNames(machineName: "spy-host", publicNames: ["h"]))
}

func respond(_ text: String, site: WebSite = testSite()) throws -> HTTPResponse {
    switch WebRoutes.route(try request(text), site: site) {
    case .respond(let response): return response
    case .upgrade(let response): return response
    }
}

extension HTTPResponse {
    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

@Suite struct WebRoutesTests {
    @Test(arguments: [
        ("/", "text/html; charset=utf-8"), ("/board", "text/html; charset=utf-8"),
        ("/board?room=KFRW", "text/html; charset=utf-8"), ("/style.css", "text/css; charset=utf-8"),
        ("/page.mjs", "text/javascript; charset=utf-8"), ("/board.mjs", "text/javascript; charset=utf-8"),
        ("/views/page-view.mjs", "text/javascript; charset=utf-8"), ("/strings.mjs", "text/javascript; charset=utf-8"),
        ("/core/seat.mjs", "text/javascript; charset=utf-8"),
        ("/strings/zh-Hans.mjs", "text/javascript; charset=utf-8"),
        ("/favicon.svg", "image/svg+xml"),
    ])
    func assetsAreServedWithTheirTypeAndPolicies(target: String, type: String) throws {
        let response = try respond("GET \(target) HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(response.status == .ok)
        #expect(response.header("Content-Type") == type)
        #expect(response.header("Content-Security-Policy") == "default-src 'self'")
        #expect(response.header("X-Content-Type-Options") == "nosniff")
        #expect(response.header("Referrer-Policy") == "no-referrer")
        #expect(response.header("Cache-Control") == "no-cache")
        let path = String(target.split(separator: "?")[0])
        let asset = try #require(WebAssets.byPath[path])
        #expect(!asset.bytes.isEmpty)
        #expect(response.body == asset.bytes)
        #expect(response.header("ETag") == "\"\(SHA1.hex(asset.bytes))\"")
        let wire = String(decoding: response.serialized(), as: UTF8.self)
        #expect(wire.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(wire.contains("\r\nContent-Length: \(asset.bytes.count)\r\nConnection: close\r\n\r\n"))
    }

    @Test func theTagAnswersIfNoneMatchWith304() throws {
        let etag = try #require(WebAssets.byPath["/page.mjs"]).etag
        for header in [etag, "W/\(etag)", "\"other\", \(etag)", "*"] {
            let response = try respond("GET /page.mjs HTTP/1.1\r\nHost: h\r\nIf-None-Match: \(header)\r\n\r\n")
            #expect(response.status == .notModified, "\(header)")
            #expect(response.header("ETag") == etag)
            let wire = response.serialized()
            #expect(String(decoding: wire, as: UTF8.self).hasSuffix("Connection: close\r\n\r\n"))
        }
        let stale = try respond("GET /page.mjs HTTP/1.1\r\nHost: h\r\nIf-None-Match: \"old\"\r\n\r\n")
        #expect(stale.status == .ok)
    }

    @Test func headSendsTheHeadersOnly() throws {
        let response = try respond("HEAD / HTTP/1.1\r\nHost: h\r\n\r\n")
        let wire = String(decoding: response.serialized(includeBody: false), as: UTF8.self)
        #expect(wire.hasSuffix("\r\n\r\n"))
        #expect(wire.contains("Content-Length: \(response.body.count)"))
        #expect(!wire.contains("<html"))
    }

    @Test(arguments: ["/index.html", "/../etc/passwd", "/page.mjs/", "/Board", "/%2e%2e/", "/style.css.map", "//"])
    func anythingElseIs404(path: String) throws {
        let response = try respond("GET \(path) HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(response.status == .notFound)
        #expect(response.header("Content-Security-Policy") == "default-src 'self'")
        #expect(response.body.count < 100)
    }

    static let key = "dGhlIHNhbXBsZSBub25jZQ=="

    static func upgrade(_ extra: String, key: String? = key, version: String = "13") -> String {
        var text =
            "GET /ws HTTP/1.1\r\nHost: 10.0.0.2:7777\r\nUpgrade: websocket\r\nConnection: keep-alive, Upgrade\r\n"
        text += "Sec-WebSocket-Version: \(version)\r\n"
        if let key { text += "Sec-WebSocket-Key: \(key)\r\n" }
        return text + extra + "\r\n"
    }

    @Test func aSameOriginUpgradeIsAccepted() throws {
        let parsed = try request(Self.upgrade("Origin: http://10.0.0.2:7777\r\n"))
        guard case .upgrade(let response) = WebRoutes.route(parsed, site: testSite()) else {
            Issue.record("refused")
            return
        }
        #expect(response.status == .switchingProtocols)
        #expect(response.header("Sec-WebSocket-Accept") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        let wire = String(decoding: response.serialized(), as: UTF8.self)
        #expect(wire.hasPrefix("HTTP/1.1 101 Switching Protocols\r\n"))
        #expect(!wire.contains("Content-Length"))
        #expect(!wire.contains("Connection: close"))
    }

    @Test func anUpgradeWithoutOriginComesFromAProgramAndIsAccepted() throws {
        guard case .upgrade = WebRoutes.route(try request(Self.upgrade("")), site: testSite()) else {
            Issue.record("refused")
            return
        }
    }

    @Test(arguments: [
        ("Origin: http://evil.example\r\n", HTTPStatus.forbidden),
        ("Origin: http://10.0.0.2\r\n", .forbidden),
        ("Origin: https://10.0.0.2:7777\r\n", .forbidden),
        ("Origin: null\r\n", .forbidden),
        ("Origin: http://10.0.0.2:7777\r\nOrigin: http://evil.example\r\n", .forbidden),
    ])
    func aCrossOriginUpgradeIsForbidden(origin: String, expected: HTTPStatus) throws {
        #expect(try respond(Self.upgrade(origin)).status == expected)
    }

    @Test func badUpgradesAreRefused() throws {
        #expect(try respond(Self.upgrade("", key: nil)).status == .badRequest)
        #expect(try respond(Self.upgrade("", key: "short")).status == .badRequest)
        #expect(try respond(Self.upgrade("", key: "AAAAAAAAAAAAAAAAAAAAAAAAAAAA")).status == .badRequest)
        #expect(try respond(Self.upgrade("", key: "!!!!!!!!!!!!!!!!!!!!!!==")).status == .badRequest)
        #expect(try respond(Self.upgrade("Sec-WebSocket-Key: \(Self.key)\r\n")).status == .badRequest)
        let version = try respond(Self.upgrade("", version: "8"))
        #expect(version.status == .upgradeRequired)
        #expect(version.header("Sec-WebSocket-Version") == "13")
        #expect(try respond("GET /ws HTTP/1.1\r\nHost: h\r\n\r\n").status == .upgradeRequired)
        #expect(try respond("HEAD /ws HTTP/1.1\r\nHost: h\r\n\r\n").status == .badRequest)
    }
}
