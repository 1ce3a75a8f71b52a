import Foundation
import SpyProtocol

/// Plays bot-only games on a `Room` in memory, each seat driven by a `BotMind` fed only with the messages the room
/// addresses to that seat or to everyone, and counts how the games end and what the bots said. Pure and
/// deterministic for a seed.
public struct BotArena {
    /// What many games came to.
    public struct Tally: Sendable, Equatable {
        public var games = 0
        public var civilianWins = 0
        public var spyWins = 0
        public var blankWins = 0
        /// Turns the bots took, passes included.
        public var turns = 0
        /// Clues the bots gave (passes are not counted).
        public var clues = 0
        /// Turns that were a real line of the bank: of the speaker's word, or of the other word of its pair for a
        /// spy blending in (for the blank, of either word).
        public var realLines = 0
        /// Turns that said nothing about any word: a pass, a stock phrase, the category's name (must stay 0).
        public var filler = 0
        /// Clues containing the giver's word or its partner after folding (must stay 0).
        public var giveaways = 0
        /// Spies dealt, and those voted out in round 1.
        public var spies = 0
        public var spiesOutInRoundOne = 0
        /// Games a spy spoke first in, and those where that spy was voted out in round 1.
        public var firstSpeakerSpies = 0
        public var firstSpeakerSpiesOutInRoundOne = 0
        /// Ballots civilians cast (ties' second votes included), and those naming a spy: how well civilians read
        /// the table, with far less chance in it than who wins.
        public var civilianBallots = 0
        public var civilianBallotsOnSpies = 0
        /// Games in which a civilian said a line of the spies' word that does not fit its own.
        public var sideSwitches = 0
        /// Games that did not end within `roundCap` rounds.
        public var unfinished = 0
        /// The most rounds a finished game took.
        public var longestGame = 0

        public var civilianWinRate: Double { ratio(civilianWins, games) }
        public var realLineShare: Double { ratio(realLines, turns) }
        public var fillerShare: Double { ratio(filler, turns) }
        /// Chance that a spy is voted out in round 1: the base rate.
        public var spyOutInRoundOneRate: Double { ratio(spiesOutInRoundOne, spies) }
        /// Chance that a spy who spoke first is voted out in round 1.
        public var firstSpeakerSpyOutRate: Double { ratio(firstSpeakerSpiesOutInRoundOne, firstSpeakerSpies) }
        public var sideSwitchRate: Double { ratio(sideSwitches, games) }
        public var civilianBallotOnSpyRate: Double { ratio(civilianBallotsOnSpies, civilianBallots) }

        func ratio(_ part: Int, _ whole: Int) -> Double { whole == 0 ? 0 : Double(part) / Double(whole) }
    }

    /// Rounds after which a game counts as unfinished.
    public static let roundCap = 30

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
        var heard: [ClueView] = []
        var results: [ServerMessage.VoteResult] = []
        let now: Millis = 0
        func deliver(_ effects: [RoomEffect]) -> ServerMessage.GameOver? {
            var over: ServerMessage.GameOver?
            for effect in effects {
                switch effect {
                case .send(let player, let message):
                    minds[player]?.observe(message)
                case .broadcast(let message):
                    for id in minds.keys { minds[id]?.observe(message) }
                    switch message {
                    case .gameOver(let end): over = end
                    case .clue(let clue): heard.append(clue)
                    case .voteResult(let result): results.append(result)
                    default: break
                    }
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
            heard = []
            results = []
            guard case .success(let effects) = room.apply(.start(by: owner, pairs: pairs), now: now) else { break }
            var over = deliver(effects)
            var rounds = 0
            while over == nil {
                guard let view = minds[owner]?.view, view.round <= Self.roundCap else { break }
                rounds = view.round
                let moves = nextMoves(view, minds: minds, random: &random)
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
                // The next game starts from the lobby state a finished game leaves behind.
                room = Room(code: "ARENA", settings: settings, seed: random.next())
                minds = [:]
                for number in 1...players {
                    guard case .success(let effects) = room.apply(.join(name: "Bot \(number)", bot: false), now: now)
                    else { return tally }
                    for case .joined(let id) in effects {
                        minds[id] = BotMind(me: id, level: level, knowledge: knowledge)
                    }
                    _ = deliver(effects)
                }
                continue
            }
            tally.longestGame = max(tally.longestGame, rounds)
            switch over.winner {
            case .civilians: tally.civilianWins += 1
            case .spies: tally.spyWins += 1
            case .blank: tally.blankWins += 1
            }
            count(over, clues: heard, results: results, minds: minds, into: &tally)
        }
        return tally
    }

    /// The moves the phase waits for, from the minds concerned.
    func nextMoves(_ view: RoomView, minds: [PlayerID: BotMind], random: inout SplitMix64) -> [(
        PlayerID, ClientMessage
    )] {
        var moves: [(PlayerID, ClientMessage)] = []
        switch view.phase {
        case .describing:
            if let turn = view.turn, let mind = minds[turn] {
                let text = mind.clue(random: &random)
                moves.append((turn, text.map { .clue(.init(text: $0)) } ?? .pass))
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
        return moves
    }

    /// Adds what one finished game's clues and votes show to the tally.
    func count(
        _ over: ServerMessage.GameOver, clues: [ClueView], results: [ServerMessage.VoteResult],
        minds: [PlayerID: BotMind], into tally: inout Tally
    ) {
        func lines(_ word: String) -> [String: Bool] {
            Dictionary(
                knowledge.material(word).map { (BotMind.fold($0.text), $0.fitsPartner) },
                uniquingKeysWith: { $0 && $1 })
        }
        let civilianLines = lines(over.civilianWord)
        let spyLines = lines(over.spyWord)
        let roles = Dictionary(over.reveal.map { ($0.player, $0.role) }, uniquingKeysWith: { first, _ in first })
        let outInRoundOne = Set(results.filter { $0.round == 1 }.compactMap(\.out))
        let spies = roles.filter { $0.value == .spy }.map(\.key)
        tally.spies += spies.count
        tally.spiesOutInRoundOne += spies.filter(outInRoundOne.contains).count
        if let first = clues.first, roles[first.player] == .spy {
            tally.firstSpeakerSpies += 1
            if outInRoundOne.contains(first.player) { tally.firstSpeakerSpiesOutInRoundOne += 1 }
        }
        for result in results {
            for entry in result.tally {
                let civilians = entry.voters.filter { roles[$0] == .civilian }.count
                tally.civilianBallots += civilians
                if roles[entry.player] == .spy { tally.civilianBallotsOnSpies += civilians }
            }
        }
        var switched = false
        for clue in clues {
            tally.turns += 1
            guard let text = clue.text else {
                tally.filler += 1
                continue
            }
            tally.clues += 1
            if TextFold.contains(text, word: over.civilianWord) || TextFold.contains(text, word: over.spyWord) {
                tally.giveaways += 1
            }
            if minds[clue.player]?.isFiller(text) ?? false { tally.filler += 1 }
            let folded = BotMind.fold(text)
            let own = civilianLines[folded] != nil
            let other = spyLines[folded] != nil
            switch roles[clue.player] {
            case .civilian:
                if own { tally.realLines += 1 }
                if !own && spyLines[folded] == false { switched = true }
            case .spy:
                if other || own { tally.realLines += 1 }
            case .blank:
                if own || other { tally.realLines += 1 }
            case nil:
                break
            }
        }
        if switched { tally.sideSwitches += 1 }
    }
}
