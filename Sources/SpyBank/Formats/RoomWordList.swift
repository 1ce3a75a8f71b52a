import Foundation
import SpyProtocol

/// A room's own word list as its owner pastes or uploads it: one pair a line, the two words separated the ways
/// people write them (`word,word`, `word，word`, a tab, `word/word`, `word／word`, `word——word`, `word—word`), or CSV
/// or TSV whose first row names the columns (`civilian,spy` or `平民,臥底`, as a bank sheet's). Each line is checked
/// as a sheet's rows are, and more strictly: a line that is not kept is reported with its number and a reason, the
/// rest is kept.
public enum RoomWordList {
    /// The longest word, in characters (as a bank's) and in UTF-8 bytes.
    public static let maxWordCharacters = BankParser.maxWordLength
    public static let maxWordBytes = 4 * BankParser.maxWordLength

    /// What the text held: the pairs kept, each with its line, and the lines refused, in order.
    public struct Parsed: Sendable, Equatable {
        public var pairs: [WordPair]
        /// The 1-based line of each pair of `pairs`.
        public var lines: [Int]
        public var refused: [WordRefusal]
    }

    /// The separators between two words, the more specific first: a line is split on the first that occurs in it.
    static let separators: [[String]] = [["\t"], ["——", "—"], ["/", "／"], [",", "，"]]

    public static func parse(_ text: String) -> Parsed {
        var parsed = Parsed(pairs: [], lines: [], refused: [])
        var firstLineOfKey: [String: Int] = [:]
        for (line, words) in rows(of: text) {
            switch words {
            case .failure(let reason):
                parsed.refused.append(WordRefusal(line: line, reason: reason))
            case .success(let (civilian, spy)):
                if let reason = problem(civilian, spy) {
                    parsed.refused.append(WordRefusal(line: line, reason: reason))
                    continue
                }
                let pair = WordPair(
                    civilian: civilian, spy: spy, language: BankParser.detectLanguage(civilian + spy))
                if let earlier = firstLineOfKey[pair.key] {
                    parsed.refused.append(WordRefusal(line: line, reason: .duplicate, other: earlier))
                    continue
                }
                firstLineOfKey[pair.key] = line
                parsed.pairs.append(pair)
                parsed.lines.append(line)
            }
        }
        return parsed
    }

    /// Two typed words (the moderator's pair for the next game) as a pair, checked as a line of the list is.
    public static func typedPair(civilian: String, spy: String) -> Result<WordPair, WordRefusalReason> {
        let civilian = BankParser.normalizedCell(civilian)
        let spy = BankParser.normalizedCell(spy)
        guard !civilian.isEmpty, !spy.isEmpty else { return .failure(.missingWord) }
        if let reason = problem(civilian, spy) { return .failure(reason) }
        return .success(WordPair(civilian: civilian, spy: spy, language: BankParser.detectLanguage(civilian + spy)))
    }

    static func problem(_ civilian: String, _ spy: String) -> WordRefusalReason? {
        for word in [civilian, spy] {
            if TextFold.hasControlCharacters(word) { return .controlCharacter }
            if PlayerText.hasInvisibleCharacters(word) { return .invisibleCharacter }
            if word.utf8.count > maxWordBytes || word.count > maxWordCharacters { return .tooLong }
        }
        let civilianKey = TextFold.key(civilian).filter { !$0.isWhitespace }
        let spyKey = TextFold.key(spy).filter { !$0.isWhitespace }
        if civilianKey.isEmpty || spyKey.isEmpty { return .noVisibleLetter }
        if civilianKey == spyKey { return .sameWords }
        if civilianKey.contains(spyKey) || spyKey.contains(civilianKey) { return .containsOther }
        return nil
    }

    /// The two words of each line that has any, by line number.
    static func rows(of text: String) -> [(Int, Result<(String, String), WordRefusalReason>)] {
        var text = text
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        if let header = headerRows(text) { return header }
        var rows: [(Int, Result<(String, String), WordRefusalReason>)] = []
        var number = 0
        for raw in lines(text) {
            number += 1
            let line = raw.trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty else { continue }
            rows.append((number, words(of: line)))
        }
        return rows
    }

    /// The text's lines, split at every line ending (CR LF, LF, CR) as an editor numbers them.
    static func lines(_ text: String) -> [Substring] {
        var lines: [Substring] = []
        var start = text.startIndex
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            // "\r\n" is one Character in Swift.
            if character == "\n" || character == "\r" || character == "\r\n" {
                lines.append(text[start..<index])
                index = text.index(after: index)
                start = index
            } else {
                index = text.index(after: index)
            }
        }
        lines.append(text[start..<text.endIndex])
        return lines
    }

    /// The two words of a non-empty line; a line starting with a quote is read as a CSV row.
    static func words(of line: String) -> Result<(String, String), WordRefusalReason> {
        var cells: [String]
        if line.hasPrefix("\"") {
            let delimiter: Unicode.Scalar = line.contains("\t") ? "\t" : ","
            let (rows, unterminated) = DelimitedFormat.rows(line, delimiter: delimiter)
            if unterminated != nil { return .failure(.unclosedQuote) }
            cells = rows.first?.cells ?? []
        } else if let separator = separators.lazy.compactMap({ kinds in kinds.first { line.contains($0) } }).first {
            let kinds = separators.first { $0.contains(separator) } ?? [separator]
            cells = [line]
            for kind in kinds { cells = cells.flatMap { $0.components(separatedBy: kind) } }
        } else {
            return .failure(.noSeparator)
        }
        cells = cells.map(BankParser.normalizedCell)
        while let last = cells.last, last.isEmpty, cells.count > 2 { cells.removeLast() }
        if cells.count > 2 { return .failure(.tooManyWords) }
        guard cells.count == 2 else { return .failure(.noSeparator) }
        if cells[0].isEmpty || cells[1].isEmpty { return .failure(.missingWord) }
        return .success((cells[0], cells[1]))
    }

    /// The rows of CSV or TSV text whose first non-blank line names the civilian and spy columns; `nil` for text
    /// without such a header. Quoted cells may hold separators; a line break inside one is a control character.
    static func headerRows(_ text: String) -> [(Int, Result<(String, String), WordRefusalReason>)]? {
        let delimiter = DelimitedFormat.guessDelimiter(text)
        let (rows, unterminated) = DelimitedFormat.rows(text, delimiter: delimiter)
        guard let first = rows.first(where: { $0.cells.contains { !BankParser.normalizedCell($0).isEmpty } }),
            let map = ColumnMap.fromHeader(first.cells)
        else { return nil }
        var result: [(Int, Result<(String, String), WordRefusalReason>)] = []
        for row in rows where row.line > first.line {
            let record = map.record(row.cells, line: row.line)
            if record.civilian.contains(where: \.isNewline) || record.spy.contains(where: \.isNewline) {
                result.append((row.line, .failure(.controlCharacter)))
                continue
            }
            let civilian = BankParser.normalizedCell(record.civilian)
            let spy = BankParser.normalizedCell(record.spy)
            if civilian.isEmpty && spy.isEmpty { continue }
            if civilian.isEmpty || spy.isEmpty {
                result.append((row.line, .failure(.missingWord)))
                continue
            }
            result.append((row.line, .success((civilian, spy))))
        }
        if let unterminated { result.append((unterminated, .failure(.unclosedQuote))) }
        return result
    }
}
