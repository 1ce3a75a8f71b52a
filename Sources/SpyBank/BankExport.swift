import Foundation
import SpyProtocol

/// Writes pairs as the CSV the parser reads back, so a host can paste the default bank into a sheet and edit it.
public enum BankExport {
    /// The header row: the column names the parser recognises.
    public static let header = ["civilian", "spy", "category", "language", "label"]

    /// The clue columns, written only when a pair carries clues from a sheet.
    public static let clueHeader = ["civilian_clues", "spy_clues"]

    /// RFC 4180 CSV with a header row, one pair per line, "\n" line ends.
    public static func csv(_ pairs: [WordPair]) -> String {
        let withClues = pairs.contains { !$0.civilianClues.isEmpty || !$0.spyClues.isEmpty }
        var lines = [(withClues ? header + clueHeader : header).map(field).joined(separator: ",")]
        for pair in pairs {
            var cells = [pair.civilian, pair.spy, pair.category, pair.language.rawValue, pair.label.rawValue]
            // Clues never hold "|": the parser split them on it.
            if withClues { cells += [pair.civilianClues, pair.spyClues].map { $0.joined(separator: "|") } }
            lines.append(cells.map(field).joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The pairs with the embedded clue material of their words in the clue columns, for a sheet to start from. A
    /// line that fits both words is listed for both, which is how a sheet marks such a clue; a line the parser would
    /// drop as giving a word away (`ClueShape`) is left out.
    public static func withEmbeddedClues(_ pairs: [WordPair]) -> [WordPair] {
        pairs.map { pair in
            var pair = pair
            let civilian = ClueBook.clues(for: pair.civilian, in: pair)
            let spy = ClueBook.clues(for: pair.spy, in: pair)
            func column(_ own: [Clue], _ other: [Clue]) -> [String] {
                var seen: Set<String> = []
                return (own.map(\.text) + other.filter(\.fitsPartner).map(\.text)).filter { text in
                    ClueShape.problem(text, word: pair.civilian) == nil
                        && ClueShape.problem(text, word: pair.spy) == nil
                        && seen.insert(TextFold.key(text)).inserted
                }
            }
            pair.civilianClues = column(civilian, spy)
            pair.spyClues = column(spy, civilian)
            return pair
        }
    }

    /// Quotes a cell when it holds a delimiter, a quote, a line break or edge spaces.
    static func field(_ text: String) -> String {
        let needsQuotes =
            text.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline })
            || text.first?.isWhitespace == true || text.last?.isWhitespace == true
        guard needsQuotes else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
