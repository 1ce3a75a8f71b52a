import Foundation
import SpyProtocol
import Testing
import XCTest

@testable import SpyBank

/// `spyd bank …` run in the test's process: what it wrote, line by line, and its exit code.
private struct BankCommandRun {
    var code: Int32
    var output: [String] = []
    var errors: [String] = []
    var text: String { output.joined(separator: "\n") }

    init(_ arguments: [String]) {
        var output: [String] = []
        var errors: [String] = []
        code = BankCommand.run(arguments, output: { output.append($0) }, errors: { errors.append($0) })
        (self.output, self.errors) = (output, errors)
    }
}

final class BankCommandTests: XCTestCase {
    private func run(_ arguments: [String]) -> BankCommandRun { BankCommandRun(arguments) }

    func testCheckReportsFormatPairsSkippedRowsAndCategories() throws {
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("bank.csv")
        try Data("civilian,spy,category\n牛奶,豆漿,飲料\ncoffee,tea,Drinks\nlonely,,Drinks\n貓,貓,動物\n".utf8)
            .write(to: file)
        let result = run(["check", file.path])
        XCTAssertEqual(result.code, 1, "two pairs are not a bank")
        XCTAssertEqual(
            result.output,
            [
                "source: \(file.path)",
                "  format: CSV",
                "  pairs: 2 pairs (1 zh-TW, 1 en)",
                "  skipped: 2",
                "    line 4: missing spy word",
                "    line 5: both words are the same (貓)",
                "  categories: 飲料, Drinks",
                "  unusable: only 2 pairs; a bank needs at least 5",
            ])
    }

