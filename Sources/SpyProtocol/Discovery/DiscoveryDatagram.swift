import Foundation

/// LAN discovery over UDP: the probe a client broadcasts and the answer a host sends back. Pure: bytes in, bytes
/// out. The format is documented in docs/PROTOCOL.md ("Finding a host on the network").
///
/// A probe is 8 bytes of magic, a version byte and zero padding up to at least `Discovery.minimumProbeBytes`; an
/// answer is 8 bytes of magic, the version byte and one JSON object, and is never longer than the probe it answers
/// (nor than `Discovery.maximumAnswerBytes`), so a forged source address cannot turn the host into an amplifier.
public enum Discovery {
    /// The discovery format's version, carried in every datagram.
    public static let version: UInt8 = 1
    /// "SPYDISC?": the start of a probe.
    public static let probeMagic = Array("SPYDISC?".utf8)
    /// "SPYDISC!": the start of an answer.
    public static let answerMagic = Array("SPYDISC!".utf8)
    /// A probe shorter than this is malformed: it is what makes answers no larger than probes.
    public static let minimumProbeBytes = 1_200
    /// A datagram longer than this (one Ethernet frame's UDP payload) is dropped unread.
    public static let maximumDatagramBytes = 1_472
    /// An answer never exceeds this, whatever the probe's size.
    public static let maximumAnswerBytes = 1_200
    /// The most bytes of a host's name an answer carries.
    public static let maximumNameBytes = 64

    /// The probe a client sends: magic, version, zeros.
    public static func probe(length: Int = minimumProbeBytes) -> [UInt8] {
        probeMagic + [version] + [UInt8](repeating: 0, count: max(0, length - probeMagic.count - 1))
    }

    /// Whether `datagram` is a well-formed probe of this version: exact magic and version, only zeros after, and a
    /// length between the minimum probe and the maximum datagram.
    public static func isProbe(_ datagram: some Collection<UInt8>) -> Bool {
        guard (minimumProbeBytes...maximumDatagramBytes).contains(datagram.count) else { return false }
        let head = datagram.prefix(probeMagic.count + 1)
        guard head.elementsEqual(probeMagic + [version]) else { return false }
        return datagram.dropFirst(probeMagic.count + 1).allSatisfy { $0 == 0 }
    }
}

/// What a host says about itself. Never a word, a token or a password: only what the lobby of any client shows.
public struct DiscoveryAnswer: Codable, Equatable, Sendable {
    /// One room as a passer-by may see it.
    public struct Room: Codable, Equatable, Sendable {
        /// The 4-letter room code.
        public var code: String
        /// Seats taken (players and bots, here or away).
        public var seated: Int
        /// Seats still free.
        public var free: Int
        /// Whether a game is being played (not in the lobby, not over).
        public var playing: Bool

        public init(code: String, seated: Int, free: Int, playing: Bool) {
            self.code = code
            self.seated = seated
            self.free = free
            self.playing = playing
        }
    }

    /// The name to show for the host (its `--name`, else the machine's host name).
    public var name: String
    /// The TCP port players connect to.
    public var port: Int
    /// The protocol version the host speaks.
    public var `protocol`: Int
    /// Whether joining needs a password.
    public var password: Bool
    /// The rooms, in the order they opened; cut short to fit the datagram.
    public var rooms: [Room]
    /// Rooms left out of `rooms` so the answer fits.
    public var more: Int

    public init(name: String, port: Int, protocol: Int, password: Bool, rooms: [Room], more: Int = 0) {
        self.name = name
        self.port = port
        self.protocol = `protocol`
        self.password = password
        self.rooms = rooms
        self.more = more
    }

    /// The answer datagram, at most `limit` bytes (and never more than `Discovery.maximumAnswerBytes`): rooms are
    /// dropped from the end, and counted in `more`, until it fits; the name is cut to `maximumNameBytes`.
    public func encoded(limit: Int) -> [UInt8]? {
        let limit = min(limit, Discovery.maximumAnswerBytes)
        var named = self
        named.name = DiscoveryAnswer.shortened(name)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        func datagram(keeping count: Int) -> [UInt8]? {
            var fitted = named
            fitted.rooms = Array(named.rooms.prefix(count))
            fitted.more = named.more + named.rooms.count - count
            guard let json = try? encoder.encode(fitted) else { return nil }
            return Discovery.answerMagic + [Discovery.version] + Array(json)
        }
        // Each room kept adds more bytes than `more` loses digits, so the size grows with the rooms kept and the
        // most that fit are found by bisection: a dozen encodings for a host of 2,000 rooms, not one per room
        // dropped (a probe flood would otherwise cost the host two thousand encodings a probe).
        guard var best = datagram(keeping: 0), best.count <= limit else { return nil }
        var (fits, tooMany) = (0, named.rooms.count + 1)
        while tooMany - fits > 1 {
            let middle = (fits + tooMany) / 2
            if let candidate = datagram(keeping: middle), candidate.count <= limit {
                (fits, best) = (middle, candidate)
            } else {
                tooMany = middle
            }
        }
        return best
    }

    /// Reads an answer datagram; `nil` for anything malformed, out of range or of another version.
    public static func decode(_ datagram: [UInt8]) -> DiscoveryAnswer? {
        let headLength = Discovery.answerMagic.count + 1
        guard datagram.count > headLength, datagram.count <= Discovery.maximumDatagramBytes,
            datagram.prefix(headLength).elementsEqual(Discovery.answerMagic + [Discovery.version]),
            let answer = try? JSONDecoder().decode(DiscoveryAnswer.self, from: Data(datagram.dropFirst(headLength)))
        else { return nil }
        guard !answer.name.isEmpty, answer.name.utf8.count <= Discovery.maximumNameBytes,
            !answer.name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }),
            (1...65_535).contains(answer.port), (1...1_000).contains(answer.protocol),
            answer.rooms.count <= 200, (0...100_000).contains(answer.more),
            answer.rooms.allSatisfy({ room in
                room.code.count == 4 && room.code.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) }
                    && (0...1_000).contains(room.seated) && (0...1_000).contains(room.free)
            })
        else { return nil }
        return answer
    }

    /// `text` without control characters, cut at a character boundary to `maximumNameBytes`.
    static func shortened(_ text: String) -> String {
        var result = ""
        for character in text
        where !character.unicodeScalars.contains(where: {
            $0.properties.generalCategory == .control
        }) {
            guard result.utf8.count + character.utf8.count <= Discovery.maximumNameBytes else { break }
            result.append(character)
        }
        return result.isEmpty ? "spyd" : result
    }
}
