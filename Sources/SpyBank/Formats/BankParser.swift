import Foundation
import SpyProtocol

/// The layout a bank source was recognised as.
public enum BankFormat: String, Sendable, Equatable, CaseIterable {
    /// Comma-separated values (RFC 4180 quoting), as a spreadsheet's CSV export.
    case csv = "CSV"
    /// Tab-separated values, as pasted from a spreadsheet or its TSV export.
    case tsv = "TSV"
    /// Google's visualization response: `google.visualization.Query.setResponse({...});`.
    case visualizationJSON = "visualization JSON"
    /// The retired spreadsheet list feed: `feed.entry[].gsx$….$t`.
    case legacyFeed = "legacy list feed JSON"
    /// A JSON array of `{"civilian": …, "spy": …}` objects or of two-string arrays.
    case plainJSON = "JSON array"
}

/// A row left out of a source, with where it was and why.
public struct SkippedRow: Sendable, Equatable, CustomStringConvertible {
    /// The 1-based line of the row in a CSV/TSV source, or the 1-based record number in a JSON source.
    public var line: Int
    /// Why the row was left out, e.g. "missing spy word".
    public var reason: String
    /// "line" for text formats, "row" for JSON records.
    public var unit: String

    public init(line: Int, reason: String, unit: String = "line") {
        self.line = line
        self.reason = reason
        self.unit = unit
    }

    public var description: String { "\(unit) \(line): \(reason)" }
}

/// What a source held once parsed.
public struct ParsedBank: Sendable, Equatable {
    /// The format recognised.
    public var format: BankFormat
    /// Valid pairs in source order, without duplicates.
    public var pairs: [WordPair]
    /// Rows left out, in source order.
    public var skipped: [SkippedRow]
    /// Clues of the clue columns left out (the pair itself is kept), with their row and why, in source order.
    public var droppedClues: [SkippedRow]

    public init(format: BankFormat, pairs: [WordPair], skipped: [SkippedRow], droppedClues: [SkippedRow] = []) {
        self.format = format
        self.pairs = pairs
        self.skipped = skipped
        self.droppedClues = droppedClues
    }
}

/// Why a source could not be used at all.
public enum BankParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The source holds nothing but whitespace.
    case empty
    /// The bytes are not UTF-8 text.
    case notText
    /// The source looks like `format` but is broken; `line` is where, when known.
    case malformed(BankFormat, line: Int?, reason: String)
    /// The source parsed but none of its rows is a usable pair.
    case noValidRows(BankFormat, skipped: [SkippedRow])
    /// The source is a web page (a sign-in page, a Wi-Fi login page, a sheet's own page), not a word list.
    case htmlPage

    public var description: String {
        switch self {
        case .empty:
            return "the source is empty"
        case .notText:
            return "the source is not UTF-8 text (save the sheet as \"CSV UTF-8\")"
        case .malformed(let format, let line, let reason):
            let place = line.map { " at line \($0)" } ?? ""
            return "invalid \(format.rawValue)\(place): \(reason)"
        case .noValidRows(let format, let skipped):
            let first = skipped.first.map { " (first problem: \($0))" } ?? ""
            return "no usable pair in this \(format.rawValue) source, \(skipped.count) rows skipped\(first)"
        case .htmlPage:
            return "got a web page (HTML), not a word list: the sheet may be private (share it with \"anyone with "
                + "the link\") or the network may need a login first (open any page in a browser)"
        }
    }
}

/// Turns the bytes of a bank source into word pairs, recognising the format by content, not by name.
public enum BankParser {
    /// Whether text that starts with `<` is a web page: a word list never starts with markup, and a sign-in page
    /// parsed as CSV would give junk "pairs" made of tags.
    static func looksLikeHTML(_ head: Substring) -> Bool {
        let lowered = head.lowercased()
        return ["<!doctype html", "<html", "<head", "<body", "<meta", "<title", "<script", "<?xml"].contains {
            lowered.hasPrefix($0)
        } || lowered.contains("<html")
    }

    /// The longest word accepted; longer cells are almost always a pasted sentence, not a word.
    public static let maxWordLength = 40

