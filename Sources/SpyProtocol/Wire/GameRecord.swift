/// One finished game of a room's evening: what everyone may know once it is over. A record exists only from the
/// game's end on, so it never holds anything a running game hides.
public struct GameRecord: Codable, Sendable, Equatable {
    /// Game number in the room.
    public var game: Int
    /// The civilians' word.
    public var civilianWord: String
    /// The spies' word.
    public var spyWord: String
    /// Who won.
    public var winner: Winner
    /// Everyone dealt in, in seat order at the deal.
    public var players: [Player]
    /// Who went out before the end, in the order they went.
    public var outs: [Out]
    /// Every guess at the civilians' word, in the order they were made.
    public var guesses: [Guess]

    public init(
        game: Int, civilianWord: String, spyWord: String, winner: Winner, players: [Player], outs: [Out] = [],
        guesses: [Guess] = []
    ) {
        self.game = game
        self.civilianWord = civilianWord
        self.spyWord = spyWord
        self.winner = winner
        self.players = players
        self.outs = outs
        self.guesses = guesses
    }

    /// A player dealt into the game.
    public struct Player: Codable, Sendable, Equatable {
        public var player: PlayerID
        /// The name the player had in the game (kept for a player who has left the room since).
        public var name: String
        public var role: Role
        /// Points this game added to the player's score.
        public var points: Int
        /// Whether the player was still in at the end.
        public var survived: Bool

        public init(player: PlayerID, name: String, role: Role, points: Int, survived: Bool) {
            self.player = player
            self.name = name
            self.role = role
            self.points = points
            self.survived = survived
        }
    }

    /// A player going out before the end.
    public struct Out: Codable, Sendable, Equatable {
        public var player: PlayerID
        /// The round they went out in.
        public var round: Int
        public var reason: OutReason
        /// For `voted`: the ballots against them.
        public var votes: Int?
        /// For `voted`: whether it was the vote of a PK.
        public var pk: Bool?

        public init(player: PlayerID, round: Int, reason: OutReason, votes: Int? = nil, pk: Bool? = nil) {
            self.player = player
            self.round = round
            self.reason = reason
            self.votes = votes
            self.pk = pk
        }
    }

    /// A guess at the civilians' word.
    public struct Guess: Codable, Sendable, Equatable {
        /// Who guessed.
        public var player: PlayerID
        public var round: Int
        /// The guess; absent when the time to guess ran out (or the guesser left) first.
        public var word: String?
        /// Whether it named the civilians' word.
        public var correct: Bool

        public init(player: PlayerID, round: Int, word: String?, correct: Bool) {
            self.player = player
            self.round = round
            self.word = word
            self.correct = correct
        }
    }
}

/// Why a player went out before the end of a game.
public enum OutReason: String, Codable, Sendable, Equatable, CaseIterable {
    /// The table voted them out.
    case voted
    /// They left the room.
    case left
    /// The owner (or the moderator) removed them.
    case kicked
    /// A wrong guess at the civilians' word put the blank out.
    case guessed
}
