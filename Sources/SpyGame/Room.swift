import Foundation
import SpyProtocol

/// One table: its seats, settings, scores and the game in progress, as a value the daemon drives with events.
///
/// Deterministic by construction: the only randomness is the seeded `SplitMix64` stored inside, the only clock is
/// the `now` passed to `apply`. A room built from the same seed and fed the same events always produces the same
/// effects, and a room decoded from its own encoding continues identically.
public struct Room: Codable, Sendable, Equatable {
    /// Room code.
    public private(set) var code: String
    /// Where the room is.
    public internal(set) var phase: Phase
    /// Settings in force.
    public internal(set) var settings: GameSettings
    /// When the daemon must send `.tick`; `nil` while nothing is timed. The one source of the room's timing: the
    /// daemon reads it after every event.
    public var nextDeadline: Millis? { deadline }

    var rng: SplitMix64
    var seats: [Seat]
    var owner: PlayerID?
    var nextPlayerNumber: Int
    var gamesPlayed: Int
    var usedPairKeys: Set<String>
    var game: Game?
    var deadline: Millis?
    /// The room's own word list, in the order its pairs were added; absent while empty.
    var wordList: [WordPair]?
    /// The moderator's seat (a seated person who is dealt nothing), the person the owner named and who has not
    /// answered yet, and the pair the moderator typed for the next game.
    var moderator: PlayerID?
    var moderatorOffer: PlayerID?
    var moderatorPair: WordPair?
    /// The finished games of the evening, oldest first (at most `Rules.maxHistoryGames`); absent in rooms saved
    /// before it was kept, and until the first game ends.
    var history: [GameRecord]?

    public init(code: String, settings: GameSettings = GameSettings(), seed: UInt64) {
        self.code = code
        self.phase = .lobby
        self.settings = settings
        self.rng = SplitMix64(seed: seed)
        self.seats = []
        self.owner = nil
        self.nextPlayerNumber = 1
        self.gamesPlayed = 0
        self.usedPairKeys = []
        self.game = nil
        self.deadline = nil
    }

    /// Seated players in seat order (players who left during the game are no longer seated).
    public var playerIDs: [PlayerID] {
        seats.filter { !$0.departed }.map(\.id)
    }

    /// How many players are seated, the moderator not counted (the table's size; a settings change asks).
    var seatedCount: Int {
        seats.reduce(0) { count, seat in seat.departed || seat.id == moderator ? count : count + 1 }
    }

    /// The player who owns the room, if anyone is seated.
    public var ownerID: PlayerID? { owner }

    /// The number of the latest game dealt (0 before the first).
    public var latestGame: Int { gamesPlayed }

    /// A player's display name (also for a player who left during the game now ending).
    public func name(of player: PlayerID) -> String? {
        seats.first { $0.id == player }?.name
    }

    /// Whether the player is a bot run by the host.
    public func isBot(_ player: PlayerID) -> Bool {
        seats.first { $0.id == player }?.bot ?? false
    }

    /// Whether a bot holds a seat (asked after every event, so one pass and no array).
    public var hasBots: Bool {
        seats.contains { !$0.departed && $0.bot }
    }

    /// The public view: the same for every player, without words or roles the game has not revealed.
    public func view(now: Millis) -> RoomView {
        let game = self.game
        let voting = phase == .voting
        var seatViews: [SeatView] = []
        seatViews.reserveCapacity(seats.count)
        for (index, seat) in seats.enumerated() {
            var alive = true
            var voted = false
            var revealed: Role?
            if let game {
                alive = game.roles[seat.id] == nil || !game.out.contains(seat.id)
                voted = voting && game.ballots[seat.id] != nil
                revealed = game.revealed[seat.id]
            }
            let sittingOut = phase != .lobby && game?.sittingOut?.contains(seat.id) == true
            seatViews.append(
                SeatView(
                    id: seat.id, seat: index + 1, name: seat.name, owner: seat.id == owner,
                    connected: seat.connected && !seat.departed, bot: seat.bot, alive: alive, voted: voted,
                    revealed: revealed, score: seat.score, sittingOut: sittingOut ? true : nil,
                    left: seat.departed ? true : nil, moderator: seat.id == moderator ? true : nil))
        }
        let over = phase == .gameOver
        return RoomView(
            room: code, phase: phase, game: gamesPlayed, round: game?.round ?? 0, settings: settings,
            seats: seatViews, turn: phase == .describing ? game?.currentSpeaker : nil,
            pk: over ? [] : game?.pk ?? [], clues: Array((game?.clues ?? []).suffix(Rules.cluesInView)),
            timerMs: gameRunning ? (game?.pausedRemaining ?? deadline.map { max(0, $0 - now) }).map { Int($0) } : nil,
            winner: over ? game?.winner : nil, timerKind: runningTimerKind, wordCount: wordList.map(\.count),
            paused: gameRunning && game?.paused == true ? true : nil)
    }

