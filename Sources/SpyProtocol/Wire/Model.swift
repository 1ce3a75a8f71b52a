import Foundation

/// The protocol versions this build speaks. The first element is the preferred one.
public let supportedProtocolVersions: [Int] = [1]

/// A player's public identifier inside one room ("p1", "p2", …). Not a secret.
public typealias PlayerID = String

/// A player's identity in a game. Never sent to anyone before the game reveals it.
public enum Role: String, Codable, Sendable, Equatable, CaseIterable {
    /// Holds the majority word.
    case civilian
    /// Holds the other word of the pair.
    case spy
    /// Holds no word and must bluff.
    case blank
}

/// Which side won a game.
public enum Winner: String, Codable, Sendable, Equatable {
    /// Every spy is out (and the blank too, or the blank did not survive).
    case civilians
    /// The spies survived to the end.
    case spies
    /// Every spy is out and the blank is still in (survive rule), or the blank guessed the word (guess rule).
    case blank
}

/// Where a room is in its life.
public enum Phase: String, Codable, Sendable, Equatable {
    /// Seats fill, the owner changes settings and starts.
    case lobby
    /// Players describe their word in turn (also the PK re-description).
    case describing
    /// Secret simultaneous vote.
    case voting
    /// The blank, voted out under the guess rule, guesses the civilians' word.
    case guessing
    /// Roles and words are revealed; the owner may start the next game.
    case gameOver
}

/// How clues are given.
public enum ClueMode: String, Codable, Sendable, Equatable, CaseIterable {
    /// Players talk at the table; the speaker passes the turn when done.
    case spoken
    /// The clue is typed and shown to everyone.
    case typed
}

/// What happens when the vote is tied.
public enum TieRule: String, Codable, Sendable, Equatable, CaseIterable {
    /// The tied players describe again, then everyone else votes among them; a second tie sends nobody out.
    case pk
    /// Nobody goes out this round.
    case nobody
    /// One of the tied players, drawn at random, goes out.
    case random
}

/// What the blank needs to win.
public enum BlankRule: String, Codable, Sendable, Equatable, CaseIterable {
    /// The blank wins if every spy is out while the blank is still in.
    case survive
    /// When voted out, the blank gets one guess at the civilians' word and wins if right.
    case guess
    /// Once a round, while its vote is open, the blank may guess the civilians' word: right wins for the blank,
    /// wrong puts the blank out. The blank does not win by surviving.
    case guessEachRound
}

/// When the spies win while spies are still in.
public enum SpyWin: String, Codable, Sendable, Equatable, CaseIterable {
    /// Only when three players or fewer are left: the classic table's rule.
    case three
    /// Also as soon as the spies are at least as many as the other players still in.
    case parity
}

/// What a running timer is counting down, so a client can tell a configured timer from the absence countdown.
public enum TimerKind: String, Codable, Sendable, Equatable, CaseIterable {
    /// The room's turn timer (`turnSeconds`), also for the blank's guess.
    case turn
    /// The room's vote timer (`voteSeconds`).
    case vote
    /// No timer is set, but the player the table waits for is away: their turn passes when it runs out.
    case absent
}

/// Content rating of a pair.
public enum ContentLabel: String, Codable, Sendable, Equatable, CaseIterable {
    /// Fit for any table.
    case family
    /// Adult themes; left out unless the room asks for them.
    case party
}

