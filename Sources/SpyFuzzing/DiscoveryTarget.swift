import SpyProtocol

/// LAN discovery: any device on the network can send the host a datagram, and any can answer a client's probe.
/// The input is read three ways: as an answer a client receives, as a probe the host receives, and as a stream of
/// probes from many sources through the host's rate limiter.
enum DiscoveryTarget {
    static func run(_ bytes: [UInt8]) {
        checkAnswer(bytes)
        checkProbe(bytes)
        checkLimiter(bytes)
    }

    /// A client shows what an answer says: only a bounded, printable, plausible description of a host.
    private static func checkAnswer(_ datagram: [UInt8]) {
        guard let answer = DiscoveryAnswer.decode(datagram) else { return }
        require(!answer.name.isEmpty && answer.name.utf8.count <= Discovery.maximumNameBytes, "an unbounded name")
        require(
            !answer.name.unicodeScalars.contains { $0.properties.generalCategory == .control },
            "a name with a control character")
        require((1...65_535).contains(answer.port), "port \(answer.port)")
        require(answer.rooms.count <= 200, "\(answer.rooms.count) rooms")
        for room in answer.rooms {
            require(room.code.utf8.count == 4 && room.code.allSatisfy { ("A"..."Z").contains($0) }, "code \(room.code)")
            require((0...1_000).contains(room.seated) && (0...1_000).contains(room.free), "seats out of range")
        }
    }

    /// A host answers only a well-formed probe, and never with more bytes than the probe had (no amplifier),
    /// whatever its rooms and name.
    private static func checkProbe(_ datagram: [UInt8]) {
        let isProbe = Discovery.isProbe(datagram)
        let wellFormed =
            (Discovery.minimumProbeBytes...Discovery.maximumDatagramBytes).contains(datagram.count)
            && datagram == Discovery.probe(length: datagram.count)
        require(isProbe == wellFormed, "a probe read differently")
        guard isProbe else { return }
        let rooms = (0..<300).map { DiscoveryAnswer.Room(code: "ABCD", seated: $0 % 21, free: 3, playing: $0 % 2 == 0) }
        let answer = DiscoveryAnswer(
            name: String(repeating: "主機", count: 40), port: 7777, protocol: 1, password: true, rooms: rooms)
        let reply = answer.encoded(limit: datagram.count)
        require(reply.map { $0.count <= datagram.count } ?? true, "an answer larger than its probe")
        require(reply.flatMap(DiscoveryAnswer.decode) != nil, "an answer its own clients cannot read")
    }

    /// 256 addresses a byte of the input picks from, written once.
    private static let sources = (0...255).map { "10.0.0.\($0)" }

    /// Probes from sources the input names, at times it chooses: the limiter remembers a bounded number of sources
    /// and answers no one source, nor everyone together, faster than its rates allow.
    private static func checkLimiter(_ bytes: [UInt8]) {
        var limiter = DiscoveryRateLimiter(burst: 3, perSecond: 2, totalPerSecond: 20, maximumSources: 16)
        var now: Int64 = 5_000
        var answered = 0
        var answeredPerSource: [UInt8: Int] = [:]
        // 128 probes are enough to fill the table of sources and drain every bucket; more only slow the fuzzer.
        for pair in stride(from: 0, to: min(bytes.count, 256) - 1, by: 2) {
            // The high bit of the second byte lets time pass; the first byte picks one of 256 sources.
            if bytes[pair + 1] & 0x80 != 0 { now += Int64(bytes[pair + 1] & 0x7F) * 10 }
            if limiter.allow(sources[Int(bytes[pair])], nowMs: now) {
                answered += 1
                answeredPerSource[bytes[pair], default: 0] += 1
            }
            require(limiter.sourceCount <= 16, "\(limiter.sourceCount) sources remembered")
        }
        let seconds = Double(now - 5_000) / 1000
        require(Double(answered) <= 20 + 20 * seconds + 1e-9, "\(answered) answers in \(seconds) s")
        for count in answeredPerSource.values {
            require(Double(count) <= 3 + 2 * seconds + 1e-9, "\(count) answers to one source in \(seconds) s")
        }
    }
}
