/// The names the host answers to in a request's `Host`.
///
/// A page of another site can have its own DNS name point at this host (DNS rebinding): the browser then treats
/// the host as that site, sends its requests with the site's name in `Host` and the site's origin in `Origin`, and
/// the Origin check alone would let it in. Such a name is never one of these, so the request is refused before
/// any route: an address (IPv4, or IPv6 in brackets), `localhost`, the machine's own name (also as `NAME.local`),
/// or a name the host was told to answer to (`--public-name`).
public struct HostNames: Sendable, Equatable {
    /// Lower-case names accepted, without a trailing dot.
    public private(set) var names: Set<String>

    /// `machineName` is the system's host name (its first label is accepted too, and with `.local`); `publicNames`
    /// are further names given by whoever runs the host.
    public init(machineName: String?, publicNames: [String] = []) {
        var names: Set<String> = ["localhost"]
        if let machine = machineName.map(Self.normalized), !machine.isEmpty {
            let label = String(machine.prefix { $0 != "." })
            names.formUnion([machine, label, label + ".local"])
        }
        names.formUnion(publicNames.map(Self.normalized).filter { !$0.isEmpty })
        self.names = names
    }

    /// Whether `host`, a `Host` header's value (a name or address and an optional port), names this host.
    public func accepts(_ host: String) -> Bool {
        guard let name = Self.name(ofHost: host) else { return false }
        if name.hasPrefix("[") { return Self.isIPv6Literal(name.dropFirst().dropLast()) }
        return Self.isIPv4Literal(name) || names.contains(Self.normalized(name))
    }

    /// Whether `name` may be given as a public name: a DNS name of letters, digits, `-` and `.`.
    public static func isValidName(_ name: String) -> Bool {
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        return (1...253).contains(name.utf8.count)
            && labels.allSatisfy { label in
                (1...63).contains(label.utf8.count) && label.first != "-" && label.last != "-"
                    && label.utf8.allSatisfy { isLetterOrDigit($0) || $0 == UInt8(ascii: "-") }
            }
    }

    /// The host part of `host` without its port; brackets of an IPv6 literal kept. Nil when the port is malformed.
    static func name(ofHost host: String) -> Substring? {
        var rest = host[...]
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { return nil }
            let literal = rest[...close]
            rest = rest[rest.index(after: close)...]
            guard rest.isEmpty || rest.hasPrefix(":") else { return nil }
            return isPort(rest.dropFirst()) || rest.isEmpty ? literal : nil
        }
        guard let colon = rest.firstIndex(of: ":") else { return rest.isEmpty ? nil : rest }
        let name = rest[..<colon]
        return !name.isEmpty && isPort(rest[rest.index(after: colon)...]) ? name : nil
    }

    private static func isPort(_ text: Substring) -> Bool {
        (1...5).contains(text.utf8.count) && text.utf8.allSatisfy(isDigit)
    }

    /// Four decimal numbers of 0–255, as a browser writes any IPv4 address in `Host`.
    static func isIPv4Literal(_ text: Substring) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4
            && parts.allSatisfy { part in
                (1...3).contains(part.utf8.count) && part.utf8.allSatisfy(isDigit)
                    && Int(part).map { $0 <= 255 } == true
            }
    }

    /// Hex groups separated by colons (at most one `::`), the last part possibly an IPv4 address.
    static func isIPv6Literal(_ text: Substring) -> Bool {
        guard (2...45).contains(text.utf8.count), text.contains(":") else { return false }
        let doubled = text.ranges(of: "::").count
        guard doubled <= 1 else { return false }
        var groups = text.split(separator: ":", omittingEmptySubsequences: true)
        var width = 0
        if let last = groups.last, last.contains(".") {
            guard isIPv4Literal(last) else { return false }
            groups.removeLast()
            width = 2
        }
        guard groups.allSatisfy({ (1...4).contains($0.utf8.count) && $0.utf8.allSatisfy(isHexDigit) }) else {
            return false
        }
        width += groups.count
        return doubled == 1 ? width < 8 : width == 8
    }

    private static func normalized(_ name: some StringProtocol) -> String {
        let lower = name.lowercased()
        return lower.hasSuffix(".") ? String(lower.dropLast()) : lower
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
    }

    private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }
}
