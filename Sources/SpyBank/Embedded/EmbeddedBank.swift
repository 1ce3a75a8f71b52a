import Foundation
import SpyProtocol

/// The bank compiled into the daemon, so a host with no network (or a copied binary) can always start a game.
public enum EmbeddedBank {
    /// Every embedded pair: the Traditional Chinese ones first, then the English ones, then the Simplified Chinese
    /// ones (last, so a room of the first two draws as it always did).
    public static let pairs: [WordPair] =
        decode(traditionalChineseText, language: .zhTW) + decode(englishText, language: .en)
        + decode(simplifiedChineseText, language: .zhHans)

    /// The pairs a room of `language` deals (a mixed table gets both of its languages).
    public static func pairs(in language: BankLanguage) -> [WordPair] {
        pairs.filter { language.deals($0.language) }
    }

    /// Reads the compact "## category [!party]" / "civilian|spy" text the embedded halves are written in.
    static func decode(_ text: String, language: BankLanguage) -> [WordPair] {
        var category = ""
        var label = ContentLabel.family
        var result: [WordPair] = []
        for rawLine in text.split(separator: "\n") {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty { continue }
            if line.hasPrefix("## ") {
                var heading = String(line.dropFirst(3))
                label = .family
                if heading.hasSuffix("!party") {
                    label = .party
                    heading = String(heading.dropLast("!party".count))
                }
                category = heading.trimmingCharacters(in: .whitespaces)
                continue
            }
            let words = line.split(separator: "|", omittingEmptySubsequences: false)
            guard words.count == 2 else { continue }
            result.append(
                WordPair(
                    civilian: String(words[0]), spy: String(words[1]), category: category, language: language,
                    label: label))
        }
        return result
    }
}
