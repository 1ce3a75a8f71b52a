import Foundation
import SpyBank
import SpyGame
import SpyProtocol

/// What a room's bots know, saved with the room so a restarted daemon's bots carry on.
///
/// A bot learns only what a player would: its own word from its own `deal`, and the public messages.
package struct BotMemory: Codable, Equatable, Sendable {
    /// A bot's card in one game.
    package struct Card: Codable, Equatable, Sendable {
        /// Game number the card was dealt in.
        package var game: Int
        /// The word; `nil` for the blank.
        package var word: String?

        package init(game: Int, word: String?) {
            self.game = game
            self.word = word
        }
    }

    /// Each bot's card in the current game.
    package var cards: [PlayerID: Card] = [:]
    /// The vote now open, as announced.
    package var voting: ServerMessage.Voting?
    /// The blank who is guessing, as announced.
    package var guesser: PlayerID?

    package init() {}
}

/// Word knowledge the bots share: the bank's clue material, categories to hint at, and words a blank can guess.
/// All of it is the bank's, public to anyone who reads the bank; none of it is a room's hidden state.
///
/// A word may be in the bank in two languages (牛奶 of the Traditional and of the Simplified bank, each with its
/// own partner and material), so every lookup is for the languages a room deals: a bot of a zh-Hans table
/// describes the zh-Hans pair's word.
package struct BotVocabulary: Sendable {
    /// Word → the bank's pairs holding it, to find clue material written for that pair and its category. A bot's
    /// word comes from its `deal`, which carries the bank's word exactly, so no folding is needed (folding every
    /// word of a large bank would slow the host's start).
    private var pairs: [String: [WordPair]] = [:]
    /// Civilian words by language, for the blank's guess.
    private var words: [BankLanguage: [String]] = [:]

    package init(pairs: [WordPair]) {
        for pair in pairs {
            self.pairs[pair.civilian, default: []].append(pair)
            self.pairs[pair.spy, default: []].append(pair)
            words[pair.language, default: []].append(pair.civilian)
        }
    }

    /// The pairs holding `word` that a room of `language` deals; every pair holding it for `nil`.
    private func pairs(of word: String, in language: BankLanguage?) -> [WordPair] {
        guard let language else { return pairs[word] ?? [] }
        return (pairs[word] ?? []).filter { language.deals($0.language) }
    }

    package func category(of word: String, in language: BankLanguage? = nil) -> String? {
        pairs(of: word, in: language).first { !$0.category.isEmpty }?.category
    }

    /// The clue material of `word` at a table of `language`: the clues a sheet gave it, else the embedded bank's,
    /// when it pairs the word as this bank does (material written against another partner might name this pair's
    /// other word); else none.
    package func material(of word: String, in language: BankLanguage? = nil) -> [BotClue] {
        let pairs = pairs(of: word, in: language)
        for pair in pairs {
            // The sheet's own clues come first; one also listed for the other word fits both.
            let sheet = word == pair.civilian ? pair.civilianClues : pair.spyClues
            guard !sheet.isEmpty else { continue }
            let other = Set((word == pair.civilian ? pair.spyClues : pair.civilianClues).map(TextFold.key))
            return sheet.map { BotClue(text: $0, fitsPartner: other.contains(TextFold.key($0))) }
        }
        for pair in pairs {
            let clues = ClueBook.clues(for: word, in: pair)
            if !clues.isEmpty { return clues.map { BotClue(text: $0.text, fitsPartner: $0.fitsPartner) } }
        }
        return []
    }

    /// The words the bank pairs `word` with at a table of `language`.
    package func partners(of word: String, in language: BankLanguage? = nil) -> [String] {
        pairs(of: word, in: language).map { $0.civilian == word ? $0.spy : $0.civilian }
    }

    /// Words a blank might guess for a room of `language`.
    package func guessable(for language: BankLanguage) -> [String] {
        let pool = language.dealtLanguages.flatMap { words[$0] ?? [] }
        return pool.isEmpty ? ["?"] : pool
    }

    /// The same knowledge, in the form a `BotMind` reads, for a table of `language` (of any language for `nil`:
    /// for a bank whose words are each in one language only).
    package func knowledge(for language: BankLanguage?) -> BotKnowledge {
        let vocabulary = self
        return BotKnowledge(
            material: { vocabulary.material(of: $0, in: language) },
            category: { vocabulary.category(of: $0, in: language) }, guessable: { vocabulary.guessable(for: $0) },
            partners: { vocabulary.partners(of: $0, in: language) })
    }

    /// `knowledge(for: nil)`.
    package var knowledge: BotKnowledge { knowledge(for: nil) }
}

/// A move a bot makes when its time comes.
package struct BotMove: Equatable {
    /// When to make it (room clock).
    package var due: Millis
    /// The bot.
    package var bot: PlayerID
    /// The move.
    package var message: ClientMessage
}

