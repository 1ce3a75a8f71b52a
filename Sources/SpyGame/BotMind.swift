import Foundation
import SpyProtocol

/// How well bots play: `easy` hints at the category and votes at random, `normal` describes from clue material and
/// votes for the least consistent player, `hard` also never repeats a pattern of its own earlier clues.
public enum BotLevel: String, Sendable, CaseIterable, Codable {
    case easy, normal, hard
}

/// One clue phrase a bot may say about a word, and whether it is also true of the word's partner.
public struct BotClue: Sendable, Hashable {
    public var text: String
    public var fitsPartner: Bool

    public init(text: String, fitsPartner: Bool) {
        self.text = text
        self.fitsPartner = fitsPartner
    }
}

/// What every bot may know without being dealt it: the bank's clue material and categories, looked up by word.
public struct BotKnowledge: Sendable {
    /// The clue material of a word (empty when the bank has none).
    public var material: @Sendable (String) -> [BotClue]
    /// The category of a word's pair, for the category hints bots fall back to.
    public var category: @Sendable (String) -> String?
    /// Words a blank may guess, for a room dealing pairs of this language.
    public var guessable: @Sendable (BankLanguage) -> [String]

    public init(
        material: @escaping @Sendable (String) -> [BotClue], category: @escaping @Sendable (String) -> String?,
        guessable: @escaping @Sendable (BankLanguage) -> [String]
    ) {
        self.material = material
        self.category = category
        self.guessable = guessable
    }
}

/// A bot seat's reasoning, fed only with the messages the host sends that seat (its `deal`, the public `room`,
/// `clue` and `voting` messages), never with the room's hidden state: what it decides is what a player could.
public struct BotMind {
    public let me: PlayerID
    public let level: BotLevel
    let knowledge: BotKnowledge
    /// The bot's word, from its own `deal`; `nil` for the blank or before a deal.
    public private(set) var word: String?
    public private(set) var dealtGame: Int?
    /// The latest public snapshot.
    public private(set) var view: RoomView?
    /// Clues heard this game, oldest first (snapshots and `clue` messages, whichever came last).
    public private(set) var clues: [ClueView] = []
    public private(set) var voting: ServerMessage.Voting?

    public init(me: PlayerID, level: BotLevel, knowledge: BotKnowledge) {
        self.me = me
        self.level = level
        self.knowledge = knowledge
    }

    /// Takes note of one message the host sent this seat.
    public mutating func observe(_ message: ServerMessage) {
        switch message {
        case .deal(let deal):
            word = deal.word
            dealtGame = deal.game
            clues = []
            voting = nil
        case .room(let room):
            view = room
            clues = room.clues
        case .clue(let clue):
            clues.append(clue)
        case .voting(let voting):
            self.voting = voting
        default:
            break
        }
    }

    var language: BankLanguage { view?.settings.language ?? .both }

    var chinese: Bool {
        if let word { return word.unicodeScalars.contains { $0.value >= 0x2E80 } }
        if let text = clues.compactMap(\.text).first { return text.unicodeScalars.contains { $0.value >= 0x2E80 } }
        return language != .en
    }

    /// Texts of the clues others gave, by player.
    var othersClues: [PlayerID: [String]] {
        var result: [PlayerID: [String]] = [:]
        for clue in clues where clue.player != me {
            if let text = clue.text { result[clue.player, default: []].append(text) }
        }
        return result
    }

    // MARK: Describing

