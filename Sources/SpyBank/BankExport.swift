import Foundation
import SpyProtocol

/// Writes pairs as the CSV the parser reads back, so a host can paste the default bank into a sheet and edit it.
public enum BankExport {
    /// The header row: the column names the parser recognises.
    public static let header = ["civilian", "spy", "category", "language", "label"]

    /// RFC 4180 CSV with a header row, one pair per line, "\n" line ends.
    public static func csv(_ pairs: [WordPair]) -> String {
        var lines = [header.map(field).joined(separator: ",")]
        for pair in pairs {
            let cells = [pair.civilian, pair.spy, pair.category, pair.language.rawValue, pair.label.rawValue]
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
