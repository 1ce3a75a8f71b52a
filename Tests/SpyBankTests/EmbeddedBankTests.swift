import Foundation
import SpyProtocol
import SpyTestSupport
import XCTest

@testable import SpyBank

final class EmbeddedBankTests: XCTestCase {
    func testEachLanguageHoldsAtLeastSixHundredPairsAndSimplifiedChineseSevenHundred() {
        XCTAssertGreaterThanOrEqual(EmbeddedBank.pairs(in: .zhTW).count, 600)
        XCTAssertGreaterThanOrEqual(EmbeddedBank.pairs(in: .en).count, 600)
        XCTAssertGreaterThanOrEqual(EmbeddedBank.pairs(in: .zhHans).count, 700)
        XCTAssertEqual(
            BankLanguage.pairLanguages.map { EmbeddedBank.pairs(in: $0).count }.reduce(0, +),
            EmbeddedBank.pairs.count)
    }

    func testAMixedTableDealsBothOfItsLanguagesAndNeverBothChineseScripts() {
        XCTAssertEqual(
            EmbeddedBank.pairs(in: .both), EmbeddedBank.pairs.filter { $0.language == .zhTW || $0.language == .en })
        XCTAssertEqual(
            EmbeddedBank.pairs(in: .bothHans),
            EmbeddedBank.pairs.filter { $0.language == .zhHans || $0.language == .en })
    }

    func testNoPairIsRepeatedInEitherOrderWithinALanguage() {
        // 咖啡/可乐 could be written alike in both Chinese scripts; each table deals one of them only.
        var seen: [String: WordPair] = [:]
        for pair in EmbeddedBank.pairs {
            let key = pair.language.rawValue + "\u{1F}" + pair.key
            if let earlier = seen[key] {
                XCTFail("\(pair.civilian)/\(pair.spy) repeats \(earlier.civilian)/\(earlier.spy)")
            }
            seen[key] = pair
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

    func testEveryWordIsDealtInOnePairOnlyWithinALanguage() {
        // Across sides, within a language: one word in two pairs would need two sets of clue material that avoid
        // different partners, and a table would meet the same word twice in an evening. 牛奶 of the Traditional
        // bank and 牛奶 of the Simplified one are dealt at different tables, each with its own partner and material
        // (ClueBook keys material per language). English words are never Chinese ones, so zh-TW and en share keys.
        var seen: [String: WordPair] = [:]
        for pair in EmbeddedBank.pairs {
            for word in [pair.civilian, pair.spy] {
                let key =
                    (pair.language == .zhHans ? "zh-Hans\u{1F}" : "") + TextFold.key(word).filter { !$0.isWhitespace }
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
                // Pairs written alike in both scripts (貓 is not, 狗 is) are read as Traditional.
                XCTAssertEqual(BankParser.detectLanguage(pair.civilian + pair.spy), .zhTW, description)
                XCTAssertEqual(BankParser.detectLanguage(pair.category), .zhTW, description)
            case .zhHans:
                XCTAssertNotEqual(BankParser.detectLanguage(pair.civilian + pair.spy), .en, description)
                XCTAssertNotEqual(BankParser.detectLanguage(pair.category), .en, description)
            case .en:
                XCTAssertEqual(BankParser.detectLanguage(pair.civilian), .en, description)
                XCTAssertEqual(BankParser.detectLanguage(pair.spy), .en, description)
                XCTAssertEqual(BankParser.detectLanguage(pair.category), .en, description)
            case .both, .bothHans:
                XCTFail("a pair cannot be in two languages: \(description)")
            }
        }
    }

    func testTraditionalPairsHoldNoSimplifiedOnlyCharacter() {
        for pair in EmbeddedBank.pairs(in: .zhTW) {
            let foreign = ScriptTables.foreignCharacters(
                in: pair.civilian + pair.spy + pair.category, simplified: false)
            XCTAssertEqual(foreign, "", "\(pair.civilian)/\(pair.spy) [\(pair.category)]")
        }
    }

    func testSimplifiedPairsHoldNoTraditionalOnlyCharacterAndNoTaiwanOnlyWord() {
        for pair in EmbeddedBank.pairs(in: .zhHans) {
            let text = pair.civilian + "|" + pair.spy + "|" + pair.category
            XCTAssertEqual(ScriptTables.foreignCharacters(in: text, simplified: true), "", text)
            XCTAssertEqual(ScriptTables.taiwanOnlyWords(in: text), [], text)
        }
    }

    func testAtLeastAHundredSimplifiedPairsAreNoConversionOfATraditionalOne() {
        // Written for the mainland, not converted: 高考/中考, 微信/QQ have no Taiwanese pair they convert from.
        let traditional = EmbeddedBank.pairs(in: .zhTW)
        let converted = EmbeddedBank.pairs(in: .zhHans).filter { pair in
            traditional.contains { source in
                (ScriptTables.isConversion(pair.civilian, of: source.civilian)
                    && ScriptTables.isConversion(pair.spy, of: source.spy))
                    || (ScriptTables.isConversion(pair.civilian, of: source.spy)
                        && ScriptTables.isConversion(pair.spy, of: source.civilian))
            }
        }
        XCTAssertGreaterThanOrEqual(EmbeddedBank.pairs(in: .zhHans).count - converted.count, 100)
    }

    func testTheScriptTablesKnowAConversionFromAnotherPair() {
        XCTAssertTrue(ScriptTables.isConversion("豆浆", of: "豆漿"))
        XCTAssertTrue(ScriptTables.isConversion("饼干", of: "餅乾"))
        XCTAssertTrue(ScriptTables.isConversion("猫", of: "貓"))
        XCTAssertFalse(ScriptTables.isConversion("鼠标", of: "滑鼠"))
        XCTAssertFalse(ScriptTables.isConversion("豆浆", of: "豆花"))
        XCTAssertFalse(ScriptTables.isConversion("豆漿", of: "豆浆"))
    }

    func testSomePairsAreLabelledPartyInEachLanguage() {
        for language in BankLanguage.pairLanguages {
            let pairs = EmbeddedBank.pairs(in: language)
            let party = pairs.filter { $0.label == .party }
            XCTAssertGreaterThanOrEqual(party.count, 5, "\(language)")
            XCTAssertLessThan(party.count, pairs.count / 10, "\(language)")
        }
    }

    func testPairsAreGroupedIntoSeveralCategories() {
        for language in BankLanguage.pairLanguages {
            let categories = BankFilter.categories(of: EmbeddedBank.pairs(in: language))
            XCTAssertGreaterThanOrEqual(categories.count, 10, "\(language)")
        }
    }
}