    /// The clue to give now; `nil` to pass (nothing safe to say).
    public func clue(random: inout SplitMix64) -> String? {
        let said = Set(clues.compactMap(\.text).map(BotMind.fold))
        if level == .easy { return categoryHint(said: said, random: &random) }
        guard let word else { return improvise(said: said, random: &random) }
        let mine = Set(clues.filter { $0.player == me }.compactMap(\.text).map(BotMind.tokens).joined())
        var choices = knowledge.material(word).filter { clue in
            !said.contains(BotMind.fold(clue.text)) && !TextFold.contains(clue.text, word: word)
                && Rules.checkText(clue.text) == nil
        }
        if level == .hard {
            let fresh = choices.filter { BotMind.tokens($0.text).isDisjoint(with: mine) }
            if !fresh.isEmpty { choices = fresh }
        }
        guard !choices.isEmpty else { return categoryHint(said: said, random: &random) }
        // Someone whose clues do not fit this word's material: maybe the bot holds the other word. Blend in.
        let preferred = choices.filter { $0.fitsPartner == likelyInMinority }
        let pool = preferred.isEmpty ? choices : preferred
        return pool[random.next(below: pool.count)].text
    }

    /// Whether most of the other players' clues fit this bot's material poorly (it probably holds the spy word).
    public var likelyInMinority: Bool {
        guard let word else { return false }
        let material = knowledge.material(word)
        guard !material.isEmpty else { return false }
        let others = othersClues
        guard others.count >= 2 else { return false }
        let scores = others.values.map { texts in BotMind.fit(texts, material: material) }
        let fitting = scores.filter { $0 > 0 }.count
        return fitting * 2 < scores.count
    }

    func categoryHint(said: Set<String>, random: inout SplitMix64) -> String? {
        let generic =
            chinese
            ? ["很常見的東西", "大家都碰過", "日常生活裡會看到", "我覺得很好認"]
            : ["Something quite common", "Everyone has come across one", "Part of daily life", "Easy to spot"]
        var themed: [String] = []
        if let word, let category = knowledge.category(word) {
            themed = chinese ? ["跟\(category)有關", "屬於\(category)"] : ["Think \(category)", "It is about \(category)"]
        }
        func safe(_ phrases: [String]) -> [String] {
            phrases.filter { phrase in
                !said.contains(BotMind.fold(phrase)) && (word.map { !TextFold.contains(phrase, word: $0) } ?? true)
            }
        }
        let safeThemed = safe(themed)
        let choices = safeThemed.isEmpty ? safe(generic) : safeThemed
        guard !choices.isEmpty else { return nil }
        return choices[random.next(below: choices.count)]
    }

    /// The blank's clue: the gist of what was heard, through the word most of it shares, never a verbatim repeat.
    func improvise(said: Set<String>, random: inout SplitMix64) -> String? {
        var counts: [String: Int] = [:]
        for text in clues.compactMap(\.text) {
            for token in BotMind.tokens(text) { counts[token, default: 0] += 1 }
        }
        let ranked = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map(\.key)
        let templates =
            chinese
            ? ["跟「%@」有點關係", "會想到「%@」", "有「%@」的感覺"]
            : ["Something to do with %@", "Makes me think of %@", "A bit %@"]
        let start = random.next(below: templates.count)
        for token in ranked.prefix(4) {
            for offset in 0..<templates.count {
                let text = templates[(start + offset) % templates.count].replacingOccurrences(of: "%@", with: token)
                if !said.contains(BotMind.fold(text)) && Rules.checkText(text) == nil { return text }
            }
        }
        return categoryHint(said: said, random: &random)
    }

    // MARK: Voting

    /// Whom to vote for in the open vote; `nil` when there is no one this bot may vote for.
    public func vote(random: inout SplitMix64) -> PlayerID? {
        guard let voting, voting.voters.contains(me) else { return nil }
        let choices = voting.candidates.filter { $0 != me }
        guard !choices.isEmpty else { return nil }
        if level == .easy { return choices[random.next(below: choices.count)] }
        let scores = consistency(of: choices)
        let lowest = scores.values.min() ?? 0
        let least = choices.filter { scores[$0] == lowest }
        return least[random.next(below: least.count)]
    }

