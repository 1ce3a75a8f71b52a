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
}
