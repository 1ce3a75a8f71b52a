import Foundation
import SpyProtocol
import XCTest

@testable import SpyBank

final class EmbeddedBankTests: XCTestCase {
    func testEachLanguageHoldsAtLeastSixHundredPairs() {
        XCTAssertGreaterThanOrEqual(EmbeddedBank.pairs(in: .zhTW).count, 600)
        XCTAssertGreaterThanOrEqual(EmbeddedBank.pairs(in: .en).count, 600)
        XCTAssertEqual(
            EmbeddedBank.pairs(in: .zhTW).count + EmbeddedBank.pairs(in: .en).count, EmbeddedBank.pairs.count)
    }

    func testNoPairIsRepeatedInEitherOrder() {
        var seen: [String: WordPair] = [:]
        for pair in EmbeddedBank.pairs {
            if let earlier = seen[pair.key] {
                XCTFail("\(pair.civilian)/\(pair.spy) repeats \(earlier.civilian)/\(earlier.spy)")
            }
            seen[pair.key] = pair
        }
    }

    func testNoWordContainsItsPartner() {
        // 豬/山豬, pen/pencil, shirt/T-shirt: a word inside the other gives the spy away (or makes the spy's word
        // the civilians' word with a prefix), and a clue for one cannot avoid naming the other.
        for pair in EmbeddedBank.pairs {
            XCTAssertFalse(TextFold.contains(pair.civilian, word: pair.spy), "\(pair.civilian)/\(pair.spy)")
            XCTAssertFalse(TextFold.contains(pair.spy, word: pair.civilian), "\(pair.civilian)/\(pair.spy)")
        }
    }

    func testEveryWordIsDealtInOnePairOnly() {
        // Across languages and sides: one word in two pairs would need two sets of clue material that avoid
        // different partners, and a table would meet the same word twice in an evening.
        var seen: [String: WordPair] = [:]
        for pair in EmbeddedBank.pairs {
            for word in [pair.civilian, pair.spy] {
                let key = TextFold.key(word).filter { !$0.isWhitespace }
                if let earlier = seen[key] {
                    XCTFail("\(word) is in \(pair.civilian)/\(pair.spy) and \(earlier.civilian)/\(earlier.spy)")
                }
                seen[key] = pair
            }
        }
    }

    func testEveryPairHasTwoDifferentCleanWordsAndACategory() {
        for pair in EmbeddedBank.pairs {
            let description = "\(pair.civilian)/\(pair.spy)"
            XCTAssertFalse(pair.civilian.isEmpty, description)
            XCTAssertFalse(pair.spy.isEmpty, description)
            XCTAssertNotEqual(TextFold.key(pair.civilian), TextFold.key(pair.spy), description)
            XCTAssertFalse(pair.category.isEmpty, description)
            for text in [pair.civilian, pair.spy, pair.category] {
                XCTAssertFalse(TextFold.hasControlCharacters(text), description)
                XCTAssertEqual(text, text.trimmingCharacters(in: .whitespaces), description)
                XCTAssertFalse(text.contains("|"), description)
            }
            XCTAssertLessThanOrEqual(pair.civilian.count, BankParser.maxWordLength, description)
            XCTAssertLessThanOrEqual(pair.spy.count, BankParser.maxWordLength, description)
        }
    }

    func testLanguagesMatchTheirScriptAndCategoryNames() {
        for pair in EmbeddedBank.pairs {
            let description = "\(pair.civilian)/\(pair.spy) [\(pair.category)]"
            switch pair.language {
            case .zhTW:
                // "OK繃", "T恤", "卡拉OK" mix in Latin letters, but every Chinese pair has a Han character somewhere.
                XCTAssertEqual(BankParser.detectLanguage(pair.civilian + pair.spy), .zhTW, description)
                XCTAssertEqual(BankParser.detectLanguage(pair.category), .zhTW, description)
            case .en:
                XCTAssertEqual(BankParser.detectLanguage(pair.civilian), .en, description)
                XCTAssertEqual(BankParser.detectLanguage(pair.spy), .en, description)
                XCTAssertEqual(BankParser.detectLanguage(pair.category), .en, description)
            case .both:
                XCTFail("a pair cannot be in both languages: \(description)")
            }
        }
    }

    func testChinesePairsUseTraditionalCharacters() {
        // Simplified forms of characters common in food, objects and places; their Traditional forms are used.
        let simplified = Set("们这个来时为说国么发经现门问电车东书长见头买卖饭面鸡鱼猪汤饺乐视机场医药钟马鸟龙")
        // 面 is also the Traditional character of 面試 (and of 麵 only in Simplified): drop it from such words first.
        let traditionalUses = ["面試"]
        for pair in EmbeddedBank.pairs(in: .zhTW) {
            let text = traditionalUses.reduce(pair.civilian + pair.spy + pair.category) {
                $0.replacingOccurrences(of: $1, with: "")
            }
            for character in text {
                XCTAssertFalse(simplified.contains(character), "\(pair.civilian)/\(pair.spy) has \(character)")
            }
        }
    }

    func testSomePairsAreLabelledPartyInEachLanguage() {
        for language in [BankLanguage.zhTW, .en] {
            let pairs = EmbeddedBank.pairs(in: language)
            let party = pairs.filter { $0.label == .party }
            XCTAssertGreaterThanOrEqual(party.count, 5, "\(language)")
            XCTAssertLessThan(party.count, pairs.count / 10, "\(language)")
        }
    }

    func testPairsAreGroupedIntoSeveralCategories() {
        for language in [BankLanguage.zhTW, .en] {
            let categories = BankFilter.categories(of: EmbeddedBank.pairs(in: language))
            XCTAssertGreaterThanOrEqual(categories.count, 10, "\(language)")
        }
    }
}
