import Foundation

/// Parsing of a JSON document with the failure turned into a line number.
enum JSONDocument {
    /// Parses `text`; `firstLine` is the line of the source `text` starts on, for error messages.
    static func parse(_ text: some StringProtocol, as format: BankFormat, firstLine: Int = 1) throws(BankParseError)
        -> Any
    {
        let bytes = Array(text.utf8)
        do {
            return try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
        } catch {
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "not valid JSON"
            var line: Int?
            if let range = detail.range(of: #"character (\d+)"#, options: .regularExpression),
                let offset = Int(detail[range].split(separator: " ")[1])
            {
                line = firstLine + bytes.prefix(offset).count { $0 == UInt8(ascii: "\n") }
            }
            throw .malformed(format, line: line, reason: detail.trimmingCharacters(in: CharacterSet(charactersIn: ".")))
        }
    }

    /// A JSON scalar as cell text: strings as they are, numbers and booleans spelled out, anything else empty.
    static func cellText(_ value: Any?) -> String {
        switch value {
        case let string as String: return string
        case let number as NSNumber: return number.stringValue
        default: return ""
        }
    }
}

/// `google.visualization.Query.setResponse({...});`, the answer of a sheet's `gviz/tq` endpoint.
enum VisualizationFormat {
    static func records(from text: String) throws(BankParseError) -> [RawRecord] {
        guard let open = text.firstIndex(of: "{"), let close = text.lastIndex(of: "}"), open < close else {
            throw .malformed(.visualizationJSON, line: nil, reason: "no JSON object inside the response wrapper")
        }
        let firstLine = 1 + text[..<open].count { $0 == "\n" || $0 == "\r\n" }
        let object = try JSONDocument.parse(text[open...close], as: .visualizationJSON, firstLine: firstLine)
        guard let dictionary = object as? [String: Any] else {
            throw .malformed(.visualizationJSON, line: nil, reason: "the response is not a JSON object")
        }
        return try records(fromObject: dictionary)
    }

    static func records(fromObject response: [String: Any]) throws(BankParseError) -> [RawRecord] {
        if let status = response["status"] as? String, status == "error" {
            let errors = response["errors"] as? [[String: Any]] ?? []
            let message = errors.first.map { ($0["detailed_message"] ?? $0["message"]) as? String ?? "" } ?? ""
            throw .malformed(
                .visualizationJSON, line: nil, reason: "the sheet answered with an error: \(message)")
        }
        guard let table = response["table"] as? [String: Any], let rows = table["rows"] as? [Any] else {
            throw .malformed(.visualizationJSON, line: nil, reason: "no table.rows in the response")
        }
        let labels = (table["cols"] as? [Any] ?? []).map { ($0 as? [String: Any])?["label"] as? String ?? "" }
        var grid: [[String]] = rows.map { row in
            let cells = (row as? [String: Any])?["c"] as? [Any] ?? []
            return cells.map { cell in
                guard let cell = cell as? [String: Any] else { return "" }
                if let string = cell["v"] as? String { return string }
                return JSONDocument.cellText(cell["f"] ?? cell["v"])
            }
        }
        var map = ColumnMap.fromHeader(labels)
        var rowOffset = 1
        if map == nil, let first = grid.first, let header = ColumnMap.fromHeader(first) {
            // The sheet was read without header detection: the header is the first data row.
            map = header
            grid.removeFirst()
            rowOffset = 2
        }
        let columns = map ?? ColumnMap.positional
        return grid.enumerated().map { index, cells in
            var record = columns.record(cells, line: index + rowOffset, unit: "row")
            record.reportIfBlank = cells.contains { !$0.isEmpty }
            return record
        }
    }
}

/// The spreadsheet list feed JSON of the seed app: `feed.entry[]` with `gsx$civilianquestion.$t` and
/// `gsx$spyquestion.$t` (the column headers, lower-cased and stripped, prefixed with `gsx$`).
enum LegacyFeedFormat {
    static func records(fromObject object: Any) throws(BankParseError) -> [RawRecord] {
        guard let root = object as? [String: Any], let feed = root["feed"] as? [String: Any] else {
            throw .malformed(.legacyFeed, line: nil, reason: "no \"feed\" object (and no \"table\")")
        }
        guard let entries = feed["entry"] as? [Any] else {
            if feed["entry"] == nil { return [] }  // an empty sheet has no entry key at all
            throw .malformed(.legacyFeed, line: nil, reason: "feed.entry is not an array")
        }
        return entries.enumerated().map { index, entry in
            var columns: [String: String] = [:]
            for (key, value) in entry as? [String: Any] ?? [:] where key.hasPrefix("gsx$") {
                let text = JSONDocument.cellText((value as? [String: Any])?["$t"])
                columns[ColumnMap.fold(String(key.dropFirst(4)))] = text
            }
            func value(_ names: Set<String>) -> String? { ColumnMap.first(names, in: columns) }
            return RawRecord(
                line: index + 1, unit: "row", civilian: value(ColumnMap.civilianNames) ?? "",
                spy: value(ColumnMap.spyNames) ?? "", category: value(ColumnMap.categoryNames),
                language: value(ColumnMap.languageNames), label: value(ColumnMap.labelNames),
                civilianClues: value(ColumnMap.civilianClueNames).map(BankParser.splitClues),
                spyClues: value(ColumnMap.spyClueNames).map(BankParser.splitClues))
        }
    }
}

/// A plain JSON array: `[{"civilian": "牛奶", "spy": "豆漿", "category": "飲料"}, …]` or `[["牛奶", "豆漿"], …]`.
enum PlainJSONFormat {
    static func records(from text: String) throws(BankParseError) -> [RawRecord] {
        guard let items = try JSONDocument.parse(text, as: .plainJSON) as? [Any] else {
            throw .malformed(.plainJSON, line: nil, reason: "not an array")
        }
        return items.enumerated().map { index, item in
            switch item {
            case let object as [String: Any]:
                var fields: [String: String] = [:]
                var raw: [String: Any] = [:]
                for (key, value) in object {
                    fields[ColumnMap.fold(key)] = JSONDocument.cellText(value)
                    raw[ColumnMap.fold(key)] = value
                }
                func value(_ names: Set<String>) -> String? { ColumnMap.first(names, in: fields) }
                func clues(_ names: Set<String>) -> [String]? {
                    names.sorted().lazy.compactMap { raw[$0] }.first.flatMap(ColumnMap.clueList)
                }
                return RawRecord(
                    line: index + 1, unit: "row", civilian: value(ColumnMap.civilianNames) ?? "",
                    spy: value(ColumnMap.spyNames) ?? "", category: value(ColumnMap.categoryNames),
                    language: value(ColumnMap.languageNames), label: value(ColumnMap.labelNames),
                    civilianClues: clues(ColumnMap.civilianClueNames), spyClues: clues(ColumnMap.spyClueNames))
            case let array as [Any]:
                let cells = array.map(JSONDocument.cellText)
                return ColumnMap.positional.record(cells, line: index + 1, unit: "row")
            default:
                return RawRecord(line: index + 1, unit: "row", problem: "neither an object nor an array")
            }
        }
    }
}
