import SpyProtocol

extension Room {
    /// Largest counter (player numbers, games, rounds) a loaded room may hold: far beyond any real table, and far
    /// enough below `Int.max` that no later `+= 1` can overflow.
    public static let maxLoadedCounter = 1_000_000
    /// Largest score a loaded seat may hold.
    public static let maxLoadedScore = 100_000_000
    /// Latest deadline a loaded room may hold (wall ms, around the year 2500), so time arithmetic cannot overflow.
    public static let maxLoadedDeadline: Millis = 16_725_225_600_000

    /// Why a room decoded from a file cannot be trusted, or `nil` when it can. Every number the rules do arithmetic
    /// with is range-checked here, so a hand-edited or damaged file cannot make a later move trap.
    public var integrityProblem: String? {
        guard code.count == 4, code.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) }) else {
            return "bad room code"
        }
        if let rejection = Rules.validate(settings, seated: 0) { return "bad settings: \(rejection.message)" }
        let counters = 0...Room.maxLoadedCounter
        guard (1...Room.maxLoadedCounter).contains(nextPlayerNumber) else { return "nextPlayerNumber out of range" }
        guard counters.contains(gamesPlayed) else { return "gamesPlayed out of range" }
        guard seats.count <= 2 * Rules.maxTableSize, Set(seats.map(\.id)).count == seats.count else {
            return "bad seats"
        }
        // Seat ids are "p" and the number the counter gave them; a counter behind one would give it out again.
        guard
            seats.allSatisfy({ seat in
                seat.id.first == "p" && Int(seat.id.dropFirst()).map { (1..<nextPlayerNumber).contains($0) } == true
            })
        else { return "a seat id the player counter has not given out" }
        guard seats.allSatisfy({ (0...Room.maxLoadedScore).contains($0.score) }) else { return "score out of range" }
        if let deadline, !(0...Room.maxLoadedDeadline).contains(deadline) { return "deadline out of range" }
        if let wordList {
            guard wordList.count <= Rules.maxRoomPairs, wordList.allSatisfy(\.isPlayable),
                wordList.reduce(0, { $0 + Room.wordBytes($1) }) <= Rules.maxRoomWordBytes
            else { return "the room's word list is out of range" }
        }
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
        if let game {
            guard counters.contains(game.number), counters.contains(game.round) else {
                return "game number or round out of range"
            }
            guard (0...game.speakers.count).contains(game.speakerIndex) else { return "speakerIndex out of range" }
        }
        return nil
    }
}
