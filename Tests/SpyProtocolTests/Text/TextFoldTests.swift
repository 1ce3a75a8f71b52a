import XCTest

@testable import SpyProtocol

final class TextFoldTests: XCTestCase {
    func testTheFastPathAgreesWithFoundationFolding() {
        var generator = SystemRandomNumberGenerator()
        let alphabet: [Character] =
            Array("aZ09 \t\n-'.!~") + ["牛", "奶", "豆", "漿", "蘋", "果", "㐀", "鿿", "é", "Ａ", "ß", "　", "\u{7}"]
        var fastPathsTaken = 0
        for _ in 0..<5_000 {
            let length = Int.random(in: 0...8, using: &generator)
            let text = String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
            if let simple = TextFold.simpleKey(text) {
                fastPathsTaken += 1
                XCTAssertEqual(simple, TextFold.foundationKey(text), "\(text.debugDescription)")
            }
            XCTAssertEqual(TextFold.key(text), TextFold.foundationKey(text), "\(text.debugDescription)")
        }
        XCTAssertGreaterThan(fastPathsTaken, 500)
    }

    func testFoldingExamples() {
        XCTAssertEqual(TextFold.key("  Coffee Tea \n"), "coffee tea")
        XCTAssertEqual(TextFold.key("ＣＯＦＦＥＥ"), "coffee")
        XCTAssertEqual(TextFold.key("Café"), "cafe")
        XCTAssertEqual(TextFold.key(" 牛奶 "), "牛奶")
        XCTAssertNil(TextFold.simpleKey("Café"))
        XCTAssertNil(TextFold.simpleKey("牛奶　"))
    }
}
