import SpyProtocol
import Testing

struct HostPortTests {
    @Test(
        "accepted forms",
        arguments: [
            ("127.0.0.1", "127.0.0.1", 7777, HostPort.Kind.ipv4),
            ("127.0.0.1:9000", "127.0.0.1", 9000, .ipv4),
            ("0.0.0.0:1", "0.0.0.0", 1, .ipv4),
            ("255.255.255.255:65535", "255.255.255.255", 65_535, .ipv4),
            ("localhost", "localhost", 7777, .name),
            ("game-box.lan:8080", "game-box.lan", 8080, .name),
            ("example.com.", "example.com.", 7777, .name),
            ("host1", "host1", 7777, .name),
            ("[::1]:7000", "::1", 7000, .ipv6),
            ("[::1]", "::1", 7777, .ipv6),
            ("::1", "::1", 7777, .ipv6),
            ("::", "::", 7777, .ipv6),
            ("fe80::1%eth0", "fe80::1%eth0", 7777, .ipv6),
            ("[fe80::1%eth0]:80", "fe80::1%eth0", 80, .ipv6),
            ("2001:db8:0:0:0:0:2:1", "2001:db8:0:0:0:0:2:1", 7777, .ipv6),
            ("2001:DB8::ABCD", "2001:DB8::ABCD", 7777, .ipv6),
            ("::ffff:192.168.1.2", "::ffff:192.168.1.2", 7777, .ipv6),
            ("1::", "1::", 7777, .ipv6),
        ])
    func accepted(text: String, host: String, port: Int, kind: HostPort.Kind) throws {
        let parsed = try HostPort.parse(text)
        #expect(parsed == HostPort(host: host, port: port, kind: kind))
    }

    @Test(
        "refused forms",
        arguments: [
            ("", "the host is empty"),
            (":7777", "\":7777\": the host is missing before ':'"),
            ("host:", "\"host:\": the port is missing after ':'"),
            ("host:0", "\"host:0\": the port must be a number from 1 to 65535"),
            ("host:65536", "\"host:65536\": the port must be a number from 1 to 65535"),
            ("host:-1", "\"host:-1\": the port must be a number from 1 to 65535"),
            ("host:+1", "\"host:+1\": the port must be a number from 1 to 65535"),
            ("host:http", "\"host:http\": the port must be a number from 1 to 65535"),
            ("host:99999999999999999999", "\"host:99999999999999999999\": the port must be a number from 1 to 65535"),
            ("256.1.1.1", "\"256.1.1.1\" is not an IPv4 address"),
            ("1.2.3", "\"1.2.3\" is not an IPv4 address"),
            ("01.2.3.4", "\"01.2.3.4\" is not an IPv4 address"),
            ("bad_name", "\"bad_name\" is not a valid host name (letters, digits, '-' and '.')"),
            ("-lead", "\"-lead\" is not a valid host name (letters, digits, '-' and '.')"),
            ("a..b", "\"a..b\" is not a valid host name (letters, digits, '-' and '.')"),
            ("主機", "\"主機\" is not a valid host name (letters, digits, '-' and '.')"),
            ("host name", "\"host name\" is not a valid host name (letters, digits, '-' and '.')"),
            ("[::1", "\"[::1\": missing ']' after the IPv6 address"),
            ("[::1]7000", "\"[::1]7000\": expected ':PORT' after ']'"),
            ("[::1]:", "\"[::1]:\": the port is missing after ':'"),
            ("[127.0.0.1]:80", "\"[127.0.0.1]:80\": \"127.0.0.1\" is not an IPv6 address"),
            ("[]:80", "\"[]:80\": \"\" is not an IPv6 address"),
            ("1:2:3", "\"1:2:3\" is not an IPv6 address"),
            (":::", "\":::\" is not an IPv6 address"),
            ("1::2::3", "\"1::2::3\" is not an IPv6 address"),
            ("12345::1", "\"12345::1\" is not an IPv6 address"),
            ("1:2:3:4:5:6:7:8:9", "\"1:2:3:4:5:6:7:8:9\" is not an IPv6 address"),
            ("1:2:3:4::5:6:7:8", "\"1:2:3:4::5:6:7:8\" is not an IPv6 address"),
            ("g::1", "\"g::1\" is not an IPv6 address"),
            ("fe80::1%", "\"fe80::1%\" is not an IPv6 address"),
        ])
    func refused(text: String, message: String) {
        #expect(throws: UsageError(message)) { try HostPort.parse(text) }
    }

    @Test func longHostNames() throws {
        let label = String(repeating: "a", count: 63)
        #expect(try HostPort.parse(label).kind == .name)
        #expect(throws: UsageError.self) { try HostPort.parse(label + "a") }
        let name = [String](repeating: label, count: 4).joined(separator: ".")
        #expect(name.count == 255)
        #expect(throws: UsageError.self) { try HostPort.parse(name) }
        #expect(try HostPort.parse(String(name.dropLast(2))).kind == .name)
    }

    @Test func portZeroOnlyWhenAllowed() throws {
        #expect(try HostPort.parse("127.0.0.1:0", allowPortZero: true).port == 0)
        #expect(throws: UsageError.self) { try HostPort.parse("127.0.0.1:0") }
        #expect(throws: UsageError("\"h:70000\": the port must be a number from 0 to 65535")) {
            try HostPort.parse("h:70000", allowPortZero: true)
        }
    }

    @Test func customDefaultPort() throws {
        #expect(try HostPort.parse("h", defaultPort: 9).port == 9)
        #expect(try HostPort.parse("[::1]", defaultPort: 9).port == 9)
        #expect(try HostPort.parse("::1", defaultPort: 9).port == 9)
    }

    @Test(arguments: ["127.0.0.1:7777", "[::1]:80", "box.lan:1", "[fe80::1%eth0]:9"])
    func descriptionRoundTrips(text: String) throws {
        let parsed = try HostPort.parse(text)
        #expect(parsed.description == text)
        #expect(try HostPort.parse(parsed.description) == parsed)
    }
}
