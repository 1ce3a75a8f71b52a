import Foundation
import SpyBank
import SpyProtocol
import SpyTestSupport
import Testing

@testable import spyd

/// A host on a mainland machine: `LANG=zh_CN.UTF-8 spyd --host` deals the embedded Simplified Chinese pairs and its
/// bots describe them with the Simplified material.
@Suite struct SimplifiedChineseHostTests {
    /// The locale as a mainland desktop sets it, with the variables that would outrank LANG emptied.
    static let mainland = ["LANG": "zh_CN.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""]

    @Test func aMainlandHostDealsSimplifiedPairsAndItsBotsDescribeThemInSimplifiedChinese() throws {
        let host = try CoreHost(
            ["--bots", "3", "--bot-delay-ms", "10", "--clues", "typed"], environment: Self.mainland)
        // What the host's "pairs dealt:" line says.
        let line = Spyd.languageLine(host.options, bank: host.bank)
        #expect(line.hasPrefix("zh-Hans, "), "\(line)")
        #expect(line.contains("(from LANG=zh_CN.UTF-8)"), "\(line)")
        let human = try TestPlayer(on: host, name: "小明")
        let view = try human.waitForView("bots seated") { $0.seats.filter(\.bot).count == 3 }
        #expect(view.settings.language == .zhHans)
        let table = Table([human])
        try table.start()
        let over = try #require(try table.play(advancing: host))
        let pair = try #require(
            EmbeddedBank.pairs(in: .zhHans).first { pair in
                Set([pair.civilian, pair.spy]) == Set([over.civilianWord, over.spyWord])
            }, "\(over.civilianWord)/\(over.spyWord) is no embedded zh-Hans pair")
        let material = Set(
            [pair.civilian, pair.spy].flatMap { ClueBook.clues(for: $0, in: pair) }.map(\.text))
        let clues = human.history.compactMap { message -> String? in
            if case .clue(let clue) = message, clue.player != human.id { return clue.text }
            return nil
        }
        #expect(!clues.isEmpty)
        for text in clues {
            #expect(material.contains(text), "\(text) is no zh-Hans line of \(pair.civilian)/\(pair.spy)")
            #expect(ScriptTables.traditionalOnlyCharacters(in: text).isEmpty, "\(text)")
        }
    }

    @Test(.tags(.shell)) func theBannerSpeaksSimplifiedChineseOnAMainlandHost() throws {
        let mainland = try DrawnBanner(environment: Self.mainland)
        #expect(mainland.lines.contains { $0.contains("谁是卧底 · Who is the Spy — the host is ready") })
        #expect(mainland.lines.contains { $0.contains("扫描加入 · Scan to join: http://127.0.0.1:") })
        #expect(mainland.lines.contains { $0.contains("Pairs dealt: zh-Hans, ") })
        #expect(!mainland.lines.contains { !ScriptTables.traditionalOnlyCharacters(in: $0).isEmpty })
        let taiwan = try DrawnBanner(environment: ["LANG": "zh_TW.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""])
        #expect(taiwan.lines.contains { $0.contains("誰是臥底 · Who is the Spy — the host is ready") })
        #expect(taiwan.lines.contains { $0.contains("掃描加入 · Scan to join: http://127.0.0.1:") })
        #expect(!taiwan.lines.contains { !ScriptTables.simplifiedOnlyCharacters(in: $0).isEmpty })
    }
}
