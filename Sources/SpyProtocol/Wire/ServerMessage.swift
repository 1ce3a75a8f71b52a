import Foundation

/// Every message the host may send. On the wire: a JSON object whose `type` names the case.
public enum ServerMessage: Sendable, Equatable {
    /// Answer to a good `hello`: who you are in the room and your secret resume token.
    case welcome(Welcome)
    /// The full public state of your room; sent on join, on resume and after every public change.
    case room(RoomView)
    /// Your own word for the game now starting (or that you are the blank). Never your role.
    case deal(Deal)
    /// A player's turn to describe begins.
    case turn(Turn)
    /// A player finished describing: the typed clue, or nothing when they passed.
    case clue(ClueView)
    /// The vote opens.
    case voting(Voting)
    /// Who has voted so far (never for whom).
    case voteProgress(VoteProgress)
    /// The vote closed: the tally and what it led to.
    case voteResult(VoteResult)
    /// A player has one guess at the civilians' word: the blank voted out under the guess rule, or a spy voted out
    /// under the spy's last chance.
    case guessing(Guessing)
    /// A guess at the civilians' word was decided (the word itself comes with the game's record).
    case guessResult(GuessResult)
    /// The game ended: the winner, every role and word, the scores.
    case gameOver(GameOver)
    /// Answer to `ping`.
    case pong(Pong)
    /// The host checks that a silent connection is alive; answer with `pong` and the same id.
    case ping(Ping)
    /// Something went wrong; a fatal error is followed by the host closing the connection.
    case error(ErrorMessage)
    /// The host is shutting down or the room is closing.
    case bye(Bye)
    /// To a claimer: the claim of an away seat waits for a connected player's approval.
    case claimPending(ClaimSeat)
    /// To the approver: someone asks for an away seat back; answer with `claim_answer`.
    case claim(Claim)
    /// To the approver: the claim ended (answered, timed out, withdrawn, or the seat is no longer away).
    case claimDone(ClaimSeat)
    /// To the whole room: the room has a new owner.
    case owner(Owner)
    /// Finished games of the room's evening: all of them on arrival, each new one at its game over.
    case history(History)
    /// To whoever sent `words`: what was kept of the lines, and every line refused with why.
    case wordsReport(WordsReport)
    /// To the owner (or moderator) who asked with `words_export`: the room's own list.
    case wordList(WordList)
    /// To the whole room: who the moderator is now (none when the seat was given up).
    case moderator(Moderator)
    /// To a seated person the owner named: take the moderator's seat? Answer with `moderator_answer`.
    case moderatorOffer(ModeratorOffer)
    /// To the owner: the person they named did not take the moderator's seat.
    case moderatorDeclined(ModeratorOffer)
    /// To the moderator alone: everything the table does not see.
    case moderatorView(ModeratorView)

    /// The `type` string of this message.
    public var type: String {
        switch self {
        case .welcome: return "welcome"
        case .room: return "room"
        case .deal: return "deal"
        case .turn: return "turn"
        case .clue: return "clue"
        case .voting: return "voting"
        case .voteProgress: return "vote_progress"
        case .voteResult: return "vote_result"
        case .guessing: return "guessing"
        case .guessResult: return "guess_result"
        case .gameOver: return "game_over"
        case .pong: return "pong"
        case .ping: return "ping"
        case .error: return "error"
        case .bye: return "bye"
        case .claimPending: return "claim_pending"
        case .claim: return "claim"
        case .claimDone: return "claim_done"
        case .owner: return "owner"
        case .history: return "history"
        case .wordsReport: return "words_report"
        case .wordList: return "word_list"
        case .moderator: return "moderator"
        case .moderatorOffer: return "moderator_offer"
        case .moderatorDeclined: return "moderator_declined"
        case .moderatorView: return "moderator_view"
        }
    }

