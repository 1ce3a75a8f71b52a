import Foundation
import SpyTestSupport
import Testing

/// docs/RULES.md says every rule three times, in Traditional Chinese, Simplified Chinese and English: the same
/// sections, each Chinese text in its own script, and README's Simplified Chinese paragraph in Simplified characters.
@Suite struct RulesLanguageTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The text between the line `from` and the next line that starts with `until`.
    static func section(_ text: String, from: String, until: String) throws -> String {
        let start = try #require(text.range(of: "\n" + from + "\n"), "no \(from)")
        let rest = text[start.upperBound...]
        let end = rest.range(of: "\n" + until)?.lowerBound ?? rest.endIndex
        return String(rest[..<end])
    }

    @Test func theRulesHaveTheSameSectionsInEachLanguageEachInItsScript() throws {
        let rules = try Self.text("docs/RULES.md")
        let traditional = try Self.section(rules, from: "## 繁體中文", until: "## ")
        let simplified = try Self.section(rules, from: "## 简体中文", until: "## ")
        let english = try Self.section(rules, from: "## English", until: "## ")
        func shape(_ text: String) -> [Int] {
            let lines = text.split(separator: "\n")
            return [lines.filter { $0.hasPrefix("### ") }.count, lines.filter { $0.hasPrefix("|") }.count]
        }
        #expect(shape(traditional) == shape(english))
        #expect(shape(simplified) == shape(english))
        #expect(ScriptTables.foreignCharacters(in: traditional, simplified: false) == "")
        #expect(ScriptTables.foreignCharacters(in: simplified, simplified: true) == "")
        #expect(ScriptTables.taiwanOnlyWords(in: simplified) == [])
        // The bots, also said three times.
        let bots = try Self.section(rules, from: "## 機器人 / 机器人 / Bots", until: "## ")
        let paragraphs = bots.components(separatedBy: "\n`spyd --host --bots N` ")
        #expect(paragraphs.count == 4)
        if paragraphs.count == 4 {
            #expect(ScriptTables.foreignCharacters(in: paragraphs[1], simplified: false) == "")
            #expect(ScriptTables.foreignCharacters(in: paragraphs[2], simplified: true) == "")
        }
    }

    @Test func theReadmeHasASimplifiedChineseParagraph() throws {
        let readme = try Self.text("README.md")
        let simplified = try Self.section(readme, from: "## 简体中文", until: "## ")
        #expect(simplified.contains("spyd --host") && simplified.contains("swift test"))
        #expect(ScriptTables.foreignCharacters(in: simplified, simplified: true) == "")
    }
}
