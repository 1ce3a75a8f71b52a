import Foundation
import SpyGame
import SpyProtocol
import SpyTestSupport
import Testing

@testable import SpyHost
@testable import SpyStorage
@testable import spyd

@Suite struct CommandLineTests {
    private func parse(_ arguments: [String], environment: [String: String] = ["HOME": "/home/amy"]) throws
        -> HostOptions
    {
        try HostCommand.options(from: HostCommand.spec.parse(arguments), environment: environment)
    }

    @Test func defaultsMatchTheDocumentation() throws {
        let options = try parse(["--host"])
        #expect(options.port == 7777 && options.bind == nil && options.rooms == 1)
        #expect(options.stateDirectory == "/home/amy/.local/state/spyd")
        #expect(options.limits.helloSeconds == 10 && options.limits.pingSeconds == 30)
        #expect(options.limits.idleSeconds == 60 && options.limits.graceSeconds == 300)
        // Without a locale the pairs are English; everything else is the rules' default.
        #expect(options.settings == GameSettings(language: .en))
    }

    @Test func valuesAreReadInBothSpellings() throws {
        let options = try parse([
            "--host", "--port=0", "--bind", "127.0.0.1", "--clues", "typed", "--spies=2", "--blank",
            "--max-players", "8", "--lang", "zh-TW", "--seed", "9", "--no-state", "--bots", "3",
            "--turn-seconds", "30", "--log-level", "debug", "--bank", "a.csv", "--bank", "b.json",
        ])
        #expect(options.port == 0 && options.bind == "127.0.0.1" && options.seed == 9)
        #expect(options.settings.clueMode == .typed && options.settings.spies == 2 && options.settings.blank)
        #expect(options.settings.maxPlayers == 8 && options.settings.language == .zhTW)
        #expect(options.settings.turnSeconds == 30 && options.stateDirectory == nil && options.bots == 3)
        #expect(options.bankSources == ["a.csv", "b.json"] && options.logLevel == .debug)
    }

    @Test func theBotLevelIsNormalByDefaultAndReadInBothSpellings() throws {
        #expect(try parse(["--host"]).botLevel == .normal)
        #expect(try parse(["--host", "--bot-level", "hard"]).botLevel == .hard)
        #expect(try parse(["--host", "--bot-level=easy"]).botLevel == .easy)
    }

    @Test func theStateDirectoryFollowsXDG() throws {
        let options = try parse(["--host"], environment: ["XDG_STATE_HOME": "/var/state", "HOME": "/h"])
        #expect(options.stateDirectory == "/var/state/spyd")
    }

    @Test(arguments: [
        ["--port", "70000"], ["--clues", "sung"], ["--spies", "9"], ["--lang", "fr"], ["--seed", "-1"],
        ["--log-level", "loud"], ["--max-players", "3"], ["--ping-seconds", "60", "--idle-seconds", "30"],
        ["--turn-seconds", "5"], ["--bot-level", "expert"],
    ])
    func badValuesAreUsageErrors(arguments: [String]) {
        #expect(throws: UsageError.self) { try parse(["--host"] + arguments) }
    }

    @Test func theSpyWinRuleIsAnOptionWithTheSeedsRuleByDefault() throws {
        #expect(try parse(["--host"]).settings.spyWin == .three)
        #expect(try parse(["--host", "--spy-win", "parity"]).settings.spyWin == .parity)
        #expect(try parse(["--host", "--spy-win=three"]).settings.spyWin == .three)
        #expect(throws: UsageError.self) { try parse(["--host", "--spy-win", "half"]) }
        #expect(try run(["--help"]).output.contains("--spy-win three|parity"))
    }

