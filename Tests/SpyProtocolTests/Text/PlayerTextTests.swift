import Foundation
import Testing

@testable import SpyProtocol

@Suite struct PlayerTextTests {
    @Test func skeletonsFoldCaseWidthCompatibilityInvisiblesAndLookAlikes() {
        let amy = PlayerText.skeleton("Amy")
        for name in [
            "amy", "ＡＭＹ", "Amy\u{200D}", "Amy\u{FEFF}", "Am\u{00AD}y", "\u{0410}my", "\u{0391}my", "\u{0410}m\u{0443}",
            " Amy ",
        ] {
            #expect(PlayerText.skeleton(name) == amy, "\(name.debugDescription)")
        }
        #expect(PlayerText.looksAlike("Bill", "BiII"))
        #expect(PlayerText.looksAlike("B0B", "BOB"))
        #expect(PlayerText.looksAlike("Alice", "ＡＬＩＣＥ"))
        #expect(PlayerText.looksAlike("A1ice", "Alice"))
        // Merging I with l must not make capitals that look nothing alike the same once case is folded.
        #expect(!PlayerText.looksAlike("I", "L"))
        #expect(!PlayerText.looksAlike("Ian", "Lan"))
        #expect(PlayerText.skeleton("王小明") != PlayerText.skeleton("李大華"))
        #expect(PlayerText.skeleton("Amy") != PlayerText.skeleton("Ann"))
    }

    @Test func eachReasonHasItsOwnMessage() {
        let messages = [
            PlayerText.NameProblem.onlySpaces, .controlCharacters, .tooManyBytes, .directionControls,
            .invisibleCharacters, .tooManyMarks, .nothingVisible, .tooWide, .mixedScripts,
        ].map(\.message)
        #expect(Set(messages).count == messages.count)
    }

    @Test func namesAreBoundedInColumnsBytesAndMarks() {
        func problem(_ name: String) -> PlayerText.NameProblem? {
            PlayerText.nameProblem(PlayerText.normalisedName(name), raw: name)
        }
        #expect(problem("abcdefghijklmnop") == nil)
        #expect(problem("abcdefghijklmnopq") == .tooWide)
        #expect(problem("一二三四五六七八") == nil)
        #expect(problem("一二三四五六七八九") == .tooWide)
        #expect(problem("Bob\u{1B}[31m") == .controlCharacters)
        #expect(problem("Z\u{0301}\u{0301}") == nil)
        #expect(problem("x\u{0301}\u{0301}\u{0301}") == .tooManyMarks)
        #expect(problem("\u{0301}Amy") == .tooManyMarks)
        // Accented letters reach the byte bound before the column bound.
        #expect(problem(String(repeating: "𝐀", count: 16)) == nil)
        #expect(problem(String(repeating: "x\u{0302}\u{0303}", count: 12)) == nil)
        #expect(problem(String(repeating: "x\u{0302}\u{0303}", count: 13)) == .tooManyBytes)
        #expect(problem("\u{200B}") == .invisibleCharacters)
        #expect(problem("   ") == .onlySpaces)
    }

    @Test func cluesAreBoundedInCharactersBytesAndMarks() {
        #expect(PlayerText.clueProblem(String(repeating: "a", count: 100)) == nil)
        #expect(PlayerText.clueProblem(String(repeating: "a", count: 101)) != nil)
        #expect(PlayerText.clueProblem(String(repeating: "字", count: 100)) == nil)
        #expect(PlayerText.clueProblem(String(repeating: "😀", count: 100)) == nil)
        #expect(PlayerText.clueProblem(String(repeating: "😀", count: 101)) != nil)
        #expect(PlayerText.clueProblem(String(repeating: "e\u{0301}\u{0301}\u{0301}", count: 10)) == .tooManyMarks)
        let zalgo = String(repeating: "x" + String(repeating: "\u{0301}", count: 330), count: 100)
        #expect(PlayerText.clueProblem(zalgo) == .tooLong(characters: 100, bytes: 400))
        #expect(PlayerText.clueProblem("left\u{202E}right") == .directionControls)
    }

    @Test func invisibleCharactersCannotHideTheWordInAClue() {
        #expect(TextFold.contains("an ap\u{200B}ple a day", word: "apple"))
        #expect(TextFold.contains("an ap\u{00AD}ple a day", word: "apple"))
    }

    @Test func helloFieldsThatAreNeverShownAreBoundedToo() {
        #expect(
            PlayerText.helloProblem(.init(name: "Amy", room: "ABCD", token: String(repeating: "a", count: 32))) == nil)
        #expect(PlayerText.helloProblem(.init(name: "Amy", room: String(repeating: "A", count: 17))) != nil)
        #expect(PlayerText.helloProblem(.init(name: "Amy", token: String(repeating: "a", count: 65))) != nil)
        #expect(PlayerText.helloProblem(.init(name: "Amy", password: String(repeating: "p", count: 257))) != nil)
    }

    @Test func columnsOfEmojiAndMarksAreCountedAsPROTOCOLSays() {
        #expect(DisplayWidth.of("👨\u{200D}👩\u{200D}👧") == 6)
        #expect(DisplayWidth.of("❤\u{FE0F}") == 1)
        #expect(DisplayWidth.of("e\u{0301}") == 1)
        #expect(DisplayWidth.of("王小明") == 6)
    }
}