    /// All `type` strings the host may send.
    public static let allTypes = [
        "welcome", "room", "deal", "turn", "clue", "voting", "vote_progress", "vote_result", "guessing",
        "guess_result", "game_over", "pong", "ping", "error", "bye", "claim_pending", "claim", "claim_done", "owner",
        "history", "words_report", "word_list", "moderator", "moderator_offer", "moderator_declined", "moderator_view",
    ]

    public struct Welcome: Codable, Sendable, Equatable {
        /// Protocol version in use.
        public var `protocol`: Int
        /// Your player id in the room.
        public var you: PlayerID
        /// Secret token to resume your seat after a dropped connection. Keep it private.
        public var token: String
        /// Room code.
        public var room: String
        /// Whether this connection resumed an existing seat.
        public var resumed: Bool
        /// The categories of the host's bank, per language; absent from hosts that do not send it.
        public var categories: [BankCategory]?
        /// `true` for a watcher (no seat: `you` and `token` are empty); absent for a player.
        public var watch: Bool?

        public init(
            protocol: Int = 1, you: PlayerID, token: String, room: String, resumed: Bool = false,
            categories: [BankCategory]? = nil, watch: Bool? = nil
        ) {
            self.protocol = `protocol`
            self.you = you
            self.token = token
            self.room = room
            self.resumed = resumed
            self.categories = categories
            self.watch = watch
        }

        private enum CodingKeys: String, CodingKey {
            case `protocol`, you, token, room, resumed, categories, watch
        }

        /// A category in a language this build does not know (a later host's) is left out of the list rather than
        /// making the whole `welcome` unreadable: the tables of that language are simply not offered.
        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.protocol = try container.decode(Int.self, forKey: .protocol)
            you = try container.decode(PlayerID.self, forKey: .you)
            token = try container.decode(String.self, forKey: .token)
            room = try container.decode(String.self, forKey: .room)
            resumed = try container.decode(Bool.self, forKey: .resumed)
            categories = try container.decodeIfPresent([ListedCategory].self, forKey: .categories)?
                .compactMap(\.known)
            watch = try container.decodeIfPresent(Bool.self, forKey: .watch)
        }

        /// One entry of `categories`, `nil` when its language is unknown here.
        private struct ListedCategory: Decodable {
            let known: BankCategory?

            private enum CodingKeys: String, CodingKey { case language }