    @Test func publicNamesAreRepeatableDNSNames() throws {
        #expect(try parse(["--host"]).publicNames.isEmpty)
        let names = try parse(["--host", "--public-name", "spy.lan", "--public-name=games.example"]).publicNames
        #expect(names == ["spy.lan", "games.example"])
        for bad in ["", "a b", "evil.example/x", "-a.lan"] {
            #expect(throws: UsageError.self) { try parse(["--host", "--public-name", bad]) }
        }
        #expect(try run(["--help"]).output.contains("--public-name NAME"))
        let refused = try run(["--host", "--public-name", "a b"])
        #expect(refused.status == 64 && refused.error.contains("--public-name"))
    }

    @Test func withoutHostThereIsNothingToDo() {
        #expect(throws: UsageError.self) { try parse([]) }
    }

    @Test(.tags(.shell)) func theBinaryExitsWithUsageCodes() throws {
        #expect(try run(["--help"]).status == 0)
        #expect(try run(["--help"]).output.contains("--state-dir"))
        #expect(try run(["--version"]).output.hasPrefix("spyd "))
        let bad = try run(["--host", "--port", "many"])
        #expect(bad.status == 64)
        #expect(bad.error.contains("--port"))
        #expect(try run(["--bogus"]).status == 64)
        let bank = try run(["bank", "--help"])
        #expect(bank.status == 0 && !bank.output.isEmpty)
        #expect(try run(["bank", "--no-such-option"]).status == 64)
    }

    private func run(_ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
        let result = try ProcessOutput.run(DaemonProcess.binary, arguments)
        return (result.status, result.out, result.err)
    }
}

@Suite struct HostPartsTests {
    @Test func tokensAre128RandomBitsInHex() {
        let tokens = (0..<200).map { _ in ResumeToken.make() }
        #expect(Set(tokens).count == 200)
        #expect(tokens.allSatisfy { $0.count == 32 && $0.allSatisfy { "0123456789abcdef".contains($0) } })
        #expect(ResumeToken.matches(tokens[0], tokens[0]))
        #expect(!ResumeToken.matches(tokens[0], tokens[1]))
        #expect(!ResumeToken.matches(String(tokens[0].dropLast()), tokens[0]))
        #expect(!ResumeToken.matches("", tokens[0]))
    }

    @Test func roomCodesAvoidLookAlikes() {
        var random = SplitMix64(seed: 3)
        for _ in 0..<500 {
            let code = RoomCode.make { random.next(below: $0) }
            #expect(code.count == 4)
            #expect(!code.contains { "ILO01".contains($0) })
            #expect(RoomCode.normalise(code.lowercased()) == code)
        }
        #expect(RoomCode.normalise("ABCI") == nil)
        #expect(RoomCode.normalise("ABCDE") == nil)
    }

    @Test func botCluesNeverContainTheirWord() {
        let pairs = [
            WordPair(civilian: "蘋果", spy: "梨子", category: "水果"),
            WordPair(civilian: "cat", spy: "dog", category: "pets", language: .en),
            WordPair(civilian: "Daily life", spy: "routine", category: "", language: .en),
            WordPair(civilian: "common", spy: "rare", category: "common things", language: .en),
        ]
        let knowledge = BotVocabulary(pairs: pairs).knowledge
        var random = SplitMix64(seed: 1)
        func hint(_ word: String?, _ language: BankLanguage) -> String? {
            var mind = BotMind(me: "p1", level: .easy, knowledge: knowledge)
            mind.observe(.deal(.init(game: 1, word: word)))
            mind.observe(
                .room(RoomView(room: "KFRW", phase: .describing, game: 1, settings: GameSettings(language: language))))
            return mind.clue(random: &random)
        }
        for word in ["蘋果", "梨子", "cat", "dog", "Daily life", "common", "rare", "Everyone"] {
            for _ in 0..<50 {
                let clue = hint(word, .both)
                if let clue { #expect(!TextFold.contains(clue, word: word), "\(clue) gives away \(word)") }
            }
        }
        // A word with no clue material gets no filler and no category name: the bot passes. So does a blank that
        // has heard nothing yet.
        for word in ["蘋果", "common"] where knowledge.material(word).isEmpty {
            #expect(hint(word, .both) == nil)
        }
        #expect(hint(nil, .en) == nil)
    }
}