/// A room's game settings. Every field has the seed app's default.
public struct GameSettings: Codable, Sendable, Equatable {
    /// Seats in the room (4–20).
    public var maxPlayers: Int
    /// Number of spies (1–3, limited by the table size).
    public var spies: Int
    /// Whether one player is the blank.
    public var blank: Bool
    /// How clues are given.
    public var clueMode: ClueMode
    /// Seconds a speaker has for the turn; 0 means no timer.
    public var turnSeconds: Int
    /// Seconds the vote stays open; 0 means no timer.
    public var voteSeconds: Int
    /// What a tied vote does.
    public var tieRule: TieRule
    /// Whether the identity of a player voted out is shown at once.
    public var revealOut: Bool
    /// What the blank needs to win.
    public var blankRule: BlankRule
    /// When the spies win: with three players left (the seed's rule), or also at parity.
    public var spyWin: SpyWin
    /// The spy's last chance: a spy voted out guesses the civilians' word, and the spies win if it is right.
    public var spyLastChance: Bool
    /// Where the pairs come from: the bank, the room's own list, or both.
    public var wordSource: WordSource
    /// Which bank language the pairs come from.
    public var language: BankLanguage
    /// Whether adult ("party") pairs may be drawn.
    public var allowParty: Bool
    /// Categories to draw from; empty means all.
    public var categories: [String]

    public init(
        maxPlayers: Int = 10, spies: Int = 1, blank: Bool = false, clueMode: ClueMode = .spoken,
        turnSeconds: Int = 0, voteSeconds: Int = 0, tieRule: TieRule = .pk, revealOut: Bool = true,
        blankRule: BlankRule = .survive, language: BankLanguage = .both, allowParty: Bool = false,
        categories: [String] = [], spyWin: SpyWin = .three, spyLastChance: Bool = false,
        wordSource: WordSource = .bank
    ) {
        self.spyWin = spyWin
        self.spyLastChance = spyLastChance
        self.wordSource = wordSource
        self.maxPlayers = maxPlayers
        self.spies = spies
        self.blank = blank
        self.clueMode = clueMode
        self.turnSeconds = turnSeconds
        self.voteSeconds = voteSeconds
        self.tieRule = tieRule
        self.revealOut = revealOut
        self.blankRule = blankRule
        self.language = language
        self.allowParty = allowParty
        self.categories = categories
    }

    /// The most spies a table of `players` may have: fewer than 6 → 1; 6–9 → 2; 10 → 3; above 10 → a third.
    public static func maxSpies(forPlayers players: Int) -> Int {
        switch players {
        case ..<6: return 1
        case 6...9: return 2
        case 10: return 3
        default: return players / 3
        }
    }

    /// Applies the fields a `settings` message names, leaving the others unchanged.
    public func merging(_ change: SettingsChange) -> GameSettings {
        var merged = self
        if let value = change.maxPlayers { merged.maxPlayers = value }
        if let value = change.spies { merged.spies = value }
        if let value = change.blank { merged.blank = value }
        if let value = change.clueMode { merged.clueMode = value }
        if let value = change.turnSeconds { merged.turnSeconds = value }
        if let value = change.voteSeconds { merged.voteSeconds = value }
        if let value = change.tieRule { merged.tieRule = value }
        if let value = change.revealOut { merged.revealOut = value }
        if let value = change.blankRule { merged.blankRule = value }
        if let value = change.language { merged.language = value }
        if let value = change.allowParty { merged.allowParty = value }
        if let value = change.categories { merged.categories = value }
        if let value = change.spyWin { merged.spyWin = value }
        if let value = change.spyLastChance { merged.spyLastChance = value }
        if let value = change.wordSource { merged.wordSource = value }
        return merged
    }

    private enum CodingKeys: String, CodingKey {
        case maxPlayers, spies, blank, clueMode, turnSeconds, voteSeconds, tieRule, revealOut, blankRule, spyWin
        case spyLastChance, wordSource, language, allowParty, categories
    }

    /// Settings saved or sent before `spyWin`, `spyLastChance` or `wordSource` existed have the seed's rules.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        maxPlayers = try container.decode(Int.self, forKey: .maxPlayers)
        spies = try container.decode(Int.self, forKey: .spies)
        blank = try container.decode(Bool.self, forKey: .blank)
        clueMode = try container.decode(ClueMode.self, forKey: .clueMode)
        turnSeconds = try container.decode(Int.self, forKey: .turnSeconds)
        voteSeconds = try container.decode(Int.self, forKey: .voteSeconds)
        tieRule = try container.decode(TieRule.self, forKey: .tieRule)
        revealOut = try container.decode(Bool.self, forKey: .revealOut)
        blankRule = try container.decode(BlankRule.self, forKey: .blankRule)
        spyWin = try container.decodeIfPresent(SpyWin.self, forKey: .spyWin) ?? .three
        spyLastChance = try container.decodeIfPresent(Bool.self, forKey: .spyLastChance) ?? false
        wordSource = try container.decodeIfPresent(WordSource.self, forKey: .wordSource) ?? .bank
        language = try container.decode(BankLanguage.self, forKey: .language)
        allowParty = try container.decode(Bool.self, forKey: .allowParty)
        categories = try container.decode([String].self, forKey: .categories)
    }
}