            init(from decoder: Decoder) throws {
                let language = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .language)
                known = BankLanguage(rawValue: language) == nil ? nil : try BankCategory(from: decoder)
            }
        }
    }

    public struct Deal: Codable, Sendable, Equatable {
        /// Game number in the room.
        public var game: Int
        /// Your word; absent when you are the blank.
        public var word: String?
        /// True when you are the blank (你是白板).
        public var blank: Bool

        public init(game: Int, word: String?) {
            self.game = game
            self.word = word
            self.blank = word == nil
        }
    }

    public struct Turn: Codable, Sendable, Equatable {
        /// Round number.
        public var round: Int
        /// Who speaks now.
        public var player: PlayerID
        /// Whether this is a PK re-description.
        public var pk: Bool
        /// Milliseconds the speaker has, when a timer runs.
        public var timerMs: Int?
        /// Whether `timerMs` is the room's turn timer or the countdown for an absent speaker.
        public var timerKind: TimerKind?

        public init(round: Int, player: PlayerID, pk: Bool = false, timerMs: Int? = nil, timerKind: TimerKind? = nil) {
            self.timerKind = timerKind
            self.round = round
            self.player = player
            self.pk = pk
            self.timerMs = timerMs
        }
    }

    public struct Voting: Codable, Sendable, Equatable {
        /// Round number.
        public var round: Int
        /// Who may be voted for.
        public var candidates: [PlayerID]
        /// Who may vote.
        public var voters: [PlayerID]
        /// Whether this is a PK vote.
        public var pk: Bool
        /// Milliseconds the vote stays open, when a timer runs.
        public var timerMs: Int?
        /// The recipient's own ballot, in the copy a voter gets on resume after voting.
        public var ballot: PlayerID?

        public init(
            round: Int, candidates: [PlayerID], voters: [PlayerID], pk: Bool = false, timerMs: Int? = nil,
            ballot: PlayerID? = nil
        ) {
            self.round = round
            self.candidates = candidates
            self.voters = voters
            self.pk = pk
            self.timerMs = timerMs
            self.ballot = ballot
        }
    }

    public struct VoteProgress: Codable, Sendable, Equatable {
        /// Who has cast a ballot.
        public var voted: [PlayerID]
        /// Who the vote still waits for: no ballot yet, and connected, or away within their absent window (or
        /// until the vote timer, when one is set).
        public var waiting: [PlayerID]
        /// Voters away past their absent window: no longer waited for, they abstain unless they come back
        /// before the vote closes. Absent when empty.
        public var abstaining: [PlayerID]?

        public init(voted: [PlayerID], waiting: [PlayerID], abstaining: [PlayerID]? = nil) {
            self.voted = voted
            self.waiting = waiting
            self.abstaining = abstaining
        }
    }

    public struct VoteResult: Codable, Sendable, Equatable {
        /// Round number.
        public var round: Int
        /// Who voted for whom; players with no vote are left out.
        public var tally: [TallyEntry]
        /// Voters whose ballot was missing (abstained or timed out).
        public var abstained: [PlayerID]
        /// What the vote led to.
        public var outcome: VoteOutcome
        /// The player voted out, when `outcome` is `out`.
        public var out: PlayerID?
        /// Their identity, when the room reveals it.
        public var identity: Role?
        /// The tied players, when there was a tie.
        public var tied: [PlayerID]

        public init(
            round: Int, tally: [TallyEntry], abstained: [PlayerID] = [], outcome: VoteOutcome, out: PlayerID? = nil,
            identity: Role? = nil, tied: [PlayerID] = []
        ) {
            self.round = round
            self.tally = tally
            self.abstained = abstained
            self.outcome = outcome
            self.out = out
            self.identity = identity
            self.tied = tied
        }
    }

    public struct Guessing: Codable, Sendable, Equatable {
        /// The player who guesses.
        public var player: PlayerID
        /// Milliseconds to guess, when a timer runs.
        public var timerMs: Int?
        /// Whether `timerMs` is the room's turn timer or the countdown for an absent guesser.
        public var timerKind: TimerKind?
        /// `spy` for a spy's last chance; absent when the blank guesses.
        public var role: Role?

        public init(player: PlayerID, timerMs: Int? = nil, timerKind: TimerKind? = nil, role: Role? = nil) {
            self.timerKind = timerKind
            self.player = player
            self.timerMs = timerMs
            self.role = role
        }
    }

    public struct GuessResult: Codable, Sendable, Equatable {
        /// Who guessed.
        public var player: PlayerID
        /// Their role: `blank` or `spy`.
        public var role: Role
        /// Whether the guess named the civilians' word (false also when the time ran out first).
        public var correct: Bool
        /// Whether the guess put the player out (the blank's wrong guess under `guessEachRound`).
        public var out: Bool

        public init(player: PlayerID, role: Role, correct: Bool, out: Bool = false) {
            self.player = player
            self.role = role
            self.correct = correct
            self.out = out
        }
    }

    public struct GameOver: Codable, Sendable, Equatable {
        /// Game number.
        public var game: Int
        /// Who won.
        public var winner: Winner
        /// The civilians' word.
        public var civilianWord: String
        /// The spies' word.
        public var spyWord: String
        /// Every player's role and word.
        public var reveal: [RevealEntry]
        /// The blank's guess, under the guess rule.
        public var blankGuess: String?
        /// Running scores after this game.
        public var scores: [ScoreEntry]

        public init(
            game: Int, winner: Winner, civilianWord: String, spyWord: String, reveal: [RevealEntry],
            blankGuess: String? = nil, scores: [ScoreEntry]
        ) {
            self.game = game
            self.winner = winner
            self.civilianWord = civilianWord
            self.spyWord = spyWord
            self.reveal = reveal
            self.blankGuess = blankGuess
            self.scores = scores
        }
    }

    public struct Pong: Codable, Sendable, Equatable {
        public var id: Int
        public init(id: Int) { self.id = id }
    }

    public struct Ping: Codable, Sendable, Equatable {
        public var id: Int
        public init(id: Int) { self.id = id }
    }

    public struct ErrorMessage: Codable, Sendable, Equatable {
        /// Stable snake_case code; see `ErrorCode`.
        public var code: ErrorCode
        /// A human sentence.
        public var message: String
        /// For a refusal about numbers (`too_few_players`): how many players the settings need.
        public var need: Int?
        /// For a refusal about numbers: how many there are.
        public var have: Int?

        public init(code: ErrorCode, message: String, need: Int? = nil, have: Int? = nil) {
            self.code = code
            self.message = message
            self.need = need
            self.have = have
        }

        /// An error with the code's standard sentence.
        public init(_ code: ErrorCode) {
            self.init(code: code, message: code.defaultMessage)
        }
    }

    public struct Bye: Codable, Sendable, Equatable {
        /// Why the connection ends: `host_closing`, `room_closed`, `kicked`, `left`.
        public var reason: String
        public init(reason: String) { self.reason = reason }
    }

    public struct ClaimSeat: Codable, Sendable, Equatable {
        /// The claimed seat.
        public var player: PlayerID
        public init(player: PlayerID) { self.player = player }
    }

    public struct Claim: Codable, Sendable, Equatable {
        /// The claimed seat.
        public var player: PlayerID
        /// The name the claimer typed, cleaned like any name.
        public var name: String
        public init(player: PlayerID, name: String) {
            self.player = player
            self.name = name
        }
    }

    public struct Owner: Codable, Sendable, Equatable {
        /// The new owner.
        public var player: PlayerID
        /// The owner before.
        public var previous: PlayerID
        /// Why it moved, when the host knows: the owner before was away too long, or left the room.
        public var reason: Reason?

        /// Why ownership moved.
        public enum Reason: String, Codable, Sendable, Equatable {
            /// The owner before was away (disconnected) for `Rules.ownerAwayMillis` in the lobby or at game over.
            case away
            /// The owner before left, gave up the seat, or was removed.
            case left
        }

        public init(player: PlayerID, previous: PlayerID, reason: Reason? = nil) {
            self.player = player
            self.previous = previous
            self.reason = reason
        }
    }

    public struct WordsReport: Codable, Sendable, Equatable {
        /// Pairs the list gained.
        public var added: Int
        /// Pairs the list holds now.
        public var total: Int
        /// The lines not kept, in order, one entry per line or run of lines with the same reason.
        public var refused: [WordRefusal]
        /// Refusals beyond the first `Rules.maxReportedRefusals` entries, counted only; absent when none.
        public var moreRefused: Int?

        public init(added: Int, total: Int, refused: [WordRefusal] = [], moreRefused: Int? = nil) {
            self.added = added
            self.total = total
            self.refused = refused
            self.moreRefused = moreRefused
        }
    }

    public struct Moderator: Codable, Sendable, Equatable {
        /// The moderator now; absent when nobody moderates.
        public var player: PlayerID?
        /// The moderator before, if anyone.
        public var previous: PlayerID?
        public init(player: PlayerID?, previous: PlayerID? = nil) {
            self.player = player
            self.previous = previous
        }
    }

    public struct ModeratorOffer: Codable, Sendable, Equatable {
        /// The person named.
        public var player: PlayerID
        public init(player: PlayerID) { self.player = player }
    }

    public struct WordList: Codable, Sendable, Equatable {
        /// Every pair of the room's own list, in the order they were added.
        public var pairs: [ListedPair]
        public init(pairs: [ListedPair]) { self.pairs = pairs }
    }

    public struct History: Codable, Sendable, Equatable {
        /// Records of finished games, oldest first. A client keeps every record it was sent by its game number:
        /// a record never changes once its game is over.
        public var games: [GameRecord]
        public init(games: [GameRecord]) { self.games = games }
    }
}

