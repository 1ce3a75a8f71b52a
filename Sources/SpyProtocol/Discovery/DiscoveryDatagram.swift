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

    /// The answer datagram, at most `limit` bytes (and never more than `Discovery.maximumAnswerBytes`): the first
    /// rooms that surely fit are kept and the rest counted in `more`; the name is cut to `maximumNameBytes`.
    public func encoded(limit: Int) -> [UInt8]? {
        encodedCountingWork(limit: limit).datagram
    }

    /// `encoded(limit:)` and the encodings it took: two at most, however many rooms (tests read it).
    func encodedCountingWork(limit: Int) -> (datagram: [UInt8]?, encodings: Int) {
        let limit = min(limit, Discovery.maximumAnswerBytes)
        var fitted = self
        fitted.name = DiscoveryAnswer.shortened(name)
        fitted.rooms = []
        fitted.more = more + rooms.count
        guard let empty = fitted.datagram(), empty.count <= limit else { return (nil, 1) }
        // No room takes more than `roomBytesBound` and `more` only loses digits as rooms are kept, so the rooms
        // that fit are counted from the bytes left, not searched for by encoding (a probe flood would otherwise
        // cost a host of 2,000 rooms a dozen encodings a probe).
        // (The first room has no comma before it, hence the one byte more.)
        let keep = min(rooms.count, (limit - empty.count + 1) / DiscoveryAnswer.roomBytesBound)
        guard keep > 0 else { return (empty, 1) }
        fitted.rooms = Array(rooms.prefix(keep))
        fitted.more -= keep
        guard let datagram = fitted.datagram(), datagram.count <= limit else { return (empty, 2) }
        return (datagram, 2)
    }

    /// No answer carries more rooms than this, whatever its name and counts: a host describes its first ones only.
    public static let maximumRooms =
        (Discovery.maximumAnswerBytes - Discovery.answerMagic.count - 1 + 1) / roomBytesBound

    /// The most bytes one room takes in an answer, its separating comma included: a room within the bounds
    /// `decode` accepts (seats and free seats up to 1,000).
    static let roomBytesBound: Int = {
        let widest = Room(code: "WWWW", seated: 1_000, free: 1_000, playing: false)
        return (try? encoder().encode(widest).count).map { $0 + 1 } ?? 128
    }()

    private static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    private func datagram() -> [UInt8]? {
        guard let json = try? DiscoveryAnswer.encoder().encode(self) else { return nil }
        return Discovery.answerMagic + [Discovery.version] + Array(json)
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
