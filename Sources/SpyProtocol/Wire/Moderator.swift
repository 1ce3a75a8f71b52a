/// What the moderator (法官) sees on their own device, and nobody else: the running game's pair, every player's role
/// and word, each ballot as it comes in, and every guess; between games, the pair they typed for the next one.
public struct ModeratorView: Codable, Sendable, Equatable {
    /// The game shown (the running one, or the last one at game over); 0 before the first.
    public var game: Int
    /// The civilians' and the spies' word of that game.
    public var civilianWord: String?
    public var spyWord: String?
    /// Everyone dealt in, in seat order, with their role and word (none for the blank).
    public var players: [RevealEntry]
    /// The ballots of the open vote so far: who voted for whom.
    public var ballots: [TallyEntry]
    /// Every guess at the civilians' word in the game, as it comes in.
    public var guesses: [GameRecord.Guess]
    /// The pair the moderator typed for the next game, while it waits to be dealt.
    public var nextPair: ListedPair?
    /// Whether the moderator paused the timers.
    public var paused: Bool?

    public init(
        game: Int, civilianWord: String? = nil, spyWord: String? = nil, players: [RevealEntry] = [],
        ballots: [TallyEntry] = [], guesses: [GameRecord.Guess] = [], nextPair: ListedPair? = nil,
        paused: Bool? = nil
    ) {
        self.game = game
        self.civilianWord = civilianWord
        self.spyWord = spyWord
        self.players = players
        self.ballots = ballots
        self.guesses = guesses
        self.nextPair = nextPair
        self.paused = paused
    }
}
