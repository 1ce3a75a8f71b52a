import Foundation
import SpyProtocol

/// One short phrase a player could say about a word ("wakes you up" for coffee).
public struct Clue: Sendable, Hashable {
    /// The phrase, in the word's language; it never contains the word or its partner word after folding.
    public let text: String
    /// Whether the phrase is also true of the partner word, so a spy can say it to blend in. A clue that does not
    /// fit the partner is one a careful listener can tell the two sides apart by.
    public let fitsPartner: Bool

    public init(text: String, fitsPartner: Bool) {
        self.text = text
        self.fitsPartner = fitsPartner
    }
}

/// Clue material for every word of the embedded bank, read once on first use.
///
/// Only embedded words have material: a word that came from a sheet or file gets none, unless it is also an
/// embedded word. The material is written against the word's embedded partner (which clues fit it too, which
/// words a clue must avoid), so `clues(for:in:)` is the lookup to use while a pair is being played.
public enum ClueBook {
    /// The material of `word` in the embedded bank of `language` (a mixed table looks in both of its languages),
    /// matched after folding (case, width); empty when the embedded bank has no such word. Each language has its own
    /// material: 牛奶 of the Simplified bank is described against its own partner, not the Traditional one's.
    public static func clues(for word: String, language: BankLanguage) -> [Clue] {
        let key = TextFold.key(word)
        for book in books(for: language) {
            if let entry = book[key] { return entry.clues }
        }
        return []
    }

    /// The material of `word`, one of the two words of `pair`, when the embedded bank pairs the same two words
    /// (in either order, after folding); empty otherwise, because clues written against another partner may fit
    /// or even name this pair's other word.
    public static func clues(for word: String, in pair: WordPair) -> [Clue] {
        let key = TextFold.key(word)
        let civilian = TextFold.key(pair.civilian)
        let spy = TextFold.key(pair.spy)
        guard key == civilian || key == spy else { return [] }
        let partner = key == civilian ? spy : civilian
        for book in books(for: pair.language) {
            if let entry = book[key], entry.partnerKey == partner { return entry.clues }
        }
        return []
    }

    struct Entry: Sendable {
        let partnerKey: String
        let clues: [Clue]
    }

    static let traditionalChinese = index(
        decode(traditionalChineseCluesText), pairs: EmbeddedBank.pairs(in: .zhTW))
    static let english = index(decode(englishCluesText), pairs: EmbeddedBank.pairs(in: .en))
    static let simplifiedChinese = index(
        decode(simplifiedChineseCluesText), pairs: EmbeddedBank.pairs(in: .zhHans))

    static func books(for language: BankLanguage) -> [[String: Entry]] {
        language.dealtLanguages.map { single in
            switch single {
            case .zhHans: simplifiedChinese
            case .en: english
            default: traditionalChinese
            }
        }
    }

    /// Reads the "word=clue|clue|~clue" lines the clue files are written in; a leading "~" marks a clue that fits
    /// the partner word too. Blank lines and "## " headings are skipped. Keys are the words as written.
    static func decode(_ text: String) -> [(word: String, clues: [Clue])] {
        var result: [(word: String, clues: [Clue])] = []
        for rawLine in text.split(separator: "\n") {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("## ") { continue }
            guard let equals = line.firstIndex(of: "=") else { continue }
            let word = String(line[..<equals])
            let clues = line[line.index(after: equals)...].split(separator: "|").map { raw in
                raw.hasPrefix("~")
                    ? Clue(text: String(raw.dropFirst()), fitsPartner: true)
                    : Clue(text: String(raw), fitsPartner: false)
            }
            result.append((word, clues))
        }
        return result
    }

    /// Keys material by folded word, next to the folded partner the embedded bank deals it with.
    static func index(_ lines: [(word: String, clues: [Clue])], pairs: [WordPair]) -> [String: Entry] {
        var partners: [String: String] = [:]
        for pair in pairs {
            partners[TextFold.key(pair.civilian)] = TextFold.key(pair.spy)
            partners[TextFold.key(pair.spy)] = TextFold.key(pair.civilian)
        }
        var book: [String: Entry] = [:]
        for line in lines {
            let key = TextFold.key(line.word)
            guard let partner = partners[key] else { continue }
            book[key] = Entry(partnerKey: partner, clues: line.clues)
        }
        return book
    }
}
