import SpyQR
import Testing

@testable import SpyWeb

/// `/qr.svg`: the board's QR code of the address players open, the one the board prints beside it.
@Suite struct JoinQRTests {
    @Test(arguments: [
        ("/qr.svg", "192.168.1.5:7777", "http://192.168.1.5:7777/"),
        ("/qr.svg?room=KFRW", "192.168.1.5:7777", "http://192.168.1.5:7777/?room=KFRW"),
        ("/qr.svg?room=kfrw", "spy-host.local:8080", "http://spy-host.local:8080/"),
        ("/qr.svg", "[fe80::1]:7777", "http://[fe80::1]:7777/"),
    ])
    func theCodeIsTheJoinAddressOfTheHostTheBoardWasOpenedWith(target: String, host: String, url: String) throws {
        let response = try respond("GET \(target) HTTP/1.1\r\nHost: \(host)\r\n\r\n")
        #expect(response.status == .ok)
        #expect(response.header("Content-Type") == "image/svg+xml")
        #expect(response.header("Content-Security-Policy") == "default-src 'self'")
        #expect(response.body == Array(try QRCode(text: url).svg().utf8))
    }

    @Test(arguments: ["", "evil.example/<script>", "a b", "h\"onload=x", String(repeating: "a", count: 300)])
    func aHostThatIsNotAnAddressGetsNoCode(host: String) throws {
        // HTTP/1.0 may leave the Host out; 1.1 without one is refused before any route.
        let head = host.isEmpty ? "HTTP/1.0\r\n" : "HTTP/1.1\r\nHost: \(host)\r\n"
        let response = JoinQR.response(try request("GET /qr.svg \(head)\r\n"))
        #expect(response.status == .notFound)
        #expect(!String(decoding: response.body, as: UTF8.self).contains("<svg"))
    }

    @Test func eachAddressIsDrawnOnce() throws {
        let site = testSite()
        let first = try respond("GET /qr.svg HTTP/1.1\r\nHost: 192.168.1.5:7777\r\n\r\n", site: site)
        let again = try respond("GET /qr.svg HTTP/1.1\r\nHost: 192.168.1.5:7777\r\n\r\n", site: site)
        #expect(again == first && site.joinCodesDrawn == 1)
        let room = try respond("GET /qr.svg?room=KFRW HTTP/1.1\r\nHost: 192.168.1.5:7777\r\n\r\n", site: site)
        #expect(room.body != first.body && site.joinCodesDrawn == 2)
        // However many addresses are asked for, the site keeps a bounded number of codes.
        for port in 1...200 { _ = try respond("GET /qr.svg HTTP/1.1\r\nHost: 10.0.0.1:\(port)\r\n\r\n", site: site) }
        #expect(site.joinCodesDrawn == 202)
        _ = try respond("GET /qr.svg HTTP/1.1\r\nHost: 10.0.0.1:200\r\n\r\n", site: site)
        #expect(site.joinCodesDrawn == 202)
    }
}