/// Drives the bot seats of one room from what the room tells them, with moves timed through the event loop's
/// deadlines rather than sleeps.
package struct BotDriver {
    package var memory = BotMemory()
    package private(set) var pending: [BotMove] = []
    /// Obligations already scheduled (a turn, a ballot, a guess), so each is answered once.
    private var planned: Set<String> = []

    package init(memory: BotMemory = BotMemory()) {
        self.memory = memory
    }

    /// When the next move is due.
    package var nextDue: Millis? { pending.map(\.due).min() }

    /// Takes note of a message the room sent to `recipient` (a bot) or to everyone (`nil`).
    package mutating func observe(_ message: ServerMessage, recipient: PlayerID?) {
        switch message {
        case .deal(let deal):
            if let recipient { memory.cards[recipient] = .init(game: deal.game, word: deal.word) }
        case .voting(let voting):
            memory.voting = voting
        case .guessing(let guessing):
            memory.guesser = guessing.player
        case .gameOver:
            memory = BotMemory()
            pending.removeAll()
            planned.removeAll()
        default:
            break
        }
    }

    /// Moves whose time has come, removed from the queue.
    package mutating func takeDue(now: Millis) -> [BotMove] {
        let due = pending.filter { $0.due <= now }
        pending.removeAll { $0.due <= now }
        return due
    }

    /// Forgets every scheduled and answered obligation, so the next `plan` schedules afresh what the room expects
    /// (after moves that could not be saved were lost).
    package mutating func forgetPlans() {
        pending.removeAll()
        planned.removeAll()
    }

    /// Forgets a bot that left or was kicked.
    package mutating func forget(_ bot: PlayerID) {
        memory.cards[bot] = nil
        pending.removeAll { $0.bot == bot }
    }

    /// Schedules whatever the room now expects from its bots.
    package mutating func plan(
        room: Room, now: Millis, delayMs: Int, level: BotLevel, knowledge: BotKnowledge, random: inout SplitMix64
    ) {
        let view = room.view(now: now)
        func delay() -> Millis {
            delayMs == 0 ? 0 : Millis(delayMs / 2 + random.next(below: delayMs + 1))
        }
        /// Decides the move only for an obligation not yet answered: the room is planned after every event, and a
        /// decision reads the whole game's clues.
        func schedule(_ key: String, _ bot: PlayerID, _ message: () -> ClientMessage?) {
            guard !planned.contains(key), let message = message() else { return }
            planned.insert(key)
            pending.append(BotMove(due: now + delay(), bot: bot, message: message))
        }
        /// What the host has sent `bot`: its own deal, the public snapshot and every clue of the game, the open vote.
        /// Nothing else.
        func mind(_ bot: PlayerID) -> BotMind {
            var mind = BotMind(me: bot, level: level, knowledge: knowledge)
            if let card = memory.cards[bot], card.game == view.game {
                mind.observe(.deal(.init(game: card.game, word: card.word)))
            }
            mind.observe(.room(view))
            mind.recall(room.clueHistory)
            if let voting = memory.voting { mind.observe(.voting(voting)) }
            return mind
        }
        switch view.phase {
        case .describing:
            guard let turn = view.turn, room.isBot(turn) else { return }
            // A player speaks at most once in a round's pass and once in its PK, so this names the turn; the
            // snapshot's clue count cannot, as it stops growing at `Rules.cluesInView`.
            let key = "turn \(view.game).\(view.round).\(view.pk.isEmpty ? "round" : "pk").\(turn)"
            schedule(key, turn) { mind(turn).clue(random: &random).map { .clue(.init(text: $0)) } ?? .pass }
        case .voting:
            guard let voting = memory.voting else { return }
            for seat in view.seats where seat.bot && !seat.voted && voting.voters.contains(seat.id) {
                schedule("vote \(view.game).\(view.round).\(voting.pk).\(seat.id)", seat.id) {
                    mind(seat.id).vote(random: &random).map { .vote(.init(target: $0)) }
                }
            }
        case .guessing:
            guard let guesser = memory.guesser, room.isBot(guesser) else { return }
            schedule("guess \(view.game).\(guesser)", guesser) {
                .guess(.init(word: mind(guesser).guess(random: &random)))
            }
        case .lobby, .gameOver:
            return
        }
    }
}

extension BotDriver {
    /// Takes in what a room's effects tell its bots: messages to a bot seat or to everyone, and seats given up.
    package mutating func learn(from effects: [RoomEffect], in room: Room) {
        for effect in effects {
            switch effect {
            case .send(let player, let message) where room.isBot(player): observe(message, recipient: player)
            case .broadcast(let message): observe(message, recipient: nil)
            case .removed(let player, _): forget(player)
            default: break
            }
        }
    }
}
