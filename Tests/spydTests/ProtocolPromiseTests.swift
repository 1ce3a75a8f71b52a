import Foundation
import SpyProtocol
import SpyTestSupport
import Testing

@testable import spyd

/// What docs/PROTOCOL.md promises a client, checked on the host built as `spyd --host` builds it (its bank and the
/// choices it checks against it), in the test's process with a manual clock.
@Suite struct HostProtocolPromiseTests {
    /// During a game a change of settings is the wrong phase, even one the bank would refuse.
    @Test func settingsDuringAGameAreTheWrongPhaseBeforeTheBankIsAsked() throws {
        let host = try CoreHost(["--seed", "3", "--language", "zh-TW"])
        defer { host.stop() }
        let players = try ["Ann", "Ben", "Cat", "Dan"].map { try TestPlayer(on: host, name: $0) }
        try players[0].send(.start)
        try players[0].waitForView("the game") { $0.phase == .describing }
        try players[0].send(.settings(SettingsChange(categories: ["Nope"])))
        guard case .error(let error) = try players[0].waitFor("a refusal", where: { $0.type == "error" }) else {
            return
        }
        #expect(error.code == .wrongPhase, "\(error)")
    }

    /// A room starts on the language of the host's locale, as the settings tables of RULES.md and PROTOCOL.md say.
    @Test func roomsStartOnTheLanguageOfTheHostsLocale() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs")
        let rules = try String(contentsOf: docs.appendingPathComponent("RULES.md"), encoding: .utf8)
        let protocolText = try String(contentsOf: docs.appendingPathComponent("PROTOCOL.md"), encoding: .utf8)
        #expect(rules.contains("`zh-Hans+en` | the host's locale (HOSTING.md) |"))
        #expect(rules.contains("簡體中文加英文 | 依主機的語系（見 HOSTING.md） |"))
        #expect(rules.contains("简体中文加英文 | 跟主机的系统语言走（见 HOSTING.md） |"))
        #expect(protocolText.contains("| `language` | string | the host's locale |"))
        for (locale, language) in [
            ("zh_TW.UTF-8", BankLanguage.zhTW), ("zh_CN.UTF-8", .zhHans), ("en_GB.UTF-8", .en), ("C", .en),
        ] {
            let parsed = try HostCommand.spec.parse(["--host"])
            let options = try HostCommand.options(from: parsed, environment: ["LANG": locale])
            #expect(options.settings.language == language, "\(locale)")
        }
    }
}
