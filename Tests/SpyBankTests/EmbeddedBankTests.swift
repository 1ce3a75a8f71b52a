import Foundation
import SpyProtocol
import XCTest

@testable import SpyBank

final class EmbeddedBankTests: XCTestCase {
    func testEachLanguageHoldsAtLeastThreeHundredPairs() {
        XCTAssertGreaterThanOrEqual(EmbeddedBank.pairs(in: .zhTW).count, 300)
        XCTAssertGreaterThanOrEqual(EmbeddedBank.pairs(in: .en).count, 300)
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
        for pair in EmbeddedBank.pairs(in: .zhTW) {
            for character in pair.civilian + pair.spy + pair.category {
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
