import Foundation
import SpyProtocol

/// Plays bot-only games on a `Room` in memory, each seat driven by a `BotMind` fed only with the messages the room
/// addresses to that seat or to everyone, and counts how the games end. Pure and deterministic for a seed.
public struct BotArena {
    /// What many games came to.
    public struct Tally: Sendable, Equatable {
        public var games = 0
        public var civilianWins = 0
        public var spyWins = 0
        public var blankWins = 0
        /// Clues the bots gave (passes are not counted).
        public var clues = 0
        /// Clues containing the giver's word or its partner after folding (must stay 0).
        public var giveaways = 0
        /// Games that did not end within the move budget.
        public var unfinished = 0

        public var civilianWinRate: Double { games == 0 ? 0 : Double(civilianWins) / Double(games) }
    }

    public var players: Int
    public var level: BotLevel
    public var settings: GameSettings
    let knowledge: BotKnowledge
    let pairs: [WordPair]

    public init(players: Int, level: BotLevel, knowledge: BotKnowledge, pairs: [WordPair], settings: GameSettings) {
        self.players = players
        self.level = level
        self.knowledge = knowledge
        self.pairs = pairs
        self.settings = settings
    }

    /// Plays `games` games in one room, seeded by `seed`.
    public func play(games: Int, seed: UInt64) -> Tally {
        var tally = Tally()
        var random = SplitMix64(seed: seed ^ 0x9E37_79B9_7F4A_7C15)
        var room = Room(code: "ARENA", settings: settings, seed: seed)
        var minds: [PlayerID: BotMind] = [:]
        let now: Millis = 0
        func deliver(_ effects: [RoomEffect]) -> ServerMessage.GameOver? {
            var over: ServerMessage.GameOver?
            for effect in effects {
                switch effect {
                case .send(let player, let message):
                    minds[player]?.observe(message)
                case .broadcast(let message):
                    for id in minds.keys { minds[id]?.observe(message) }
                    if case .gameOver(let end) = message { over = end }
                default:
                    break
                }
            }
            return over
        }
        for number in 1...players {
            guard case .success(let effects) = room.apply(.join(name: "Bot \(number)", bot: false), now: now) else {
                return tally
            }
            for case .joined(let id) in effects { minds[id] = BotMind(me: id, level: level, knowledge: knowledge) }
            _ = deliver(effects)
        }
        guard let owner = room.ownerID else { return tally }
        for _ in 0..<games {
            guard case .success(let effects) = room.apply(.start(by: owner, pairs: pairs), now: now) else { break }
            var over = deliver(effects)
            var given: [PlayerID: [String]] = [:]
            var budget = 500
            while over == nil && budget > 0 {
                budget -= 1
                guard let view = minds[owner]?.view else { break }
                var moves: [(PlayerID, ClientMessage)] = []
                switch view.phase {
                case .describing:
                    if let turn = view.turn, let mind = minds[turn] {
                        let text = mind.clue(random: &random)
                        moves.append((turn, text.map { .clue(.init(text: $0)) } ?? .pass))
                        if let text { given[turn, default: []].append(text) }
                    }
                case .voting:
                    for seat in view.seats where !seat.voted {
                        if let target = minds[seat.id]?.vote(random: &random) {
                            moves.append((seat.id, .vote(.init(target: target))))
                        }
                    }
                case .guessing:
                    if let guesser = view.seats.map(\.id).first(where: { id in
                        minds[id].map { $0.word == nil && $0.dealtGame == view.game } ?? false
                    }), let guess = minds[guesser]?.guess(random: &random) {
                        moves.append((guesser, .guess(.init(word: guess))))
                    }
                case .lobby, .gameOver:
                    break
                }
                if moves.isEmpty { break }
                for (player, message) in moves where over == nil {
                    switch room.apply(.move(player, message), now: now) {
                    case .success(let effects): over = deliver(effects)
                    case .failure:
                        if case .clue = message, case .success(let effects) = room.apply(.move(player, .pass), now: now)
                        {
                            over = deliver(effects)
                        }
                    }
                }
            }
            tally.games += 1
            guard let over else {
                tally.unfinished += 1
                continue
            }
            switch over.winner {
            case .civilians: tally.civilianWins += 1
            case .spies: tally.spyWins += 1
            case .blank: tally.blankWins += 1
            }
            for (player, texts) in given {
                let word = over.reveal.first { $0.player == player }?.word
                for text in texts {
                    tally.clues += 1
                    if let word,
                        TextFold.contains(text, word: over.civilianWord) || TextFold.contains(text, word: word)
                            || TextFold.contains(text, word: over.spyWord)
                    {
                        tally.giveaways += 1
                    }
                }
            }
        }
        return tally
    }
}
