import SpyProtocol

extension Room {
    /// Largest counter (player numbers, games, rounds) a loaded room may hold: far beyond any real table, and far
    /// enough below `Int.max` that no later `+= 1` can overflow.
    public static let maxLoadedCounter = 1_000_000
    /// Largest score a loaded seat may hold.
    public static let maxLoadedScore = 100_000_000
    /// Latest moment a loaded room may hold (wall ms, around the year 2500), so time arithmetic cannot overflow.
    public static let maxLoadedDeadline: Millis = 16_725_225_600_000

    /// Why a room decoded from a file cannot be trusted, or `nil` when it can: every invariant the rules keep while
    /// playing, so that a hand-edited or damaged file can neither make a later move trap nor be played as a table
    /// the rules would never have made. Every number the rules do arithmetic with is range-checked; the seats fit
    /// the rules' table and the room's own; every player a game names has a seat number the room gave out; the
    /// phase's data (turn, voters, candidates, ballots, the guessing blank, the winner) is what that phase holds.
    ///
    /// An owner who is a bot or no longer seated, or no owner while a person is seated, is not refused: the host
    /// gives the room to its first seated person when it resumes the room, as after any restart.
    public var integrityProblem: String? {
        guard code.count == 4, code.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) }) else {
            return "bad room code"
        }
        if let rejection = Rules.validate(settings, seated: 0) { return "bad settings: \(rejection.message)" }
        let counters = 0...Room.maxLoadedCounter
        guard (1...Room.maxLoadedCounter).contains(nextPlayerNumber) else { return "nextPlayerNumber out of range" }
        guard counters.contains(gamesPlayed) else { return "gamesPlayed out of range" }
        if let deadline, !(0...Room.maxLoadedDeadline).contains(deadline) { return "deadline out of range" }
        if let wordList {
            guard wordList.count <= Rules.maxRoomPairs, wordList.allSatisfy(\.isPlayable),
                wordList.reduce(0, { $0 + Room.wordBytes($1) }) <= Rules.maxRoomWordBytes
            else { return "the room's word list is out of range" }
        }
        if let history {
            guard history.count <= Rules.maxHistoryGames else { return "too many games in the history" }
            for record in history {
                guard counters.contains(record.game), record.players.count <= Rules.maxTableSize,
                    record.outs.count <= Rules.maxTableSize, record.guesses.count <= Rules.maxTableSize
                else { return "a game record out of range" }
            }
        }
        if let wrong = seatsProblem { return wrong }
        if let owner, !seats.contains(where: { $0.id == owner }) { return "the owner \(owner.prefix(8)) has no seat" }
        guard let game else {
            guard phase == .lobby, gamesPlayed == 0 else { return "phase \(phase.rawValue) without a game" }
            return nil
        }
        guard phase != .lobby else { return "a game in the lobby" }
        guard game.number == gamesPlayed else { return "game \(game.number) is not the latest, \(gamesPlayed)" }
        return game.integrityProblem(in: self)
    }

    /// Why the seats cannot be trusted, if they cannot.
    private var seatsProblem: String? {
        // The moderator's seat is not one of the table's.
        guard seats.count <= Rules.maxTableSize + (moderator == nil ? 0 : 1) else {
            return "\(seats.count) seats, more than the rules' table of \(Rules.maxTableSize)"
        }
        for person in [moderator, moderatorOffer].compactMap(\.self) {
            guard let seat = seats.first(where: { $0.id == person }), !seat.bot, !seat.departed else {
                return "the moderator (or the one asked to be) is not a seated person"
            }
        }
        if let moderatorPair, !moderatorPair.isPlayable { return "the moderator's pair is not a pair" }
        guard Set(seats.map(\.id)).count == seats.count else { return "two seats with one id" }
        // Seat ids are "p" and the number the counter gave them; a counter behind one would give it out again.
        guard seats.allSatisfy({ isGivenOut($0.id) }) else { return "a seat id the player counter has not given out" }
        let seated = seatedCount
        guard seated <= settings.maxPlayers else {
            return "\(seated) seats, more than the room's table of \(settings.maxPlayers)"
        }
        guard seats.allSatisfy({ (0...Room.maxLoadedScore).contains($0.score) }) else { return "score out of range" }
        for seat in seats {
            guard (1...PlayerText.maxNameBytes).contains(seat.name.utf8.count),
                !TextFold.hasControlCharacters(seat.name)
            else { return "the name of \(seat.id) is not one the rules take" }
            if let since = seat.awaySince, !(0...Room.maxLoadedDeadline).contains(since) {
                return "the absence of \(seat.id) out of range"
            }
            // A seat is kept after its player left only for the game they were dealt into, until it is over.
            if seat.departed, game?.roles[seat.id] == nil || game?.out.contains(seat.id) != true {
                return "\(seat.id) left, but not a game they were dealt into"
            }
        }
        return nil
    }

    /// Whether `id` is "p" and a number the player counter has given out.
    func isGivenOut(_ id: PlayerID) -> Bool {
        id.first == "p" && Int(id.dropFirst()).map { (1..<nextPlayerNumber).contains($0) } == true
    }
}