    /// Parses `bytes`. Rows with a missing word, two equal words, a control character or an over-long word are
    /// skipped and listed; duplicates (in either order, in the same language) are skipped too. A source with no
    /// usable row throws. `defaultLanguage` applies to rows without a language column; `nil` detects it from the
    /// words (`detectLanguage`), and a Chinese row written alike in both scripts follows the script most of the
    /// sheet's other Chinese rows are detected in (zh-TW on a tie).
    public static func parse(
        _ bytes: [UInt8], defaultLanguage: BankLanguage? = nil, defaultLabel: ContentLabel = .family
    ) throws(BankParseError) -> ParsedBank {
        guard var text = decodeText(bytes) else { throw .notText }
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        let trimmed = text.drop { $0.isWhitespace || $0 == "\u{FEFF}" }
        guard let first = trimmed.first else { throw .empty }
        if first == "<" && looksLikeHTML(trimmed.prefix(2048)) { throw .htmlPage }

        let format: BankFormat
        let records: [RawRecord]
        if trimmed.hasPrefix("/*") || text.contains("google.visualization.Query.setResponse") {
            format = .visualizationJSON
            records = try VisualizationFormat.records(from: text)
        } else if first == "{" {
            let object = try JSONDocument.parse(text, as: .legacyFeed)
            if let dictionary = object as? [String: Any], dictionary["table"] != nil {
                format = .visualizationJSON
                records = try VisualizationFormat.records(fromObject: dictionary)
            } else {
                format = .legacyFeed
                records = try LegacyFeedFormat.records(fromObject: object)
            }
        } else if first == "[" {
            format = .plainJSON
            records = try PlainJSONFormat.records(from: text)
        } else {
            let delimiter = DelimitedFormat.guessDelimiter(text)
            format = delimiter == "\t" ? .tsv : .csv
            records = try DelimitedFormat.records(from: text, delimiter: delimiter, format: format)
        }
        let assembled = assemble(records, defaultLanguage: defaultLanguage, defaultLabel: defaultLabel)
        guard !assembled.pairs.isEmpty else { throw .noValidRows(format, skipped: assembled.skipped) }
        return ParsedBank(
            format: format, pairs: assembled.pairs, skipped: assembled.skipped, droppedClues: assembled.droppedClues)
    }

