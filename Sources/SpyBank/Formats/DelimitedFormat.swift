import Foundation

/// CSV and TSV: RFC 4180 quoting, any line ending, a header row naming the columns or else positional columns.
enum DelimitedFormat {
    /// One parsed row with the line it starts on.
    struct Row: Equatable {
        var line: Int
        var cells: [String]
    }

    /// Tab when the first non-blank line has at least as many tabs as commas outside quotes, else comma.
    static func guessDelimiter(_ text: String) -> Unicode.Scalar {
        var tabs = 0
        var commas = 0
        var quoted = false
        var sawContent = false
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": quoted.toggle()
            case "\t" where !quoted: tabs += 1
            case "," where !quoted: commas += 1
            case "\n", "\r":
                if !quoted && (tabs + commas > 0 || sawContent) { return tabs > 0 && tabs >= commas ? "\t" : "," }
            default:
                if !scalar.properties.isWhitespace { sawContent = true }
            }
        }
        return tabs > 0 && tabs >= commas ? "\t" : ","
    }

    /// Splits `text` into rows of cells. Quotes may wrap a cell holding delimiters, line breaks or doubled quotes;
    /// characters after a closing quote are kept, as spreadsheets do. An unterminated quote ends the input.
    static func rows(_ text: String, delimiter: Unicode.Scalar) -> (rows: [Row], unterminatedQuoteLine: Int?) {
        var rows: [Row] = []
        var cells: [String] = []
        var cell = String.UnicodeScalarView()
        var line = 1
        var rowLine = 1
        var quoted = false
        var quoteLine = 0
        var afterQuote = false
        var previousWasCR = false

        func endCell() {
            cells.append(String(cell))
            cell = String.UnicodeScalarView()
            afterQuote = false
        }
        func endRow() {
            endCell()
            rows.append(Row(line: rowLine, cells: cells))
            cells = []
        }

        for scalar in text.unicodeScalars {
            let isCRLFTail = previousWasCR && scalar == "\n"
            previousWasCR = scalar == "\r"
            if scalar == "\n" || scalar == "\r" {
                if !isCRLFTail { line += 1 }
            }
            if quoted {
                if scalar == "\"" {
                    quoted = false
                    afterQuote = true
                } else {
                    cell.append(scalar)
                }
                continue
            }
            switch scalar {
            case "\"":
                if afterQuote {
                    cell.append("\"")  // a doubled quote inside a quoted cell
                    quoted = true
                    afterQuote = false
                } else if cell.allSatisfy({ $0 == " " }) {
                    cell = String.UnicodeScalarView()
                    quoted = true
                    quoteLine = line
                } else {
                    cell.append(scalar)  // a stray quote in the middle of an unquoted cell
                }
            case delimiter:
                endCell()
            case "\n", "\r":
                if isCRLFTail { continue }
                endRow()
                rowLine = line
            default:
                afterQuote = false
                cell.append(scalar)
            }
        }
        if quoted { return (rows, quoteLine) }
        if !cells.isEmpty || !cell.isEmpty { endRow() }
        return (rows, nil)
    }

    static func records(
        from text: String, delimiter: Unicode.Scalar, format: BankFormat
    ) throws(BankParseError) -> [RawRecord] {
        let (rows, unterminated) = rows(text, delimiter: delimiter)
        let contentRows = rows.filter { row in row.cells.contains { !BankParser.normalizedCell($0).isEmpty } }
        guard let first = contentRows.first else {
            if let unterminated {
                throw .malformed(format, line: unterminated, reason: "a quoted cell is never closed")
            }
            throw .empty
        }
        var map = ColumnMap.positional
        var dataRows = contentRows[...]
        if let header = ColumnMap.fromHeader(first.cells) {
            map = header
            dataRows = dataRows.dropFirst()
        } else if ColumnMap.looksLikeHeader(first.cells) {
            throw .malformed(
                format, line: first.line,
                reason: "the header names no civilian and spy columns (use civilian,spy or 平民,臥底)")
        }
        var records = dataRows.map { map.record($0.cells, line: $0.line) }
        if let unterminated {
            records.append(
                RawRecord(line: unterminated, problem: "a quoted cell is never closed; the rest of the file is ignored")
            )
        }
        return records
    }
}
