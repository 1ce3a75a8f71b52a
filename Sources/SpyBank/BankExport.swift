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

    /// Quotes a cell when it holds a delimiter, a quote, a line break or edge spaces.
    static func field(_ text: String) -> String {
        let needsQuotes =
            text.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline })
            || text.first?.isWhitespace == true || text.last?.isWhitespace == true
        guard needsQuotes else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
