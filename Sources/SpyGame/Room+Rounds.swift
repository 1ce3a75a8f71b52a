import Foundation
import SpyProtocol

extension Room {
    // MARK: Describing

    /// A new round: everyone still in describes, starting from the game's first speaker (or the next player
    /// after them who is still in and is not the blank).
    mutating func beginRound(_ context: inout Context) {
        guard var game else { return }
        game.round += 1
        game.pk = []
        game.ballots = [:]
        let dealt = game.dealt
        let firstIndex = dealt.firstIndex(of: game.firstSpeaker) ?? 0
        let rotation = dealt.indices.map { dealt[(firstIndex + $0) % dealt.count] }.filter { game.isIn($0) }
        // The end conditions leave at least one spy in whenever the game goes on; a restored state might not.
        guard !rotation.isEmpty else {
            finish(.civilians, &context)
            return
        }
        let opener = rotation.firstIndex { game.roles[$0] != .blank } ?? 0
        game.speakers = Array(rotation[opener...] + rotation[..<opener])
        game.speakerIndex = 0
        self.game = game
        startTurn(&context)
    }

    /// The player whose action the phase waits for (speaker or guessing blank), if any.
    func isActor(_ player: PlayerID) -> Bool {
        switch phase {
        case .describing: return game?.currentSpeaker == player
        case .guessing: return game?.guesser == player
        case .lobby, .voting, .gameOver: return false
        }
    }

    /// The configured timer for the speaker or the guessing blank; 0 when off.
    var timerSecondsForActor: Int { settings.turnSeconds }

    /// The deadline for an actor starting now: the turn timer, or the absence default, or none.
    func actorDeadline(for player: PlayerID, now: Millis) -> Millis? {
        if timerSecondsForActor > 0 { return now + Millis(timerSecondsForActor) * 1000 }
        if !isConnected(player) { return now + Rules.absentTurnMillis }
        return nil
    }

    mutating func startTurn(_ context: inout Context) {
        guard let game, let speaker = game.currentSpeaker else { return }
        phase = .describing
        if isPassedOver(speaker) {
            deadline = nil
            context.broadcast(.turn(turnMessage(now: context.now)))
            context.log("\(speaker) is still away; their turn passes")
            finishTurn(of: speaker, text: nil, &context)
            return
        }
        deadline = actorDeadline(for: speaker, now: context.now)
        context.broadcast(.turn(turnMessage(now: context.now)))
    }

    /// Whether the game no longer waits for this player: away, and already waited for once during this absence.
    /// While nobody still in is connected, everyone is waited for as usual, so the game cannot run on by itself.
    func isPassedOver(_ player: PlayerID) -> Bool {
        guard let seat = seats.first(where: { $0.id == player && !$0.departed }), !seat.connected,
            seat.waitedFor == true, let game
        else { return false }
        return game.alive.contains(where: isConnected)
    }

    /// The table has now waited once for this away player.
    mutating func markWaitedFor(_ player: PlayerID) {
        guard let index = seatIndex(of: player), !seats[index].connected, !seats[index].bot else { return }
        seats[index].waitedFor = true
    }

    private func turnMessage(now: Millis) -> ServerMessage.Turn {
        ServerMessage.Turn(
            round: game?.round ?? 0, player: game?.currentSpeaker ?? "", pk: !(game?.pk.isEmpty ?? true),
            timerMs: deadline.map { Int(max(0, $0 - now)) }, timerKind: runningTimerKind)
    }

    /// What the running deadline counts down: a configured timer, or the wait for an absent player.
    var runningTimerKind: TimerKind? {
        guard deadline != nil || game?.pausedRemaining != nil else { return nil }
        switch phase {
        case .describing, .guessing: return timerSecondsForActor > 0 ? .turn : .absent
        case .voting: return settings.voteSeconds > 0 ? .vote : .absent
        case .lobby, .gameOver: return nil
        }
    }

    mutating func giveClue(by player: PlayerID, text: String, _ context: inout Context) throws {
        // A bot cannot talk at the table: its clue is shown as text, even in spoken mode. For a person a spoken
        // room is the wrong phase for `clue` whoever's turn it is, the first refusal the protocol lists.
        guard phase != .describing || settings.clueMode == .typed || isBot(player) else {
            throw Rejection(.wrongPhase, "Clues are spoken at the table in this room; pass when you are done.")
        }
        try checkSpeaker(player)
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if let problem = Rules.checkText(trimmed) { throw problem }
        if let word = game?.word(for: player), TextFold.contains(trimmed, word: word) {
            throw Rejection(.clueHasWord)
        }
        finishTurn(of: player, text: trimmed, &context)
    }

