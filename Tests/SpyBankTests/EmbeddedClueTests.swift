import Foundation
import SpyProtocol
import XCTest

@testable import SpyBank

final class EmbeddedClueTests: XCTestCase {
    /// Every word of the embedded bank of `language` with the words it is dealt against.
    private func partners(in language: BankLanguage) -> [String: [String]] {
        var partners: [String: [String]] = [:]
        for pair in EmbeddedBank.pairs(in: language) {
            partners[pair.civilian, default: []].append(pair.spy)
            partners[pair.spy, default: []].append(pair.civilian)
        }
        return partners
    }

    private func lines(in language: BankLanguage) -> [(word: String, clues: [Clue])] {
        ClueBook.decode(language == .zhTW ? ClueBook.traditionalChineseCluesText : ClueBook.englishCluesText)
    }

    func testEveryClueLineBelongsToAWordOfItsLanguageOnce() {
        for language in [BankLanguage.zhTW, .en] {
            let partners = partners(in: language)
            var seen = Set<String>()
            for line in lines(in: language) {
                XCTAssertNotNil(
                    partners[line.word], "clues for \(line.word), which is not an embedded \(language) word")
                XCTAssertTrue(seen.insert(line.word).inserted, "\(line.word) has two clue lines")
            }
        }
    }

    func testCluesAreEnoughTrueToTheirSideAndNeverNameAWord() {
        for language in [BankLanguage.zhTW, .en] {
            let partners = partners(in: language)
            for line in lines(in: language) {
                let word = line.word
                XCTAssertGreaterThanOrEqual(line.clues.count, 4, "\(word)")
                XCTAssertGreaterThanOrEqual(line.clues.filter { !$0.fitsPartner }.count, 2, "\(word)")
                var seen = Set<String>()
                for clue in line.clues {
                    XCTAssertTrue(seen.insert(TextFold.key(clue.text)).inserted, "\(word): \(clue.text) twice")
                    XCTAssertFalse(clue.text.isEmpty, "\(word)")
                    XCTAssertEqual(clue.text, clue.text.trimmingCharacters(in: .whitespaces), "\(word)")
                    XCTAssertFalse(clue.text.hasPrefix("~"), "\(word)")
                    XCTAssertFalse(TextFold.hasControlCharacters(clue.text), "\(word)")
                    XCTAssertLessThanOrEqual(clue.text.count, 60, "\(word): \(clue.text)")
                    for named in [word] + (partners[word] ?? []) {
                        XCTAssertFalse(
                            TextFold.contains(clue.text, word: named), "\(word): \(clue.text) names \(named)")
                    }
                }
            }
        }
    }

    func testEveryEmbeddedWordHasClueMaterialForItsPair() {
        for pair in EmbeddedBank.pairs {
            for word in [pair.civilian, pair.spy] {
                XCTAssertFalse(ClueBook.clues(for: word, in: pair).isEmpty, "\(word) (\(pair.civilian)/\(pair.spy))")
            }
        }
    }

    func testCluesAreWrittenInTheirWordsLanguage() {
        for language in [BankLanguage.zhTW, .en] {
            for line in lines(in: language) {
                let text = line.clues.map(\.text).joined(separator: " ")
                XCTAssertEqual(BankParser.detectLanguage(text), language, "\(line.word): \(text)")
            }
        }
    }

    func testDecodeReadsSharedMarksAndSkipsHeadingsAndBlankLines() {
        let lines = ClueBook.decode("## Drinks\n\ncoffee=bitter|~hot drink|beans|baristas\nnot a clue line\n")
        XCTAssertEqual(lines.count, 1)
        XCTAssertEqual(lines.first?.word, "coffee")
        XCTAssertEqual(
            lines.first?.clues,
            [
                Clue(text: "bitter", fitsPartner: false), Clue(text: "hot drink", fitsPartner: true),
                Clue(text: "beans", fitsPartner: false), Clue(text: "baristas", fitsPartner: false),
            ])
    }

    func testLookupFoldsTheWordAndChecksThePartner() {
        guard
            let pair = EmbeddedBank.pairs(in: .en).first(where: {
                !ClueBook.clues(for: $0.civilian, language: .en).isEmpty
            })
        else { return XCTFail("no English word has clues") }
        let clues = ClueBook.clues(for: pair.civilian, language: .en)
        XCTAssertEqual(ClueBook.clues(for: pair.civilian.uppercased(), language: .en), clues)
        XCTAssertEqual(ClueBook.clues(for: pair.civilian, language: .both), clues)
        XCTAssertEqual(ClueBook.clues(for: pair.civilian, language: .zhTW), [])
        XCTAssertEqual(ClueBook.clues(for: pair.civilian, in: pair), clues)
        let swapped = WordPair(civilian: pair.spy, spy: pair.civilian, category: "", language: .en)
        XCTAssertEqual(ClueBook.clues(for: pair.civilian, in: swapped), clues)
        // The same word against a partner from some sheet: the material was not written to avoid that partner.
        let foreign = WordPair(civilian: pair.civilian, spy: "zeppelin", category: "", language: .en)
        XCTAssertEqual(ClueBook.clues(for: pair.civilian, in: foreign), [])
        XCTAssertEqual(ClueBook.clues(for: "zeppelin", in: foreign), [])
        XCTAssertEqual(ClueBook.clues(for: "no such word", language: .both), [])
    }
}