/// A partial change of settings: only the fields present are changed.
public struct SettingsChange: Codable, Sendable, Equatable {
    public var maxPlayers: Int?
    public var spies: Int?
    public var blank: Bool?
    public var clueMode: ClueMode?
    public var turnSeconds: Int?
    public var voteSeconds: Int?
    public var tieRule: TieRule?
    public var revealOut: Bool?
    public var blankRule: BlankRule?
    public var language: BankLanguage?
    public var allowParty: Bool?
    public var categories: [String]?
    public var spyWin: SpyWin?
    public var spyLastChance: Bool?
    public var wordSource: WordSource?

    public init(
        maxPlayers: Int? = nil, spies: Int? = nil, blank: Bool? = nil, clueMode: ClueMode? = nil,
        turnSeconds: Int? = nil, voteSeconds: Int? = nil, tieRule: TieRule? = nil, revealOut: Bool? = nil,
        blankRule: BlankRule? = nil, language: BankLanguage? = nil, allowParty: Bool? = nil,
        categories: [String]? = nil, spyWin: SpyWin? = nil, spyLastChance: Bool? = nil,
        wordSource: WordSource? = nil
    ) {
        self.spyWin = spyWin
        self.spyLastChance = spyLastChance
        self.wordSource = wordSource
        self.maxPlayers = maxPlayers
        self.spies = spies
        self.blank = blank
        self.clueMode = clueMode
        self.turnSeconds = turnSeconds
        self.voteSeconds = voteSeconds
        self.tieRule = tieRule
        self.revealOut = revealOut
        self.blankRule = blankRule
        self.language = language
        self.allowParty = allowParty
        self.categories = categories
    }
}

/// One seat as every player of the room sees it.
public struct SeatView: Codable, Sendable, Equatable {
    /// The player's id.
    public var id: PlayerID
    /// Seat number, 1-based, in join order.
    public var seat: Int
    /// Display name, unique in the room.
    public var name: String
    /// Whether this player owns the room.
    public var owner: Bool
    /// Whether the player's client is connected now.
    public var connected: Bool
    /// Whether the player is a bot run by the host.
    public var bot: Bool
    /// Whether the player is still in the current game (true in the lobby).
    public var alive: Bool
    /// Whether the player has voted in the vote now open.
    public var voted: Bool
    /// The player's identity once the game has revealed it (voted out with reveal on, kicked, or game over).
    public var revealed: Role?
    /// Points across the games played in this room.
    public var score: Int
    /// `true` while the seat sits out the game it was away for at the deal (no word, no turn, no ballot); absent
    /// otherwise.
    public var sittingOut: Bool?
    /// `true` for the seat of a player who left or was kicked during the game shown: kept for its reveal until the
    /// seat is cleared (the next deal, or someone joining); absent otherwise.
    public var left: Bool?
    /// `true` for the moderator's seat (no word, no turn, no ballot); absent otherwise.
    public var moderator: Bool?

    public init(
        id: PlayerID, seat: Int, name: String, owner: Bool = false, connected: Bool = true, bot: Bool = false,
        alive: Bool = true, voted: Bool = false, revealed: Role? = nil, score: Int = 0, sittingOut: Bool? = nil,
        left: Bool? = nil, moderator: Bool? = nil
    ) {
        self.moderator = moderator
        self.id = id
        self.seat = seat
        self.name = name
        self.owner = owner
        self.connected = connected
        self.bot = bot
        self.alive = alive
        self.voted = voted
        self.revealed = revealed
        self.score = score
        self.sittingOut = sittingOut
        self.left = left
    }
}