    mutating func pass(by player: PlayerID, _ context: inout Context) throws {
        try checkSpeaker(player)
        finishTurn(of: player, text: nil, &context)
    }

    private func checkSpeaker(_ player: PlayerID) throws {
        guard phase == .describing, let game else { throw Rejection(.wrongPhase) }
        guard game.isIn(player) else { throw Rejection(.notPlaying) }
        guard game.currentSpeaker == player else { throw Rejection(.notYourTurn) }
    }

    mutating func finishTurn(of player: PlayerID, text: String?, _ context: inout Context) {
        guard var game else { return }
        let clue = ClueView(player: player, round: game.round, text: text)
        game.clues.append(clue)
        self.game = game
        context.broadcast(.clue(clue))
        advanceTurn(&context)
    }

    /// Next speaker still in, or the vote when the pass is done.
    mutating func advanceTurn(_ context: inout Context) {
        guard var game else { return }
        game.speakerIndex += 1
        while let speaker = game.currentSpeaker, !game.isIn(speaker) { game.speakerIndex += 1 }
        self.game = game
        if game.currentSpeaker == nil {
            openVote(&context)
        } else {
            startTurn(&context)
        }
    }

    // MARK: Voting

    private mutating func openVote(_ context: inout Context) {
        guard var game else { return }
        let alive = game.alive
        if game.pk.isEmpty {
            game.candidates = alive
            game.voters = alive
        } else {
            game.candidates = game.pk
            let others = alive.filter { !game.pk.contains($0) }
            // When every player still in is tied, they all vote (never for themselves).
            game.voters = others.isEmpty ? alive : others
        }
        game.ballots = [:]
        self.game = game
        phase = .voting
        deadline = settings.voteSeconds > 0 ? context.now + Millis(settings.voteSeconds) * 1000 : nil
        context.broadcast(.voting(votingMessage(now: context.now)))
        // `voting` says the vote waits for every voter; a voter away and no longer waited for is told at once.
        let progress = progressMessage(now: context.now)
        if progress.abstaining != nil { context.announce(.voteProgress(progress)) }
        closeVoteIfComplete(&context)
    }

    /// Whether the vote still waits for a voter who has no ballot in: always while they are connected or a vote
    /// timer runs (the timer decides); while away, for the absent window after they dropped or the host came back.
    func isAwaited(_ voter: PlayerID, now: Millis) -> Bool {
        guard let since = awaySince(voter), !isConnected(voter) else { return isConnected(voter) }
        if isPassedOver(voter) { return false }
        return settings.voteSeconds > 0 || now < since + Rules.absentTurnMillis
    }

    /// With no vote timer, the vote's deadline is the end of the first absent window still open among the voters
    /// it waits for, so the vote closes (or tells everyone who is no longer waited for) when it ends.
    mutating func updateVoteDeadline(now: Millis) {
        guard phase == .voting, settings.voteSeconds == 0, let game else { return }
        let windowEnds = game.voters.compactMap { voter -> Millis? in
            guard game.ballots[voter] == nil, isAwaited(voter, now: now), let since = awaySince(voter) else {
                return nil
            }
            return since + Rules.absentTurnMillis
        }
        deadline = windowEnds.min()
    }

    private func votingMessage(now: Millis) -> ServerMessage.Voting {
        ServerMessage.Voting(
            round: game?.round ?? 0, candidates: game?.candidates ?? [], voters: game?.voters ?? [],
            pk: !(game?.pk.isEmpty ?? true),
            timerMs: settings.voteSeconds > 0 ? deadline.map { Int(max(0, $0 - now)) } : nil)
    }

    /// Who voted, who the vote still waits for (away voters within their window included), and who is away and
    /// no longer waited for (they abstain unless they come back before the vote closes).
    func progressMessage(now: Millis) -> ServerMessage.VoteProgress {
        let voters = game?.voters ?? []
        let ballots = game?.ballots ?? [:]
        let open = voters.filter { ballots[$0] == nil }
        let abstaining = open.filter { !isAwaited($0, now: now) }
        return ServerMessage.VoteProgress(
            voted: voters.filter { ballots[$0] != nil }, waiting: open.filter { isAwaited($0, now: now) },
            abstaining: abstaining.isEmpty ? nil : abstaining)
    }

