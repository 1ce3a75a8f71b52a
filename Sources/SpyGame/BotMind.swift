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
    /// The words the bank pairs a word with (public: anyone can read the bank), so a bot that hears the other word
    /// of its pair described can recognise it.
    public var partners: @Sendable (String) -> [String]

    public init(
        material: @escaping @Sendable (String) -> [BotClue], category: @escaping @Sendable (String) -> String?,
        guessable: @escaping @Sendable (BankLanguage) -> [String],
        partners: @escaping @Sendable (String) -> [String] = { _ in [] }
    ) {
        self.material = material
        self.category = category
        self.guessable = guessable
        self.partners = partners
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
    ///
    /// A bot is never told its side, so it reads the table: until it has heard a clue that tells the sides apart it
    /// picks freely from its lines; once others' clues fit its word poorly (it probably holds the odd word) it blends
    /// in: with the other word's own lines once it has heard one (the bank pairs the two words), else lines that fit
    /// both words, else its lines closest to what was said (a hard bot then bluffs by echoing the table); otherwise
    /// it says what sets its word apart, so its own side can recognise it.
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
        let reading = evidence
        if reading.foreign > reading.fitting {
            if let text = blend(choices, said: said, random: &random) { return text }
            // Echoing the table is a bluff: a hard bot dares it, a normal one only once it has no line of its own.
            if choices.isEmpty || level == .hard { return improvise(said: said, random: &random, avoiding: word) }
        }
        guard !choices.isEmpty else { return categoryHint(said: said, random: &random) }
        let pool: [BotClue]
        if reading.fitting == 0 {
            pool = choices
        } else {
            let telling = choices.filter { !$0.fitsPartner }
            pool = telling.isEmpty ? choices : telling
        }
        return pool[random.next(below: pool.count)].text
    }

    /// A line for a bot that is probably outnumbered: a line of the other word of its pair once the table has said
    /// one of them, else one that fits both words, else the lines sharing the most words or characters with the
    /// clues heard; `nil` when none is close to anything said.
    func blend(_ choices: [BotClue], said: Set<String>, random: inout SplitMix64) -> String? {
        let shared = choices.filter(\.fitsPartner)
        var mimicry: [String] = []
        if let word, let partner = heardPartner {
            // The table is describing the other word of this bot's pair: describe it too.
            mimicry = partner.material.filter { clue in
                !clue.fitsPartner && !said.contains(BotMind.fold(clue.text))
                    && !TextFold.contains(clue.text, word: word)
                    && !TextFold.contains(clue.text, word: partner.word) && Rules.checkText(clue.text) == nil
            }.map(\.text)
        }
        if !mimicry.isEmpty {
            return mimicry[random.next(below: mimicry.count)]
        }
        if !shared.isEmpty { return shared[random.next(below: shared.count)].text }
        let heard = othersClues.values.flatMap { $0 }
        var best: [BotClue] = []
        var bestScore = 0.0
        for choice in choices {
            let score = BotMind.overlap([choice.text], with: heard)
            if score > bestScore {
                best = [choice]
                bestScore = score
            } else if score == bestScore && score > 0 {
                best.append(choice)
            }
        }
        return best.isEmpty ? nil : best[random.next(below: best.count)].text
    }

    /// Whether the clues heard so far suggest this bot holds the odd word: more of the other players who gave a
    /// telling clue (not a line that fits both words, not a vague hint) sound unlike its word than like it.
    public var likelyInMinority: Bool {
        let reading = evidence
        return reading.foreign > reading.fitting
    }

    /// Other players whose telling clues fit this bot's material well (`fitting`) or hardly at all (`foreign`).
    /// Players who gave only lines that fit both words, vague hints, nothing, or clues that fit in part are left out:
    /// they say little about sides.
    var evidence: (fitting: Int, foreign: Int) {
        guard let word else { return (0, 0) }
        let material = knowledge.material(word)
        guard !material.isEmpty else { return (0, 0) }
        var fitting = 0
        var foreign = 0
        for texts in othersClues.values {
            let telling = texts.filter { !isUninformative($0, material: material) }
            guard !telling.isEmpty else { continue }
            let score = BotMind.fit(telling, material: material)
            if score >= 0.75 {
                fitting += 1
            } else if score < 0.25 {
                foreign += 1
            }
        }
        return (fitting, foreign)
    }

    /// The other word of this bot's pair, once a clue heard is one of that word's telling lines: the bank pairs the
    /// two words publicly, and the table has just described the other one.
    var heardPartner: (word: String, material: [BotClue])? {
        guard let word else { return nil }
        let heard = Set(othersClues.values.joined().map(BotMind.fold))
        guard !heard.isEmpty else { return nil }
        for partner in knowledge.partners(word) {
            let material = knowledge.material(partner)
            if material.contains(where: { !$0.fitsPartner && heard.contains(BotMind.fold($0.text)) }) {
                return (partner, material)
            }
        }
        return nil
    }

    /// A line of this bot's material that fits both words, or a hint a bot gives when it has nothing better.
    func isUninformative(_ text: String, material: [BotClue]) -> Bool {
        let folded = BotMind.fold(text)
        if material.contains(where: { $0.fitsPartner && BotMind.fold($0.text) == folded }) { return true }
        return hintPhrases.contains(folded)
    }

    /// Every hint phrase a bot of this table might fall back to, folded.
    var hintPhrases: Set<String> {
        var phrases = BotMind.genericHints.english + BotMind.genericHints.chinese
        if let word, let category = knowledge.category(word) {
            phrases += BotMind.themedHints(category, chinese: true) + BotMind.themedHints(category, chinese: false)
        }
        return Set(phrases.map(BotMind.fold))
    }

    static let genericHints = (
        english: ["Something quite common", "Everyone has come across one", "Part of daily life", "Easy to spot"],
        chinese: ["很常見的東西", "大家都碰過", "日常生活裡會看到", "我覺得很好認"]
    )

    static func themedHints(_ category: String, chinese: Bool) -> [String] {
        chinese ? ["跟\(category)有關", "屬於\(category)"] : ["Think \(category)", "It is about \(category)"]
    }

    func categoryHint(said: Set<String>, random: inout SplitMix64) -> String? {
        let generic = chinese ? BotMind.genericHints.chinese : BotMind.genericHints.english
        var themed: [String] = []
        if let word, let category = knowledge.category(word) {
            themed = BotMind.themedHints(category, chinese: chinese)
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

    /// The gist of what was heard, through the word most of it shares, never a verbatim repeat: the blank's clue,
    /// and an outnumbered bot's when none of its own lines is close to the table's. Never names `avoiding`.
    func improvise(said: Set<String>, random: inout SplitMix64, avoiding ownWord: String? = nil) -> String? {
        var counts: [String: Int] = [:]
        for clue in clues where clue.player != me || ownWord == nil {
            for token in BotMind.tokens(clue.text ?? "") { counts[token, default: 0] += 1 }
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
                if !said.contains(BotMind.fold(text)) && Rules.checkText(text) == nil
                    && (ownWord.map { !TextFold.contains(text, word: $0) } ?? true)
                {
                    return text
                }
            }
        }
        return categoryHint(said: said, random: &random)
    }
}