    func testCheckFailsOnAnUnusableSourceButReportsTheOthers() throws {
        let directory = try TemporaryDirectory()
        let good = directory.url.appendingPathComponent("good.json")
        let bad = directory.url.appendingPathComponent("bad.csv")
        try Data(#"[["piano","guitar"]]"#.utf8).write(to: good)
        try Data("civilian,spy\nsame,same\n".utf8).write(to: bad)
        let result = run(["check", good.path, bad.path, directory.url.appendingPathComponent("none").path])
        XCTAssertEqual(result.code, 1)
        XCTAssertTrue(result.text.contains("  format: JSON array"), result.text)
        XCTAssertTrue(result.text.contains("  unusable: no usable pair in this CSV source"), result.text)
        XCTAssertTrue(result.text.contains("    line 2: both words are the same (same)"), result.text)
        XCTAssertTrue(result.text.contains("  unusable: no such file"), result.text)
    }

    func testCheckFetchesOverHTTPAndAcceptsSheetOptions() throws {
        let server = try TestHTTPServer { path in
            path == "/ok.tsv"
                ? .response(status: 200, body: Array("a\tb\nc\td\ne\tf\ng\th\ni\tj\n".utf8))
                : .response(status: 403, body: [])
        }
        defer { server.stop() }
        let good = run(["check", "--timeout=5", server.url("/ok.tsv")])
        XCTAssertEqual(good.code, 0)
        XCTAssertTrue(good.text.contains("  format: TSV"), good.text)
        XCTAssertTrue(good.text.contains("  categories: (none)"), good.text)

        let forbidden = run(["check", "--timeout", "5", server.url("/private")])
        XCTAssertEqual(forbidden.code, 1)
        XCTAssertTrue(forbidden.text.contains("HTTP 403"), forbidden.text)

        let badSheet = run(["check", "--sheet", "bad id"])
        XCTAssertEqual(badSheet.code, 1)
        XCTAssertTrue(badSheet.text.contains("not a spreadsheet ID"), badSheet.text)
    }

    func testUsageErrorsExitWith64() {
        for arguments in [
            [], ["frobnicate"], ["check"], ["check", "--bogus", "x"], ["check", "--timeout"],
            ["check", "--timeout=soon", "a.csv"], ["check", "--max-bytes=-1", "a.csv"], ["export", "extra"],
            ["export", "--language=fr"],
        ] {
            let result = run(arguments)
            XCTAssertEqual(result.code, 64, "\(arguments)")
            XCTAssertFalse(result.errors.isEmpty, "\(arguments)")
            XCTAssertTrue(result.output.isEmpty, "\(arguments)")
        }
    }

    func testHelpAndVersionGoToStandardOutput() {
        for (arguments, expected) in [
            (["--help"], "Usage: spyd bank check"), (["check", "--help"], "Usage: spyd bank check [options]"),
            (["export", "-h"], "Usage: spyd bank export [options]"), (["check", "--version"], "spyd bank check 1.2.3"),
        ] {
            var output: [String] = []
            var errors: [String] = []
            let code = BankCommand.run(
                arguments, version: "1.2.3", output: { output.append($0) }, errors: { errors.append($0) })
            XCTAssertEqual(code, 0, "\(arguments)")
            XCTAssertTrue(output.joined(separator: "\n").contains(expected), "\(arguments): \(output)")
            XCTAssertTrue(errors.isEmpty, "\(arguments)")
        }
    }

    func testEveryOutputCallIsOneLine() {
        for arguments in [[], ["--help"], ["nope"], ["check", "--help"], ["export", "--language", "en"]] {
            let result = run(arguments)
            for line in result.output + result.errors {
                XCTAssertFalse(line.contains("\n"), "\(arguments): \(line)")
            }
        }
    }

    func testUsageErrorsNameTheMistake() {
        XCTAssertEqual(run(["check", "--bogus", "x"]).errors.first, "spyd bank check: unknown option --bogus")
        XCTAssertEqual(run(["check"]).errors.first, "spyd bank check: name at least one SOURCE or --sheet ID")
        XCTAssertEqual(
            run(["export", "--language=fr"]).errors.first,
            "spyd bank export: --language: \"fr\" is not one of: zh-TW, en, both, zh-Hans, zh-Hans+en")
    }
}

/// `spyd bank export` writes the whole embedded bank with its clues, seconds of work in a debug build: under Swift
/// Testing these run beside the other suites, not in the XCTest run, where every test waits for the one before.
@Suite struct BankExportTests {
    @Test func exportRoundTripsThroughTheCSVParser() throws {
        // Without --language: `both`, the Traditional Chinese and English pairs.
        let result = BankCommandRun(["export"])
        #expect(result.code == 0)
        #expect(result.output.first == "civilian,spy,category,language,label,civilian_clues,spy_clues")
        let bank = try BankParser.parse(Array((result.text + "\n").utf8))
        #expect(bank.format == .csv)
        #expect(bank.pairs == BankExport.withEmbeddedClues(EmbeddedBank.pairs(in: .both)))
        #expect(bank.skipped.isEmpty)
        #expect(bank.droppedClues.isEmpty, "\(bank.droppedClues.prefix(3))")
        // The clue columns carry the embedded material: each word's own lines, and the lines that fit both words
        // listed for both words, so a host's sheet starts with what the bots say.
        for (exported, pair) in zip(bank.pairs, EmbeddedBank.pairs(in: .both)) {
            let civilian = ClueBook.clues(for: pair.civilian, in: pair).filter { line in
                [pair.civilian, pair.spy].allSatisfy { ClueShape.problem(line.text, word: $0) == nil }
            }
            #expect(!exported.civilianClues.isEmpty, "\(pair.civilian)")
            #expect(Array(exported.civilianClues.prefix(civilian.count)) == civilian.map(\.text), "\(pair.civilian)")
            for line in civilian where line.fitsPartner {
                #expect(exported.spyClues.contains(line.text), "\(pair.spy) lacks \(line.text)")
            }
        }
    }

    @Test func exportOneLanguage() throws {
        let result = BankCommandRun(["export", "--language", "en"])
        #expect(result.code == 0)
        let bank = try BankParser.parse(Array(result.text.utf8))
        #expect(bank.pairs == BankExport.withEmbeddedClues(EmbeddedBank.pairs(in: .en)))
    }

    @Test(arguments: [BankLanguage.zhHans, .bothHans])
    func exportTheSimplifiedChinesePairs(_ language: BankLanguage) throws {
        let result = BankCommandRun(["export", "--language", language.rawValue])
        #expect(result.code == 0)
        let bank = try BankParser.parse(Array(result.text.utf8))
        #expect(bank.pairs == BankExport.withEmbeddedClues(EmbeddedBank.pairs(in: language)))
        #expect(bank.droppedClues.isEmpty, "\(bank.droppedClues.prefix(3))")
        #expect(result.output.dropFirst().allSatisfy { $0.contains(",zh-Hans,") || $0.contains(",en,") })
    }
}
