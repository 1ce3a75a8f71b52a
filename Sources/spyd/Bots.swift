import Foundation
import SpyGame
import SpyProtocol

/// What a room's bots know, saved with the room so a restarted daemon's bots carry on.
///
/// A bot learns only what a player would: its own word from its own `deal`, and the public messages.
struct BotMemory: Codable, Equatable {
    /// A bot's card in one game.
    struct Card: Codable, Equatable {
        /// Game number the card was dealt in.
        var game: Int
        /// The word; `nil` for the blank.
        var word: String?
    }

    /// Each bot's card in the current game.
    var cards: [PlayerID: Card] = [:]
    /// The vote now open, as announced.
    var voting: ServerMessage.Voting?
    /// The blank who is guessing, as announced.
    var guesser: PlayerID?
}

/// Word knowledge the bots share: categories to hint at, and words a blank can guess.
struct BotVocabulary: Sendable {
    /// Word → its pair's category. A bot's word comes from its `deal`, which carries the bank's word exactly, so no
    /// folding is needed (folding every word of a large bank would slow the host's start).
    private var categories: [String: String] = [:]
    /// Civilian words by language, for the blank's guess.
    private var words: [BankLanguage: [String]] = [:]

    init(pairs: [WordPair]) {
        for pair in pairs {
            if !pair.category.isEmpty {
                categories[pair.civilian] = pair.category
                categories[pair.spy] = pair.category
            }
            words[pair.language, default: []].append(pair.civilian)
        }
    }

    func category(of word: String) -> String? { categories[word] }

    /// Words a blank might guess for a room of `language`.
    func guessable(for language: BankLanguage) -> [String] {
        let pool = language == .both ? words.values.flatMap { $0 } : words[language] ?? []
        return pool.isEmpty ? ["?"] : pool
    }
}

/// A move a bot makes when its time comes.
struct BotMove: Equatable {
    /// When to make it (room clock).
    var due: Millis
    /// The bot.
    var bot: PlayerID
    /// The move.
    var message: ClientMessage
}

/// Drives the bot seats of one room from what the room tells them, with moves timed through the event loop's
/// deadlines rather than sleeps.
struct BotDriver {
    var memory = BotMemory()
    private(set) var pending: [BotMove] = []
    /// Obligations already scheduled (a turn, a ballot, a guess), so each is answered once.
    private var planned: Set<String> = []

    init(memory: BotMemory = BotMemory()) {
        self.memory = memory
    }

    /// When the next move is due.
    var nextDue: Millis? { pending.map(\.due).min() }

    /// Takes note of a message the room sent to `recipient` (a bot) or to everyone (`nil`).
    mutating func observe(_ message: ServerMessage, recipient: PlayerID?) {
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
    mutating func takeDue(now: Millis) -> [BotMove] {
        let due = pending.filter { $0.due <= now }
        pending.removeAll { $0.due <= now }
        return due
    }

    /// Forgets every scheduled and answered obligation, so the next `plan` schedules afresh what the room expects
    /// (after moves that could not be saved were lost).
    mutating func forgetPlans() {
        pending.removeAll()
        planned.removeAll()
    }

    /// Forgets a bot that left or was kicked.
    mutating func forget(_ bot: PlayerID) {
        memory.cards[bot] = nil
        pending.removeAll { $0.bot == bot }
    }

    /// Schedules whatever the room now expects from its bots.
    mutating func plan(
        room: Room, now: Millis, delayMs: Int, vocabulary: BotVocabulary, random: inout SplitMix64
    ) {
        let view = room.view(now: now)
        func delay() -> Millis {
            delayMs == 0 ? 0 : Millis(delayMs / 2 + random.next(below: delayMs + 1))
        }
        func schedule(_ key: String, _ bot: PlayerID, _ message: ClientMessage) {
            guard planned.insert(key).inserted else { return }
            pending.append(BotMove(due: now + delay(), bot: bot, message: message))
        }
        switch view.phase {
        case .describing:
            guard let turn = view.turn, room.isBot(turn) else { return }
            let key = "turn \(view.game).\(view.round).\(view.clues.count).\(turn)"
            if view.settings.clueMode == .spoken {
                schedule(key, turn, .pass)
            } else {
                let card = memory.cards[turn].flatMap { $0.game == view.game ? $0 : nil }
                let text = BotDriver.clue(
                    word: card?.word, language: view.settings.language, vocabulary: vocabulary, random: &random)
                schedule(key, turn, text.map { .clue(.init(text: $0)) } ?? .pass)
            }
        case .voting:
            guard let voting = memory.voting else { return }
            for seat in view.seats where seat.bot && !seat.voted && voting.voters.contains(seat.id) {
                let choices = voting.candidates.filter { $0 != seat.id }
                guard !choices.isEmpty else { continue }
                let target = choices[random.next(below: choices.count)]
                schedule(
                    "vote \(view.game).\(view.round).\(voting.pk).\(seat.id)", seat.id, .vote(.init(target: target)))
            }
        case .guessing:
            guard let guesser = memory.guesser, room.isBot(guesser) else { return }
            let words = vocabulary.guessable(for: view.settings.language)
            schedule(
                "guess \(view.game).\(guesser)", guesser, .guess(.init(word: words[random.next(below: words.count)])))
        case .lobby, .gameOver:
            return
        }
    }

    /// A short clue hinting at the word's category, or a generic phrase; never containing the word. `nil` when
    /// every phrase would give the word away (the bot then passes).
    static func clue(word: String?, language: BankLanguage, vocabulary: BotVocabulary, random: inout SplitMix64)
        -> String?
    {
        let chinese: Bool
        if let word {
            chinese = word.unicodeScalars.contains { $0.value >= 0x2E80 }
        } else {
            chinese = language != .en
        }
        let generic =
            chinese
            ? ["很常見的東西", "大家都碰過", "日常生活裡會看到", "我覺得很好認"]
            : ["Something quite common", "Everyone has come across one", "Part of daily life", "Easy to spot"]
        var themed: [String] = []
        if let word, let category = vocabulary.category(of: word) {
            themed = chinese ? ["跟\(category)有關", "屬於\(category)"] : ["Think \(category)", "It is about \(category)"]
        }
        func safe(_ phrases: [String]) -> [String] {
            phrases.filter { phrase in word.map { !TextFold.contains(phrase, word: $0) } ?? true }
        }
        let safeThemed = safe(themed)
        let choices = safeThemed.isEmpty ? safe(generic) : safeThemed
        guard !choices.isEmpty else { return nil }
        return choices[random.next(below: choices.count)]
    }
}