    mutating func castVote(by player: PlayerID, for target: PlayerID, _ context: inout Context) throws {
        guard phase == .voting, var game else { throw Rejection(.wrongPhase) }
        guard game.voters.contains(player) else {
            let reason = game.isIn(player) ? "Tied players do not vote in the PK." : nil
            throw Rejection(.notPlaying, reason)
        }
        guard target != player else { throw Rejection(.selfVote) }
        guard game.candidates.contains(target) else { throw Rejection(.badTarget) }
        let firstBallot = game.ballots[player] == nil
        game.ballots[player] = target
        self.game = game
        // A changed ballot changes nothing anyone may see; a first one only moves its voter to "voted", which
        // the progress message says in full, so no room snapshot follows it (ballots are the busiest moment).
        if firstBallot { context.announce(.voteProgress(progressMessage(now: context.now))) }
        closeVoteIfComplete(&context)
    }

    /// The vote closes when no voter it waits for is left without a ballot: absent voters whose window has
    /// passed abstain. Until then the deadline follows the open absent windows.
    mutating func closeVoteIfComplete(_ context: inout Context) {
        guard phase == .voting, let game else { return }
        if game.voters.allSatisfy({ game.ballots[$0] != nil || !isAwaited($0, now: context.now) }) {
            closeVote(&context)
        } else {
            updateVoteDeadline(now: context.now)
        }
    }

    private mutating func closeVote(_ context: inout Context) {
        guard var game else { return }
        let seatOrder = game.dealt
        var counts: [PlayerID: [PlayerID]] = [:]
        for voter in game.voters {
            if let target = game.ballots[voter] { counts[target, default: []].append(voter) }
        }
        let tally = seatOrder.compactMap { id in counts[id].map { TallyEntry(player: id, voters: $0) } }
            .sorted { $0.voters.count > $1.voters.count }
        let abstained = game.voters.filter { game.ballots[$0] == nil }
        for voter in abstained { markWaitedFor(voter) }
        let top = tally.first?.voters.count ?? 0
        let tied = top == 0 ? [] : tally.filter { $0.voters.count == top }.map(\.player)
        let wasPK = !game.pk.isEmpty
        deadline = nil

        var result = ServerMessage.VoteResult(
            round: game.round, tally: tally, abstained: abstained, outcome: .nobody,
            tied: tied.count > 1 ? tied : [])
        var eliminated: PlayerID?
        if tied.count == 1 {
            eliminated = tied[0]
        } else if tied.count > 1 && !wasPK {
            switch settings.tieRule {
            case .pk: result.outcome = .pk
            case .nobody: break
            case .random: eliminated = tied[rng.next(below: tied.count)]
            }
        }
        game.ballots = [:]
        game.pk = []
        if let eliminated {
            result.outcome = .out
            result.out = eliminated
            game.out.insert(eliminated)
            game.noteOut(
                .init(
                    player: eliminated, round: game.round, reason: .voted, votes: counts[eliminated]?.count ?? 0,
                    pk: wasPK))
            if settings.revealOut, let role = game.roles[eliminated] {
                result.identity = role
                game.revealed[eliminated] = role
            }
        }
        // Whoever is away now learns the result when they resume (only the latest result is kept).
        game.lastVoteResult = result
        game.missedVoteResult = Set(seats.filter { !$0.connected && !$0.departed && !$0.bot }.map(\.id))
        self.game = game
        context.broadcast(.voteResult(result))
        context.log("round \(game.round) vote: \(result.outcome.rawValue)\(eliminated.map { " \($0)" } ?? "")")

        if let eliminated {
            let role = game.roles[eliminated]
            if (role == .blank && settings.blankRule == .guess) || (role == .spy && settings.spyLastChance) {
                startGuessing(eliminated, &context)
            } else if !finishIfOver(&context) {
                beginRound(&context)
            }
        } else if result.outcome == .pk {
            startPK(tied, &context)
        } else {
            beginRound(&context)
        }
    }

    /// The tied players describe again, in the order they spoke this round.
    private mutating func startPK(_ tied: [PlayerID], _ context: inout Context) {
        guard var game else { return }
        let spokenOrder = game.speakers.filter { tied.contains($0) }
        game.pk = spokenOrder + tied.filter { !spokenOrder.contains($0) }
        game.speakers = game.pk
        game.speakerIndex = 0
        self.game = game
        startTurn(&context)
    }

    // MARK: Departures and timers

