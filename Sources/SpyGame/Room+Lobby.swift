import Foundation
import SpyProtocol

extension Room {
    /// Whether a game is being played (dealt and not over).
    var gameRunning: Bool {
        switch phase {
        case .describing, .voting, .guessing: return true
        case .lobby, .gameOver: return false
        }
    }

    mutating func join(name rawName: String, bot: Bool, _ context: inout Context) throws {
        guard !gameRunning else { throw Rejection(.gameInProgress) }
        let present = seatedCount
        guard present < settings.maxPlayers else { throw Rejection(.roomFull) }
        let name: String
        if rawName.isEmpty {
            name = defaultName(seatNumber: present + 1)
        } else {
            let normalised = PlayerText.normalisedName(rawName)
            if let problem = Rules.checkName(normalised, raw: rawName) { throw problem }
            guard !isNameTaken(normalised, seated: seatedNameLooks()) else {
                throw Rejection(.nameTaken, "Another player in the room has that name, or one that looks the same.")
            }
            name = normalised
        }
        pruneDeparted()
        let id = "p\(nextPlayerNumber)"
        nextPlayerNumber += 1
        seats.append(Seat(id: id, name: name, bot: bot, connected: true, score: 0, departed: false))
        // Only a person owns a room: bots cannot start a game, so a room owned by one would wait forever.
        if !bot, owner.map({ isBot($0) || seatIndex(of: $0) == nil }) ?? true { owner = id }
        context.effects.append(.joined(id))
        // A newcomer after the first games hears of them too.
        for message in historyMessages() { context.send(id, message) }
        context.roomChanged = true
        context.log("\(id) joined room \(code)\(bot ? " (bot)" : "")")
    }

    private func seatedNameLooks() -> [PlayerText.NameLook] {
        seats.filter { !$0.departed }.map { PlayerText.NameLook($0.name) }
    }

    private func isNameTaken(_ name: String, seated: [PlayerText.NameLook]) -> Bool {
        let look = PlayerText.NameLook(name)
        return seated.contains { $0.isAlike(look) }
    }

    private func defaultName(seatNumber: Int) -> String {
        var number = seatNumber
        let seated = seatedNameLooks()
        while isNameTaken("\(Rules.defaultNamePrefix)\(number)", seated: seated) { number += 1 }
        return "\(Rules.defaultNamePrefix)\(number)"
    }

    /// Seats of players who left during the last game only matter for its game-over screen.
    mutating func pruneDeparted() {
        seats.removeAll(where: \.departed)
    }

    mutating func connect(_ player: PlayerID, _ context: inout Context) throws {
        guard let index = seatIndex(of: player) else { throw Rejection(.notPlaying, "You have no seat in this room.") }
        let progressBefore = phase == .voting ? progressMessage(now: context.now) : nil
        seats[index].connected = true
        seats[index].awaySince = nil
        seats[index].waitedFor = nil
        // Only an absence made the table wait with a deadline; with no timer set, the game waits for them again.
        if isActor(player), timerSecondsForActor == 0 { deadline = nil }
        if phase == .voting { updateVoteDeadline(now: context.now) }
        // A voter who was no longer waited for is waited for again: everyone learns it, the returning player with
        // everyone else rather than a second time in their own catch-up.
        let progress = progressBefore.map { _ in progressMessage(now: context.now) }
        let announced = progress != nil && progress != progressBefore
        for message in catchUp(for: player, now: context.now) {
            if announced, case .voteProgress = message { continue }
            context.send(player, message)
        }
        // A missed vote result is told once.
        if game?.missedVoteResult?.contains(player) == true { game?.missedVoteResult?.remove(player) }
        if announced, let progress { context.announce(.voteProgress(progress)) }
        context.roomChanged = true
        context.log("\(player) connected")
    }

    mutating func disconnect(_ player: PlayerID, _ context: inout Context) throws {
        guard let index = seatIndex(of: player) else { throw Rejection(.notPlaying, "You have no seat in this room.") }
        seats[index].connected = false
        // Counted from the latest drop, or from the host's return after a restart.
        seats[index].awaySince = context.now
        context.roomChanged = true
        context.log("\(player) disconnected")
        if isActor(player), timerSecondsForActor == 0 {
            deadline = context.now + Rules.absentTurnMillis
        }
        // An absent voter is waited for like an absent speaker, so a drop never closes the vote by itself.
        if phase == .voting { updateVoteDeadline(now: context.now) }
    }

