import Foundation
import SpyProtocol

/// Narrows a bank to what one room's settings allow.
public enum BankFilter {
    /// The pairs of `all` that fit `settings`: its language (a mixed table keeps both of its languages), its categories (none
    /// named keeps all; names compare case- and width-insensitively) and its content label (party pairs only when
    /// `allowParty`). Categories the table named are its choice: when none of their pairs fits, the result is
    /// empty and the start is refused with `emptyReason`. Otherwise, when the bank has nothing in the language or
    /// label asked for, the label filter is dropped first, then the language filter, so a non-empty bank always
    /// yields a draw.
    public static func pairs(_ all: [WordPair], for settings: GameSettings) -> [WordPair] {
        let byLanguage = all.filter { matchesLanguage($0, settings.language) }
        let byLabel = byLanguage.filter { settings.allowParty || $0.label == .family }
        let wanted = wantedCategories(settings)
        let full = byLabel.filter { wanted.isEmpty || wanted.contains(TextFold.key($0.category)) }
        if !full.isEmpty || !wanted.isEmpty { return full }
        if !byLabel.isEmpty { return byLabel }
        if !byLanguage.isEmpty { return byLanguage }
        return all
    }

    /// Why `pairs(all, for: settings)` is empty, in one sentence for the owner.
    public static func emptyReason(_ all: [WordPair], for settings: GameSettings) -> String {
        let wanted = wantedCategories(settings)
        let named = settings.categories.joined(separator: ", ")
        guard !wanted.isEmpty else { return "The bank has no word pair for these settings." }
        let inCategories = all.filter { wanted.contains(TextFold.key($0.category)) }
        if inCategories.isEmpty { return "The bank has no category named \(named)." }
        let inLanguage = inCategories.filter { matchesLanguage($0, settings.language) }
        if inLanguage.isEmpty {
            return "The categories \(named) have no pair in the language \(settings.language.rawValue)."
        }
        return "The categories \(named) hold only party pairs, and party pairs are off."
    }

    private static func wantedCategories(_ settings: GameSettings) -> Set<String> {
        Set(settings.categories.map(TextFold.key).filter { !$0.isEmpty })
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

    /// `pairs` without a second pair of the same words (in either order) in the same language; the first occurrence
    /// wins. 咖啡/可乐 is written alike in both Chinese scripts: one sheet's zh-TW pair and another's zh-Hans pair
    /// are dealt at different tables, so both stay.
    public static func deduplicated(_ pairs: [WordPair]) -> [WordPair] {
        var seen = Set<String>()
        return pairs.filter { seen.insert($0.language.rawValue + "\u{1F}" + $0.key).inserted }
    }

    private static func matchesLanguage(_ pair: WordPair, _ language: BankLanguage) -> Bool {
        language.deals(pair.language)
    }
}
