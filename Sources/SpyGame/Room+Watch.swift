import SpyProtocol

extension Room {
    /// What a client arriving in the middle needs to know where the room stands: the public view, then (for a
    /// player dealt into the running game) their own deal, a vote result they missed while away, and the phase's
    /// prompts with their own ballot, or at game over the reveal.
    ///
    /// `player == nil` is a watcher (the board): the same messages minus everything addressed to one seat, so a
    /// watcher can never be handed a word or a role that the game has not revealed to everyone. The records of
    /// the evening's finished games follow.
    public func catchUp(for player: PlayerID?, now: Millis) -> [ServerMessage] {
        // The moderator follows the game as the board does, then sees what only they see; the evening's finished
        // games come last, after where the room stands now.
        if let player, player == moderator {
            return phaseCatchUp(for: nil, now: now) + [.moderatorView(moderatorView())] + historyMessages()
        }
        var messages = phaseCatchUp(for: player, now: now)
        if let player, player == moderatorOffer { messages.append(.moderatorOffer(.init(player: player))) }
        return messages + historyMessages()
    }

    private func phaseCatchUp(for player: PlayerID?, now: Millis) -> [ServerMessage] {
        var messages: [ServerMessage] = [.room(view(now: now))]
        guard let game else { return messages }
        if let player, game.roles[player] == nil { return messages }
        // The result of a vote that closed while this player was away (a watcher sees votes live or not at all).
        let missed = player.flatMap { game.missedVoteResult?.contains($0) == true ? game.lastVoteResult : nil }
        switch phase {
        case .describing, .voting, .guessing:
            if let player { messages.append(.deal(.init(game: game.number, word: game.word(for: player)))) }
            if let missed { messages.append(.voteResult(missed)) }
            messages += currentPrompts(now: now, for: player)
        case .gameOver:
            if let missed { messages.append(.voteResult(missed)) }
            if let result = gameOverMessage() { messages.append(.gameOver(result)) }
        case .lobby:
            break
        }
        return messages
    }
}

extension RoomEffect {
    /// The message a watcher of the room gets for this effect: what is sent to every seat, never what is sent to
    /// one.
    public var watcherMessage: ServerMessage? {
        if case .broadcast(let message) = self { return message }
        return nil
    }
}
