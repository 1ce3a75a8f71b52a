import Foundation
import SpyProtocol
import XCTest

@testable import SpyBank

/// Clue lines that give a word away as plainly as saying it, in the embedded material and in a sheet's clue columns.
final class ClueShapeTests: XCTestCase {
    func testShapesThatGiveAWordAway() {
        XCTAssertNotNil(ClueShape.problem("羽毛做的球", word: "羽毛球"))
        XCTAssertNotNil(ClueShape.problem("保護大家的安全", word: "保全"))
        XCTAssertNotNil(ClueShape.problem("又叫乒乓", word: "桌球"))
        XCTAssertNotNil(ClueShape.problem("an aubergine in Britain", word: "eggplant"))
        XCTAssertNotNil(ClueShape.problem("a Torch in Britain", word: "flashlight"))
        XCTAssertNotNil(ClueShape.problem("has Coffee in it", word: "coffee"))
        // Mainland words by the names other places give them.
        XCTAssertNotNil(ClueShape.problem("北方人叫它马铃薯", word: "土豆"))
        XCTAssertNotNil(ClueShape.problem("西北叫洋芋", word: "土豆"))
        XCTAssertNotNil(ClueShape.problem("也叫番茄", word: "西红柿"))
        XCTAssertNotNil(ClueShape.problem("台湾叫凤梨", word: "菠萝"))
        XCTAssertNotNil(ClueShape.problem("四川叫抄手", word: "馄饨"))
        XCTAssertNotNil(ClueShape.problem("楼下修车的叫它机车", word: "摩托车"))
        // Sharing one character, or the other word's other names, is not a giveaway.
        XCTAssertNil(ClueShape.problem("炖牛肉时放几块", word: "土豆"))
        XCTAssertNil(ClueShape.problem("番茄炒蛋里的那个", word: "茄子"))
        XCTAssertNil(ClueShape.problem("打球要用拍子", word: "羽毛球"))
        XCTAssertNil(ClueShape.problem("the Olympic torch relay", word: "candle"))
        XCTAssertNil(ClueShape.problem("roasted beans", word: "coffee"))
    }

    func testEmbeddedLinesNeitherNameNorSpellOutNorRenameEitherWordOfTheirPair() {
        var offenders: [String] = []
        for pair in EmbeddedBank.pairs {
            for word in [pair.civilian, pair.spy] {
                for clue in ClueBook.clues(for: word, in: pair) {
                    for named in [pair.civilian, pair.spy] {
                        if let problem = ClueShape.problem(clue.text, word: named) {
                            offenders.append("\(word)=\(clue.text) (\(problem))")
                        }
                    }
                }
            }
        }
        XCTAssertEqual(
            offenders, [], "\(offenders.count) lines give a word away:\n" + offenders.joined(separator: "\n"))
    }

    func testASheetsClueThatSpellsOutOrRenamesAWordIsDroppedWithAWarning() throws {
        let bank = try BankParser.parse(
            Array(
                ("civilian,spy,civilian_clues,spy_clues\n"
                    + "羽毛球,網球,羽毛做的球|打球要用拍子,黃色的球|打球要用拍子\n"
                    + "eggplant,mushroom,purple skin|an aubergine,grows on logs|an aubergine\n").utf8))
        XCTAssertEqual(bank.pairs.count, 2)
        XCTAssertEqual(bank.pairs[0].civilianClues, ["打球要用拍子"])
        XCTAssertEqual(bank.pairs[0].spyClues, ["黃色的球", "打球要用拍子"])
        XCTAssertEqual(bank.pairs[1].civilianClues, ["purple skin"])
        XCTAssertEqual(bank.pairs[1].spyClues, ["grows on logs"])
        let reasons = bank.droppedClues.map(\.reason)
        XCTAssertEqual(reasons.count, 3, "\(reasons)")
        XCTAssertTrue(reasons[0].contains("spells out 羽毛球"), reasons[0])
        XCTAssertTrue(reasons[1].contains("calls eggplant aubergine"), reasons[1])
    }
}
