import SpyProtocol

/// The history of the evening: a record of every finished game, made at its end from what the game kept.
extension Room {
    /// The finished games, oldest first.
    public var records: [GameRecord] { history ?? [] }

    /// The `history` messages that carry every record, a bounded number each so that each fits a frame; none
    /// before the first game ends.
    func historyMessages() -> [ServerMessage] {
        let records = self.records
        return stride(from: 0, to: records.count, by: Rules.historyGamesPerMessage).map { start in
            let end = min(start + Rules.historyGamesPerMessage, records.count)
            return .history(.init(games: Array(records[start..<end])))
        }
    }

    /// The record of `game`, which just ended with `winner`; `pointsBefore` are the scores before its points.
    func record(of game: Game, winner: Winner, pointsBefore: [PlayerID: Int]) -> GameRecord {
        let players = game.dealt.compactMap { id -> GameRecord.Player? in
            guard let role = game.roles[id] else { return nil }
            let seat = seats.first { $0.id == id }
            let points = seat.map { $0.score - (pointsBefore[id] ?? $0.score) } ?? 0
            return GameRecord.Player(
                player: id, name: seat?.name ?? id, role: role, points: points, survived: game.isIn(id))
        }
        return GameRecord(
            game: game.number, civilianWord: game.civilianWord, spyWord: game.spyWord, winner: winner,
            players: players, outs: game.outs ?? [], guesses: game.guesses ?? [])
    }

    mutating func recordInHistory(_ record: GameRecord) {
        var records = history ?? []
        records.append(record)
        if records.count > Rules.maxHistoryGames { records.removeFirst(records.count - Rules.maxHistoryGames) }
        history = records
    }
}

extension Game {
    mutating func noteOut(_ out: GameRecord.Out) {
        outs = (outs ?? []) + [out]
    }
}
