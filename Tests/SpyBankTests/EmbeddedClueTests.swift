import Foundation
import SpyProtocol
import SpyTestSupport
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
        switch language {
        case .zhTW: ClueBook.decode(ClueBook.traditionalChineseCluesText)
        case .zhHans: ClueBook.decode(ClueBook.simplifiedChineseCluesText)
        default: ClueBook.decode(ClueBook.englishCluesText)
        }
    }

    func testEveryClueLineBelongsToAWordOfItsLanguageOnce() {
        for language in BankLanguage.pairLanguages {
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
        for language in BankLanguage.pairLanguages {
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

    func testNoClueIsItsWordsCategoryName() {
        // A bot hears a category's name as filler that says nothing about a word (BotMind.isFiller): a line that is
        // only the category would count against the bot that says it.
        for language in BankLanguage.pairLanguages {
            var category: [String: String] = [:]
            for pair in EmbeddedBank.pairs(in: language) {
                category[pair.civilian] = pair.category
                category[pair.spy] = pair.category
            }
            for line in lines(in: language) {
                guard let name = category[line.word] else { continue }
                for clue in line.clues {
                    XCTAssertNotEqual(TextFold.key(clue.text), TextFold.key(name), "\(line.word): \(clue.text)")
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
        for language in BankLanguage.pairLanguages {
            for line in lines(in: language) {
                let text = line.clues.map(\.text).joined(separator: " ")
                let detected = BankParser.detectLanguage(text)
                // A Simplified line written alike in both scripts reads as Traditional; its characters are checked
                // below.
                if language == .zhHans {
                    XCTAssertNotEqual(detected, .en, "\(line.word): \(text)")
                } else {
                    XCTAssertEqual(detected, language, "\(line.word): \(text)")
                }
            }
        }
    }

    func testChineseCluesHoldNoCharacterOfTheOtherScript() {
        for (language, simplified) in [(BankLanguage.zhTW, false), (.zhHans, true)] {
            for line in lines(in: language) {
                let text = line.word + "=" + line.clues.map(\.text).joined(separator: "|")
                XCTAssertEqual(ScriptTables.foreignCharacters(in: text, simplified: simplified), "", text)
            }
        }
    }

    func testSimplifiedCluesSayNoTaiwanOnlyWord() {
        for line in lines(in: .zhHans) {
            for clue in line.clues {
                XCTAssertEqual(ScriptTables.taiwanOnlyWords(in: clue.text), [], "\(line.word): \(clue.text)")
            }
        }
    }

    func testEverySimplifiedWordHasTwelveCluesThreeOfThemSharedWithItsPartner() {
        // What bots need to describe a mainland word all game, blend in as a spy and be recognised by their side.
        let words = Set(EmbeddedBank.pairs(in: .zhHans).flatMap { [$0.civilian, $0.spy] })
        var short: [String] = []
        for line in lines(in: .zhHans) where words.contains(line.word) {
            let shared = line.clues.filter(\.fitsPartner).count
            if line.clues.count < 12 || shared < 3 {
                short.append("\(line.word): \(line.clues.count), \(shared) shared")
            }
        }
        XCTAssertEqual(short, [], "\(short.count) words lack clues")
        XCTAssertEqual(Set(lines(in: .zhHans).map(\.word)), words, "every zh-Hans word has one clue line")
    }

    func testTheSameWordInBothScriptsHasItsOwnLanguagesMaterial() {
        // A word written alike in both banks (牛奶) is looked up in the table's own language, against its own pair.
        let traditional = Dictionary(
            EmbeddedBank.pairs(in: .zhTW).flatMap { [($0.civilian, $0), ($0.spy, $0)] }, uniquingKeysWith: { a, _ in a }
        )
        for pair in EmbeddedBank.pairs(in: .zhHans) {
            for word in [pair.civilian, pair.spy] {
                guard let other = traditional[word] else { continue }
                XCTAssertEqual(ClueBook.clues(for: word, language: .zhHans), ClueBook.clues(for: word, in: pair), word)
                XCTAssertEqual(ClueBook.clues(for: word, language: .zhTW), ClueBook.clues(for: word, in: other), word)
                XCTAssertEqual(
                    ClueBook.clues(for: word, language: .bothHans), ClueBook.clues(for: word, in: pair), word)
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
