import SpyProtocol
import Testing

@testable import SpyClient

/// The room's own word list in the terminal client: the owner's keys and commands, the report, the saved file.
@Suite struct WordsClientTests {
    let now: Millis = 1_000

    @Test func theWordFileGoesOnceTheFirstTimeThisPlayerOwnsTheRoomBetweenGames() {
        var state = Fixtures.joined(me: "p2", language: .en)
        state.wordsFile = "words.txt"
        #expect(state.wordsFileDue() == nil, "not the owner")
        var view = state.room!
        view.seats = view.seats.map { seat in
            var seat = seat
            seat.owner = seat.id == "p2"
            return seat
        }
        state.apply(.room(view), now: now)
        #expect(state.wordsFileDue() == "words.txt")
        #expect(state.wordsFileDue() == nil, "once")
        #expect(state.handle(.character("u"), now: now).action == .uploadWords("words.txt"))
    }

    @Test func theOwnersKeysAndCommands() {
        var state = Fixtures.state(.lobby, language: .en)
        #expect(state.handle(.character("o"), now: now).messages == [.settings(.init(wordSource: .ours))])
        #expect(state.handle(.character("u"), now: now).action == .none)
        #expect(state.notice == .evening(.noWordsFile))
        #expect(state.handle(.character("e"), now: now).messages == [.wordsExport])
        #expect(state.wordsExportPath == "spy-words-KXPT.csv")
        state.apply(.wordList(.init(pairs: [.init(civilian: "婚紗", spy: "禮服")])), now: now)
        let saved = state.takeWordsToSave()
        #expect(saved?.path == "spy-words-KXPT.csv" && saved?.pairs.count == 1)
        #expect(state.takeWordsToSave() == nil)
        #expect(PlainMode.parse("words list.txt") == .success(.words("list.txt")))
        #expect(PlainMode.parse("words clear") == .success(.wordsClear))
        #expect(PlainMode.parse("words export out.csv") == .success(.wordsExport("out.csv")))
        #expect(PlainMode.parse("words") == .failure(.badArgument("words")))
        #expect(PlainMode.parse("set words both") == .success(.settings(.init(wordSource: .oursAndBank))))
        #expect(PlainMode.parse("set words ours") == .success(.settings(.init(wordSource: .ours))))
    }

    @Test func theReportSaysEveryRefusedLine() {
        var state = Fixtures.state(.lobby, language: .en)
        state.apply(
            .wordsReport(
                .init(
                    added: 2, total: 9,
                    refused: [
                        .init(line: 3, reason: .noSeparator), .init(line: 5, reason: .duplicate, other: 1),
                        .init(line: 7, through: 9, reason: .listFull),
                    ], moreRefused: 4)), now: now)
        let english = Strings(language: .en)
        #expect(
            state.log.suffix(5).map(english.event) == [
                "Our words: 2 pairs added, 9 in all; 9 lines refused",
                "line 3: one word only (separate the two with , / —— or a tab)",
                "line 5: same pair as line 1 (kept once)", "lines 7–9: the list is full (500 pairs at most)",
                "4 more lines refused (not listed)",
            ])
        #expect(Strings(language: .zhTW).event(state.log.last!) == "還有 4 行沒收（沒有一一列出）")
        var view = state.room!
        view.wordCount = 9
        view.settings.wordSource = .oursAndBank
        #expect(english.settingsLine(view.settings).hasSuffix("words: ours and the bank"))
        state.apply(.room(view), now: now)
        #expect(PlainMode.seatLines(state).contains("  our words: 9 pairs"))
    }

    @Test func theSavedListReadsBackAsABankSheet() {
        let bytes = WordListFile.csv([.init(civilian: "a, b", spy: "=c"), .init(civilian: "婚紗", spy: "禮服")])
        #expect(String(decoding: bytes, as: UTF8.self) == "civilian,spy\r\n\"a, b\",'=c\r\n婚紗,禮服\r\n")
        #expect(WordFile.text([0xEF, 0xBB, 0xBF] + Array("a,b".utf8)) == "a,b")
        #expect(WordFile.text([0xFF, 0xFE, 0x00]) == nil)
    }
}
