import Foundation

/// Every message a client may send. On the wire: a JSON object whose `type` names the case.
public enum ClientMessage: Sendable, Equatable {
    /// First frame of every connection: join a room, open a new one, or resume a seat with a token.
    case hello(Hello)
    /// Keep-alive; answered by `pong` with the same id.
    case ping(Ping)
    /// Answer to the host's `ping`, with the same id.
    case pong(Pong)
    /// Owner only, in the lobby or at game over: change some settings.
    case settings(SettingsChange)
    /// Owner only: deal a new game with the seats present.
    case start
    /// Typed mode, your turn: the clue shown to everyone.
    case clue(Clue)
    /// Your turn: you are done speaking (spoken mode) or you pass (typed mode).
    case pass
    /// While voting: your ballot; a later ballot replaces an earlier one until the vote closes.
    case vote(Vote)
    /// The blank, voted out under the guess rule: one guess at the civilians' word.
    case guess(Guess)
    /// Owner only: remove a player (absent or not).
    case kick(Kick)
    /// Leave the room for good; the seat is given up.
    case leave
    /// The approver's answer to a `claim` of an away seat.
    case claimAnswer(ClaimAnswer)
    /// Owner (or moderator), between games: pairs for the room's own list, pasted or uploaded, one a line.
    case words(Words)
    /// Owner (or moderator), between games: empty the room's own list.
    case wordsClear
    /// Owner (or moderator), between games: send me the room's own list (`word_list`).
    case wordsExport
    /// Between games: the owner names the moderator (themselves at once, another seated person who must accept),
    /// or, without a player, the moderator's seat is given up (by the owner or the moderator).
    case moderator(ModeratorChoice)
    /// The person the owner named: whether they take the moderator's seat.
    case moderatorAnswer(ModeratorAnswer)
    /// The moderator, between games: the next game's pair, used once and never kept in the list.
    case moderatorPair(ListedPair)
    /// The moderator, during a game: stop the timers.
    case pause
    /// The moderator: start the stopped timers again.
    case resume
    /// The moderator: pass the turn (or the guess) of the absent player the game waits for.
    case passTurn

    /// The `type` string of this message.
    public var type: String {
        switch self {
        case .hello: return "hello"
        case .ping: return "ping"
        case .pong: return "pong"
        case .settings: return "settings"
        case .start: return "start"
        case .clue: return "clue"
        case .pass: return "pass"
        case .vote: return "vote"
        case .guess: return "guess"
        case .kick: return "kick"
        case .leave: return "leave"
        case .claimAnswer: return "claim_answer"
        case .words: return "words"
        case .wordsClear: return "words_clear"
        case .wordsExport: return "words_export"
        case .moderator: return "moderator"
        case .moderatorAnswer: return "moderator_answer"
        case .moderatorPair: return "moderator_pair"
        case .pause: return "pause"
        case .resume: return "resume"
        case .passTurn: return "pass_turn"
        }
    }

    /// All `type` strings a client may send.
    public static let allTypes = [
        "hello", "ping", "pong", "settings", "start", "clue", "pass", "vote", "guess", "kick", "leave", "claim_answer",
        "words", "words_clear", "words_export", "moderator", "moderator_answer", "moderator_pair", "pause", "resume",
        "pass_turn",
    ]

    public struct Hello: Codable, Sendable, Equatable {
        /// Protocol version the client speaks.
        public var `protocol`: Int
        /// Wanted display name; empty for the default name of the seat (玩家1, 玩家2, …).
        public var name: String
        /// Room code; needed when the host has more than one room.
        public var room: String?
        /// Resume token from an earlier `welcome`.
        public var token: String?
        /// Room password, when the host set one.
        public var password: String?
        /// Ask the host to open a new room for this player.
        public var create: Bool?
        /// Watch the room without a seat (a shared board): only public messages are sent.
        public var watch: Bool?
        /// The id of an away seat this player asks back without its token; a connected player approves.
        public var claim: PlayerID?
        /// The client's interface language (`zh-TW`, `zh-Hans`, `en`): a host whose locale names none starts a new
        /// room's word language on its first owner's.
        public var language: String?

        public init(
            protocol: Int = 1, name: String, room: String? = nil, token: String? = nil, password: String? = nil,
            create: Bool? = nil, watch: Bool? = nil, claim: PlayerID? = nil, language: String? = nil
        ) {
            self.protocol = `protocol`
            self.name = name
            self.room = room
            self.token = token
            self.password = password
            self.create = create
            self.watch = watch
            self.claim = claim
            self.language = language
        }
    }

    public struct Ping: Codable, Sendable, Equatable {
        public var id: Int
        public init(id: Int) { self.id = id }
    }

    public struct Pong: Codable, Sendable, Equatable {
        public var id: Int
        public init(id: Int) { self.id = id }
    }

    public struct Clue: Codable, Sendable, Equatable {
        public var text: String
        public init(text: String) { self.text = text }
    }

    public struct Vote: Codable, Sendable, Equatable {
        /// The player voted out.
        public var target: PlayerID
        public init(target: PlayerID) { self.target = target }
    }