    /// After a restart nobody is connected yet: every person is away from now, and no timer runs out before
    /// they had the absent window to come back in.
    mutating func hostRestarted(_ context: inout Context) {
        for index in seats.indices where !seats[index].bot && !seats[index].departed {
            seats[index].connected = false
            seats[index].awaySince = context.now
            // Away because the host was: every seat gets its one wait again.
            seats[index].waitedFor = nil
        }
        switch phase {
        case .describing, .guessing:
            if let actor = phase == .describing ? game?.currentSpeaker : game?.guesser, !isBot(actor) {
                let fresh = actorDeadline(for: actor, now: context.now) ?? context.now + Rules.absentTurnMillis
                deadline = max(deadline ?? fresh, context.now + Rules.absentTurnMillis)
            }
        case .voting:
            if let running = deadline, settings.voteSeconds > 0 {
                deadline = max(running, context.now + Rules.absentTurnMillis)
            } else {
                updateVoteDeadline(now: context.now)
            }
        case .lobby, .gameOver:
            break
        }
        if owner.map({ isBot($0) || seatIndex(of: $0) == nil }) ?? true {
            let person = seats.first { !$0.bot && !$0.departed }?.id
            if owner != nil || person != nil {
                context.log("owner \(owner ?? "none") is not a seated person; owner now \(person ?? "nobody")")
            }
            owner = person
        }
        // The moderator and the one asked to be are seated people, or nobody.
        if let moderator, seatIndex(of: moderator) == nil || isBot(moderator) { self.moderator = nil }
        if let offered = moderatorOffer, seatIndex(of: offered) == nil || gameRunning { moderatorOffer = nil }
        context.roomChanged = true
    }

    mutating func leave(_ player: PlayerID, _ context: inout Context) throws {
        guard seatIndex(of: player) != nil else { throw Rejection(.notPlaying, "You have no seat in this room.") }
        removePlayer(player, reason: nil, &context)
        context.log("\(player) left")
    }

    mutating func kick(_ target: PlayerID, by player: PlayerID, _ context: inout Context) throws {
        guard runsTheGame(player) else { throw Rejection(.notOwner) }
        guard target != player, seatIndex(of: target) != nil else {
            throw Rejection(.badTarget, "Kick another seated player.")
        }
        removePlayer(target, reason: .kicked, &context)
        context.log("\(target) kicked by \(player)")
    }

    /// Takes a player off the table: the seat goes in the lobby; in a game the player is out, revealed, and gone.
    private mutating func removePlayer(_ player: PlayerID, reason: ErrorCode?, _ context: inout Context) {
        guard let index = seatIndex(of: player) else { return }
        if gameRunning, game?.roles[player] != nil {
            seats[index].departed = true
            seats[index].connected = false
        } else {
            seats.remove(at: index)
        }
        context.effects.append(.removed(player, reason: reason))
        context.roomChanged = true
        moderatorLeft(player, &context)
        if owner == player { passOwnership(from: index) }
        if gameRunning { playerDeparted(player, kicked: reason == .kicked, &context) }
    }

    /// Ownership goes to the next seated person after the old owner, wrapping round; never to a bot. With no
    /// person seated the room has no owner until the next person joins.
    private mutating func passOwnership(from index: Int) {
        guard !seats.isEmpty else {
            owner = nil
            return
        }
        let ring = seats.indices.map { seats[(index + $0) % seats.count] }
        owner = ring.first { !$0.departed && !$0.bot }?.id
    }

    mutating func changeSettings(by player: PlayerID, _ change: SettingsChange, _ context: inout Context) throws {
        guard player == owner else { throw Rejection(.notOwner) }
        guard !gameRunning else { throw Rejection(.wrongPhase, "Settings change between games.") }
        let merged = settings.merging(change)
        if let problem = Rules.validate(merged, seated: seatedCount) { throw problem }
        var cleaned = merged
        cleaned.categories = merged.categories.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        guard cleaned != settings else {
            // Nothing changed: the owner still gets the room, so a client can tell this from a lost message.
            context.send(player, .room(view(now: context.now)))
            return
        }
        settings = cleaned
        context.roomChanged = true
        context.log("settings changed by \(player)")
    }

    /// Why `player` cannot start a game now, by the room's own rules, if they cannot. The host asks before it
    /// looks for the bank's pairs, so that a refusal of the bank's (`bad_settings`) comes after these.
    public func startRefusal(by player: PlayerID) -> Rejection? {
        guard seatIndex(of: player) != nil else { return Rejection(.notPlaying, "You have no seat in this room.") }
        guard runsTheGame(player) else { return Rejection(.notOwner) }
        guard !gameRunning else { return Rejection(.wrongPhase, "A game is already running.") }
        return Rules.startProblem(settings, players: playerIDs.count { isConnected($0) && $0 != moderator })
    }

