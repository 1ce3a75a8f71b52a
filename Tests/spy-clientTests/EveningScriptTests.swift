import Foundation
import SpyTestSupport
import Testing

/// The client's sentences written with `say(zhTW, zhHans, en)`: each Chinese text in its own script. Read from the
/// sources, as the interface shows only one Chinese today.
@Suite struct EveningScriptTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/SpyClient")

    /// The three literal arguments of every `say(` call in `text`, interpolations kept as written.
    static func sayCalls(in text: String) -> [[String]] {
        let scalars = Array(text.unicodeScalars)
        var calls: [[String]] = []
        var index = 0
        let opening = Array("say(".unicodeScalars)
        while index + opening.count <= scalars.count {
            guard Array(scalars[index..<index + opening.count]) == opening,
                index == 0 || !(CharacterSet.alphanumerics.contains(scalars[index - 1]))
            else {
                index += 1
                continue
            }
            index += opening.count
            var arguments: [String] = []
            while arguments.count < 3 {
                while index < scalars.count,
                    CharacterSet.whitespacesAndNewlines.contains(scalars[index])
                        || scalars[index] == ","
                {
                    index += 1
                }
                guard index < scalars.count, scalars[index] == "\"", let (literal, end) = literal(scalars, at: index)
                else { break }
                arguments.append(literal)
                index = end
            }
            if arguments.count == 3 { calls.append(arguments) }
        }
        return calls
    }

    /// The string literal starting at `start` (a `"`) and the index after it; interpolations are skipped whole.
    static func literal(_ scalars: [Unicode.Scalar], at start: Int) -> (String, Int)? {
        var index = start + 1
        var text = String.UnicodeScalarView()
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\"" { return (String(text), index + 1) }
            if scalar == "\\", index + 1 < scalars.count, scalars[index + 1] == "(" {
                var depth = 1
                index += 2
                while index < scalars.count, depth > 0 {
                    if scalars[index] == "\"", let (_, end) = literal(scalars, at: index) {
                        index = end
                        continue
                    }
                    if scalars[index] == "(" { depth += 1 }
                    if scalars[index] == ")" { depth -= 1 }
                    index += 1
                }
                text.append("·")
                continue
            }
            if scalar == "\\" { index += 1 }
            if index < scalars.count { text.append(scalars[index]) }
            index += 1
        }
        return nil
    }

    @Test func eachChineseTextIsInItsOwnScript() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.sources.path).filter {
            $0.hasSuffix(".swift")
        }
        var calls: [[String]] = []
        for file in files {
            let text = try String(contentsOf: Self.sources.appendingPathComponent(file), encoding: .utf8)
            calls += Self.sayCalls(in: text)
        }
        #expect(calls.count > 20)
        for call in calls {
            #expect(ScriptTables.foreignCharacters(in: call[0], simplified: false) == "", "zh-TW: \(call[0])")
            #expect(ScriptTables.foreignCharacters(in: call[1], simplified: true) == "", "zh-Hans: \(call[1])")
            #expect(ScriptTables.taiwanOnlyWords(in: call[1]) == [], "zh-Hans: \(call[1])")
            #expect(!call[2].unicodeScalars.contains { (0x4E00...0x9FFF).contains($0.value) }, "en: \(call[2])")
        }
    }
}
