import SpyProtocol
import Testing

@testable import SpyClient

@Suite struct PlainModeTests {
    @Test func commands() {
        let cases: [(String, PlainCommand)] = [
            ("", .empty), ("vote 3", .vote("3")), ("VOTE p3", .vote("p3")), ("投 3", .vote("3")),
            ("clue 很常見的 水果", .clue("很常見的 水果")), ("pass", .pass), ("word", .word), ("f", .word),
            ("start", .start), ("again", .start), ("kick 4", .kick("4")), ("guess 蘋果", .guess("蘋果")),
            ("quit", .quit), ("help", .help), ("who", .who), ("set spies 2", .settings(SettingsChange(spies: 2))),
            ("set blank on", .settings(SettingsChange(blank: true))),
            ("set clues typed", .settings(SettingsChange(clueMode: .typed))),
            ("set turn 60", .settings(SettingsChange(turnSeconds: 60))),
            ("set tie nobody", .settings(SettingsChange(tieRule: .nobody))),
            ("set blankrule guess", .settings(SettingsChange(blankRule: .guess))),
        ]
        for (line, expected) in cases {
            #expect(PlainMode.parse(line) == .success(expected), "\(line)")
        }
    }

    @Test func chineseCommandWordsInEitherScript() {
        let cases: [(String, PlainCommand)] = [
            ("過", .pass), ("过", .pass), ("說完", .pass), ("说完", .pass), ("忘詞", .word), ("忘词", .word),
            ("詞", .word), ("词", .word), ("開始", .start), ("开始", .start), ("再來", .start), ("再来", .start),
            ("離開", .quit), ("离开", .quit), ("說明", .help), ("说明", .help), ("類別", .categories),
            ("类别", .categories), ("允許", .answerClaim(allow: true)), ("允许", .answerClaim(allow: true)),
            ("拒絕", .answerClaim(allow: false)), ("拒绝", .answerClaim(allow: false)),
            ("設定 blank 開", .settings(SettingsChange(blank: true))),
            ("设置 blank 开", .settings(SettingsChange(blank: true))),
            ("设置 blank 关", .settings(SettingsChange(blank: false))),
            ("设置 类别 食物,动物", .settings(SettingsChange(categories: ["食物", "动物"]))),
        ]
        for (line, expected) in cases {
            #expect(PlainMode.parse(line) == .success(expected), "\(line)")
        }
    }

    @Test func badCommands() {
        #expect(PlainMode.parse("dance") == .failure(.unknown("dance")))
        for line in ["vote", "clue   ", "set spies", "set spies many", "set colour red", "set tie maybe"] {
            guard case .failure(.badArgument) = PlainMode.parse(line) else {
                Issue.record("accepted \(line)")
                continue
            }
        }
    }

    @Test func voteBySeatNumberIdOrName() {
        var state = Fixtures.state(.voting, language: .en)
        #expect(state.perform(.vote("4"), now: 0).0.messages == [.vote(.init(target: "p4"))])
        #expect(state.ballot == "p4")
        #expect(state.perform(.vote("p1"), now: 0).0.messages == [.vote(.init(target: "p1"))])
        #expect(state.perform(.vote("amy"), now: 0).0.messages == [.vote(.init(target: "p2"))])
        let (mine, lines) = state.perform(.vote("3"), now: 0)
        #expect(mine.messages.isEmpty)
        #expect(lines == ["No seat \"3\" to choose"])
        #expect(state.perform(.vote("9"), now: 0).0.messages.isEmpty)
    }

    @Test func pkVotesOnlyAmongTheTied() {
        var state = Fixtures.state(.pk, language: .zhTW)
        #expect(state.perform(.vote("2"), now: 0).0.messages.isEmpty)
        #expect(state.perform(.vote("5"), now: 0).0.messages == [.vote(.init(target: "p5"))])
    }

    @Test func wordComesFromMemory() {
        var state = Fixtures.state(.othersTurn, language: .zhTW)
        let (reaction, lines) = state.perform(.word, now: 0)
        #expect(reaction.messages.isEmpty)
        #expect(lines == ["你的詞：\(Fixtures.myWord)"])
        var fresh = Fixtures.joined(language: .en)
        #expect(fresh.perform(.word, now: 0).1 == ["No word dealt yet"])
    }

    @Test func eventLinesAreReadable() {
        let state = Fixtures.state(.result, language: .en)
        let lines = PlainMode.lines(for: state.log[...], state: state)
        #expect(lines.contains("· 陳美玲 is out: a civilian"))
        #expect(lines.contains("· 陳美玲 ← 王小明, 李大華, Bob the Builder"))
        #expect(lines.contains { $0.hasPrefix("» Voting opens — vote N: 1 王小明, 2 Amy, 4 陳美玲, 5 Bob the Builder") })
        #expect(!lines.joined().contains(Fixtures.otherWord))
        // Line mode tells its player their own word once, at the deal, with how to hear it again.
        #expect(
            lines.filter { $0.contains(Fixtures.myWord) } == [
                "» Your word: 蘋果 (type word to see it again; clear your screen to hide it)"
            ])
    }
}
