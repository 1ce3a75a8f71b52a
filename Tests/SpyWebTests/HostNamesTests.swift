import Testing

@testable import SpyWeb

/// Which `Host` values name this host: addresses, `localhost`, the machine's names, and the public names given.
@Suite struct HostNamesTests {
    static let names = HostNames(machineName: "Party-Box.home.arpa", publicNames: ["spy.lan", "Games.Example."])

    @Test(arguments: [
        "192.168.1.5:7777", "127.0.0.1", "10.0.0.255:80", "[::1]:7777", "[fe80::1]", "[2001:db8::8:800:200c:417a]:1",
        "[::ffff:192.168.1.5]:7777", "localhost:7777", "LOCALHOST", "party-box:7777", "party-box.local:7777",
        "Party-Box.home.arpa", "party-box.local.", "spy.lan:7777", "games.example",
    ])
    func theHostsOwnNamesAreAccepted(host: String) {
        #expect(Self.names.accepts(host))
    }

    @Test(arguments: [
        "attacker.example:7777", "attacker.example", "localhost.attacker.example", "spy.lan.attacker.example",
        "party-box.attacker.example", "192.168.1.5.attacker.example", "256.1.1.1", "1.2.3", "1.2.3.4.5",
        "0x7f.0.0.1", "[::1", "[::1]x", "[attacker.example]", "[1:2:3:4:5:6:7:8:9]", "[1::2::3]", "::1", ":7777",
        "localhost:", "localhost:port", "localhost:123456", "",
    ])
    func anyOtherNameIsRefused(host: String) {
        #expect(!Self.names.accepts(host))
    }

    @Test func aRebindingRequestGets421BeforeAnyRoute() throws {
        for target in ["/", "/qr.svg", "/ws", "/nothing-here"] {
            let response = try respond("GET \(target) HTTP/1.1\r\nHost: attacker.example:7777\r\n\r\n")
            #expect(response.status == .misdirectedRequest, "\(target)")
        }
        #expect(try respond("GET / HTTP/1.1\r\nHost: spy-host.local:7777\r\n\r\n").status == .ok)
    }

    @Test func publicNamesAreDNSNames() {
        #expect(HostNames.isValidName("spy.lan") && HostNames.isValidName("a-1.example"))
        for bad in ["", "-a", "a-", "a..b", "a b", "a:1", "a/b", String(repeating: "a", count: 64)] {
            #expect(!HostNames.isValidName(bad), "\(bad)")
        }
    }
}