/// A clue given in the current game, as everyone sees it.
public struct ClueView: Codable, Sendable, Equatable {
    /// Who gave it.
    public var player: PlayerID
    /// Round it was given in.
    public var round: Int
    /// The typed text; absent when the speaker passed (spoken mode) or the turn timed out.
    public var text: String?

    public init(player: PlayerID, round: Int, text: String? = nil) {
        self.player = player
        self.round = round
        self.text = text
    }
}

/// The public state of a room: identical for every player in it, free of words and hidden roles.
public struct RoomView: Codable, Sendable, Equatable {
    /// Room code.
    public var room: String
    /// Where the room is.
    public var phase: Phase
    /// Game number in this room, 0 before the first start.
    public var game: Int
    /// Round number in the current game, 0 in the lobby.
    public var round: Int
    /// Settings in force.
    public var settings: GameSettings
    /// Seats in seat order.
    public var seats: [SeatView]
    /// Whose turn it is to describe, while describing.
    public var turn: PlayerID?
    /// Players in a PK (tied and describing again, or the only ones who can be voted for); empty otherwise.
    public var pk: [PlayerID]
    /// Clues of the current game, oldest first.
    public var clues: [ClueView]
    /// Milliseconds left on the running timer (turn or vote), when one runs.
    public var timerMs: Int?
    /// What the running timer counts down, when one runs.
    public var timerKind: TimerKind?
    /// The winner, at game over.
    public var winner: Winner?
    /// How many pairs the room's own list holds (its words are never in the view); absent while it holds none.
    public var wordCount: Int?
    /// `true` while the moderator has stopped the timers (`timerMs` is then what is left); absent otherwise.
    public var paused: Bool?

    public init(
        room: String, phase: Phase, game: Int = 0, round: Int = 0, settings: GameSettings = GameSettings(),
        seats: [SeatView] = [], turn: PlayerID? = nil, pk: [PlayerID] = [], clues: [ClueView] = [],
        timerMs: Int? = nil, winner: Winner? = nil, timerKind: TimerKind? = nil, wordCount: Int? = nil,
        paused: Bool? = nil
    ) {
        self.wordCount = wordCount
        self.paused = paused
        self.timerKind = timerKind
        self.room = room
        self.phase = phase
        self.game = game
        self.round = round
        self.settings = settings
        self.seats = seats
        self.turn = turn
        self.pk = pk
        self.clues = clues
        self.timerMs = timerMs
        self.winner = winner
    }
}

/// One line of a vote tally.
public struct TallyEntry: Codable, Sendable, Equatable {
    /// Who was voted for.
    public var player: PlayerID
    /// Who voted for them.
    public var voters: [PlayerID]

    public init(player: PlayerID, voters: [PlayerID]) {
        self.player = player
        self.voters = voters
    }
}

/// What a vote led to.
public enum VoteOutcome: String, Codable, Sendable, Equatable {
    /// One player is out; the game goes on to the next round.
    case out
    /// A tie under the PK rule: the tied players describe again, then a vote among them.
    case pk
    /// Nobody is out (tie under the "nobody" rule, a second tie, or no ballot at all).
    case nobody
}

/// A player's role and word, revealed at game over.
public struct RevealEntry: Codable, Sendable, Equatable {
    /// The player.
    public var player: PlayerID
    /// Their role.
    public var role: Role
    /// Their word; absent for the blank.
    public var word: String?

    public init(player: PlayerID, role: Role, word: String?) {
        self.player = player
        self.role = role
        self.word = word
    }
}

/// A player's points after a game.
public struct ScoreEntry: Codable, Sendable, Equatable {
    public var player: PlayerID
    public var score: Int

    public init(player: PlayerID, score: Int) {
        self.player = player
        self.score = score
    }
}
