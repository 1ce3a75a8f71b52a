import Foundation
import SpyProtocol
import Synchronization

extension BotMind {
    // MARK: Voting

    /// Whom to vote for in the open vote; `nil` when there is no one this bot may vote for.
    ///
    /// A tie that eliminated nobody must not repeat itself forever: after one such round a bot varies its vote
    /// between its two likeliest suspects, and after two it follows a ranking every bot draws alike from public
    /// facts (game, round, player), so the table's bots agree on one player and the game moves on.
    public func vote(random: inout SplitMix64) -> PlayerID? {
        guard let voting, voting.voters.contains(me) else { return nil }
        let choices = voting.candidates.filter { $0 != me }
        guard !choices.isEmpty else { return nil }
        if level == .easy { return choices[random.next(below: choices.count)] }
        let stalled = stalledRounds(before: voting.round)
        if stalled >= 2 {
            let game = dealtGame ?? view?.game ?? 0
            return choices.min { BotMind.lot(game, voting.round, $0) < BotMind.lot(game, voting.round, $1) }
        }
        let scores = consistency(of: choices)
        let ranked = choices.sorted { scores[$0] ?? 0 < scores[$1] ?? 0 }
        let lowest = scores[ranked[0]] ?? 0
        var least = choices.filter { scores[$0] == lowest }
        // A normal bot is not sure of its reading: it hesitates between its two likeliest suspects, as it does
        // after a tie that changed nothing.
        if stalled == 1 || level == .normal {
            for next in ranked.dropFirst(least.count).prefix(level == .normal && ranked.count >= 4 ? 2 : 1) {
                least.append(next)
            }
        } else {
            // A hard bot votes firmly only for a player who stands out: it hesitates among those who sound nearly
            // as odd as the oddest, less than one telling line of its word (scored 3, see `fit`) apart.
            least = ranked.filter { (scores[$0] ?? 0) - lowest < 3 }
        }
        return least[random.next(below: least.count)]
    }

    /// How many rounds before `round` in a row ended with no one out: a round's speakers are the players still in,
    /// so a round spoken by the same players as the next one eliminated nobody.
    func stalledRounds(before round: Int) -> Int {
        var speakers: [Int: Set<PlayerID>] = [:]
        for clue in clues { speakers[clue.round, default: []].insert(clue.player) }
        var stalled = 0
        var earlier = round - 1
        while earlier >= 1, let before = speakers[earlier], let after = speakers[earlier + 1], before == after {
            stalled += 1
            earlier -= 1
        }
        return stalled
    }