    /// How consistent each player's clues are with this bot's picture of the civilians' word: its own material when
    /// it seems to hold the majority word, else the clues heard (the crowd), so a likely spy votes with the crowd for
    /// a civilian rather than for a player who sounds like itself.
    public func consistency(of players: [PlayerID]) -> [PlayerID: Double] {
        let others = othersClues
        let material = word.map(knowledge.material) ?? []
        let useMaterial = !material.isEmpty && !likelyInMinority
        var scores: [PlayerID: Double] = [:]
        for player in players {
            let texts = others[player] ?? []
            var crowd: [String] = []
            for (other, otherTexts) in others where other != player { crowd += otherTexts }
            let crowdFit = BotMind.overlap(texts, with: crowd)
            if useMaterial {
                scores[player] = BotMind.fit(texts, material: material) * 2 + crowdFit
            } else if !material.isEmpty {
                // A likely spy: the players whose clues fit its own material are its side; the rest, civilians.
                let mine = BotMind.fit(texts, material: material)
                scores[player] = mine > 0 ? 100 + mine : crowdFit
            } else {
                scores[player] = crowdFit
            }
        }
        return scores
    }

    // MARK: Guessing

    /// The blank's guess: the word whose material best fits the clues heard.
    public func guess(random: inout SplitMix64) -> String {
        let words = knowledge.guessable(language)
        guard !words.isEmpty else { return "?" }
        if level == .easy { return words[random.next(below: words.count)] }
        let heard = clues.compactMap(\.text)
        var best: [String] = []
        var bestScore = -1.0
        for candidate in words {
            let score = BotMind.overlap(heard, with: knowledge.material(candidate).map(\.text))
            if score > bestScore {
                best = [candidate]
                bestScore = score
            } else if score == bestScore {
                best.append(candidate)
            }
        }
        return best[random.next(below: best.count)]
    }

    // MARK: Scoring

    static func fold(_ text: String) -> String { TextFold.key(text).filter { !$0.isWhitespace } }

    static let stopWords: Set<String> = [
        "the", "and", "for", "with", "you", "your", "are", "its", "has", "from", "that", "this", "not", "but", "one",
        "can", "all", "something", "makes", "think", "bit", "about",
    ]

    /// Words (three letters or more, not the commonest) and CJK ideographs of a text, folded.
    static func tokens(_ text: String) -> Set<String> {
        var result: Set<String> = []
        var latin = ""
        func flush() {
            if latin.count >= 3 && !stopWords.contains(latin) { result.insert(latin) }
            latin = ""
        }
        for character in TextFold.key(text) {
            if character.unicodeScalars.contains(where: { $0.value >= 0x2E80 }) {
                flush()
                if character.isLetter { result.insert(String(character)) }
            } else if character.isLetter || character.isNumber {
                latin.append(character)
            } else {
                flush()
            }
        }
        flush()
        return result
    }

    /// How well texts fit material: an exact clue of the material counts most (less for one that fits both words),
    /// then shared words or characters; averaged over the texts.
    static func fit(_ texts: [String], material: [BotClue]) -> Double {
        guard !texts.isEmpty else { return 0 }
        let exact = Dictionary(material.map { (fold($0.text), $0.fitsPartner) }, uniquingKeysWith: { $0 && $1 })
        let materialTokens = Set(material.map { tokens($0.text) }.joined())
        var total = 0.0
        for text in texts {
            if let fitsPartner = exact[fold(text)] {
                total += fitsPartner ? 1 : 3
                continue
            }
            let own = tokens(text)
            if !own.isEmpty { total += Double(own.intersection(materialTokens).count) / Double(own.count) }
        }
        return total / Double(texts.count)
    }

    /// Shared words or characters between texts and others, as a share of the texts' own.
    static func overlap(_ texts: [String], with others: [String]) -> Double {
        let own = Set(texts.map(tokens).joined())
        guard !own.isEmpty else { return 0 }
        let theirs = Set(others.map(tokens).joined())
        return Double(own.intersection(theirs).count) / Double(own.count)
    }
}
