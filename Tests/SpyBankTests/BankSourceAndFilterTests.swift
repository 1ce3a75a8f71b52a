import Foundation
import SpyProtocol
import XCTest

@testable import SpyBank

final class BankSourceTests: XCTestCase {
    private func location(_ spec: String, sheet: Bool = false) -> BankSource.Location? {
        try? BankSource.parse(spec, sheet: sheet).get().location
    }

    private func remote(_ text: String) -> BankSource.Location { .remote(URL(string: text)!) }

    func testSheetIDBecomesTheCSVExportURL() {
        let id = "1xFqqMnqUFRNTnj_su5cW0hCgnj7Fw-kCaIJOO-NEApM"
        let export = "https://docs.google.com/spreadsheets/d/\(id)/export?format=csv"
        XCTAssertEqual(location(id, sheet: true), remote(export))
        XCTAssertEqual(location("\(id)#123", sheet: true), remote(export + "&gid=123"))
        XCTAssertEqual(location("\(id)#gid=77", sheet: true), remote(export + "&gid=77"))
        XCTAssertEqual(
            location("https://docs.google.com/spreadsheets/d/\(id)/edit#gid=5", sheet: true),
            remote(export + "&gid=5"))
        XCTAssertEqual(try BankSource.parse(" \(id) ", sheet: true).get().spec, id)
    }

    func testInvalidSheetIDsAreRefused() {
        for spec in ["bad id", "abc#", "abc#gid=x", "中文", "a/b", ""] {
            XCTAssertNil(location(spec, sheet: true), spec)
        }
    }

    func testURLsAndFiles() {
        XCTAssertEqual(location("http://127.0.0.1:8080/a.csv"), remote("http://127.0.0.1:8080/a.csv"))
        XCTAssertEqual(location("HTTPS://example.org/x"), remote("HTTPS://example.org/x"))
        XCTAssertEqual(location("file:///tmp/a.csv"), .file("/tmp/a.csv"))
        XCTAssertEqual(location("words/bank.csv"), .file("words/bank.csv"))
        XCTAssertEqual(BankSource.parse("ftp://x/y").failure, .unsupportedScheme("ftp"))
        XCTAssertEqual(BankSource.parse("http://").failure, .invalidURL("http://"))
        XCTAssertEqual(BankSource.parse("  ").failure, .empty)
        XCTAssertTrue(try BankSource.parse("https://a.b/c").get().isRemote)
        XCTAssertFalse(try BankSource.parse("c.csv").get().isRemote)
    }
}

final class BankFilterTests: XCTestCase {
    private let bank = [
        WordPair(civilian: "牛奶", spy: "豆漿", category: "飲料", language: .zhTW),
        WordPair(civilian: "蘋果", spy: "梨子", category: "水果", language: .zhTW),
        WordPair(civilian: "接吻", spy: "擁抱", category: "派對", language: .zhTW, label: .party),
        WordPair(civilian: "coffee", spy: "tea", category: "Drinks", language: .en),
        WordPair(civilian: "kiss", spy: "hug", category: "Party", language: .en, label: .party),
    ]

    private func civilians(_ settings: GameSettings) -> [String] {
        BankFilter.pairs(bank, for: settings).map(\.civilian)
    }

    func testLanguageFilter() {
        XCTAssertEqual(civilians(GameSettings(language: .zhTW)), ["牛奶", "蘋果"])
        XCTAssertEqual(civilians(GameSettings(language: .en)), ["coffee"])
        XCTAssertEqual(civilians(GameSettings(language: .both)), ["牛奶", "蘋果", "coffee"])
    }

    func testPartyPairsOnlyWhenAllowed() {
        XCTAssertEqual(civilians(GameSettings(language: .en, allowParty: true)), ["coffee", "kiss"])
    }

    func testCategoriesCompareFoldedAndEmptyMeansAll() {
        XCTAssertEqual(civilians(GameSettings(language: .both, categories: ["drinks", "飲料"])), ["牛奶", "coffee"])
        XCTAssertEqual(civilians(GameSettings(language: .both, categories: [""])), ["牛奶", "蘋果", "coffee"])
    }

