import Foundation
import SpyTestSupport
import Testing

@testable import SpyClient

/// The client's sentences in all three languages: every `pick` names a text for each, the Traditional one holds no
/// Simplified-only character, the Simplified one no Traditional-only character, and the English one no Han at all.
/// The character tables are the tests' own (`ScriptTables`, docs/TESTING.md).
@Suite struct ClientStringTableTests {
    static let sources = ["Strings.swift", "CategoryPicker.swift", "HostChoice.swift", "ClientOptions.swift"]

    static func source(_ name: String) throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return try String(contentsOf: root.appendingPathComponent("Sources/SpyClient/\(name)"), encoding: .utf8)
    }

    @Test func everyPickNamesThreeTextsEachInItsOwnScript() throws {
        var calls = 0
        for name in Self.sources {
            let text = try Self.source(name)
            for call in SwiftCalls.arguments(of: ["pick", "say"], in: text) where !call.isDeclaration {
                calls += 1
                let place = "\(name): \(call.arguments.first ?? "")"
                try #require(call.arguments.count == 3, "\(place) has \(call.arguments.count) texts")
                let (zhTW, zhHans, en) = (call.arguments[0], call.arguments[1], call.arguments[2])
                #expect(ScriptTables.simplifiedOnlyCharacters(in: zhTW).isEmpty, "zh-TW text \(zhTW)")
                #expect(ScriptTables.traditionalOnlyCharacters(in: zhHans).isEmpty, "zh-Hans text \(zhHans)")
                #expect(!Han.isIn(en) || en.contains("message"), "English text \(en) holds Han")
            }
        }
        // Every sentence the client has goes through a pick: far more than a handful are found.
        #expect(calls > 200)
    }

    @Test func theHelpIsWrittenInEachLanguagesScript() throws {
        #expect(ScriptTables.simplifiedOnlyCharacters(in: ClientOptions.usage(.zhTW)).isEmpty)
        #expect(ScriptTables.traditionalOnlyCharacters(in: ClientOptions.usage(.zhHans)).isEmpty)
        #expect(!Han.isIn(ClientOptions.usage(.en)))
        #expect(ClientOptions.usage(.zhHans) != ClientOptions.usage(.zhTW))
    }

    @Test func everyScreenSpeaksItsLanguagesScriptApartFromWhatPlayersTyped() throws {
        // Names, words and clues in the fixtures are the players' own, not the client's.
        let typed = ["李大華", "陳美玲", "歐陽美美子", "歐陽", "蘋果", "一天一個", "很常見的水果", "水梨", "橘子"]
        for scene in Fixtures.Scene.allCases {
            for size in SnapshotTests.sizes {
                for language in [Language.zhHans, .zhTW] {
                    var text = SnapshotTests.render(scene, language, size, color: false).joined(separator: "\n")
                    for word in typed { text = text.replacingOccurrences(of: word, with: "") }
                    let foreign = ScriptTables.foreignCharacters(in: text, simplified: language == .zhHans)
                    #expect(foreign.isEmpty, "\(scene) \(language): \(foreign)")
                }
            }
        }
    }

    @Test(arguments: [
        ("zh_CN.UTF-8", Language.zhHans), ("zh_SG", .zhHans), ("zh_Hans_CN", .zhHans), ("zh", .zhHans),
        ("zh-Hans", .zhHans), ("zh_TW.UTF-8", .zhTW), ("zh_HK.Big5", .zhTW), ("zh_MO", .zhTW), ("zh-Hant", .zhTW),
        ("zh_Hant_HK", .zhTW), ("en_US.UTF-8", .en), ("en", .en),
    ])
    func aLocaleNamesItsLanguage(locale: String, language: Language) {
        #expect(ClientOptions.environmentLanguage(["LANG": locale]) == language)
    }

    @Test func anUnknownLocaleIsEnglishAndLCAllComesFirst() {
        #expect(ClientOptions.environmentLanguage(["LANG": "C"]) == .en)
        #expect(ClientOptions.environmentLanguage(["LANG": "POSIX"]) == .en)
        #expect(ClientOptions.environmentLanguage(["LANG": "fr_FR.UTF-8"]) == .en)
        #expect(ClientOptions.environmentLanguage([:]) == .en)
        #expect(ClientOptions.environmentLanguage(["LC_ALL": "zh_TW.UTF-8", "LANG": "zh_CN.UTF-8"]) == .zhTW)
        #expect(ClientOptions.environmentLanguage(["LC_MESSAGES": "zh_CN.UTF-8", "LANG": "en_US.UTF-8"]) == .zhHans)
    }
}

/// Whether a text holds any Han character.
enum Han {
    static func isIn(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.value >= 0x3400 && $0.value < 0xA000 }
    }
}

/// The argument lists of calls to the named functions in Swift source, split at top-level commas, with string
/// literals (and their interpolations) taken whole.
enum SwiftCalls {
    struct Call {
        var arguments: [String]
        /// `func pick(…)` itself, not a call.
        var isDeclaration: Bool
    }

    static func arguments(of names: [String], in source: String) -> [Call] {
        let characters = Array(source)
        var calls: [Call] = []
        var index = 0
        while index < characters.count {
            guard let name = names.first(where: { matches($0, characters, at: index) }) else {
                index += 1
                continue
            }
            let before = index > 0 ? characters[index - 1] : " "
            let open = index + name.count
            guard !(before.isLetter || before.isNumber || before == "_"), open < characters.count,
                characters[open] == "("
            else {
                index += 1
                continue
            }
            let declaration = String(characters[max(0, index - 5)..<index]) == "func "
            let (arguments, end) = split(characters, openingAt: open)
            calls.append(Call(arguments: arguments, isDeclaration: declaration))
            index = end
        }
        return calls
    }

    private static func matches(_ name: String, _ characters: [Character], at index: Int) -> Bool {
        let name = Array(name)
        return index + name.count <= characters.count && Array(characters[index..<index + name.count]) == name
    }

    /// The top-level arguments of the call whose `(` is at `open`, and the index after its `)`.
    private static func split(_ characters: [Character], openingAt open: Int) -> ([String], Int) {
        var arguments: [String] = []
        var current = ""
        // Each entry is the paren depth at which a string literal was interrupted by `\(`.
        var interpolations: [Int] = []
        var depth = 0
        var inString = false
        var index = open
        while index < characters.count {
            let character = characters[index]
            if inString {
                if character == "\\", index + 1 < characters.count, characters[index + 1] == "(" {
                    interpolations.append(depth)
                    depth += 1
                    inString = false
                    current += "\\("
                    index += 2
                    continue
                }
                if character == "\\", index + 1 < characters.count {
                    current.append(character)
                    current.append(characters[index + 1])
                    index += 2
                    continue
                }
                if character == "\"" { inString = false }
                current.append(character)
                index += 1
                continue
            }
            switch character {
            case "\"":
                inString = true
                current.append(character)
            case "(":
                depth += 1
                if depth > 1 { current.append(character) }
            case ")":
                depth -= 1
                if let last = interpolations.last, last == depth {
                    interpolations.removeLast()
                    inString = true
                    current.append(character)
                } else if depth == 0 {
                    arguments.append(current.trimmingCharacters(in: .whitespacesAndNewlines))
                    return (arguments, index + 1)
                } else {
                    current.append(character)
                }
            case "," where depth == 1:
                arguments.append(current.trimmingCharacters(in: .whitespacesAndNewlines))
                current = ""
            default:
                current.append(character)
            }
            index += 1
        }
        return (arguments, index)
    }
}