    /// Applies one event. On rejection the room is exactly as before.
    public mutating func apply(_ event: RoomEvent, now: Millis) -> Result<[RoomEffect], Rejection> {
        var next = self
        var context = Context(now: now)
        let moderatorSaw = moderator.map { _ in moderatorView() }
        do {
            try next.handle(event, &context)
            next.settleOwnership(&context)
            next.holdTimersWhilePaused(now: now)
        } catch let rejection as Rejection {
            return .failure(rejection)
        } catch {
            return .failure(Rejection(.internal))
        }
        if let previous = owner, let player = next.owner, player != previous {
            // Why, said to every phone: the seat before is still there but away, or it is gone.
            let before = next.seats.first { $0.id == previous }
            let reason: ServerMessage.Owner.Reason? =
                before.map { $0.departed ? .left : $0.connected ? nil : .away } ?? .left
            context.broadcast(.owner(.init(player: player, previous: previous, reason: reason)))
        }
        if context.roomChanged {
            context.effects.append(.broadcast(.room(next.view(now: now))))
        }
        // The moderator sees what changed of what only they see, after the table's news.
        if let watching = next.moderator, next.moderator != moderator || next.moderatorView() != moderatorSaw {
            context.send(watching, .moderatorView(next.moderatorView()))
        }
        self = next
        return .success(context.effects)
    }

    private mutating func handle(_ event: RoomEvent, _ context: inout Context) throws {
        switch event {
        case .join(let name, let bot): try join(name: name, bot: bot, &context)
        case .connected(let player): try connect(player, &context)
        case .disconnected(let player): try disconnect(player, &context)
        case .leave(let player): try leave(player, &context)
        case .start(let player, let pairs): try start(by: player, pairs: pairs, &context)
        case .move(let player, let message): try move(player, message, &context)
        case .tick: tick(&context)
        case .hostRestarted: hostRestarted(&context)
        case .words(let player, let upload): try addWords(by: player, upload, &context)
        case .moderatorPair(let player, let pair): try setModeratorPair(by: player, pair, &context)
        }
    }

    private mutating func move(_ player: PlayerID, _ message: ClientMessage, _ context: inout Context) throws {
        guard seatIndex(of: player) != nil else { throw Rejection(.notPlaying, "You have no seat in this room.") }
        switch message {
        case .settings(let change): try changeSettings(by: player, change, &context)
        case .clue(let clue): try giveClue(by: player, text: clue.text, &context)
        case .pass: try pass(by: player, &context)
        case .vote(let vote): try castVote(by: player, for: vote.target, &context)
        case .guess(let guess): try guessWord(by: player, guess.word, &context)
        case .kick(let request): try kick(request.player, by: player, &context)
        case .leave: try leave(player, &context)
        case .wordsClear: try clearWords(by: player, &context)
        case .moderator(let choice): try chooseModerator(choice.player, by: player, &context)
        case .moderatorAnswer(let answer): try answerModeratorOffer(answer.accept, by: player, &context)
        case .pause: try pauseTimers(by: player, &context)
        case .resume: try resumeTimers(by: player, &context)
        case .passTurn: try passAbsentTurn(by: player, &context)
        case .hello, .ping, .pong, .start, .claimAnswer, .words, .wordsExport, .moderatorPair:
            throw Rejection(.badMessage, "The host handles \(message.type) itself.")
        }
    }

    /// Effects gathered while one event is handled.
    struct Context {
        let now: Millis
        var effects: [RoomEffect] = []
        /// Whether the public view changed, so everyone gets the new snapshot once, last.
        var roomChanged = false

        init(now: Millis) {
            self.now = now
        }

        mutating func broadcast(_ message: ServerMessage) {
            effects.append(.broadcast(message))
            roomChanged = true
        }