    /// UTF-8, or UTF-16 when a byte order mark says so (spreadsheet programs' "Unicode text" export).
    static func decodeText(_ bytes: [UInt8]) -> String? {
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]), bytes.count % 2 == 0 {
            let littleEndian = bytes[0] == 0xFF
            let units = stride(from: 2, to: bytes.count, by: 2).map { index in
                littleEndian
                    ? UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8
                    : UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1])
            }
            return String(validating: units, as: UTF16.self)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Checks each record and builds the pairs.
    static func assemble(
        _ records: [RawRecord], defaultLanguage: BankLanguage?, defaultLabel: ContentLabel
    ) -> (pairs: [WordPair], skipped: [SkippedRow], droppedClues: [SkippedRow]) {
        var pairs: [WordPair] = []
        var skipped: [SkippedRow] = []
        var droppedClues: [SkippedRow] = []
        // The rows seen of each pair of words, with the language their row named.
        var earlierOfKey: [String: [(line: Int, named: BankLanguage?)]] = [:]
        // Chinese rows whose characters are written alike in both scripts (猫|狗), by index, and the rows of each
        // script whose characters tell: the first follow the sheet's majority once it is read.
        var undecided: [Int] = []
        var detected: [BankLanguage: Int] = [:]
        for record in records {
            let skip = { (reason: String) in
                skipped.append(SkippedRow(line: record.line, reason: reason, unit: record.unit))
            }
            if let problem = record.problem {
                skip(problem)
                continue
            }
            let civilian = normalizedCell(record.civilian)
            let spy = normalizedCell(record.spy)
            if civilian.isEmpty && spy.isEmpty {
                if record.reportIfBlank { skip("both words missing") }
                continue
            }
            if civilian.isEmpty {
                skip("missing civilian word")
                continue
            }
            if spy.isEmpty {
                skip("missing spy word")
                continue
            }
            if TextFold.hasControlCharacters(civilian) || TextFold.hasControlCharacters(spy) {
                skip("a word contains a control character")
                continue
            }
            if civilian.count > maxWordLength || spy.count > maxWordLength {
                skip("a word is longer than \(maxWordLength) characters")
                continue
            }
            var pair = WordPair(civilian: civilian, spy: spy)
            // Folding dominates the parse time of a big sheet, so each word is folded once here.
            let civilianKey = TextFold.key(civilian)
            let spyKey = TextFold.key(spy)
            if civilianKey.isEmpty || spyKey.isEmpty {
                skip("a word has no visible letter")
                continue
            }
            if civilianKey == spyKey {
                skip("both words are the same (\(civilian))")
                continue
            }
            let named = record.language.flatMap(parseLanguage) ?? defaultLanguage
            // A sheet may list 咖啡|可乐 once per script: when both rows name their languages and these differ,
            // those are two pairs. The same words are written alike, so a guess could never tell them apart.
            let key = pairKey(civilianKey, spyKey)
            if let earlier = earlierOfKey[key]?.first(where: { $0.named == nil || named == nil || $0.named == named }) {
                skip("duplicate of the pair at \(record.unit) \(earlier.line)")
                continue
            }
            earlierOfKey[key, default: []].append((record.line, named))
            let category = normalizedCell(record.category ?? "")
            pair.category = TextFold.hasControlCharacters(category) ? "" : category
            if let named {
                pair.language = named
            } else if !isChinese(civilian + spy) {
                pair.language = .en
            } else if let script = ChineseScript.script(of: civilian + spy) {
                pair.language = script
                detected[script, default: 0] += 1
            } else {
                pair.language = .zhTW
                undecided.append(pairs.count)
            }
            pair.label = record.label.flatMap(parseLabel) ?? defaultLabel
            for (own, other, raw) in [(civilian, spy, record.civilianClues), (spy, civilian, record.spyClues)] {
                guard let raw, !raw.isEmpty else { continue }
                let checked = checkClues(raw, for: own, partner: other)
                if own == civilian { pair.civilianClues = checked.clues } else { pair.spyClues = checked.clues }
                droppedClues += checked.dropped.map { SkippedRow(line: record.line, reason: $0, unit: record.unit) }
            }
            pairs.append(pair)
        }
        if detected[.zhHans, default: 0] > detected[.zhTW, default: 0] {
            for index in undecided { pairs[index].language = .zhHans }
        }
        return (pairs, skipped, droppedClues)
    }

    /// The most clues kept for one word: enough for the embedded material as exported (a dozen lines of its own and
    /// the partner's lines that fit both), not a novel.
    public static let maxCluesPerWord = 24
    /// The longest clue kept, in characters and in UTF-8 bytes.
    public static let maxClueCharacters = 60
    public static let maxClueBytes = 240

    /// The clues of a clue cell worth keeping for `word`: within the bounds, free of control and direction
    /// characters, naming neither `word` nor `partner` after folding nor giving either away otherwise (`ClueShape`),
    /// and not repeated; why each other one was not.
    static func checkClues(_ raw: [String], for word: String, partner: String) -> (clues: [String], dropped: [String]) {
        var clues: [String] = []
        var dropped: [String] = []
        var seen: Set<String> = []
        let pieces = raw.lazy.map(normalizedCell).filter { !$0.isEmpty }
        var remaining = pieces.count
        for piece in pieces {
            if clues.count == maxCluesPerWord {
                dropped.append("more than \(maxCluesPerWord) clues for \(word): \(remaining) more ignored")
                break
            }
            remaining -= 1
            let preview = piece.count > 24 ? "\"\(piece.prefix(24))…\"" : "\"\(piece)\""
            switch PlayerText.textProblem(piece, maxCharacters: maxClueCharacters, maxBytes: maxClueBytes) {
            case .tooLong:
                dropped.append("clue \(preview) for \(word) is longer than \(maxClueCharacters) characters")
            case .controlCharacters:
                dropped.append("a clue for \(word) contains a control character")
            case .directionControls:
                dropped.append("a clue for \(word) contains text direction controls")
            case .tooManyMarks:
                dropped.append("a clue for \(word) stacks too many combining marks")
            case .empty:
                continue
            case nil:
                if TextFold.contains(piece, word: word) {
                    dropped.append("clue \(preview) for \(word) contains the word \(word)")
                } else if TextFold.contains(piece, word: partner) {
                    dropped.append("clue \(preview) for \(word) contains the word \(partner)")
                } else if let problem = ClueShape.problem(piece, word: word) ?? ClueShape.problem(piece, word: partner)
                {
                    dropped.append("clue \(preview) for \(word) \(problem)")
                } else if !seen.insert(TextFold.key(piece)).inserted {
                    dropped.append("clue \(preview) for \(word) repeats an earlier one")
                } else {
                    clues.append(piece)
                }
            }
        }
        return (clues, dropped)
    }

    /// A clue cell split on `|` and `、` (the separators a sheet may use between clues).
    static func splitClues(_ cell: String) -> [String] {
        cell.split(whereSeparator: { $0 == "|" || $0 == "、" }).map(String.init)
    }

    /// `WordPair.key` from already folded words.
    static func pairKey(_ first: String, _ second: String) -> String {
        first < second ? "\(first)\u{1F}\(second)" : "\(second)\u{1F}\(first)"
    }

    /// Trims the cell and folds runs of whitespace (a newline inside a quoted field included) into one space.
    static func normalizedCell(_ cell: String) -> String {
        cell.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// Han, Bopomofo and CJK punctuation mean Chinese; anything else is taken as English. Chinese text with a
    /// Simplified-only character and no Traditional-only one (`ChineseScript`) is zh-Hans, any other zh-TW.
    public static func detectLanguage(_ text: String) -> BankLanguage {
        guard isChinese(text) else { return .en }
        return ChineseScript.script(of: text) ?? .zhTW
    }

    /// Whether `text` has a Han or Bopomofo character or CJK punctuation.
    static func isChinese(_ text: String) -> Bool {
        text.unicodeScalars.contains { scalar in
            switch scalar.value {
            case 0x3000...0x303F, 0x3100...0x312F, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF,
                0x20000...0x3134F:
                return true
            default:
                return false
            }
        }
    }

    /// A language cell such as "zh-TW", "zh_Hant", "繁體中文", "zh-CN", "zh-Hans", "简体中文" or "English"; `nil` when
    /// empty or unknown. A bare "zh" or "中文" stays zh-TW: sheets written before zh-Hans existed say so of their
    /// Traditional pairs.
    static func parseLanguage(_ cell: String) -> BankLanguage? {
        let folded = TextFold.key(cell).replacingOccurrences(of: "_", with: "-")
        switch folded {
        case "zh-tw", "zh", "zh-hant", "zh-hant-tw", "zh-hk", "zh-mo", "zh-hant-hk", "zh-hant-mo", "tw", "chinese",
            "traditional chinese", "中文", "繁體中文", "繁體", "繁中", "華語", "繁体中文", "繁体":
            return .zhTW
        case "zh-hans", "zh-cn", "zh-sg", "zh-hans-cn", "zh-hans-sg", "cn", "simplified chinese", "简体中文", "简体",
            "简中", "簡體中文", "簡體", "簡中", "普通话", "汉语":
            return .zhHans
        case "en", "en-us", "en-gb", "english", "英文", "英語", "英语":
            return .en
        default:
            return nil
        }
    }

    /// A label cell: "party", "adult", "18+", "成人", "派對" mark adult pairs; anything else is family.
    static func parseLabel(_ cell: String) -> ContentLabel? {
        switch TextFold.key(cell) {
        case "party", "adult", "18+", "r18", "nsfw", "成人", "派對", "限制級", "派对", "限制级": return .party
        case "family", "all", "general", "普通", "普遍級", "闔家", "普遍级", "阖家": return .family
        default: return nil
        }
    }
}

