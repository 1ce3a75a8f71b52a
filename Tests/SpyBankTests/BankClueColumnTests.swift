import Foundation
import SpyProtocol
import XCTest

@testable import SpyBank

/// Clue columns a sheet may carry next to its pairs (`civilian_clues`, `spy_clues`), read in every format with
/// named columns, each clue checked, and kept on the pair through the cache.
final class BankClueColumnTests: XCTestCase {
    private func parse(_ text: String) throws -> ParsedBank {
        try BankParser.parse(Array(text.utf8))
    }

    private func clues(_ bank: ParsedBank) -> [[String]] {
        bank.pairs.flatMap { [$0.civilianClues, $0.spyClues] }
    }

    func testCSVAndTSVHeadersSplitOnBarsAndIdeographicCommas() throws {
        let csv = try parse(
            "civilian,spy,civilian_clues,spy_clues\n"
                + "coffee,tea,roasted beans|wakes you up | milk foam,leaves in a bag|wakes you up\n"
                + "牛奶,豆漿,乳牛擠的、補鈣|白色的,黃豆磨的、白色的\n"
                + "cat,dog,,\n")
        XCTAssertEqual(
            clues(csv),
            [
                ["roasted beans", "wakes you up", "milk foam"], ["leaves in a bag", "wakes you up"],
                ["乳牛擠的", "補鈣", "白色的"], ["黃豆磨的", "白色的"], [], [],
            ])
        let tsv = try parse("Civilian Clues\tspy\tcivilian\tSpy-Clues\nroasted beans|milk foam\ttea\tcoffee\tleaves\n")
        XCTAssertEqual(tsv.format, .tsv)
        XCTAssertEqual(clues(tsv), [["roasted beans", "milk foam"], ["leaves"]])
        // Without a header there are no clue columns: extra cells stay what they always were.
        let positional = try parse("coffee,tea,Drinks,en,family,roasted beans\n")
        XCTAssertEqual(clues(positional), [[], []])
    }

    func testVisualizationLegacyFeedAndJSONObjectsCarryClues() throws {
        let gviz = try parse(
            #"google.visualization.Query.setResponse({"table":{"cols":[{"label":"civilian"},{"label":"spy"},"#
                + #"{"label":"civilian_clues"},{"label":"spy_clues"}],"rows":[{"c":[{"v":"coffee"},{"v":"tea"},"#
                + #"{"v":"roasted beans|milk foam"},{"v":"leaves in a bag"}]}]}});"#)
        XCTAssertEqual(gviz.format, .visualizationJSON)
        XCTAssertEqual(clues(gviz), [["roasted beans", "milk foam"], ["leaves in a bag"]])

        let feed = try parse(
            #"{"feed":{"entry":[{"gsx$civilianquestion":{"$t":"coffee"},"gsx$spyquestion":{"$t":"tea"},"#
                + #""gsx$civilianclues":{"$t":"roasted beans"},"gsx$spyclues":{"$t":"leaves|steeped"}}]}}"#)
        XCTAssertEqual(feed.format, .legacyFeed)
        XCTAssertEqual(clues(feed), [["roasted beans"], ["leaves", "steeped"]])

        let json = try parse(
            #"[{"civilian":"coffee","spy":"tea","civilian_clues":"roasted beans|milk foam","#
                + #""spy_clues":["leaves in a bag","green or black"]},["cat","dog"]]"#)
        XCTAssertEqual(json.format, .plainJSON)
        XCTAssertEqual(clues(json), [["roasted beans", "milk foam"], ["leaves in a bag", "green or black"], [], []])
    }

    func testBadCluesAreDroppedWithAReasonAndTheCountIsBounded() throws {
        let many = (1...(BankParser.maxCluesPerWord + 3)).map { "line \($0)" }.joined(separator: "|")
        let long = String(repeating: "x", count: BankParser.maxClueCharacters + 1)
        let bank = try parse(
            "civilian,spy,civilian_clues,spy_clues\n"
                + "coffee,tea,\(many),Leaves in a bag|LEAVES IN A BAG|\(long)|has TEA in it|not COFFEE at all|ok\n"
                + "牛奶,豆漿,\"bell\u{07}ring|全形ｍｉｌｋ\",喝牛奶長大\n")
        let pair = bank.pairs[0]
        XCTAssertEqual(pair.civilianClues, (1...BankParser.maxCluesPerWord).map { "line \($0)" })
        XCTAssertEqual(pair.spyClues, ["Leaves in a bag", "ok"])
        XCTAssertEqual(bank.pairs[1].civilianClues, ["全形ｍｉｌｋ"])
        XCTAssertEqual(bank.pairs[1].spyClues, [])
        XCTAssertTrue(bank.skipped.isEmpty, "\(bank.skipped)")
        let reasons = bank.droppedClues.map(\.description)
        XCTAssertEqual(reasons.count, 7, "\(reasons)")
        XCTAssertEqual(bank.droppedClues.map(\.line), [2, 2, 2, 2, 2, 3, 3])
        XCTAssertTrue(reasons[0].contains("more than \(BankParser.maxCluesPerWord) clues for coffee"), reasons[0])
        XCTAssertTrue(reasons[1].contains("repeats"), reasons[1])
        XCTAssertTrue(reasons[2].contains("longer than"), reasons[2])
        XCTAssertTrue(reasons[3].contains("contains the word tea"), reasons[3])
        XCTAssertTrue(reasons[4].contains("contains the word coffee"), reasons[4])
        XCTAssertTrue(reasons[5].contains("control character"), reasons[5])
        XCTAssertTrue(reasons[6].contains("contains the word 牛奶"), reasons[6])
    }

    func testCluesSurviveTheCacheAndOldFilesWithoutThemStillLoad() throws {
        let pair = WordPair(
            civilian: "coffee", spy: "tea", category: "Drinks", language: .en, civilianClues: ["roasted beans"],
            spyClues: ["leaves in a bag"])
        let directory = URL(fileURLWithPath: NSTemporaryDirectory())
            .appendingPathComponent("clue-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = BankCache(directory: directory)
        try cache.write("sheet", format: .csv, pairs: [pair])
        XCTAssertEqual(try cache.read("sheet").get().pairs, [pair])

        // A pair saved before clue columns existed has none; a pair without clues is written as before.
        let old = try JSONDecoder().decode(
            WordPair.self, from: Data(#"{"civilian":"coffee","spy":"tea","category":"","language":"en"}"#.utf8))
        XCTAssertEqual(old.civilianClues, [])
        XCTAssertEqual(old.spyClues, [])
        let plain = String(decoding: try JSONEncoder().encode(old), as: UTF8.self)
        XCTAssertFalse(plain.contains("clues"), plain)
    }

    func testExportWritesClueColumnsOnlyForPairsThatHaveThemAndReadsBack() throws {
        let plain = [WordPair(civilian: "牛奶", spy: "豆漿", category: "飲料")]
        XCTAssertFalse(BankExport.csv(plain).contains("clues"))
        let pairs =
            plain + [
                WordPair(
                    civilian: "coffee", spy: "tea", category: "Drinks", language: .en,
                    civilianClues: ["roasted beans", "hot, dark drink"], spyClues: ["leaves in a bag"])
            ]
        XCTAssertEqual(try parse(BankExport.csv(pairs)).pairs, pairs)
    }
}