    /// A number every bot computes alike for a player in a round of a game (FNV-1a), to agree on one player.
    static func lot(_ game: Int, _ round: Int, _ player: PlayerID) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in "\(game).\(round).\(player)".utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }

    /// How consistent each player's clues are with the civilians' word as this bot pictures it; the lowest gets its
    /// vote. A bot that seems to hold the majority word scores clues against its own material (and the crowd's
    /// clues). A bot that seems outnumbered predicts the majority's scores instead, so it votes with the majority's
    /// likely target rather than against it, and spares players who sound like itself (its own side). A player who
    /// only passed or said filler is neutral: scored at the average of the others, neither trusted nor suspected.
    public func consistency(of players: [PlayerID]) -> [PlayerID: Double] {
        let others = othersClues
        // A line the bank marks as fitting both words of the pair is as true of this bot's word as its own.
        let mine = word.map(knowledge.material) ?? []
        let shared = sharedLines(mine)
        let partnerShared = (word.map(knowledge.partners) ?? []).flatMap {
            knowledge.material($0).filter(\.fitsPartner)
        }
        let material = mine.isEmpty ? [] : mine + partnerShared
        let known = Set(
            (mine + (word.map(knowledge.partners) ?? []).flatMap(knowledge.material)).map { BotMind.fold($0.text) })
        let outnumbered = !material.isEmpty && likelyInMinority
        let partner = outnumbered ? heardPartner : nil
        var scores: [PlayerID: Double] = [:]
        var neutral: [PlayerID] = []
        for player in players {
            let texts = (others[player] ?? []).filter { !isFiller($0) }
            guard !texts.isEmpty else {
                neutral.append(player)
                continue
            }
            // How much a clue echoes the others' only matters for words of its own: a line of the bank is judged
            // by the bank, whatever words the others happened to use.
            let own = texts.filter { !known.contains(BotMind.fold($0)) }
            var crowd: [String] = []
            for (other, otherTexts) in others where other != player { crowd += otherTexts }
            let crowdFit = BotMind.overlap(own, with: crowd) * Double(own.count) / Double(texts.count)
            if outnumbered {
                let telling = texts.filter { !isUninformative($0, shared: shared) }
                if !telling.isEmpty && BotMind.fit(telling, material: material) >= 0.75 {
                    scores[player] = 100 + crowdFit
                } else if let partner {
                    scores[player] = BotMind.fit(texts, material: partner.material) * 2 + crowdFit
                } else {
                    scores[player] = majorityFit(texts, material: material) * 2 + crowdFit
                }
            } else if !material.isEmpty {
                scores[player] = BotMind.fit(texts, material: material) * 2 + crowdFit
            } else {
                scores[player] = crowdFit
            }
        }
        let spoken = scores.values.filter { $0 < 100 }
        let average = spoken.isEmpty ? 0 : spoken.reduce(0, +) / Double(spoken.count)
        for player in neutral { scores[player] = average }
        return scores
    }

    /// How well texts fit the majority's word, as an outnumbered bot guesses the majority sees it: a line that fits
    /// both words counts as it would for them (1), anything else as one of their own lines.
    func majorityFit(_ texts: [String], material: [BotClue]) -> Double {
        guard !texts.isEmpty else { return 0 }
        let shared = Set(material.filter(\.fitsPartner).map { BotMind.fold($0.text) })
        var total = 0.0
        for text in texts {
            total += shared.contains(BotMind.fold(text)) ? 1 : 3
        }
        return total / Double(texts.count)
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

    static func fold(_ text: String) -> String { TextForms.shared.form(text).fold }

    static let stopWords: Set<String> = [
        "the", "and", "for", "with", "you", "your", "are", "its", "has", "from", "that", "this", "not", "but", "one",
        "can", "all", "something", "makes", "think", "bit", "about",
    ]

    /// CJK characters too common to say anything about a word, in both scripts (会 个 里 着 are the Simplified forms
    /// of 會 個 裡 著).
    static let stopCharacters: Set<Character> = [
        "的", "是", "有", "和", "在", "了", "很", "會", "也", "都", "就", "要", "一", "個", "不", "裡", "著", "得", "被", "把",
        "会", "个", "里", "着",
    ]

    /// Words (three letters or more, not the commonest) and CJK ideographs (not the commonest) of a text, folded.
    static func tokens(_ text: String) -> Set<String> { TextForms.shared.form(text).tokens }

    static func computeFold(_ text: String) -> String { TextFold.key(text).filter { !$0.isWhitespace } }

    static func computeTokens(_ text: String) -> Set<String> {
        var result: Set<String> = []
        var latin = ""
        func flush() {
            if latin.count >= 3 && !stopWords.contains(latin) { result.insert(latin) }
            latin = ""
        }
        for character in TextFold.key(text) {
            if character.unicodeScalars.contains(where: { $0.value >= 0x2E80 }) {
                flush()
                if character.isLetter && !stopCharacters.contains(character) { result.insert(String(character)) }
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

/// The folded form and the words of each text a bot scores, worked out once: bots score the same bank lines and
/// clues over and over, and folding text is what costs. Bounded, because typed clues come from players.
final class TextForms: Sendable {
    static let shared = TextForms(capacity: 50_000)
    /// Texts remembered before the memory starts over.
    let capacity: Int
    private let forms = Mutex<[String: (fold: String, tokens: Set<String>)]>([:])

    init(capacity: Int) { self.capacity = capacity }

    /// Texts remembered now.
    var count: Int { forms.withLock { $0.count } }

    func form(_ text: String) -> (fold: String, tokens: Set<String>) {
        if let known = forms.withLock({ $0[text] }) { return known }
        let form = (fold: BotMind.computeFold(text), tokens: BotMind.computeTokens(text))
        forms.withLock { forms in
            if forms.count >= capacity { forms.removeAll(keepingCapacity: true) }
            forms[text] = form
        }
        return form
    }
}
