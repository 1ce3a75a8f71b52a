import Foundation
import SpyProtocol
import XCTest

@testable import SpyBank

final class BankParserTests: XCTestCase {
    private func parse(_ text: String) throws -> ParsedBank {
        try BankParser.parse(Array(text.utf8))
    }

    private func words(_ bank: ParsedBank) -> [String] {
        bank.pairs.map { "\($0.civilian)/\($0.spy)" }
    }

    private func parseError(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> BankParseError? {
        do {
            let bank = try parse(text)
            XCTFail("expected an error, got \(words(bank))", file: file, line: line)
            return nil
        } catch {
            return error as? BankParseError
        }
    }

    // MARK: Formats from fixtures

    func testLegacyListFeedExportAsTheSeedAppRead() throws {
        let bank = try parse(BankFixtures.legacyFeed)
        XCTAssertEqual(bank.format, .legacyFeed)
        XCTAssertEqual(words(bank), ["牛奶/豆漿", "蘋果/梨子", "coffee/tea"])
        XCTAssertEqual(bank.pairs.map(\.language), [.zhTW, .zhTW, .en])
        XCTAssertEqual(bank.skipped, [SkippedRow(line: 3, reason: "missing spy word", unit: "row")])
        XCTAssertEqual(bank.skipped.first?.description, "row 3: missing spy word")
    }

    func testVisualizationResponseWithCommentLineAndLabels() throws {
        let bank = try parse(BankFixtures.visualization)
        XCTAssertEqual(bank.format, .visualizationJSON)
        XCTAssertEqual(words(bank), ["牛奶/豆漿", "piano/guitar", "101/台北101"])
        XCTAssertEqual(bank.pairs.map(\.category), ["飲料", "Music", ""])
        XCTAssertEqual(bank.pairs.map(\.language), [.zhTW, .en, .zhTW])
        XCTAssertEqual(bank.skipped, [SkippedRow(line: 3, reason: "missing spy word", unit: "row")])
    }

    func testVisualizationResponseWithHeaderInTheFirstRow() throws {
        let bank = try parse(BankFixtures.visualizationUnlabelled)
        XCTAssertEqual(bank.format, .visualizationJSON)
        XCTAssertEqual(words(bank), ["餃子/包子", "貓/狗"])
        XCTAssertTrue(bank.skipped.isEmpty)
    }

    func testVisualizationErrorStatusIsReported() {
        guard case .malformed(.visualizationJSON, _, let reason) = parseError(BankFixtures.visualizationError) else {
            return XCTFail("expected a visualization error")
        }
        XCTAssertTrue(reason.contains("Sheet is not shared"), reason)
    }

    func testCSVWithCategoryLanguageAndLabelColumns() throws {
        let bank = try parse(BankFixtures.csvWithAllColumns)
        XCTAssertEqual(bank.format, .csv)
        XCTAssertEqual(
            bank.pairs,
            [
                WordPair(civilian: "牛奶", spy: "豆漿", category: "飲料", language: .zhTW, label: .family),
                WordPair(civilian: "coffee", spy: "tea", category: "Drinks", language: .en, label: .family),
                WordPair(civilian: "kiss", spy: "hug", category: "Party", language: .en, label: .party),
                WordPair(civilian: "蘋果", spy: "梨子", category: "水果", language: .zhTW, label: .family),
            ])
    }

    func testHeaderNamesAreRecognisedInAnyCaseAndOrder() throws {
        let seed = try parse("CivilianQuestion,SpyQuestion\n牛奶,豆漿\n")
        XCTAssertEqual(words(seed), ["牛奶/豆漿"])
        let chinese = try parse("類別,臥底,平民\n水果,梨子,蘋果\n")
        XCTAssertEqual(chinese.pairs, [WordPair(civilian: "蘋果", spy: "梨子", category: "水果")])
        let upper = try parse("SPY , CIVILIAN\ntea,coffee\n")
        XCTAssertEqual(words(upper), ["coffee/tea"])
    }

    func testWithoutHeaderTheFirstTwoColumnsAreTheWords() throws {
        let bank = try parse("牛奶,豆漿\ncoffee,tea,Drinks\n")
        XCTAssertEqual(words(bank), ["牛奶/豆漿", "coffee/tea"])
        XCTAssertEqual(bank.pairs.map(\.category), ["", "Drinks"])
        XCTAssertEqual(bank.pairs.map(\.language), [.zhTW, .en])
    }

    func testFirstPairThatContainsAColumnNameIsStillAPair() throws {
        let bank = try parse("detective,spy\ncat,dog\n")
        XCTAssertEqual(words(bank), ["detective/spy", "cat/dog"])
    }

    func testHeaderWithoutWordColumnsIsAnError() {
        guard case .malformed(.csv, let line, _) = parseError("category,language\n食物,zh-TW\n") else {
            return XCTFail("expected a header error")
        }
        XCTAssertEqual(line, 1)
    }

    func testTabSeparatedValues() throws {
        let bank = try parse("civilian\tspy\tcategory\n牛奶\t豆漿\t飲料, 早餐\npiano\tguitar\tMusic\n")
        XCTAssertEqual(bank.format, .tsv)
        XCTAssertEqual(words(bank), ["牛奶/豆漿", "piano/guitar"])
        XCTAssertEqual(bank.pairs.first?.category, "飲料, 早餐")
    }

    func testPlainJSONArrayOfObjects() throws {
        let bank = try parse(
            #"[{"civilian":"牛奶","spy":"豆漿","category":"飲料"},{"Civilian":"coffee","SPY":"tea","language":"en"},"#
                + #"{"civilian":"貓"},{"spy_word":"狗","civilian_word":"狼"}]"#)
        XCTAssertEqual(bank.format, .plainJSON)
        XCTAssertEqual(words(bank), ["牛奶/豆漿", "coffee/tea", "狼/狗"])
        XCTAssertEqual(bank.skipped, [SkippedRow(line: 3, reason: "missing spy word", unit: "row")])
    }

    func testPlainJSONArrayOfStringPairs() throws {
        let bank = try parse(#"[["牛奶","豆漿"],["piano","guitar","Music"],["only one"],42]"#)
        XCTAssertEqual(bank.format, .plainJSON)
        XCTAssertEqual(words(bank), ["牛奶/豆漿", "piano/guitar"])
        XCTAssertEqual(bank.pairs[1].category, "Music")
        XCTAssertEqual(bank.skipped.map(\.line), [3, 4])
    }

    // MARK: CSV edge cases

    func testQuotedCommasQuotesAndNewlinesInFields() throws {
        let csv = """
            civilian,spy,category
            "salt, fine","sugar, fine",Food
            "the ""big"" apple",pear,"Fruit"
            "fried
            rice",fried noodles,Food
            rice,,Food
            """
        let bank = try parse(csv)
        XCTAssertEqual(words(bank), ["salt, fine/sugar, fine", #"the "big" apple/pear"#, "fried rice/fried noodles"])
        // The quoted line break joins lines 4 and 5 into one row, so the next row is on line 6.
        XCTAssertEqual(bank.skipped, [SkippedRow(line: 6, reason: "missing spy word")])
    }

    func testByteOrderMarkCRLFBlankLinesAndSurroundingSpaces() throws {
        let text = "\u{FEFF}civilian,spy\r\n\r\n  牛奶 ,  豆漿\r\n\r\n coffee , tea \r\n,,\r\n"
        let bank = try parse(text)
        XCTAssertEqual(bank.format, .csv)
        XCTAssertEqual(words(bank), ["牛奶/豆漿", "coffee/tea"])
        XCTAssertTrue(bank.skipped.isEmpty, "\(bank.skipped)")
    }

    func testLineNumbersCountCRLFOnce() throws {
        let bank = try parse("civilian,spy\r\ncat,dog\r\nlonely\r\n\"a\r\nb\",c\r\nx,x\r\n")
        XCTAssertEqual(words(bank), ["cat/dog", "a b/c"])
        XCTAssertEqual(
            bank.skipped,
            [
                SkippedRow(line: 3, reason: "missing spy word"),
                SkippedRow(line: 6, reason: "both words are the same (x)"),
            ])
    }

    func testRaggedRowsAreReadOrSkippedWithLineNumbers() throws {
        let csv = "civilian,spy,category\ncat,dog\nwolf,fox,Animals,extra,cells\nlion\n,tiger,Animals\n"
        let bank = try parse(csv)
        XCTAssertEqual(words(bank), ["cat/dog", "wolf/fox"])
        XCTAssertEqual(bank.pairs.map(\.category), ["", "Animals"])
        XCTAssertEqual(
            bank.skipped,
            [
                SkippedRow(line: 4, reason: "missing spy word"),
                SkippedRow(line: 5, reason: "missing civilian word"),
            ])
    }

    func testEqualWordsAndDuplicatesInEitherOrderAreSkipped() throws {
        let bank = try parse("牛奶,豆漿\nCoffee,coffee\n豆漿,牛奶\ntea,coffee\n")
        XCTAssertEqual(words(bank), ["牛奶/豆漿", "tea/coffee"])
        XCTAssertEqual(
            bank.skipped,
            [
                SkippedRow(line: 2, reason: "both words are the same (Coffee)"),
                SkippedRow(line: 3, reason: "duplicate of the pair at line 1"),
            ])
    }

    func testUnterminatedQuoteSkipsTheRestWithItsLine() throws {
        let bank = try parse("cat,dog\n\"wolf,fox\nlion,tiger\n")
        XCTAssertEqual(words(bank), ["cat/dog"])
        XCTAssertEqual(bank.skipped.map(\.line), [2])
    }

    func testControlCharactersAndOverlongWordsAreSkipped() throws {
        let long = String(repeating: "x", count: BankParser.maxWordLength + 1)
        let bank = try parse("cat,dog\nbell\u{7},whistle\n\(long),short\n")
        XCTAssertEqual(words(bank), ["cat/dog"])
        XCTAssertEqual(bank.skipped.map(\.line), [2, 3])
    }

    /// Found by the bank fuzzer: a cell of only invisible characters is not empty, yet folds to nothing, so the
    /// pair could never be dealt.
    func testWordsOfOnlyInvisibleCharactersAreSkipped() throws {
        let bank = try parse("cat,dog\n\u{FEFF},tea\nmilk,\u{200B}\u{2060}\n")
        XCTAssertEqual(words(bank), ["cat/dog"])
        XCTAssertEqual(bank.skipped.map(\.line), [2, 3])
        XCTAssertTrue(bank.pairs.allSatisfy(\.isPlayable))
    }

    func testPairKeyFromFoldedWordsMatchesWordPairKey() {
        for (civilian, spy) in [("牛奶", "豆漿"), ("Tea", "coffee"), ("ＡＢＣ", "abd"), ("b", "a")] {
            XCTAssertEqual(
                BankParser.pairKey(TextFold.key(civilian), TextFold.key(spy)),
                WordPair(civilian: civilian, spy: spy).key)
        }
    }

    // MARK: Languages

    func testLanguageIsDetectedWhenTheSourceHasNone() throws {
        let bank = try parse("牛奶,豆漿\nT恤,襯衫\npiano,guitar\ncafé,thé\n")
        XCTAssertEqual(bank.pairs.map(\.language), [.zhTW, .zhTW, .en, .en])
    }

    func testLanguageColumnOverridesDetectionAndUnknownValuesFallBackToIt() throws {
        let bank = try parse("civilian,spy,language\ntofu,tempeh,中文\n牛奶,豆漿,English\n貓,狗,klingon\n")
        XCTAssertEqual(bank.pairs.map(\.language), [.zhTW, .en, .zhTW])
    }

    func testSimplifiedChineseIsDetectedByItsOwnCharacters() throws {
        // 浆 and 饺 are Simplified only; 牛奶/咖啡 is written alike in both scripts and follows the rest of the sheet.
        let mainland = try parse("牛奶,豆浆\n饺子,包子\n牛奶,咖啡\ncoffee,tea\n")
        XCTAssertEqual(mainland.pairs.map(\.language), [.zhHans, .zhHans, .zhHans, .en])
        let taiwan = try parse("牛奶,豆漿\n餃子,包子\n牛奶,咖啡\n")
        XCTAssertEqual(taiwan.pairs.map(\.language), [.zhTW, .zhTW, .zhTW])
        // Alone, or with as many rows of each script, a pair written alike in both is Traditional as it always was.
        XCTAssertEqual(try parse("牛奶,咖啡\n").pairs.map(\.language), [.zhTW])
        XCTAssertEqual(try parse("牛奶,豆浆\n牛奶,豆漿\n汽水,可乐\n").pairs.map(\.language), [.zhHans, .zhTW, .zhHans])
        XCTAssertEqual(try parse("牛奶,豆浆\n餃子,包子\n牛奶,咖啡\n").pairs.map(\.language)[2], .zhTW)
        XCTAssertEqual(BankParser.detectLanguage("猫和狗"), .zhHans)
        XCTAssertEqual(BankParser.detectLanguage("貓和狗"), .zhTW)
        XCTAssertEqual(BankParser.detectLanguage("这個"), .zhTW, "a Traditional-only character decides")
        XCTAssertEqual(BankParser.detectLanguage("狗"), .zhTW)
        XCTAssertEqual(BankParser.detectLanguage("dog"), .en)
    }

    func testLanguageCellsNameEachScript() {
        for cell in [
            "zh-Hans", "zh_Hans", "zh-CN", "zh_CN", "ZH-cn", "zh-Hans-CN", "zh_Hans_SG", "zh-SG", "简体中文", "简体",
            "簡體中文", "简中", "Simplified Chinese",
        ] {
            XCTAssertEqual(BankParser.parseLanguage(cell), .zhHans, cell)
        }
        // A bare zh or 中文 is how sheets written before zh-Hans existed named their Traditional pairs.
        for cell in ["zh-TW", "zh_TW", "zh-Hant", "zh-Hant-TW", "zh-HK", "繁體中文", "繁体中文", "繁中", "zh", "中文", "華語"] {
            XCTAssertEqual(BankParser.parseLanguage(cell), .zhTW, cell)
        }
        for cell in ["en", "English", "英文", "英語", "英语"] { XCTAssertEqual(BankParser.parseLanguage(cell), .en, cell) }
        for cell in ["", "both", "zh-Hans+en", "klingon"] { XCTAssertNil(BankParser.parseLanguage(cell), cell) }
    }

    func testTheSamePairInTwoScriptsIsTwoPairsOnlyWhenTheLanguageColumnSaysSo() throws {
        let bank = try parse("civilian,spy,language\n咖啡,可乐,zh-TW\n咖啡,可乐,zh-Hans\n咖啡,可乐,zh-CN\n可乐,咖啡,\n")
        XCTAssertEqual(bank.pairs.map(\.language), [.zhTW, .zhHans])
        // zh-CN is zh-Hans again, and a row that names no language is the same pair as any of them.
        XCTAssertEqual(bank.skipped.map(\.line), [4, 5])
        let unnamed = try parse("咖啡,可乐\n可乐,咖啡\n")
        XCTAssertEqual(unnamed.pairs.count, 1)
    }

    func testSimplifiedHeaderNames() throws {
        let bank = try parse("类别,平民词,卧底词,语言,标签,平民线索,卧底线索\n饮料,牛奶,豆浆,zh-CN,派对,白色的|早餐喝,黄豆做的\n")
        let pair = try XCTUnwrap(bank.pairs.first)
        XCTAssertEqual(
            [pair.civilian, pair.spy, pair.category, pair.language.rawValue], ["牛奶", "豆浆", "饮料", "zh-Hans"])
        XCTAssertEqual(pair.label, .party)
        XCTAssertEqual(pair.civilianClues, ["白色的", "早餐喝"])
        XCTAssertEqual(pair.spyClues, ["黄豆做的"])
    }

    // MARK: Unusable sources

    func testEmptyAndBlankSourcesAreErrors() {
        XCTAssertEqual(parseError(""), .empty)
        XCTAssertEqual(parseError("\u{FEFF}\r\n  \n"), .empty)
    }

    func testInvalidUTF8IsAnError() {
        XCTAssertThrowsError(try BankParser.parse([0x63, 0x2C, 0xFF, 0xFE, 0x0A])) { error in
            XCTAssertEqual(error as? BankParseError, .notText)
        }
    }

    func testUTF16WithByteOrderMarkIsRead() throws {
        let text = "civilian\tspy\r\n牛奶\t豆漿\r\n"
        let little: [UInt8] =
            [0xFF, 0xFE] + text.utf16.flatMap { unit -> [UInt8] in [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let big: [UInt8] =
            [0xFE, 0xFF] + text.utf16.flatMap { unit -> [UInt8] in [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
        for bytes in [little, big] {
            let bank = try BankParser.parse(bytes)
            XCTAssertEqual(bank.format, .tsv)
            XCTAssertEqual(words(bank), ["牛奶/豆漿"])
        }
    }

    func testSourceWithNoValidRowIsAnErrorListingTheRows() {
        guard case .noValidRows(.csv, let skipped) = parseError("civilian,spy\ncat,cat\ndog\n") else {
            return XCTFail("expected no valid rows")
        }
        XCTAssertEqual(skipped.map(\.line), [2, 3])
    }

    func testBrokenJSONReportsTheLine() {
        guard case .malformed(.plainJSON, let line, _) = parseError("[\n[\"a\",\"b\"],\n[\"c\" \"d\"]\n]") else {
            return XCTFail("expected malformed JSON")
        }
        XCTAssertEqual(line, 3)
    }

    func testJSONObjectThatIsNeitherFeedNorTableIsAnError() {
        guard case .malformed(.legacyFeed, _, _) = parseError(#"{"words": []}"#) else {
            return XCTFail("expected a feed error")
        }
    }

    func testErrorDescriptionsAreOneLine() {
        let errors: [BankParseError] = [
            .empty, .notText, .malformed(.csv, line: 3, reason: "x"),
            .noValidRows(.tsv, skipped: [SkippedRow(line: 2, reason: "missing spy word")]),
        ]
        for error in errors {
            XCTAssertFalse(error.description.contains("\n"), error.description)
        }
        XCTAssertEqual(
            BankParseError.noValidRows(.tsv, skipped: [SkippedRow(line: 2, reason: "missing spy word")]).description,
            "no usable pair in this TSV source, 1 rows skipped (first problem: line 2: missing spy word)")
    }

    // MARK: Export round trip

    func testExportedCSVParsesBackToTheSamePairs() throws {
        let pairs = [
            WordPair(civilian: "salt, fine", spy: #"say "hi""#, category: " spaced ", language: .en, label: .party),
            WordPair(civilian: "牛奶", spy: "豆漿", category: "飲料", language: .zhTW, label: .family),
        ]
        let bank = try parse(BankExport.csv(pairs))
        // Edge spaces of a category are not kept: cells are trimmed on the way in.
        var expected = pairs
        expected[0].category = "spaced"
        XCTAssertEqual(bank.pairs, expected)
    }
}