extension ServerMessage: Codable {
    private enum TypeKey: String, CodingKey { case type }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: TypeKey.self)
        let type = try container.decode(String.self, forKey: .type)
        switch type {
        case "welcome": self = .welcome(try Welcome(from: decoder))
        case "room": self = .room(try RoomView(from: decoder))
        case "deal": self = .deal(try Deal(from: decoder))
        case "turn": self = .turn(try Turn(from: decoder))
        case "clue": self = .clue(try ClueView(from: decoder))
        case "voting": self = .voting(try Voting(from: decoder))
        case "vote_progress": self = .voteProgress(try VoteProgress(from: decoder))
        case "vote_result": self = .voteResult(try VoteResult(from: decoder))
        case "guessing": self = .guessing(try Guessing(from: decoder))
        case "guess_result": self = .guessResult(try GuessResult(from: decoder))
        case "game_over": self = .gameOver(try GameOver(from: decoder))
        case "pong": self = .pong(try Pong(from: decoder))
        case "ping": self = .ping(try Ping(from: decoder))
        case "error": self = .error(try ErrorMessage(from: decoder))
        case "bye": self = .bye(try Bye(from: decoder))
        case "claim_pending": self = .claimPending(try ClaimSeat(from: decoder))
        case "claim": self = .claim(try Claim(from: decoder))
        case "claim_done": self = .claimDone(try ClaimSeat(from: decoder))
        case "owner": self = .owner(try Owner(from: decoder))
        case "history": self = .history(try History(from: decoder))
        case "words_report": self = .wordsReport(try WordsReport(from: decoder))
        case "word_list": self = .wordList(try WordList(from: decoder))
        case "moderator": self = .moderator(try Moderator(from: decoder))
        case "moderator_offer": self = .moderatorOffer(try ModeratorOffer(from: decoder))
        case "moderator_declined": self = .moderatorDeclined(try ModeratorOffer(from: decoder))
        case "moderator_view": self = .moderatorView(try ModeratorView(from: decoder))
        default: throw MessageDecodingError.unknownType(type)
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: TypeKey.self)
        try container.encode(type, forKey: .type)
        switch self {
        case .welcome(let body): try body.encode(to: encoder)
        case .room(let body): try body.encode(to: encoder)
        case .deal(let body): try body.encode(to: encoder)
        case .turn(let body): try body.encode(to: encoder)
        case .clue(let body): try body.encode(to: encoder)
        case .voting(let body): try body.encode(to: encoder)
        case .voteProgress(let body): try body.encode(to: encoder)
        case .voteResult(let body): try body.encode(to: encoder)
        case .guessing(let body): try body.encode(to: encoder)
        case .guessResult(let body): try body.encode(to: encoder)
        case .gameOver(let body): try body.encode(to: encoder)
        case .pong(let body): try body.encode(to: encoder)
        case .ping(let body): try body.encode(to: encoder)
        case .error(let body): try body.encode(to: encoder)
        case .bye(let body): try body.encode(to: encoder)
        case .claimPending(let body), .claimDone(let body): try body.encode(to: encoder)
        case .claim(let body): try body.encode(to: encoder)
        case .owner(let body): try body.encode(to: encoder)
        case .history(let body): try body.encode(to: encoder)
        case .wordsReport(let body): try body.encode(to: encoder)
        case .wordList(let body): try body.encode(to: encoder)
        case .moderator(let body): try body.encode(to: encoder)
        case .moderatorOffer(let body), .moderatorDeclined(let body): try body.encode(to: encoder)
        case .moderatorView(let body): try body.encode(to: encoder)
        }
    }
}