    public struct Guess: Codable, Sendable, Equatable {
        public var word: String
        public init(word: String) { self.word = word }
    }

    public struct Kick: Codable, Sendable, Equatable {
        public var player: PlayerID
        public init(player: PlayerID) { self.player = player }
    }

    public struct Words: Codable, Sendable, Equatable {
        /// The lines: `word,word`, a tab, `/`, `——` between the two words, or CSV with a header row.
        public var text: String
        /// Replace the list instead of adding to it.
        public var replace: Bool?
        public init(text: String, replace: Bool? = nil) {
            self.text = text
            self.replace = replace
        }
    }

    public struct ModeratorChoice: Codable, Sendable, Equatable {
        /// Who moderates; absent to give up the moderator's seat.
        public var player: PlayerID?
        public init(player: PlayerID?) { self.player = player }
    }

    public struct ModeratorAnswer: Codable, Sendable, Equatable {
        /// Whether the seat is taken.
        public var accept: Bool
        public init(accept: Bool) { self.accept = accept }

        private enum CodingKeys: String, CodingKey { case accept }

        /// A `null` Bool is a missing value, as for every other required field.
        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            guard let accept = try container.decode(Bool?.self, forKey: .accept) else {
                throw DecodingError.valueNotFound(
                    Bool.self, .init(codingPath: container.codingPath + [CodingKeys.accept], debugDescription: "null"))
            }
            self.accept = accept
        }
    }

    public struct ClaimAnswer: Codable, Sendable, Equatable {
        /// The claimed seat, as the `claim` named it.
        public var player: PlayerID
        /// Whether the claimer gets the seat.
        public var allow: Bool
        public init(player: PlayerID, allow: Bool) {
            self.player = player
            self.allow = allow
        }

        private enum CodingKeys: String, CodingKey { case player, allow }

        /// `JSONDecoder` calls a `null` Bool a type mismatch; like every other required field, it is a missing value.
        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            player = try container.decode(PlayerID.self, forKey: .player)
            guard let allow = try container.decode(Bool?.self, forKey: .allow) else {
                throw DecodingError.valueNotFound(
                    Bool.self, .init(codingPath: container.codingPath + [CodingKeys.allow], debugDescription: "null"))
            }
            self.allow = allow
        }
    }
}

extension ClientMessage: Codable {
    private enum TypeKey: String, CodingKey { case type }
    private enum SettingsKey: String, CodingKey { case settings }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: TypeKey.self)
        let type = try container.decode(String.self, forKey: .type)
        switch type {
        case "hello": self = .hello(try Hello(from: decoder))
        case "ping": self = .ping(try Ping(from: decoder))
        case "pong": self = .pong(try Pong(from: decoder))
        case "settings":
            let wrapper = try decoder.container(keyedBy: SettingsKey.self)
            self = .settings(try wrapper.decode(SettingsChange.self, forKey: .settings))
        case "start": self = .start
        case "clue": self = .clue(try Clue(from: decoder))
        case "pass": self = .pass
        case "vote": self = .vote(try Vote(from: decoder))
        case "guess": self = .guess(try Guess(from: decoder))
        case "kick": self = .kick(try Kick(from: decoder))
        case "leave": self = .leave
        case "claim_answer": self = .claimAnswer(try ClaimAnswer(from: decoder))
        case "words": self = .words(try Words(from: decoder))
        case "words_clear": self = .wordsClear
        case "words_export": self = .wordsExport
        case "moderator": self = .moderator(try ModeratorChoice(from: decoder))
        case "moderator_answer": self = .moderatorAnswer(try ModeratorAnswer(from: decoder))
        case "moderator_pair": self = .moderatorPair(try ListedPair(from: decoder))
        case "pause": self = .pause
        case "resume": self = .resume
        case "pass_turn": self = .passTurn
        default: throw MessageDecodingError.unknownType(type)
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: TypeKey.self)
        try container.encode(type, forKey: .type)
        switch self {
        case .hello(let body): try body.encode(to: encoder)
        case .ping(let body): try body.encode(to: encoder)
        case .pong(let body): try body.encode(to: encoder)
        case .settings(let body):
            var wrapper = encoder.container(keyedBy: SettingsKey.self)
            try wrapper.encode(body, forKey: .settings)
        case .clue(let body): try body.encode(to: encoder)
        case .vote(let body): try body.encode(to: encoder)
        case .guess(let body): try body.encode(to: encoder)
        case .kick(let body): try body.encode(to: encoder)
        case .claimAnswer(let body): try body.encode(to: encoder)
        case .words(let body): try body.encode(to: encoder)
        case .moderator(let body): try body.encode(to: encoder)
        case .moderatorAnswer(let body): try body.encode(to: encoder)
        case .moderatorPair(let body): try body.encode(to: encoder)
        case .start, .pass, .leave, .wordsClear, .wordsExport, .pause, .resume, .passTurn: break
        }
    }
}

/// Raised while decoding a message whose `type` is not known.
public enum MessageDecodingError: Error, Equatable {
    case unknownType(String)
}