extension Game {
    /// Why the game of `room` cannot be trusted, if it cannot.
    func integrityProblem(in room: Room) -> String? {
        let counters = 0...Room.maxLoadedCounter
        guard counters.contains(number), (1...Room.maxLoadedCounter).contains(round) else {
            return "game number or round out of range"
        }
        let dealtIn = Set(dealt)
        guard dealtIn.count == dealt.count, (Rules.minPlayers...Rules.maxTableSize).contains(dealt.count),
            dealt.allSatisfy(room.isGivenOut), Set(roles.keys) == dealtIn
        else { return "the players dealt in are not a table" }
        let spies = roles.values.filter { $0 == .spy }.count
        let blanks = roles.values.filter { $0 == .blank }.count
        guard (1...3).contains(spies), blanks <= 1 else { return "\(spies) spies and \(blanks) blanks dealt" }
        guard !civilianWord.isEmpty, !spyWord.isEmpty else { return "a game without its words" }
        guard roles[firstSpeaker] != nil, roles[firstSpeaker] != .blank else { return "bad first speaker" }
        if let sittingOut, !sittingOut.allSatisfy(room.isGivenOut) || !dealtIn.isDisjoint(with: sittingOut) {
            return "bad players sitting out"
        }
        guard out.isSubset(of: dealtIn), revealed.allSatisfy({ roles[$0.key] == $0.value }) else {
            return "a player out or revealed who was not dealt in, or with another role"
        }
        guard Set(speakers).count == speakers.count, speakers.allSatisfy(dealtIn.contains),
            pk.allSatisfy(dealtIn.contains), (0...speakers.count).contains(speakerIndex)
        else { return "bad speakers" }
        guard clues.allSatisfy({ $0.round >= 0 && $0.round <= round && dealtIn.contains($0.player) }),
            clues.allSatisfy({ ($0.text?.utf8.count ?? 0) <= PlayerText.maxClueBytes })
        else { return "a clue the game did not take" }
        if room.gameRunning {
            // Every player dealt in keeps a seat until the game is over (a player who leaves keeps it as departed).
            guard dealt.allSatisfy({ id in room.seats.contains { $0.id == id } }) else {
                return "a player dealt in has no seat"
            }
            guard winner == nil else { return "a winner while the game runs" }
        }
        return phaseProblem(in: room)
    }

    /// Why what the room's phase holds is not what the rules leave there, if it is not.
    private func phaseProblem(in room: Room) -> String? {
        let alive = Set(self.alive)
        switch room.phase {
        case .describing:
            guard let speaker = currentSpeaker else { return "a turn without a speaker" }
            guard isIn(speaker) else { return "the turn of \(speaker.prefix(8)), who is out" }
            guard guesser == nil else { return "a blank guessing during a turn" }
        case .voting:
            guard !voters.isEmpty, !candidates.isEmpty, voters.allSatisfy(alive.contains),
                candidates.allSatisfy(alive.contains)
            else { return "voters or candidates who are not in" }
            let voting = Set(voters)
            let standing = Set(candidates)
            guard ballots.allSatisfy({ voting.contains($0.key) && standing.contains($0.value) && $0.key != $0.value })
            else { return "a ballot the vote would not take" }
            guard guesser == nil else { return "a blank guessing during a vote" }
        case .guessing:
            guard let guesser, roles[guesser] == .blank, out.contains(guesser) else {
                return "a guess by a player who is not the blank voted out"
            }
        case .gameOver:
            guard winner != nil else { return "a game over without a winner" }
        case .lobby:
            return "a game in the lobby"
        }
        return nil
    }
}