    /// A dealt-in player left or was kicked mid-game: out and revealed; the phase goes on without them.
    mutating func playerDeparted(_ player: PlayerID, kicked: Bool, _ context: inout Context) {
        guard var game, let role = game.roles[player] else { return }
        let wasIn = game.isIn(player)
        if wasIn { game.noteOut(.init(player: player, round: game.round, reason: kicked ? .kicked : .left)) }
        game.out.insert(player)
        game.revealed[player] = role
        let wasSpeaker = phase == .describing && game.currentSpeaker == player
        let wasGuesser = phase == .guessing && game.guesser == player
        let pkBroken = game.pk.contains(player) && game.pk.count <= 2
        game.takeOutOfVote(player)
        self.game = game

        if wasGuesser {
            resolveGuess(nil, &context)
            return
        }
        // While someone guesses, the end is decided once the guess is in.
        guard wasIn, phase != .guessing else { return }
        if finishIfOver(&context) { return }
        if pkBroken {
            // A PK needs two players; with one left the round is settled by the departure.
            beginRound(&context)
            return
        }
        switch phase {
        case .describing where wasSpeaker:
            advanceTurn(&context)
        case .voting:
            context.broadcast(.voteProgress(progressMessage(now: context.now)))
            closeVoteIfComplete(&context)
        default:
            break
        }
    }

    mutating func tick(_ context: inout Context) {
        guard let due = deadline, context.now >= due else { return }
        switch phase {
        case .describing:
            guard let speaker = game?.currentSpeaker else { return }
            context.log("\(speaker)'s turn timed out")
            markWaitedFor(speaker)
            finishTurn(of: speaker, text: nil, &context)
        case .voting where settings.voteSeconds > 0:
            closeVote(&context)
        case .voting:
            // An absent window ended: everyone hears who the vote stopped waiting for (also when that closes
            // it), then the vote closes if it waited for nobody else.
            let progress = progressMessage(now: context.now)
            if progress != progressMessage(now: due - 1) { context.broadcast(.voteProgress(progress)) }
            closeVoteIfComplete(&context)
        case .guessing:
            if let guesser = game?.guesser { markWaitedFor(guesser) }
            resolveGuess(nil, &context)
        case .lobby, .gameOver:
            deadline = nil
        }
    }

    /// The messages a returning player needs to know where the game stands (with their own ballot, if any).
    func currentPrompts(now: Millis, for player: PlayerID?) -> [ServerMessage] {
        switch phase {
        case .describing: return [.turn(turnMessage(now: now))]
        case .voting:
            var voting = votingMessage(now: now)
            voting.ballot = player.flatMap { game?.ballots[$0] }
            return [.voting(voting), .voteProgress(progressMessage(now: now))]
        case .guessing:
            return guessingMessage(now: now).map { [.guessing($0)] } ?? []
        case .lobby, .gameOver: return []
        }
    }

    // MARK: The end

    /// Applies the end conditions; true when the game ended.
    mutating func finishIfOver(_ context: inout Context) -> Bool {
        guard let game else { return false }
        let alive = game.alive
        let spies = alive.filter { game.roles[$0] == .spy }.count
        let blankIn = alive.contains { game.roles[$0] == .blank }
        guard
            let winner = Rules.winner(
                spies: spies, others: alive.count - spies, blankIn: blankIn, blankRule: settings.blankRule,
                spyWin: settings.spyWin)
        else { return false }
        finish(winner, &context)
        return true
    }

    mutating func finish(_ winner: Winner, _ context: inout Context) {
        guard var game else { return }
        game.winner = winner
        game.revealed = game.roles
        game.guesser = nil
        game.pk = []
        self.game = game
        phase = .gameOver
        deadline = nil
        let pointsBefore = Dictionary(uniqueKeysWithValues: seats.map { ($0.id, $0.score) })
        for index in seats.indices where !seats[index].departed {
            let id = seats[index].id
            guard let role = game.roles[id] else { continue }
            seats[index].score += Rules.points(role: role, winner: winner, survived: game.isIn(id))
        }
        if let message = gameOverMessage() { context.broadcast(.gameOver(message)) }
        let record = self.record(of: game, winner: winner, pointsBefore: pointsBefore)
        recordInHistory(record)
        context.announce(.history(.init(games: [record])))
        context.log("game \(game.number) in room \(code) over: \(winner.rawValue) win")
    }

    func gameOverMessage() -> ServerMessage.GameOver? {
        guard let game, let winner = game.winner else { return nil }
        return ServerMessage.GameOver(
            game: game.number, winner: winner, civilianWord: game.civilianWord, spyWord: game.spyWord,
            reveal: game.dealt.compactMap { id in
                game.roles[id].map { RevealEntry(player: id, role: $0, word: game.word(for: id)) }
            },
            blankGuess: game.blankGuess,
            scores: seats.filter { !$0.departed }.map { ScoreEntry(player: $0.id, score: $0.score) })
    }
}
