import Foundation
import SpyBank
import SpyProtocol

/// A downloaded or local sheet in any of the formats the bank detects.
enum BankTarget {
    static func run(_ bytes: [UInt8]) {
        let parsed: ParsedBank
        do {
            parsed = try BankParser.parse(bytes)
        } catch {
            return
        }
        require(!parsed.pairs.isEmpty, "a parse that succeeded with no pair")
        checkPairs(parsed.pairs)
    }

    /// What the game may be dealt: playable, bounded pairs unique in their language, without control characters,
    /// with clean clues.
    static func checkPairs(_ pairs: [WordPair]) {
        var keys: Set<String> = []
        for pair in pairs {
            require(pair.isPlayable, "an unplayable pair \(pair.civilian)/\(pair.spy) accepted")
            require(
                keys.insert(pair.language.rawValue + "\u{1F}" + pair.key).inserted,
                "a duplicate pair \(pair.civilian)/\(pair.spy) accepted")
            for word in [pair.civilian, pair.spy] {
                require(word.count <= BankParser.maxWordLength, "an over-long word accepted")
                require(!TextFold.hasControlCharacters(word), "a word with a control character accepted")
            }
            checkClues(pair.civilianClues, of: pair.civilian, partner: pair.spy)
            checkClues(pair.spyClues, of: pair.spy, partner: pair.civilian)
        }
    }

    /// A sheet's clue columns reach the bots: each kept clue is bounded, clean, unique, and gives no word away.
    private static func checkClues(_ clues: [String], of word: String, partner: String) {
        require(clues.count <= BankParser.maxCluesPerWord, "\(clues.count) clues kept for one word")
        var seen: Set<String> = []
        for clue in clues {
            require(!clue.isEmpty, "an empty clue kept")
            require(
                clue.count <= BankParser.maxClueCharacters && clue.utf8.count <= BankParser.maxClueBytes,
                "an over-long clue kept")
            require(
                PlayerText.textProblem(
                    clue, maxCharacters: BankParser.maxClueCharacters, maxBytes: BankParser.maxClueBytes)
                    == nil, "a clue with control, direction or stacked marks kept")
            require(
                !TextFold.contains(clue, word: word) && !TextFold.contains(clue, word: partner),
                "a clue naming its word or the partner kept")
            require(seen.insert(TextFold.key(clue)).inserted, "a repeated clue kept")
        }
    }
}

/// The host's cached copy of a remote sheet, as it reads it back when the sheet cannot be fetched: any bytes may be
/// in the file (a bad disk, a hand edit), and a copy that is used holds only what a sheet's parse could.
enum BankCacheTarget {
    /// The source the seeds were saved for.
    static let source = "https://example.org/sheet.csv"

    static func run(_ bytes: [UInt8]) {
        guard case .success(let entry) = BankCache.entry(from: Data(bytes), for: source) else { return }
        require(!entry.pairs.isEmpty, "a cached copy with no pair used")
        BankTarget.checkPairs(entry.pairs)
    }
}