    mutating func start(by player: PlayerID, pairs: [WordPair], _ context: inout Context) throws {
        if let refusal = startRefusal(by: player) { throw refusal }
        // A seat away at the deal sits the game out, so no turn or ballot of the game waits for it.
        // The moderator is dealt nothing and sits nothing out.
        let players = playerIDs.filter { isConnected($0) && $0 != moderator }
        let sittingOut = playerIDs.filter { !isConnected($0) && $0 != moderator }
        let playable = dealablePairs(bank: pairs)
        guard !playable.isEmpty || moderatorPair != nil else {
            throw Rejection(
                .badSettings,
                settings.wordSource == .ours
                    ? "The room's own word list is empty." : "No word pair fits these settings.")
        }

        pruneDeparted()
        moderatorOffer = nil
        let pair: WordPair
        if let typed = moderatorPair {
            // The moderator's pair is dealt once and kept nowhere else.
            pair = typed
            moderatorPair = nil
        } else {
            var fresh = playable.filter { !usedPairKeys.contains($0.key) }
            if fresh.isEmpty {
                // Every pair has been played: start the cycle again.
                usedPairKeys.subtract(playable.map(\.key))
                fresh = playable
            }
            pair = fresh[rng.next(below: fresh.count)]
            usedPairKeys.insert(pair.key)
        }
        let swapped = rng.nextBool()

        let roles = Self.dealRoles(to: players, spies: settings.spies, blank: settings.blank, rng: &rng)
        let speakable = players.filter { roles[$0] != .blank }
        let firstSpeaker = speakable[rng.next(below: speakable.count)]

        gamesPlayed += 1
        game = Game(
            number: gamesPlayed, civilianWord: swapped ? pair.spy : pair.civilian,
            spyWord: swapped ? pair.civilian : pair.spy, dealt: players,
            sittingOut: sittingOut.isEmpty ? nil : sittingOut,
            roles: roles, firstSpeaker: firstSpeaker)
        context.log(
            "game \(gamesPlayed) started in room \(code) with \(players.count) players"
                + (sittingOut.isEmpty ? "" : ", \(sittingOut.joined(separator: " ")) away and sitting out"))
        for id in players {
            context.send(id, .deal(.init(game: gamesPlayed, word: game?.word(for: id))))
        }
        context.roomChanged = true
        beginRound(&context)
    }

    /// Roles shuffled uniformly over the seats: the first places of a random order are the spies, then the blank.
    static func dealRoles(
        to players: [PlayerID], spies: Int, blank: Bool, rng: inout SplitMix64
    ) -> [PlayerID: Role] {
        var roles: [PlayerID: Role] = [:]
        for (position, id) in rng.shuffled(players).enumerated() {
            if position < spies {
                roles[id] = .spy
            } else if blank && position == spies {
                roles[id] = .blank
            } else {
                roles[id] = .civilian
            }
        }
        return roles
    }

    // MARK: Ownership and claims

    /// In the lobby and at game over, an owner away for `Rules.ownerAwayMillis` hands the room to the connected
    /// person seated longest, so an owner's lost phone never blocks the table; the deadline is the moment that
    /// happens while someone could take over. During a game the deadline belongs to the game and ownership stays.
    mutating func settleOwnership(_ context: inout Context) {
        guard !gameRunning else { return }
        var due: Millis?
        if let current = owner, let since = awaySince(current), let heir = longestSeatedPerson(excluding: current) {
            if context.now >= since + Rules.ownerAwayMillis {
                owner = heir
                context.log("owner \(current) away; owner now \(heir)")
            } else {
                due = since + Rules.ownerAwayMillis
            }
        }
        deadline = due
    }

    /// The seat an unseated player's name points at when it clashes with an away person's seat, by the rule that
    /// refuses a taken name.
    public func awaySeat(matchingName rawName: String) -> PlayerID? {
        let normalised = PlayerText.normalisedName(rawName)
        guard !normalised.isEmpty else { return nil }
        let look = PlayerText.NameLook(normalised)
        return seats.first { isAway($0.id) && PlayerText.NameLook($0.name).isAlike(look) }?.id
    }

    /// Who approves giving the away seat `claimed` to a new device: the owner when connected and not the seat
    /// itself, otherwise the connected person seated longest.
    public func claimApprover(for claimed: PlayerID) -> PlayerID? {
        if let owner, owner != claimed, isConnected(owner), !isBot(owner) { return owner }
        return longestSeatedPerson(excluding: claimed)
    }
}
