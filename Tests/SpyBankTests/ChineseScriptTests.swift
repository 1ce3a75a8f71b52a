import Foundation
import SpyProtocol
import SpyTestSupport
import XCTest

@testable import SpyBank

/// The characters the bank tells the two Chinese scripts apart by are the tests' tables, written by the same script.
final class ChineseScriptTests: XCTestCase {
    func testTheBanksTablesAreTheTestsTables() {
        XCTAssertEqual(ChineseScript.traditionalOnly, Set(ScriptTables.traditionalOnly.keys))
        XCTAssertEqual(ChineseScript.simplifiedOnly, Set(ScriptTables.simplifiedOnly.keys))
        XCTAssertTrue(ChineseScript.traditionalOnly.isDisjoint(with: ChineseScript.simplifiedOnly))
    }

    func testTheTablesHoldTheCharactersEveryReaderKnows() {
        for character in "們這個來時為說麵裏髮臺灣" {
            XCTAssertNotNil(ScriptTables.traditionalOnly[character], "\(character)")
        }
        for character in "们这个来时为说发湾着" {
            XCTAssertNotNil(ScriptTables.simplifiedOnly[character], "\(character)")
        }
        // Written alike, or a character of both scripts: 面 (面試), 里 (公里), 后 (皇后), 台 (台階), 後 (後來).
        for character in "人山水中面里后台後" {
            XCTAssertNil(ScriptTables.traditionalOnly[character], "\(character)")
            XCTAssertNil(ScriptTables.simplifiedOnly[character], "\(character)")
        }
        XCTAssertEqual(ScriptTables.simplifiedOnly["着"], ["著"])
        XCTAssertEqual(ScriptTables.traditionalOnly["裏"], ["里"])
        XCTAssertEqual(ScriptTables.convertedInBoth["後"], ["后"])
        XCTAssertEqual(ScriptTables.foreignCharacters(in: "這個好", simplified: true), "這 → 这, 個 → 个")
        XCTAssertEqual(ScriptTables.foreignCharacters(in: "这个好", simplified: false), "这 → 這, 个 → 個")
        XCTAssertEqual(ScriptTables.taiwanOnlyWords(in: "我用滑鼠看影片"), ["滑鼠", "影片"])
    }
}