    func testCategoriesTheTableChoseAreKeptEvenWhenNothingFitsAndTheReasonSaysWhy() {
        XCTAssertEqual(civilians(GameSettings(language: .en, categories: ["水果"])), [])
        XCTAssertEqual(civilians(GameSettings(language: .both, categories: ["派對", "Party"])), [])
        XCTAssertEqual(civilians(GameSettings(language: .both, allowParty: true, categories: ["派對"])), ["接吻"])
        XCTAssertEqual(
            BankFilter.emptyReason(bank, for: GameSettings(categories: ["派對", "Party"])),
            "The categories 派對, Party hold only party pairs, and party pairs are off.")
        XCTAssertEqual(
            BankFilter.emptyReason(bank, for: GameSettings(language: .en, categories: ["水果"])),
            "The categories 水果 have no pair in the language en.")
        XCTAssertEqual(
            BankFilter.emptyReason(bank, for: GameSettings(categories: ["no such"])),
            "The bank has no category named no such.")
    }

    func testEmptyResultWithoutCategoriesFallsBackToLanguageThenAll() {
        let partyOnly = [bank[4]]
        XCTAssertEqual(BankFilter.pairs(partyOnly, for: GameSettings(language: .en)), partyOnly)
        let chineseOnly = Array(bank.prefix(2))
        XCTAssertEqual(
            BankFilter.pairs(chineseOnly, for: GameSettings(language: .en)).map(\.civilian), ["牛奶", "蘋果"])
        XCTAssertEqual(BankFilter.pairs([], for: GameSettings()), [])
    }

    func testNeverEmptyForTheEmbeddedBank() {
        for language in BankLanguage.allCases {
            for party in [false, true] {
                // 食物 is spelled alike in both Chinese scripts.
                let named: [String] = language == .en ? ["Music"] : language.isMixed ? ["食物", "Music"] : ["食物"]
                for categories in [[]] + named.map({ [$0] }) {
                    let settings = GameSettings(language: language, allowParty: party, categories: categories)
                    XCTAssertFalse(BankFilter.pairs(EmbeddedBank.pairs, for: settings).isEmpty)
                }
            }
        }
    }

    func testCategoriesAndDeduplication() {
        XCTAssertEqual(BankFilter.categories(of: bank + bank), ["飲料", "水果", "派對", "Drinks", "Party"])
        let swapped = WordPair(civilian: "豆漿", spy: "牛奶", category: "其他")
        XCTAssertEqual(BankFilter.deduplicated([bank[0], swapped, bank[1]]), [bank[0], bank[1]])
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

final class FetchIndicatorTests: XCTestCase {
    func testPlainModeWritesOnlyLines() {
        let written = Locked<[String]>([])
        let indicator = FetchIndicator(animated: false) { text in written.update { $0.append(text) } }
        indicator.transfer(TransferStatus(source: "http://x/a.csv", received: 10, expected: nil))
        indicator.line("fetching http://x/a.csv")
        indicator.finish()
        XCTAssertEqual(written.value, ["fetching http://x/a.csv\n"])
    }

    func testTerminalModeDrawsASpinnerWithBytesAndClearsItForLines() {
        let written = Locked<[String]>([])
        let drawn = expectation(description: "spinner drawn")
        drawn.assertForOverFulfill = false
        let indicator = FetchIndicator(animated: true) { text in
            written.update { $0.append(text) }
            if text.contains("KiB") { drawn.fulfill() }
        }
        indicator.transfer(TransferStatus(source: "http://x/a.csv", received: 2048, expected: 4096))
        wait(for: [drawn], timeout: 5)
        indicator.line("done")
        let output = written.value
        XCTAssertTrue(output.contains { $0.contains("http://x/a.csv") && $0.contains("2.0 KiB of 4.0 KiB") })
        XCTAssertEqual(Array(output.suffix(2)), ["\r\u{1B}[2K", "done\n"])
    }

    /// What `bank check` relies on: once a transfer is over its spinner line is cleared, before the report is
    /// printed on standard output, and a late progress report does not bring it back.
    func testFinishedTransferClearsTheSpinnerForGood() {
        let written = Locked<[String]>([])
        let drawn = expectation(description: "spinner drawn")
        drawn.assertForOverFulfill = false
        let indicator = FetchIndicator(animated: true) { text in
            written.update { $0.append(text) }
            if text.contains("KiB") { drawn.fulfill() }
        }
        indicator.transfer(TransferStatus(source: "http://x/a.csv", received: 2048, expected: nil))
        wait(for: [drawn], timeout: 5)
        indicator.transfer(TransferStatus(source: "http://x/a.csv", received: 0, expected: nil, finished: true))
        indicator.transfer(TransferStatus(source: "http://x/a.csv", received: 4096, expected: nil))
        indicator.clear()
        let count = written.value.count
        XCTAssertEqual(written.value.last, "\r\u{1B}[2K")
        // The clear is synchronous and no timer is left: nothing is written afterwards.
        indicator.finish()
        XCTAssertEqual(written.value.count, count)
    }
}
