import Foundation
import SpyProtocol
import XCTest

@testable import SpyBank

/// The docs quote the embedded bank's summary as the host prints it ("embedded, N pairs (…)"); this keeps every
/// quote true when pairs are added or retired.
final class BankDocCountTests: XCTestCase {
    func testTheDocsQuoteTheEmbeddedBanksPairCounts() throws {
        let said = "embedded, \(BankLoader.summary(EmbeddedBank.pairs))"
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs")
        for name in ["BANK.md", "HOSTING.md"] {
            let text = try String(contentsOf: docs.appendingPathComponent(name), encoding: .utf8)
            let quotes = text.components(separatedBy: "embedded, ").dropFirst()
                .filter { $0.first?.isNumber == true }
                .map { "embedded, " + $0.prefix { $0 != ")" } + ")" }
            XCTAssertFalse(quotes.isEmpty, "\(name) quotes no embedded summary")
            for quote in quotes { XCTAssertEqual(quote, said, name) }
        }
    }

    /// The banner's `Pairs dealt:` line quoted for a host started with LANG=zh_TW.UTF-8: the embedded zh-TW pairs
    /// without the party ones (a room's defaults).
    func testTheDocsQuoteThePairsDealt() throws {
        var settings = GameSettings()
        settings.language = .zhTW
        let said = "zh-TW, \(BankLoader.pairCount(BankCatalog.matching(EmbeddedBank.pairs, settings).count))"
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs")
        for name in ["BANK.md", "HOSTING.md"] {
            let text = try String(contentsOf: docs.appendingPathComponent(name), encoding: .utf8)
            let quotes = text.components(separatedBy: " (from LANG=zh_TW.UTF-8)").dropLast()
                .map { $0.components(separatedBy: CharacterSet(charactersIn: "`:")).last ?? "" }
                .map { $0.trimmingCharacters(in: .whitespaces) }
            XCTAssertFalse(quotes.isEmpty, "\(name) quotes no pairs dealt")
            for quote in quotes { XCTAssertEqual(quote, said, name) }
        }
    }
}
