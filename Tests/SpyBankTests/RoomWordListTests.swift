import Foundation
import SpyProtocol
import Testing

@testable import SpyBank

/// A room's own list as the owner pastes it: the separators people use, and every line refused with its number.
@Suite struct RoomWordListTests {
    func words(_ parsed: RoomWordList.Parsed) -> [[String]] {
        parsed.pairs.map { [$0.civilian, $0.spy] }
    }

    @Test func theSeparatorsPeopleUse() {
        let text = """
            牛奶,豆漿
            咖啡，奶茶
            cat\ttiger
            蘋果/梨子
            太陽／月亮
            老師——教授
            醫生—護士
              spaced out , words here  
            """
        let parsed = RoomWordList.parse(text)
        #expect(parsed.refused == [])
        #expect(
            words(parsed) == [
                ["牛奶", "豆漿"], ["咖啡", "奶茶"], ["cat", "tiger"], ["蘋果", "梨子"], ["太陽", "月亮"], ["老師", "教授"],
                ["醫生", "護士"], ["spaced out", "words here"],
            ])
        #expect(parsed.lines == Array(1...8))
        #expect(parsed.pairs[2].language == .en && parsed.pairs[0].language == .zhTW)
    }

    @Test func aCSVWithAHeaderIsReadByItsColumns() {
        let text = "category,spy,civilian\r\nfood,\"tea, green\",coffee\r\n動物,貓,狗\r\n,,\r\nx,only one,\r\n"
        let parsed = RoomWordList.parse(text)
        #expect(words(parsed) == [["coffee", "tea, green"], ["狗", "貓"]])
        #expect(parsed.lines == [2, 3])
        #expect(parsed.refused == [WordRefusal(line: 5, reason: .missingWord)])
        let chinese = RoomWordList.parse("平民,臥底\n手機,電腦\n")
        #expect(words(chinese) == [["手機", "電腦"]])
    }

    @Test func everyRefusalHasItsLineAndReason() {
        let lines = [
            "just-one-word",  // 1
            "a,b,c",  // 2
            "a,",  // 3
            "/b",  // 4
            String(repeating: "長", count: 41) + ",短",  // 5
            "tab\u{7}bell,x",  // 6
            "zero\u{200B}width,x",  // 7
            "\u{202E}evil,x",  // 8
            "...,？？",  // 9: folds to punctuation, kept; see below
            "Apple,ａｐｐｌｅ",  // 10
            "蘋果,蘋果汁",  // 11
            "Ice Cream, icecream",  // 12
            "牛奶,豆漿",  // 13
            "豆漿,牛奶",  // 14
            "\"unclosed,quote",  // 15
            "",  // 16: blank, not reported
            "\u{3164},x",  // 17
        ]
        let parsed = RoomWordList.parse(lines.joined(separator: "\n"))
        let reasons = Dictionary(parsed.refused.map { ($0.line, $0.reason) }, uniquingKeysWith: { first, _ in first })
        #expect(reasons[1] == .noSeparator)
        #expect(reasons[2] == .tooManyWords)
        #expect(reasons[3] == .missingWord)
        #expect(reasons[4] == .missingWord)
        #expect(reasons[5] == .tooLong)
        #expect(reasons[6] == .controlCharacter)
        #expect(reasons[7] == .invisibleCharacter)
        #expect(reasons[8] == .invisibleCharacter)
        #expect(reasons[10] == .sameWords)
        #expect(reasons[11] == .containsOther)
        #expect(reasons[12] == .sameWords, "spaces do not make two words different")
        #expect(reasons[13] == nil)
        #expect(parsed.refused.first { $0.line == 14 } == WordRefusal(line: 14, reason: .duplicate, other: 13))
        #expect(reasons[15] == .unclosedQuote)
        #expect(reasons[16] == nil)
        #expect(reasons[17] == .invisibleCharacter)
        #expect(parsed.lines == [9, 13])
    }

    @Test func aWordOfNothingVisibleIsRefused() {
        let parsed = RoomWordList.parse("\u{200D}\u{FE0F},x\n ,x")
        #expect(parsed.refused.map(\.reason) == [.invisibleCharacter, .missingWord])
    }

    @Test func aWordIsBoundedInBytesToo() {
        // 40 characters, each a letter with two marks: 200 bytes, over the 160 a word may have.
        let heavy = String(repeating: "e\u{0301}\u{0302}", count: 40)
        #expect(heavy.count == 40)
        #expect(RoomWordList.parse("\(heavy),plain").refused == [WordRefusal(line: 1, reason: .tooLong)])
        let light = String(repeating: "e\u{0301}", count: 40)
        #expect(RoomWordList.parse("\(light),plain").refused == [])
    }

    /// Ten thousand lines, a tenth of them bad: every bad line is reported with its number, every good one kept.
    @Test func tenThousandLines() {
        var lines: [String] = []
        for number in 1...10_000 {
            if number % 10 == 0 {
                lines.append("word\(number)")
            } else if number % 10 == 5 {
                lines.append("same\(number),SAME\(number)")
            } else {
                lines.append("civilian\(number)\tspy\(number)")
            }
        }
        let parsed = RoomWordList.parse(lines.joined(separator: "\r\n"))
        #expect(parsed.pairs.count == 8_000)
        #expect(parsed.refused.count == 2_000)
        #expect(
            parsed.refused.filter { $0.reason == .noSeparator }.map(\.line)
                == Array(stride(from: 10, through: 10_000, by: 10)))
        #expect(
            parsed.refused.filter { $0.reason == .sameWords }.map(\.line)
                == Array(stride(from: 5, through: 9_995, by: 10)))
        #expect(parsed.lines.first == 1 && parsed.lines.last == 9_999)
    }
}
