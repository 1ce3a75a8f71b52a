import SpyProtocol

/// The moderator (法官): a seated person who runs the game without playing it. No word, no turn, no ballot, not
/// counted in the table's size; sees on their own device what nobody else does (`moderatorView`); may type the next
/// game's pair, start, pause and resume the timers, pass an absent player's turn, and kick. Who moderates changes
/// only between games, never silently: everyone hears `moderator`.
extension Room {
    /// The moderator, if the room has one.
    public var moderatorID: PlayerID? { moderator }

    /// Whether the moderator typed the next game's pair (a start then needs nothing of the bank).
    public var hasModeratorPair: Bool { moderatorPair != nil }

    /// Whether `player` runs the game: the owner, or the moderator.
    func runsTheGame(_ player: PlayerID) -> Bool {
        player == owner || player == moderator
    }

    /// `moderator`: the owner names someone (themselves at once, another seated person by an offer they answer),
    /// or the owner or the moderator gives the seat up (`player` nil).
    mutating func chooseModerator(_ chosen: PlayerID?, by player: PlayerID, _ context: inout Context) throws {
        guard !gameRunning else {
            throw Rejection(.wrongPhase, "The moderator changes between games: a player stays a player until the end.")
        }
        guard let chosen else {
            guard player == owner || player == moderator else { throw Rejection(.notOwner) }
            guard moderator == nil || seatedCount < settings.maxPlayers else {
                throw Rejection(.roomFull, "The table is full: the moderator cannot take a player's seat.")
            }
            moderatorOffer = nil
            setModerator(nil, &context)
            return
        }
        guard player == owner else { throw Rejection(.notOwner) }
        guard seatIndex(of: chosen) != nil, !isBot(chosen) else {
            throw Rejection(.badTarget, "The moderator is a seated person.")
        }
        guard chosen != moderator else { return }
        if chosen == player {
            moderatorOffer = nil
            setModerator(chosen, &context)
            return
        }
        // Nobody becomes the moderator without saying yes.
        moderatorOffer = chosen
        context.send(chosen, .moderatorOffer(.init(player: chosen)))
        context.log("\(player) asked \(chosen) to moderate")
    }

    mutating func answerModeratorOffer(_ accept: Bool, by player: PlayerID, _ context: inout Context) throws {
        guard moderatorOffer == player else {
            throw Rejection(.notAllowed, "Nobody asked you to moderate, or the question was withdrawn.")
        }
        guard !gameRunning else { throw Rejection(.wrongPhase) }
        moderatorOffer = nil
        if accept {
            setModerator(player, &context)
        } else if let owner {
            context.send(owner, .moderatorDeclined(.init(player: player)))
            context.log("\(player) did not take the moderator's seat")
        }
    }

    /// Seats `player` as the moderator (or nobody), telling everyone. The table's size counts the moderator no more
    /// (or again).
    mutating func setModerator(_ player: PlayerID?, _ context: inout Context) {
        guard player != moderator else { return }
        let previous = moderator
        moderator = player
        if player == nil { moderatorPair = nil }
        context.broadcast(.moderator(.init(player: player, previous: previous)))
        context.log(player.map { "\($0) moderates" } ?? "nobody moderates")
    }

    /// The moderator left the room: nobody moderates. An offer to a player who left is withdrawn.
    mutating func moderatorLeft(_ player: PlayerID, _ context: inout Context) {
        if moderatorOffer == player { moderatorOffer = nil }
        if moderator == player {
            moderator = nil
            moderatorPair = nil
            context.broadcast(.moderator(.init(player: nil, previous: player)))
        }
    }

    mutating func setModeratorPair(by player: PlayerID, _ pair: WordPair, _ context: inout Context) throws {
        guard player == moderator else { throw Rejection(.notAllowed, "Only the moderator types the next pair.") }
        guard !gameRunning else { throw Rejection(.wrongPhase, "The next pair is typed between games.") }
        guard pair.isPlayable else { throw Rejection(.badWords, "The two words must differ.") }
        moderatorPair = pair
        context.log("the moderator typed the next pair")
    }

    // MARK: The game's timers and turns

    mutating func pauseTimers(by player: PlayerID, _ context: inout Context) throws {
        guard player == moderator else { throw Rejection(.notAllowed, "Only the moderator pauses the timers.") }
        guard gameRunning, var game else { throw Rejection(.wrongPhase) }
        guard game.paused != true else { return }
        game.paused = true
        game.pausedRemaining = deadline.map { max(0, $0 - context.now) }
        self.game = game
        deadline = nil
        context.roomChanged = true
        context.log("timers paused")
    }

    mutating func resumeTimers(by player: PlayerID, _ context: inout Context) throws {
        guard player == moderator else { throw Rejection(.notAllowed, "Only the moderator resumes the timers.") }
        guard gameRunning, var game, game.paused == true else { throw Rejection(.wrongPhase) }
        deadline = game.pausedRemaining.map { context.now + $0 }
        game.paused = nil
        game.pausedRemaining = nil
        self.game = game
        context.roomChanged = true
        context.log("timers resumed")
    }

    /// While the timers are paused, a deadline the game sets (a new turn, a vote) waits with them: what it would
    /// have left is kept, and nothing runs out.
    mutating func holdTimersWhilePaused(now: Millis) {
        guard gameRunning, var game, game.paused == true, let running = deadline else { return }
        game.pausedRemaining = max(0, running - now)
        self.game = game
        deadline = nil
    }

    /// The moderator passes the turn of the absent speaker (or the guess of the absent guesser) the game waits for.
    mutating func passAbsentTurn(by player: PlayerID, _ context: inout Context) throws {
        guard player == moderator else { throw Rejection(.notAllowed, "Only the moderator passes a turn.") }
        guard let game else { throw Rejection(.wrongPhase) }
        switch phase {
        case .describing:
            guard let speaker = game.currentSpeaker, !isConnected(speaker) else {
                throw Rejection(.notAllowed, "Only an absent player's turn is passed.")
            }
            markWaitedFor(speaker)
            finishTurn(of: speaker, text: nil, &context)
        case .guessing:
            guard let guesser = game.guesser, !isConnected(guesser) else {
                throw Rejection(.notAllowed, "Only an absent player's guess is passed.")
            }
            markWaitedFor(guesser)
            resolveGuess(nil, &context)
        case .lobby, .voting, .gameOver:
            throw Rejection(.wrongPhase)
        }
        context.log("the moderator passed \(phase == .guessing ? "a guess" : "a turn")")
    }

    // MARK: What the moderator sees

    /// Everything the table does not see: the pair, every role and word, the ballots so far, every guess; the pair
    /// typed for the next game.
    func moderatorView() -> ModeratorView {
        let next = moderatorPair.map { ListedPair(civilian: $0.civilian, spy: $0.spy) }
        guard let game else { return ModeratorView(game: 0, nextPair: next) }
        let players = game.dealt.compactMap { id in
            game.roles[id].map { RevealEntry(player: id, role: $0, word: game.word(for: id)) }
        }
        var ballots: [TallyEntry] = []
        if phase == .voting {
            for target in game.dealt {
                let voters = game.voters.filter { game.ballots[$0] == target }
                if !voters.isEmpty { ballots.append(TallyEntry(player: target, voters: voters)) }
            }
        }
        return ModeratorView(
            game: game.number, civilianWord: game.civilianWord, spyWord: game.spyWord, players: players,
            ballots: ballots, guesses: game.guesses ?? [], nextPair: next,
            paused: gameRunning && game.paused == true ? true : nil)
    }
}
