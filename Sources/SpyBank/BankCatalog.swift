import Foundation
import SpyProtocol

/// What a table can choose from a bank, and whether a choice leaves enough pairs to play.
public enum BankCatalog {
    /// Fewest pairs a room's choice of language, categories and party pairs must leave, so that the first games
    /// of an evening do not repeat a pair.
    public static let minimumPairs = BankLoader.minimumPairs
    /// Most categories listed in a `welcome` (a sheet could have thousands; a room filters on at most 32).
    public static let maxListed = 200

    /// The categories of `pairs` per language, in bank order, with their pair and party-pair counts. Pairs without
    /// a category, and names too long to choose, are left out.
    public static func categories(of pairs: [WordPair]) -> [BankCategory] {
        var order: [String] = []
        var entries: [String: BankCategory] = [:]
        for pair in pairs where !pair.category.isEmpty && pair.category.count <= maxCategoryCharacters {
            let key = pair.language.rawValue + "\u{1F}" + TextFold.key(pair.category)
            if entries[key] == nil {
                guard order.count < maxListed else { continue }
                order.append(key)
                entries[key] = BankCategory(name: pair.category, language: pair.language, pairs: 0, partyPairs: 0)
            }
            entries[key]?.pairs += 1
            if pair.label == .party { entries[key]?.partyPairs += 1 }
        }
        return order.compactMap { entries[$0] }
    }

    /// Names of `chosen` that no pair of `pairs` has as its category (compared as rooms compare them).
    public static func unknownCategories(_ chosen: [String], in pairs: [WordPair]) -> [String] {
        // Asked at every start: with no category chosen (the default) there is nothing to fold the bank for.
        guard !chosen.isEmpty else { return [] }
        let known = Set(pairs.map { TextFold.key($0.category) })
        return chosen.filter { !known.contains(TextFold.key($0)) }
    }

    /// The pairs `settings` draws from, without any fallback.
    public static func matching(_ pairs: [WordPair], _ settings: GameSettings) -> [WordPair] {
        let wanted = Set(settings.categories.map(TextFold.key).filter { !$0.isEmpty })
        return pairs.filter { pair in
            settings.language.deals(pair.language)
                && (settings.allowParty || pair.label == .family)
                && (wanted.isEmpty || wanted.contains(TextFold.key(pair.category)))
        }
    }

    /// Why a room cannot play `settings` with `pairs`, naming the problem; `nil` when at least `minimumPairs`
    /// pairs fit.
    public static func choiceProblem(_ settings: GameSettings, in pairs: [WordPair]) -> String? {
        let unknown = unknownCategories(settings.categories, in: pairs)
        if !unknown.isEmpty {
            let names = BankFilter.categories(of: pairs)
            let shown = names.prefix(12).joined(separator: ", ") + (names.count > 12 ? ", …" : "")
            let quoted = unknown.map { "\"\($0)\"" }.joined(separator: ", ")
            return "No category \(quoted) in this bank" + (names.isEmpty ? "." : "; it has: \(shown).")
        }
        let fit = matching(pairs, settings).count
        guard fit < minimumPairs else { return nil }
        var relaxed = settings
        relaxed.allowParty = true
        let withParty = matching(pairs, relaxed).count
        let language = settings.language.isMixed ? "" : " \(settings.language.rawValue)"
        let chosen = !settings.categories.isEmpty
        let scope = chosen ? "The chosen categories" : "The bank"
        if fit == 0 && withParty > 0 {
            return "\(scope) \(chosen ? "hold" : "holds") only party\(language) pairs: turn party pairs on"
                + (chosen ? ", or choose other categories." : ".")
        }
        if fit == 0 {
            return "\(scope) \(chosen ? "have" : "has") no\(language) pairs: choose another language"
                + (chosen ? " or other categories." : ".")
        }
        return "Only \(BankLoader.pairCount(fit)) fit these settings; a game needs at least \(minimumPairs): "
            + "add categories, choose another language, or turn party pairs on."
    }

    private static let maxCategoryCharacters = 32
}
