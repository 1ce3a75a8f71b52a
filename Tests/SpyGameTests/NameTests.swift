import Foundation
import SpyProtocol
import XCTest

@testable import SpyGame

/// Names that would impersonate a seated player or show as nothing are refused, each with its own reason.
final class NameTests: XCTestCase {
    private func refusal(_ name: String, in table: inout Table) -> Rejection? {
        if case .failure(let rejection) = table.room.apply(.join(name: name, bot: false), now: table.now) {
            return rejection
        }
        return nil
    }

    func testLookAlikesOfASeatedAmyAreRefused() {
        var table = Table()
        table.ok(.join(name: "Amy", bot: false))
        table.ok(.join(name: "Copy", bot: false))
        let cases: [(String, ErrorCode, String)] = [
            ("Amy\u{200D}", .badName, "Names may not contain invisible characters."),
            ("Amy\u{FEFF}", .badName, "Names may not contain invisible characters."),
            ("Amy\u{2060}", .badName, "Names may not contain invisible characters."),
            ("Am\u{00AD}y", .badName, "Names may not contain invisible characters."),
            ("\u{0410}my", .badName, "Names may not mix Latin, Greek and Cyrillic letters."),
            ("\u{202E}ymA", .badName, "Names may not contain text-direction controls."),
            ("\u{0391}my", .badName, "Names may not mix Latin, Greek and Cyrillic letters."),
            ("\u{0421}\u{043E}\u{0440}\u{0443}", .nameTaken, ""),  // all Cyrillic, drawn like "Copy"
            ("ＡＭＹ", .nameTaken, ""),
            ("amy", .nameTaken, ""),
            ("Åmy", .nameTaken, ""),
            ("A\u{030A}my", .nameTaken, ""),
        ]
        for (name, code, message) in cases {
            let rejection = refusal(name, in: &table)
            XCTAssertEqual(rejection?.code, code, "\(name.unicodeScalars.map { String($0.value, radix: 16) })")
            if !message.isEmpty { XCTAssertEqual(rejection?.message, message) }
        }
        XCTAssertEqual(table.room.playerIDs.count, 2)
    }

    func testNamesThatShowAsNothingAreRefused() {
        var table = Table()
        for name in ["\u{3164}", "\u{115F}", "\u{2800}", "\u{200B}", "Amy\u{2800}", "\u{3164}\u{3164}"] {
            let rejection = refusal(name, in: &table)
            XCTAssertEqual(rejection?.code, .badName, name.debugDescription)
            XCTAssertEqual(rejection?.message, "Names may not contain invisible characters.", name.debugDescription)
        }
        XCTAssertEqual(refusal(" \u{3000} ", in: &table)?.message, PlayerText.NameProblem.onlySpaces.message)
        XCTAssertEqual(refusal("\u{0301}Amy", in: &table)?.message, PlayerText.NameProblem.tooManyMarks.message)
        XCTAssertEqual(
            refusal("x" + String(repeating: "\u{0301}", count: 3), in: &table)?.message,
            PlayerText.NameProblem.tooManyMarks.message)
        XCTAssertEqual(
            refusal("Z" + String(repeating: "\u{0301}", count: 32_740), in: &table)?.message,
            PlayerText.NameProblem.tooManyBytes.message)
        XCTAssertTrue(table.room.playerIDs.isEmpty)
    }

    func testCJKAccentsAndEmojiNamesStillWorkAndAreKeptInNFC() {
        var table = Table(settings: GameSettings(maxPlayers: 20))
        for name in [
            "王小明", "李大華", "José", "Zoë", "Ελένη", "Дмитрий", "Amy Lee", "👍", "👨\u{200D}👩\u{200D}👧", "❤\u{FE0F}",
        ] {
            table.ok(.join(name: name, bot: false))
        }
        table.ok(.join(name: "Zoe\u{0308}y", bot: false))
        XCTAssertEqual(table.room.name(of: "p11"), "Zoëy", "kept in NFC")
        XCTAssertEqual(table.room.name(of: "p11")?.unicodeScalars.count, 4)
        table.refused(.join(name: "Jose", bot: false), .nameTaken)
        table.refused(.join(name: "amy  lee", bot: false), .nameTaken)
        // Scripts whose letters carry marks or join: Korean, Japanese, Arabic, Devanagari, Thai.
        for name in ["김민수", "さくら", "محمد", "नमस्ते", "สมชาย", "Amy王"] {
            table.ok(.join(name: name, bot: false))
        }
        XCTAssertEqual(table.room.playerIDs.count, 17)
    }
}
