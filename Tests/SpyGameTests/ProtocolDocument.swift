import Foundation
import SpyProtocol

/// docs/PROTOCOL.md, read by the rules' tests that check what the document promises of the rules.
enum ProtocolDocument {
    static func text() throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return try String(contentsOf: root.appendingPathComponent("docs/PROTOCOL.md"), encoding: .utf8)
    }

    /// Whether the document says `sentence`, however its lines are wrapped.
    static func says(_ sentence: String) throws -> Bool {
        flattened(try text()).contains(flattened(sentence))
    }

    /// The text with every run of white space made one space.
    static func flattened(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The last column of the table "Which client messages are accepted when": each message's refusals, in the
    /// order the document says they are checked.
    static func refusals() throws -> [String: [ErrorCode]] {
        try refusalCells().mapValues { $0.compactMap(ErrorCode.init(rawValue:)) }
    }

    /// The refusal column as written, code by code.
    static func refusalCells() throws -> [String: [String]] {
        let text = try text()
        guard let start = text.range(of: "**Which client messages are accepted when.**") else { return [:] }
        var refusals: [String: [String]] = [:]
        var inTable = false
        for line in text[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
            guard line.hasPrefix("|") else {
                if inTable { break }
                continue
            }
            inTable = true
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let first = cells.first, first.hasPrefix("`"), let last = cells.last else { continue }
            let codes = backticked(last)
            for message in backticked(first) { refusals[message] = codes }
        }
        return refusals
    }

    /// The `code` spans of a table cell, in order.
    static func backticked(_ cell: String) -> [String] {
        cell.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }
            .map { String($0.element) }
    }
}