        /// Broadcasts a message that carries the whole public change itself, so no snapshot is owed for it.
        mutating func announce(_ message: ServerMessage) {
            effects.append(.broadcast(message))
        }

        mutating func send(_ player: PlayerID, _ message: ServerMessage) {
            effects.append(.send(player, message))
        }

        mutating func log(_ line: String) {
            effects.append(.log(line))
        }
    }

    /// A seat at the table.
    struct Seat: Codable, Sendable, Equatable {
        var id: PlayerID
        var name: String
        var bot: Bool
        var connected: Bool
        var score: Int
        /// Left or kicked during a game: kept (out, revealed) until the game over screen is done with it.
        var departed: Bool
        /// When the player's connection dropped (or the host came back after a restart), while away.
        var awaySince: Millis?
        /// The table has waited for this away seat once (a turn timed out, or a vote closed without its ballot):
        /// until it resumes, its turns pass and its ballots abstain at once.
        var waitedFor: Bool?
    }

    func seatIndex(of player: PlayerID) -> Int? {
        seats.firstIndex { $0.id == player && !$0.departed }
    }

    /// Whether a seated player's client is connected now (bots always are).
    public func isConnected(_ player: PlayerID) -> Bool {
        seats.first { $0.id == player && !$0.departed }?.connected ?? false
    }

    /// When a seated player who is away dropped (or the host came back); `nil` while connected.
    func awaySince(_ player: PlayerID) -> Millis? {
        guard let seat = seats.first(where: { $0.id == player && !$0.departed }), !seat.connected else { return nil }
        return seat.awaySince
    }

    /// Whether the seat is a person's seat whose client is not connected (and that has not been given up).
    public func isAway(_ player: PlayerID) -> Bool {
        seats.contains { $0.id == player && !$0.departed && !$0.bot && !$0.connected }
    }

    /// The connected person seated longest (seats are kept in join order), other than `excluded`.
    func longestSeatedPerson(excluding excluded: PlayerID?) -> PlayerID? {
        seats.first { !$0.departed && !$0.bot && $0.connected && $0.id != excluded }?.id
    }
}

/// The state of one game, from the deal to game over.
struct Game: Codable, Sendable, Equatable {
    var number: Int
    var civilianWord: String
    var spyWord: String
    /// Players dealt in, in seat order at the deal.
    var dealt: [PlayerID]
    /// Seats that were away at the deal: seated, not dealt in, until the next deal.
    var sittingOut: [PlayerID]?
    var roles: [PlayerID: Role]
    var out: Set<PlayerID> = []
    var revealed: [PlayerID: Role] = [:]
    var firstSpeaker: PlayerID
    var round = 0
    /// Who describes in the current pass (a round, or the tied players of a PK), in speaking order.
    var speakers: [PlayerID] = []
    var speakerIndex = 0
    /// The tied players while a PK runs.
    var pk: [PlayerID] = []
    var voters: [PlayerID] = []
    var candidates: [PlayerID] = []
    var ballots: [PlayerID: PlayerID] = [:]
    var clues: [ClueView] = []
    /// The blank guessing the civilians' word.
    var guesser: PlayerID?
    var blankGuess: String?
    var winner: Winner?
    /// Who went out before the end, in order, and every guess at the civilians' word: the game's record at its end.
    /// Absent in games saved before they were kept, and while empty.
    var outs: [GameRecord.Out]?
    var guesses: [GameRecord.Guess]?
    /// The moderator stopped the timers: what was left of the running one (none when none ran).
    var paused: Bool?
    var pausedRemaining: Millis?
    /// The last vote result, kept for the players who were away when it was announced.
    var lastVoteResult: ServerMessage.VoteResult?
    /// Players who were away when `lastVoteResult` was announced and have not resumed since.
    var missedVoteResult: Set<PlayerID>?

    var currentSpeaker: PlayerID? {
        speakers.indices.contains(speakerIndex) ? speakers[speakerIndex] : nil
    }

    func isIn(_ player: PlayerID) -> Bool {
        roles[player] != nil && !out.contains(player)
    }

    var alive: [PlayerID] { dealt.filter { !out.contains($0) } }

    func word(for player: PlayerID) -> String? {
        switch roles[player] {
        case .civilian: return civilianWord
        case .spy: return spyWord
        case .blank, nil: return nil
        }
    }
}
