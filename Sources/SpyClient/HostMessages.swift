import SpyProtocol

/// What the client takes from a host: a message that decodes and whose every number is in range. A host is just
/// another program on the network, so its numbers are checked before any arithmetic meets them (a timer of 2^63
/// milliseconds overflowed the countdown, a spy count of 2^63 the owner's `+` key). A message out of range is
/// skipped, as one that does not decode is, and the next snapshot puts the client right.
enum HostMessages {
    /// Longest timer a host may announce: a day, far past any setting.
    static let longestTimerMillis = 86_400_000
    /// Largest game, round, seat, setting or count: no table comes near it, and sums of it cannot overflow.
    static let largestCount = 1_000_000
    /// Largest number of pairs in a bank category: three 8 MiB sheets of the shortest rows hold a few million.
    static let largestPairCount = 1_000_000_000
    /// Ping ids are echoed, never computed with: anything JSON carries exactly.
    static let largestID = 1 << 53 - 1

    static func decode(_ payload: [UInt8]) -> ServerMessage? {
        guard let message = try? WireCodec.decode(ServerMessage.self, from: payload), outOfRange(message) == nil
        else { return nil }
        return message
    }

    /// The first field out of range, by name.
    static func outOfRange(_ message: ServerMessage) -> String? {
        let count = 0...largestCount
        let timer = 0...longestTimerMillis
        let score = -largestCount...largestCount
        typealias Field = (name: String, value: Int?, range: ClosedRange<Int>)
        func check(_ fields: [Field]) -> String? {
            fields.first { _, value, range in value.map { !range.contains($0) } ?? false }?.0
        }
        switch message {
        case .welcome(let welcome):
            return check(
                [("protocol", welcome.protocol, count)]
                    + (welcome.categories ?? []).flatMap { category -> [Field] in
                        [
                            ("categories.pairs", category.pairs, 0...largestPairCount),
                            ("categories.partyPairs", category.partyPairs, 0...largestPairCount),
                        ]
                    })
        case .room(let view):
            let settings = view.settings
            return check(
                [
                    ("game", view.game, count), ("round", view.round, count), ("timerMs", view.timerMs, timer),
                    ("settings.maxPlayers", settings.maxPlayers, count), ("settings.spies", settings.spies, count),
                    ("settings.turnSeconds", settings.turnSeconds, count),
                    ("settings.voteSeconds", settings.voteSeconds, count),
                ]
                    + view.seats.flatMap { seat -> [Field] in
                        [("seats.seat", seat.seat, count), ("seats.score", seat.score, score)]
                    } + view.clues.map { clue -> Field in ("clues.round", clue.round, count) })
        case .deal(let deal): return check([("game", deal.game, count)])
        case .turn(let turn): return check([("round", turn.round, count), ("timerMs", turn.timerMs, timer)])
        case .clue(let clue): return check([("round", clue.round, count)])
        case .voting(let voting): return check([("round", voting.round, count), ("timerMs", voting.timerMs, timer)])
        case .voteResult(let result): return check([("round", result.round, count)])
        case .guessing(let guessing): return check([("timerMs", guessing.timerMs, timer)])
        case .gameOver(let over):
            return check(
                [("game", over.game, count)]
                    + over.scores.map { entry -> Field in ("scores.score", entry.score, score) })
        case .ping(let ping): return check([("id", ping.id, -largestID...largestID)])
        case .pong(let pong): return check([("id", pong.id, -largestID...largestID)])
        case .error(let error): return check([("need", error.need, count), ("have", error.have, count)])
        case .history(let history):
            return check(
                history.games.flatMap { record -> [Field] in
                    [("games.game", record.game, count)]
                        + record.players.map { ("games.players.points", $0.points, score) }
                        + record.outs.flatMap { out -> [Field] in
                            [("games.outs.round", out.round, count), ("games.outs.votes", out.votes, count)]
                        } + record.guesses.map { ("games.guesses.round", $0.round, count) }
                })
        case .wordsReport(let report):
            return check(
                [
                    ("added", report.added, count), ("total", report.total, count),
                    ("moreRefused", report.moreRefused, count),
                ]
                    + report.refused.flatMap { refusal -> [Field] in
                        [
                            ("refused.line", refusal.line, count), ("refused.through", refusal.through, count),
                            ("refused.other", refusal.other, count),
                        ]
                    })
        case .moderatorView(let view):
            return check(
                [("game", view.game, count)] + view.guesses.map { ("guesses.round", $0.round, count) })
        case .voteProgress, .bye, .claimPending, .claim, .claimDone, .owner, .guessResult, .wordList, .moderator,
            .moderatorOffer, .moderatorDeclined:
            return nil
        }
    }
}
