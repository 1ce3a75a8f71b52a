import SpyGame
import SpyProtocol

/// What must hold of a room after any accepted event, whatever came before it.
enum RoomInvariants {
    static func check(_ room: Room, after event: RoomEvent, effects: [RoomEffect], spelled: inout SpellingCheck) {
        let seated = room.playerIDs
        require(seated.count <= Rules.maxTableSize, "\(seated.count) seats")
        require(Set(seated).count == seated.count, "a player seated twice")
        // Only a person owns a room; with no person seated nobody does, until one joins.
        if let owner = room.ownerID {
            require(seated.contains(owner), "the owner \(owner) has no seat")
            require(!room.isBot(owner), "the bot \(owner) owns the room")
        } else {
            require(seated.allSatisfy(room.isBot), "people seated but no owner")
        }
        require(Rules.validate(room.settings, seated: 0) == nil, "the room runs on settings it would refuse")

        var deals: [PlayerID: ServerMessage.Deal] = [:]
        for effect in effects {
            switch effect {
            case .send(let player, let message):
                spelled.check(message)
                if case .deal(let deal) = message {
                    require(deals.updateValue(deal, forKey: player) == nil, "two deals for \(player)")
                }
            case .broadcast(let message):
                spelled.check(message)
                if case .deal = message { fatalError("fuzz invariant: a deal was broadcast") }
            case .log(let line):
                require(!line.contains("\n"), "a log line with a line break")
            case .joined, .removed, .deadline:
                break
            }
        }
        if case .start = event, !deals.isEmpty {
            checkDeal(deals, settings: room.settings)
        }
    }

    /// The roles the settings ask for: two words at most, the blank alone without one, the spies in the minority.
    private static func checkDeal(_ deals: [PlayerID: ServerMessage.Deal], settings: GameSettings) {
        let blanks = deals.values.filter(\.blank).count
        require(blanks == (settings.blank ? 1 : 0), "\(blanks) blanks dealt with blank \(settings.blank)")
        var counts: [String: Int] = [:]
        for deal in deals.values {
            require(deal.blank == (deal.word == nil), "a deal both blank and with a word")
            if let word = deal.word { counts[word, default: 0] += 1 }
        }
        require(counts.count == 2, "\(counts.count) different words dealt")
        let minority = counts.values.min() ?? 0
        require(minority == settings.spies, "\(minority) players got the spy word, \(settings.spies) spies set")
    }
}

/// Every message the room asks the host to send fits one frame, and the host's hand-written writer spells it exactly
/// as the `Encodable` path does, whatever names and clues hostile players chose.
///
/// The `Encodable` path costs twice the writer, and a game repeats most of its messages (the same snapshot to
/// every seat, the same turn after a refused move), so a message equal to the last one of its type already compared
/// is not compared again: equal messages get equal bytes from both, and the frame limit is still checked on each.
struct SpellingCheck {
    private var lastCompared: [String: ServerMessage] = [:]

    init() {}

    mutating func check(_ message: ServerMessage) {
        let payload = WireCodec.encodePayload(message)
        require(
            payload.count <= FrameLimits.defaultMaxPayload,
            "a \(message.type) message of \(payload.count) bytes does not fit a frame")
        guard lastCompared[message.type] != message else { return }
        let reference = try? StreamingJSONEncoder.encode(message)
        require(payload == reference, "the writer and the encoder spell a \(message.type) message differently")
        lastCompared[message.type] = message
    }
}
