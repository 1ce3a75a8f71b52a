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

        // A seat sitting the game out is never dealt, asked to speak or given a ballot.
        let sittingOut = Set(room.view(now: 0).seats.filter { $0.sittingOut == true }.map(\.id))
        var deals: [PlayerID: ServerMessage.Deal] = [:]
        for effect in effects {
            switch effect {
            case .send(let player, let message):
                spelled.check(message)
                if case .deal(let deal) = message {
                    require(deals.updateValue(deal, forKey: player) == nil, "two deals for \(player)")
                    require(!sittingOut.contains(player), "\(player) sits out but was dealt")
                }
            case .broadcast(let message):
                spelled.check(message)
                if case .deal = message { fatalError("fuzz invariant: a deal was broadcast") }
                if case .turn(let turn) = message, room.phase == .describing {
                    require(!sittingOut.contains(turn.player), "\(turn.player) sits out but has a turn")
                }
                if case .voting(let voting) = message {
                    require(sittingOut.isDisjoint(with: voting.voters), "a voter sits out")
                }
            case .log(let line):
                require(!line.contains("\n"), "a log line with a line break")
            case .joined, .removed:
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
/// The `Encodable` path costs twice the writer and took two thirds of a room input's time when every message was
/// compared. The writer spells each field the same way whatever the others hold, so comparing a sample loses little:
/// the first message of each type in an input, and the last one (`finish`), which carries what the input built up
/// (every seated name, the game's clues). Every message is still written and checked against the frame limit, except
/// a repeat of the one before it of the same type (the same snapshot to every seat), whose bytes are the same.
struct SpellingCheck {
    /// The reference spelling of a message; the streaming `Encodable` encoder unless a test passes another.
    typealias Reference = (ServerMessage) -> [UInt8]?

    private let reference: Reference
    private var lastWritten: [String: ServerMessage] = [:]
    private var unchecked: [String: ServerMessage] = [:]
    private var comparedTypes: Set<String> = []

    init(reference: @escaping Reference = { try? StreamingJSONEncoder.encode($0) }) {
        self.reference = reference
    }

    mutating func check(_ message: ServerMessage) {
        guard lastWritten[message.type] != message else { return }
        lastWritten[message.type] = message
        let payload = WireCodec.encodePayload(message)
        require(
            payload.count <= FrameLimits.defaultMaxPayload,
            "a \(message.type) message of \(payload.count) bytes does not fit a frame")
        if comparedTypes.insert(message.type).inserted {
            compare(message, payload)
        } else {
            unchecked[message.type] = message
        }
    }

    /// Compares the last message of each type that was not compared yet; call it once the input is played.
    mutating func finish() {
        for message in unchecked.values { compare(message, WireCodec.encodePayload(message)) }
        unchecked = [:]
    }

    private func compare(_ message: ServerMessage, _ payload: [UInt8]) {
        require(
            payload == reference(message),
            "the writer and the encoder spell a \(message.type) message differently")
    }
}