/// One candidate row in source-neutral form, before validation.
struct RawRecord {
    /// Line (text formats) or record number (JSON formats), 1-based.
    var line: Int
    var unit: String = "line"
    var civilian: String = ""
    var spy: String = ""
    var category: String?
    var language: String?
    var label: String?
    /// The clue cells of the civilian and spy words, split into clues; `nil` without clue columns.
    var civilianClues: [String]?
    var spyClues: [String]?
    /// Set when the row is unusable for a structural reason found by the format reader.
    var problem: String?
    /// Whether a row with neither word is worth reporting (a ragged data row is; a blank line is not).
    var reportIfBlank: Bool = true
}

/// Which column of a header row holds what.
struct ColumnMap {
    var civilian: Int
    var spy: Int
    var category: Int?
    var language: Int?
    var label: Int?
    var civilianClues: Int?
    var spyClues: Int?

    /// Columns when there is no header: two words, then optionally category, language and label (clue columns
    /// are only ever read by name).
    static let positional = ColumnMap(civilian: 0, spy: 1, category: 2, language: 3, label: 4)

    // Column names in English, Traditional and Simplified Chinese.
    static let civilianNames: Set<String> = [
        "civilian", "civilianquestion", "civilianword", "civilians", "平民", "平民詞", "平民題目", "平民的詞",
        "平民词", "平民题目", "平民的词",
    ]
    static let spyNames: Set<String> = [
        "spy", "spyquestion", "spyword", "undercover", "臥底", "臥底詞", "臥底題目", "臥底的詞", "卧底", "卧底词",
        "卧底题目", "卧底的词",
    ]
    static let categoryNames: Set<String> = [
        "category", "theme", "topic", "類別", "分類", "主題", "類型", "类别", "分类", "主题", "类型",
    ]
    static let languageNames: Set<String> = ["language", "lang", "locale", "語言", "语言"]
    static let labelNames: Set<String> = ["label", "rating", "content", "標籤", "分級", "标签", "分级"]
    static let civilianClueNames: Set<String> = [
        "civilianclues", "civilianclue", "平民提示", "平民線索", "平民描述", "平民线索",
    ]
    static let spyClueNames: Set<String> = [
        "spyclues", "spyclue", "undercoverclues", "臥底提示", "臥底線索", "臥底描述", "卧底提示", "卧底线索", "卧底描述",
    ]

