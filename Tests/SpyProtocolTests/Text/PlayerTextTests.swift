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

    /// The skeleton skips Foundation for text it takes to fold as itself. Each scalar it takes so is checked
    /// against Foundation here, alone and inside longer names, so a wrong range cannot merge or split names.
    @Test func scalarsTheSkeletonFoldsWithoutFoundationFoldTheSameWithIt() {
        let folded: String.CompareOptions = [.caseInsensitive, .widthInsensitive, .diacriticInsensitive]
        let kept: String.CompareOptions = [.widthInsensitive, .diacriticInsensitive]
        var alone: [Unicode.Scalar] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value), PlayerText.foldsAsItself(scalar) else { continue }
            alone.append(scalar)
            let text = String(scalar)
            #expect(text.precomposedStringWithCompatibilityMapping == text, "\(value)")
            #expect(text.folding(options: kept, locale: nil) == text, "\(value)")
            #expect(text.folding(options: folded, locale: nil) == text.lowercased(), "\(value)")
            #expect(Confusables.latin(for: scalar) == nil, "\(value)")
            #expect(!scalar.properties.isDefaultIgnorableCodePoint && !PlayerText.isBlankLooking(scalar))
        }
        #expect(alone.count == 95 + 0x5200)
        var random = SplitMix64(seed: 17)
        for _ in 0..<2_000 {
            let length = Int(random.next() % 12) + 1
            let scalars = (0..<length).map { _ in alone[Int(random.next() % UInt64(alone.count))] }
            let name = String(String.UnicodeScalarView(scalars))
            for keepingCase in [false, true] {
                #expect(
                    PlayerText.skeleton(name, keepingCase: keepingCase)
                        == Self.skeletonThroughFoundation(name, keepingCase: keepingCase), "\(name.debugDescription)")
            }
        }
    }

    /// The skeleton as it is worked out for any text, Foundation's normalisation and folding included.
    private static func skeletonThroughFoundation(_ name: String, keepingCase: Bool) -> String {
        var mapped = String.UnicodeScalarView()
        for scalar in name.precomposedStringWithCompatibilityMapping.unicodeScalars {
            if scalar.properties.isDefaultIgnorableCodePoint || PlayerText.isBlankLooking(scalar) { continue }
            mapped.append(Confusables.latin(for: scalar) ?? scalar)
        }
        let options: String.CompareOptions =
            keepingCase
            ? [.widthInsensitive, .diacriticInsensitive] : [.caseInsensitive, .widthInsensitive, .diacriticInsensitive]
        var result = String.UnicodeScalarView()
        var lastWasSpace = true
        for scalar in String(mapped).folding(options: options, locale: nil).unicodeScalars {
            if scalar.properties.isWhitespace {
                if !lastWasSpace { result.append(" ") }
                lastWasSpace = true
                continue
            }
            lastWasSpace = false
            let latin = Confusables.latin(for: scalar) ?? scalar
            switch latin {
            case "I", "1",
                "|" where keepingCase:
                result.append("l")
            case "0" where keepingCase: result.append("O")
            default: result.append(latin)
            }
        }
        if result.last == " " { result.removeLast() }
        return String(result)
    }

    /// `DisplayWidth.of` counts printable ASCII eight bytes at a time and decodes the other scalars itself: for any
    /// mix, it must agree with the scalar-by-scalar sum.
    @Test func widthsOfMixedTextAgreeWithTheScalarByScalarSum() {
        let pieces = [
            "", "a", " ", "\t", "\u{7F}", "\u{1B}[2J", "王", "ｗ", "e\u{301}", "\u{200B}", "👍", "\u{85}", "abc  ",
            "\u{1F}", "~", "a plain line of text", "        ",
        ]
        var random = SplitMix64(seed: 23)
        for _ in 0..<3_000 {
            let text = (0..<Int(random.next() % 16)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }
                .joined()
            let expected = text.unicodeScalars.reduce(0) { $0 + DisplayWidth.width(of: $1) }
            #expect(DisplayWidth.of(text) == expected, "\(text.debugDescription)")
        }
        for _ in 0..<3_000 {
            let scalars = (0..<Int(random.next() % 8)).compactMap { _ in
                Unicode.Scalar(
                    UInt32(
                        truncatingIfNeeded: random.next() % [0x80, 0x800, 0x10000, 0x110000][Int(random.next() % 4)]))
            }
            let text = String(String.UnicodeScalarView(scalars))
            let expected = scalars.reduce(0) { $0 + DisplayWidth.width(of: $1) }
            #expect(DisplayWidth.of(text) == expected, "\(text.debugDescription)")
        }
        for count in -2...300 {
            #expect(DisplayWidth.spaces(count) == String(repeating: " ", count: max(0, count)))
        }
    }

    /// The Basic Multilingual Plane's widths come from a table made once: each must be the rules' width, so the
    /// table is indexed by the scalar itself and covers the whole plane.
    @Test func everyScalarsWidthIsTheRulesWidth() {
        var differing: [UInt32] = []
        for value in UInt32(0)...0x10_FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            if DisplayWidth.width(of: scalar) != DisplayWidth.ruleWidth(of: scalar) { differing.append(value) }
        }
        let firstDiffering = differing.prefix(8).map { String($0, radix: 16) }
        #expect(firstDiffering.isEmpty, "\(differing.count) scalars differ")
        #expect(DisplayWidth.width(of: "王") == 2 && DisplayWidth.width(of: "\u{301}") == 0)
        #expect(DisplayWidth.width(of: "\u{FFFD}") == 1 && DisplayWidth.width(of: "👍") == 2)
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
