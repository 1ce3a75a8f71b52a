import Foundation
import SpyProtocol

/// How well bots play: `easy` says plain lines of its word and votes at random, `normal` reads the table, blends in
/// when it finds itself outnumbered and hesitates among its likeliest suspects, `hard` votes firmly for a player
/// who stands out, gives the least away when it must say something telling before it knows its side, bluffs with
/// the other word's lines as soon as it is outnumbered and avoids repeating a pattern of its own earlier clues.
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
    /// The category of a word's pair, so a bot recognises a category named as a clue for the filler it is.
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
/// `clue` and `voting` messages) and the game's public clue record, never with the room's hidden state: what it
/// decides is what a player could.
public struct BotMind {
    public let me: PlayerID
    public let level: BotLevel
    let knowledge: BotKnowledge
    /// The bot's word, from its own `deal`; `nil` for the blank or before a deal.
    public private(set) var word: String?
    public private(set) var dealtGame: Int?
    /// The latest public snapshot.
    public private(set) var view: RoomView?
    /// Every clue heard this game, oldest first: a snapshot carries only the latest ones, so what came before it is
    /// kept from the `clue` messages heard or from `recall`.
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
            if let view, view.game != room.game { clues = [] }
            view = room
            clues = BotMind.merge(clues, snapshot: room.clues)
        case .clue(let clue):
            clues.append(clue)
        case .voting(let voting):
            self.voting = voting
        default:
            break
        }
    }

    /// Takes the whole public clue record of the game (every clue was broadcast to the table when given), for a
    /// mind built afresh from a snapshot that carries only the latest clues.
    public mutating func recall(_ history: [ClueView]) {
        clues = history
    }

    /// The clues known so far joined with a snapshot's: a full snapshot is the tail of the record, so what was
    /// heard before its first clue is kept.
    static func merge(_ known: [ClueView], snapshot: [ClueView]) -> [ClueView] {
        guard snapshot.count >= Rules.cluesInView, !known.isEmpty else { return snapshot }
        for start in max(0, known.count - snapshot.count)..<known.count {
            let overlap = known.count - start
            if Array(known[start...]) == Array(snapshot.prefix(overlap)) {
                return Array(known[..<start]) + snapshot
            }
        }
        return snapshot
    }

    var language: BankLanguage { view?.settings.language ?? .both }

    /// Texts of the clues others gave, by player (passes left out).
    var othersClues: [PlayerID: [String]] {
        var result: [PlayerID: [String]] = [:]
        for clue in clues where clue.player != me {
            if let text = clue.text { result[clue.player, default: []].append(text) }
        }
        return result
    }

    /// Lines of `word`'s material the room would take from this bot, and that say something about a word: a line
    /// that is only the category's name or a stock phrase (a sheet's clue column may hold one) is filler.
    func usable(_ material: [BotClue], avoiding words: [String]) -> [BotClue] {
        let filler = fillerPhrases
        return material.filter { clue in
            Rules.checkText(clue.text) == nil && !words.contains { TextFold.contains(clue.text, word: $0) }
                && !filler.contains(BotMind.fold(clue.text))
        }
    }

    // MARK: Describing

    /// The clue to give now; `nil` to pass, only when the bank has no line at all for this bot's word.
    ///
    /// A bot is never told its side, so it reads the table. Whoever opens the game says a line that fits both
    /// words, giving nothing away. Until it has heard a clue that tells the sides apart it picks freely from its
    /// lines; once it has heard its own word described it says what sets its word apart, so its side can recognise
    /// it; once more players than there are spies described something else (`likelyInMinority`) it blends in, with the
    /// other word's lines when it knows them, else lines that fit both words, else its lines closest to the table's.
    /// With nothing new left it repeats one of its own earlier lines rather than fall silent.
    public func clue(random: inout SplitMix64) -> String? {
        guard let word else { return blankClue(random: &random) }
        let said = Set(clues.compactMap(\.text).map(BotMind.fold))
        let material = usable(knowledge.material(word), avoiding: [word])
        var choices = material.filter { !said.contains(BotMind.fold($0.text)) }
        let opening = clues.isEmpty
        if level == .easy {
            let shared = choices.filter(\.fitsPartner)
            let pool = opening && !shared.isEmpty ? shared : choices
            return pool.isEmpty ? repeatLine(of: material, random: &random) : pool[random.next(below: pool.count)].text
        }
        if level == .hard {
            let mine = Set(clues.filter { $0.player == me }.compactMap(\.text).map(BotMind.tokens).joined())
            let fresh = choices.filter { BotMind.tokens($0.text).isDisjoint(with: mine) }
            if !fresh.isEmpty { choices = fresh }
        }
        if likelyInMinority, let text = blend(choices, said: said, random: &random) { return text }
        guard !choices.isEmpty else { return repeatLine(of: material, random: &random) }
        let shared = choices.filter(\.fitsPartner)
        let telling = choices.filter { !$0.fitsPartner }
        // Until someone has described its word, a bot stays vague: what sets its word apart might be what gives it
        // away as the spy. Once its word was described, it says what sets it apart, for its side to recognise.
        let pool: [BotClue]
        if opening || evidence.fitting == 0 {
            pool = shared.isEmpty ? (level == .hard ? closestToPartner(choices) : choices) : shared
        } else {
            pool = telling.isEmpty ? choices : telling
        }
        return pool[random.next(below: pool.count)].text
    }

    /// The lines that share the most with the other word of the pair: a hard bot that must say something telling
    /// before it knows its side says what gives the least away, whichever side it is on.
    func closestToPartner(_ choices: [BotClue]) -> [BotClue] {
        guard let partner = likeliestPartner else { return choices }
        let scored = choices.map { ($0, BotMind.fit([$0.text], material: partner.material)) }
        let best = scored.map(\.1).max() ?? 0
        return best > 0 ? scored.filter { $0.1 == best }.map(\.0) : choices
    }

    /// One of this bot's own earlier lines again, when every line of its word has been said: a person who has run
    /// out says what they said before rather than something empty. Else any line of its word; `nil` without one.
    func repeatLine(of material: [BotClue], random: inout SplitMix64) -> String? {
        let lines = Set(material.map { BotMind.fold($0.text) })
        let own = clues.filter { $0.player == me }.compactMap(\.text).filter { lines.contains(BotMind.fold($0)) }
        if !own.isEmpty { return own[random.next(below: own.count)] }
        let mine = clues.filter { $0.player == me }.compactMap(\.text)
        if !mine.isEmpty { return mine[random.next(below: mine.count)] }
        return material.isEmpty ? nil : material[random.next(below: material.count)].text
    }

    /// A line for a bot that is probably outnumbered: a line of the other word of its pair (once the table has said
    /// one of them; a hard bot dares it from the bank's pairing alone), else one that fits both words, else the
    /// lines sharing the most words or characters with the clues heard; `nil` when none is close to anything said.
    func blend(_ choices: [BotClue], said: Set<String>, random: inout SplitMix64) -> String? {
        guard let word else { return nil }
        let partner = heardPartner ?? (level == .hard ? likeliestPartner : nil)
        if let partner {
            // The table is describing the other word of this bot's pair: describe it too.
            let mimicry = usable(partner.material, avoiding: [word, partner.word]).filter { clue in
                !clue.fitsPartner && !said.contains(BotMind.fold(clue.text))
            }
            if !mimicry.isEmpty { return mimicry[random.next(below: mimicry.count)].text }
        }
        let shared = choices.filter(\.fitsPartner)
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
        if best.isEmpty, let partner {
            // Nothing fresh of the other word and nothing of its own close to the table: repeat a bluff it made.
            let bluffs = Set(partner.material.map { BotMind.fold($0.text) })
            let own = clues.filter { $0.player == me }.compactMap(\.text).filter { bluffs.contains(BotMind.fold($0)) }
            if !own.isEmpty { return own[random.next(below: own.count)] }
        }
        return best.isEmpty ? nil : best[random.next(below: best.count)].text
    }

    /// The blank's clue: a line of the word it would guess from what it heard, one that fits both words of that
    /// word's pair first (the blank cannot know which side it is echoing); its own earlier line when none is left.
    func blankClue(random: inout SplitMix64) -> String? {
        guard !clues.compactMap(\.text).isEmpty else { return nil }
        let said = Set(clues.compactMap(\.text).map(BotMind.fold))
        let guessed = guess(random: &random)
        let material = usable(knowledge.material(guessed), avoiding: [guessed])
        let fresh = material.filter { !said.contains(BotMind.fold($0.text)) }
        let shared = fresh.filter(\.fitsPartner)
        let pool = shared.isEmpty ? fresh : shared
        if !pool.isEmpty { return pool[random.next(below: pool.count)].text }
        let mine = clues.filter { $0.player == me }.compactMap(\.text)
        return mine.isEmpty ? nil : mine[random.next(below: mine.count)]
    }

    /// Whether the clues heard so far suggest this bot holds the odd word: at least two other players, more than
    /// there are spies and more than those whose clues fit its own word, gave telling clues that fit the other word
    /// better (or its own hardly at all). Players still in and players out count alike: a clue is evidence whoever
    /// gave it. As many odd voices as there are spies are what the spies sound like to a civilian, however few
    /// players are left, so they are never enough.
    public var likelyInMinority: Bool {
        let reading = evidence
        let spies = view?.settings.spies ?? 1
        return reading.foreign >= max(2, spies + 1) && reading.foreign > reading.fitting
    }

    /// Other players whose telling clues fit this bot's material well (`fitting`) or fit the other word of its pair
    /// better, or its own word hardly at all (`foreign`). Players who gave only lines that fit both words, filler,
    /// nothing, or clues that fit in part are left out: they say little about sides.
    var evidence: (fitting: Int, foreign: Int) {
        guard let word else { return (0, 0) }
        let material = knowledge.material(word)
        guard !material.isEmpty else { return (0, 0) }
        let partners = knowledge.partners(word).map(knowledge.material).filter { !$0.isEmpty }
        let shared = sharedLines(material)
        var fitting = 0
        var foreign = 0
        for texts in othersClues.values {
            let telling = texts.filter { !isUninformative($0, shared: shared) }
            guard !telling.isEmpty else { continue }
            let own = BotMind.fit(telling, material: material)
            let other = partners.map { BotMind.fit(telling, material: $0) }.max() ?? 0
            if own >= 0.75 && own >= other {
                fitting += 1
            } else if other > own || own < 0.25 {
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

    /// The word the bank pairs this bot's word with whose material fits the table best (the only one, for a word
    /// in one pair): the word a hard bot bluffs with.
    var likeliestPartner: (word: String, material: [BotClue])? {
        guard let word else { return nil }
        let heard = othersClues.values.flatMap { $0 }
        var best: (word: String, material: [BotClue])?
        var bestScore = -1.0
        for partner in knowledge.partners(word) {
            let material = knowledge.material(partner)
            guard !material.isEmpty else { continue }
            let score = BotMind.fit(heard, material: material)
            if score > bestScore {
                best = (partner, material)
                bestScore = score
            }
        }
        return best
    }

    /// A line that fits both words (of this bot's material, or of its partner's: either side may say it), or
    /// filler: neither tells the sides apart. `shared` is `sharedLines(material)`.
    func isUninformative(_ text: String, shared: Set<String>) -> Bool {
        shared.contains(BotMind.fold(text)) || isFiller(text)
    }

    /// The folded lines that fit both words of this bot's pair: its material's, and those of the words the bank
    /// pairs its word with (true of its own word too).
    func sharedLines(_ material: [BotClue]) -> Set<String> {
        var lines = material.filter(\.fitsPartner)
        if let word { lines += knowledge.partners(word).flatMap { knowledge.material($0).filter(\.fitsPartner) } }
        return Set(lines.map { BotMind.fold($0.text) })
    }

    /// Whether a clue says nothing about any word: an empty phrase, a stock phrase anyone could say of anything,
    /// or the category's name. Such a clue (like a pass) is neither evidence nor suspicious.
    public func isFiller(_ text: String?) -> Bool {
        guard let text, !text.allSatisfy({ $0.isWhitespace || $0.isPunctuation }) else { return true }
        return fillerPhrases.contains(BotMind.fold(text))
    }

    /// Stock phrases and category mentions, folded, that describe no word in particular.
    var fillerPhrases: Set<String> {
        var phrases = BotMind.stockPhrases.english + BotMind.stockPhrases.chinese + BotMind.stockPhrases.simplified
        if let word, let category = knowledge.category(word) {
            phrases += [
                category, "跟\(category)有關", "屬於\(category)", "跟\(category)有关", "属于\(category)",
                "Think \(category)", "It is about \(category)",
            ]
        }
        return Set(phrases.map(BotMind.fold))
    }

    /// The same stock phrases in English, Traditional and Simplified Chinese.
    static let stockPhrases = (
        english: ["Something quite common", "Everyone has come across one", "Part of daily life", "Easy to spot"],
        chinese: ["很常見的東西", "大家都碰過", "日常生活裡會看到", "我覺得很好認"],
        simplified: ["很常见的东西", "大家都碰过", "日常生活里会看到", "我觉得很好认"]
    )
}

extension Room {
    /// Every clue of the game so far, oldest first. Each was broadcast to the whole table when given, so nothing in
    /// it is secret; a snapshot carries only the latest `Rules.cluesInView` of them, to bound its size.
    public var clueHistory: [ClueView] { game?.clues ?? [] }
}