    /// Folds a header cell: case, width, spaces, underscores and hyphens do not matter.
    static func fold(_ name: String) -> String {
        TextFold.key(name).filter { !$0.isWhitespace && $0 != "_" && $0 != "-" }
    }

    /// The map a header row describes, or `nil` when the row names no civilian and spy columns.
    static func fromHeader(_ cells: [String]) -> ColumnMap? {
        let folded = cells.map(fold)
        func index(_ names: Set<String>) -> Int? { folded.firstIndex { names.contains($0) } }
        guard let civilian = index(civilianNames), let spy = index(spyNames) else { return nil }
        return ColumnMap(
            civilian: civilian, spy: spy, category: index(categoryNames), language: index(languageNames),
            label: index(labelNames), civilianClues: index(civilianClueNames), spyClues: index(spyClueNames))
    }

    /// Whether a row is made only of column names (so a header without word columns is not read as a pair,
    /// while a first pair such as "detective,spy" still is).
    static func looksLikeHeader(_ cells: [String]) -> Bool {
        let known = civilianNames.union(spyNames).union(categoryNames).union(languageNames).union(labelNames)
            .union(civilianClueNames).union(spyClueNames)
        let names = cells.map(fold).filter { !$0.isEmpty }
        return names.count >= 2 && names.allSatisfy { known.contains($0) }
    }

    /// The value of the first of `names` present in `fields`, trying names in a fixed order.
    static func first(_ names: Set<String>, in fields: [String: String]) -> String? {
        names.sorted().lazy.compactMap { fields[$0] }.first
    }

    func record(_ cells: [String], line: Int, unit: String = "line") -> RawRecord {
        func cell(_ index: Int?) -> String? {
            guard let index, index < cells.count else { return nil }
            return cells[index]
        }
        return RawRecord(
            line: line, unit: unit, civilian: cell(civilian) ?? "", spy: cell(spy) ?? "", category: cell(category),
            language: cell(language), label: cell(label), civilianClues: cell(civilianClues).map(BankParser.splitClues),
            spyClues: cell(spyClues).map(BankParser.splitClues))
    }

    /// The clues of a JSON field: an array of strings as they are, a string split like a cell.
    static func clueList(_ value: Any?) -> [String]? {
        switch value {
        case let array as [Any]: return array.map(JSONDocument.cellText)
        case nil: return nil
        default: return BankParser.splitClues(JSONDocument.cellText(value))
        }
    }
}
