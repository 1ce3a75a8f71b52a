import Foundation

/// docs/PROTOCOL.md, read by the host's tests that check what the document promises of the host.
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

    static func flattened(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The codes of the table under "Error codes", with whether each is fatal.
    static func errorTable() throws -> [String: Bool] {
        let text = try text()
        guard let start = text.range(of: "## Error codes"), let end = text.range(of: "## Limits") else { return [:] }
        var table: [String: Bool] = [:]
        for line in text[start.upperBound..<end.lowerBound].split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 3, cells[1] == "yes" || cells[1] == "no" else { continue }
            table[cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))] = cells[1] == "yes"
        }
        return table
    }
}
