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

    /// The banner's `Pairs dealt:` line quoted for a host started with LANG=zh_TW.UTF-8 or LANG=zh_CN.UTF-8: the
    /// embedded pairs of the locale's script without the party ones (a room's defaults).
    func testTheDocsQuoteThePairsDealt() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs")
        for (locale, language) in [("zh_TW.UTF-8", BankLanguage.zhTW), ("zh_CN.UTF-8", .zhHans)] {
            var settings = GameSettings()
            settings.language = language
            let count = BankCatalog.matching(EmbeddedBank.pairs, settings).count
            let said = "\(language.rawValue), \(BankLoader.pairCount(count))"
            for name in ["BANK.md", "HOSTING.md"] {
                let text = try String(contentsOf: docs.appendingPathComponent(name), encoding: .utf8)
                let quotes = text.components(separatedBy: " (from LANG=\(locale))").dropLast()
                    .map { $0.components(separatedBy: CharacterSet(charactersIn: "`:")).last ?? "" }
                    .map { $0.trimmingCharacters(in: .whitespaces) }
                XCTAssertFalse(quotes.isEmpty, "\(name) quotes no pairs dealt from LANG=\(locale)")
                for quote in quotes { XCTAssertEqual(quote, said, name) }
            }
        }
    }
}
