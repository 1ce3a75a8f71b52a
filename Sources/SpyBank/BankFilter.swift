import Foundation
import SpyProtocol

/// Narrows a bank to what one room's settings allow.
public enum BankFilter {
    /// The pairs of `all` that fit `settings`: its language (`.both` keeps every language), its categories (none
    /// named keeps all; names compare case- and width-insensitively) and its content label (party pairs only when
    /// `allowParty`). When that leaves nothing, the categories are dropped first (keeping party pairs out), then
    /// the language filter alone is used, then `all`, so a non-empty bank never yields an empty draw.
    public static func pairs(_ all: [WordPair], for settings: GameSettings) -> [WordPair] {
        let byLanguage = all.filter { matchesLanguage($0, settings.language) }
        let byLabel = byLanguage.filter { settings.allowParty || $0.label == .family }
        let wanted = Set(settings.categories.map(TextFold.key).filter { !$0.isEmpty })
        let full = byLabel.filter { wanted.isEmpty || wanted.contains(TextFold.key($0.category)) }
        if !full.isEmpty { return full }
        if !byLabel.isEmpty { return byLabel }
        if !byLanguage.isEmpty { return byLanguage }
        return all
    }

    /// The distinct categories of `pairs` in first-seen order, for a host screen or `bank check`.
    public static func categories(of pairs: [WordPair]) -> [String] {
        var seenRaw = Set<String>()
        var seenFolded = Set<String>()
        var result: [String] = []
        // Most pairs repeat a category spelled the same way; only new spellings are folded.
        for pair in pairs where !pair.category.isEmpty && seenRaw.insert(pair.category).inserted {
            if seenFolded.insert(TextFold.key(pair.category)).inserted { result.append(pair.category) }
        }
        return result
    }

    /// `pairs` without a second pair of the same words (in either order); the first occurrence wins.
    public static func deduplicated(_ pairs: [WordPair]) -> [WordPair] {
        var seen = Set<String>()
        return pairs.filter { seen.insert($0.key).inserted }
    }

    private static func matchesLanguage(_ pair: WordPair, _ language: BankLanguage) -> Bool {
        language == .both || pair.language == language
    }
}
