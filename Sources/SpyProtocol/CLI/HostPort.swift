/// A host and a TCP port as written on a command line: `HOST[:PORT]`, `[IPv6]:PORT`, or a bare IPv6 address.
public struct HostPort: Sendable, Equatable, CustomStringConvertible {
    /// The port the host listens on unless told otherwise.
    public static let defaultPort = 7777

    /// What kind of host was written.
    public enum Kind: Sendable, Equatable {
        /// Dotted-quad IPv4 address.
        case ipv4
        /// IPv6 address (brackets removed), possibly with a `%zone`.
        case ipv6
        /// A DNS or `/etc/hosts` name, resolved later.
        case name
    }

    /// Host without brackets.
    public var host: String
    /// TCP port.
    public var port: Int
    /// What the host is.
    public var kind: Kind

    public init(host: String, port: Int, kind: Kind) {
        self.host = host
        self.port = port
        self.kind = kind
    }

    /// Back in command-line form: IPv6 hosts get brackets so the port stays unambiguous.
    public var description: String {
        kind == .ipv6 ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// Parses `text`. Port 0 (any free port) is refused unless `allowPortZero`, which a listener may want.
    public static func parse(_ text: String, defaultPort: Int = defaultPort, allowPortZero: Bool = false)
        throws(UsageError) -> HostPort
    {
        let lowestPort = allowPortZero ? 0 : 1
        func port(_ digits: Substring) throws(UsageError) -> Int {
            guard !digits.isEmpty else { throw UsageError("\"\(text)\": the port is missing after ':'") }
            guard digits.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(digits), value <= 65_535,
                value >= lowestPort
            else {
                throw UsageError("\"\(text)\": the port must be a number from \(lowestPort) to 65535")
            }
            return value
        }

        guard !text.isEmpty else { throw UsageError("the host is empty") }
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else {
                throw UsageError("\"\(text)\": missing ']' after the IPv6 address")
            }
            let address = text[text.index(after: text.startIndex)..<close]
            guard isIPv6(address) else { throw UsageError("\"\(text)\": \"\(address)\" is not an IPv6 address") }
            let rest = text[text.index(after: close)...]
            if rest.isEmpty { return HostPort(host: String(address), port: defaultPort, kind: .ipv6) }
            guard rest.first == ":" else { throw UsageError("\"\(text)\": expected ':PORT' after ']'") }
            return HostPort(host: String(address), port: try port(rest.dropFirst()), kind: .ipv6)
        }

        let colons = text.count { $0 == ":" }
        if colons > 1 {
            guard isIPv6(text[...]) else { throw UsageError("\"\(text)\" is not an IPv6 address") }
            return HostPort(host: text, port: defaultPort, kind: .ipv6)
        }
        let host: Substring
        let portNumber: Int
        if let colon = text.firstIndex(of: ":") {
            host = text[..<colon]
            portNumber = try port(text[text.index(after: colon)...])
        } else {
            host = text[...]
            portNumber = defaultPort
        }
        guard !host.isEmpty else { throw UsageError("\"\(text)\": the host is missing before ':'") }
        if isIPv4(host) { return HostPort(host: String(host), port: portNumber, kind: .ipv4) }
        if host.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }) {
            throw UsageError("\"\(host)\" is not an IPv4 address")
        }
        guard isHostName(host) else {
            throw UsageError("\"\(host)\" is not a valid host name (letters, digits, '-' and '.')")
        }
        return HostPort(host: String(host), port: portNumber, kind: .name)
    }

    /// Four decimal parts of 0–255 without leading zeros (which some resolvers would read as octal).
    static func isIPv4(_ text: Substring) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return false }
        return parts.allSatisfy { part in
            guard (1...3).contains(part.count), part.allSatisfy({ $0.isASCII && $0.isNumber }),
                let value = Int(part), value <= 255
            else { return false }
            return part.count == 1 || part.first != "0"
        }
    }

    /// RFC 4291 text form: up to eight groups of 1–4 hex digits, one `::`, an optional trailing IPv4 part and an
    /// optional `%zone`.
    static func isIPv6(_ text: Substring) -> Bool {
        var address = text
        if let percent = text.firstIndex(of: "%") {
            let zone = text[text.index(after: percent)...]
            guard !zone.isEmpty, zone.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) })
            else { return false }
            address = text[..<percent]
        }
        guard address.count >= 2 else { return false }
        let halves = address.split(separator: "::", omittingEmptySubsequences: false)
        guard halves.count <= 2 else { return false }
        var groups = 0
        for (halfIndex, half) in halves.enumerated() {
            if half.isEmpty { continue }
            let parts = half.split(separator: ":", omittingEmptySubsequences: false)
            for (partIndex, part) in parts.enumerated() {
                let isVeryLast = halfIndex == halves.count - 1 && partIndex == parts.count - 1
                if isVeryLast, part.contains(".") {
                    guard isIPv4(part) else { return false }
                    groups += 2
                } else {
                    guard (1...4).contains(part.count), part.allSatisfy(\.isHexDigit) else { return false }
                    groups += 1
                }
            }
        }
        return halves.count == 2 ? groups <= 7 : groups == 8
    }

    /// Dot-separated labels of letters, digits and inner hyphens, 1–63 characters each, 253 in all; one
    /// trailing dot is allowed.
    static func isHostName(_ text: Substring) -> Bool {
        var name = text
        if name.hasSuffix(".") { name = name.dropLast() }
        guard !name.isEmpty, name.utf8.count <= 253 else { return false }
        return name.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
            (1...63).contains(label.utf8.count) && label.first != "-" && label.last != "-"
                && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        }
    }
}
