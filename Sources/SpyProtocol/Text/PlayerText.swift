import Foundation

/// The rules for text a player types and everyone else is shown: names, clues, the blank's guess, category
/// names. Each is bounded in UTF-8 bytes as well as in characters or columns, and in combining marks per
/// character, so that the largest message built from them still fits a frame.
public enum PlayerText {
    /// Longest name, in terminal columns (see `DisplayWidth`: CJK and most emoji count two, marks zero).
    public static let maxNameColumns = 16
    /// Longest name, in UTF-8 bytes.
    public static let maxNameBytes = 64
    /// Longest clue or guess, in characters (grapheme clusters).
    public static let maxClueCharacters = 100
    /// Longest clue or guess, in UTF-8 bytes.
    public static let maxClueBytes = 400
    /// Longest category name, in characters.
    public static let maxCategoryCharacters = 32
    /// Longest category name, in UTF-8 bytes.
    public static let maxCategoryBytes = 128
    /// Most combining marks (accents) on one base character.
    public static let maxMarksPerCharacter = 2

    // MARK: Names

    /// Why a name is refused. The wire code is always `bad_name`; the message says what was wrong.
    public enum NameProblem: Sendable, Equatable, CaseIterable {
        case onlySpaces
        case controlCharacters
        case tooManyBytes
        case directionControls
        case invisibleCharacters
        case tooManyMarks
        case nothingVisible
        case tooWide
        case mixedScripts

        /// The human message sent with `bad_name`.
        public var message: String {
            switch self {
            case .onlySpaces: return "A name cannot be only spaces (send an empty name to get a default one)."
            case .controlCharacters: return "Names may not contain control characters or line breaks."
            case .tooManyBytes: return "Names are at most \(PlayerText.maxNameBytes) bytes of UTF-8."
            case .directionControls: return "Names may not contain text-direction controls."
            case .invisibleCharacters: return "Names may not contain invisible characters."
            case .tooManyMarks:
                return "Names may carry at most \(PlayerText.maxMarksPerCharacter) accents on a letter, "
                    + "and may not start with one."
            case .nothingVisible: return "A name needs at least one visible character."
            case .tooWide:
                return "Names are at most \(PlayerText.maxNameColumns) columns wide (CJK characters count two)."
            case .mixedScripts: return "Names may not mix Latin, Greek and Cyrillic letters."
            }
        }
    }

    /// The name as it is kept and shown: trimmed and in Unicode normalisation form C.
    public static func normalisedName(_ raw: String) -> String {
        // Only Unicode White_Space is trimmed: Foundation's set also takes zero-width characters, which must be
        // refused as invisible rather than quietly dropped.
        var scalars = Substring(raw).unicodeScalars
        while let first = scalars.first, first.properties.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.properties.isWhitespace { scalars.removeLast() }
        return String(scalars).precomposedStringWithCanonicalMapping
    }

    /// Why a name (as `normalisedName` returns it; `raw` is what the player sent) is refused, if it is. An empty
    /// `raw` is not checked here: it asks for a default name.
    public static func nameProblem(_ name: String, raw: String) -> NameProblem? {
        if name.isEmpty { return raw.isEmpty ? .nothingVisible : .onlySpaces }
        if TextFold.hasControlCharacters(name) { return .controlCharacters }
        if name.utf8.count > maxNameBytes { return .tooManyBytes }
        let scalars = Array(name.unicodeScalars)
        if scalars.contains(where: isDirectionControl) { return .directionControls }
        for index in scalars.indices where isInvisible(scalars, at: index) { return .invisibleCharacters }
        if !marksAreBounded(scalars) { return .tooManyMarks }
        if !scalars.contains(where: isVisible) { return .nothingVisible }
        let columns = DisplayWidth.of(name)
        if columns < 1 || columns > maxNameColumns { return .tooWide }
        if letterScripts(name).count > 1 { return .mixedScripts }
        return nil
    }

    /// Whether two names look alike, so they cannot sit in one room: their skeletons are equal with case folded
    /// (`Alice`, `ＡＬＩＣＥ`), or equal with case kept and the letters drawn alike merged (`Bill`, `BiII`).
    public static func looksAlike(_ lhs: String, _ rhs: String) -> Bool {
        NameLook(lhs).isAlike(NameLook(rhs))
    }

    /// A name's two skeletons, worked out once: a room compares a new name with every seated one, and the
    /// skeletons are the expensive part.
    public struct NameLook: Sendable {
        let caseFolded: String
        let caseKept: String

        public init(_ name: String) {
            let mapped = PlayerText.Mapped(name)
            caseFolded = PlayerText.skeleton(of: mapped, keepingCase: false)
            caseKept = PlayerText.skeleton(of: mapped, keepingCase: true)
        }

        public func isAlike(_ other: NameLook) -> Bool {
            caseFolded == other.caseFolded || caseKept == other.caseKept
        }
    }

    /// What names are compared by. Compatibility forms and width are folded (NFKC), invisible characters dropped,
    /// Cyrillic and Greek letters that look like Latin ones mapped to them, accents folded and runs of spaces made
    /// one. Then either case is folded, or (`keepingCase`) case is kept and `I`, `l`, `1`, `|` are merged and `0`
    /// read as `O`: those merges would make `I` and `L` alike once case is folded.
    public static func skeleton(_ name: String, keepingCase: Bool = false) -> String {
        skeleton(of: Mapped(name), keepingCase: keepingCase)
    }

    /// What both skeletons start from: the name in NFKC, invisible characters dropped, look-alike letters mapped.
    private struct Mapped {
        var scalars = String.UnicodeScalarView()
        /// Whether the name is all printable ASCII and common CJK ideographs (`foldsAsItself`).
        let foldsAlone: Bool

        init(_ name: String) {
            // Foundation's normalisation and folding are most of a join's cost in a full room; names of printable
            // ASCII and common CJK ideographs, nearly all of them, come out of both as they went in, but for case.
            foldsAlone = name.unicodeScalars.allSatisfy(PlayerText.foldsAsItself)
            let compatible = foldsAlone ? name : name.precomposedStringWithCompatibilityMapping
            for scalar in compatible.unicodeScalars {
                if scalar.properties.isDefaultIgnorableCodePoint || PlayerText.isBlankLooking(scalar) { continue }
                scalars.append(Confusables.latin(for: scalar) ?? scalar)
            }
        }
    }

    private static func skeleton(of mapped: Mapped, keepingCase: Bool) -> String {
        let folded: String
        if mapped.foldsAlone {
            folded =
                keepingCase
                ? String(mapped.scalars) : String(String.UnicodeScalarView(mapped.scalars.map(asciiLowercased)))
        } else {
            let options: String.CompareOptions =
                keepingCase
                ? [.widthInsensitive, .diacriticInsensitive]
                : [.caseInsensitive, .widthInsensitive, .diacriticInsensitive]
            folded = String(mapped.scalars).folding(options: options, locale: nil)
        }
        var result = String.UnicodeScalarView()
        var lastWasSpace = true
        for scalar in folded.unicodeScalars {
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

    // MARK: Clues, guesses, categories

    /// Why a clue, guess or category name (already trimmed) is refused, if it is.
    public enum TextProblem: Sendable, Equatable {
        case empty
        case tooLong(characters: Int, bytes: Int)
        case controlCharacters
        case directionControls
        case tooManyMarks

        /// The human message sent with the error.
        public var message: String {
            switch self {
            case .empty: return "The text is empty."
            case .tooLong(let characters, let bytes):
                return "The text is at most \(characters) characters and \(bytes) bytes of UTF-8."
            case .controlCharacters: return "The text may not contain control characters or line breaks."
            case .directionControls: return "The text may not contain text-direction controls."
            case .tooManyMarks:
                return "The text may carry at most \(PlayerText.maxMarksPerCharacter) accents on a letter."
            }
        }
    }

    /// Why a trimmed clue or guess is refused, if it is.
    public static func clueProblem(_ text: String) -> TextProblem? {
        textProblem(text, maxCharacters: maxClueCharacters, maxBytes: maxClueBytes)
    }

    /// Why trimmed text is refused under the given bounds, if it is.
    public static func textProblem(_ text: String, maxCharacters: Int, maxBytes: Int) -> TextProblem? {
        if text.isEmpty { return .empty }
        // Bytes first: counting characters of a huge string of marks is the costly part.
        if text.utf8.count > maxBytes || text.count > maxCharacters {
            return .tooLong(characters: maxCharacters, bytes: maxBytes)
        }
        if TextFold.hasControlCharacters(text) { return .controlCharacters }
        let scalars = Array(text.unicodeScalars)
        if scalars.contains(where: isDirectionControl) { return .directionControls }
        if !marksAreBounded(scalars) { return .tooManyMarks }
        return nil
    }

    /// Whether `text` holds a character that shows nothing or reorders what is shown: a text-direction control, a
    /// zero-width or other default-ignorable character (but the joiners and selectors emoji are written with), a
    /// blank-looking letter. A word of a word list may hold none.
    public static func hasInvisibleCharacters(_ text: String) -> Bool {
        let scalars = Array(text.unicodeScalars)
        return scalars.indices.contains { isDirectionControl(scalars[$0]) || isInvisible(scalars, at: $0) }
    }

    // MARK: Fields that are never shown

    /// Longest `hello.room`, in UTF-8 bytes (codes are four letters; spaces around them are forgiven).
    public static let maxRoomFieldBytes = 16
    /// Longest `hello.token`, in UTF-8 bytes (tokens are 32 characters).
    public static let maxTokenBytes = 64
    /// Longest `hello.claim` read: a player id is "p" and a number.
    public static let maxClaimFieldBytes = 16
    /// Longest `hello.password`, in UTF-8 bytes.
    public static let maxPasswordBytes = 256

    /// Why a `hello`'s fields other than the name are out of bounds, if they are (sent with `bad_message`; the
    /// name is the room's to judge, with `bad_name`).
    public static func helloProblem(_ hello: ClientMessage.Hello) -> String? {
        if (hello.room?.utf8.count ?? 0) > maxRoomFieldBytes { return "room is longer than \(maxRoomFieldBytes) bytes" }
        if (hello.token?.utf8.count ?? 0) > maxTokenBytes { return "token is longer than \(maxTokenBytes) bytes" }
        if (hello.claim?.utf8.count ?? 0) > maxClaimFieldBytes {
            return "claim is longer than \(maxClaimFieldBytes) bytes"
        }
        if (hello.language?.utf8.count ?? 0) > maxClaimFieldBytes {
            return "language is longer than \(maxClaimFieldBytes) bytes"
        }
        if (hello.password?.utf8.count ?? 0) > maxPasswordBytes {
            return "password is longer than \(maxPasswordBytes) bytes"
        }
        return nil
    }

    // MARK: Character classes

    /// Bidirectional formatting characters: they reorder what is shown (`\u{202E}ymA` shows as "Amy").
    static func isDirectionControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// Printable ASCII and the CJK Unified Ideographs block: compatibility mapping leaves them alone, and folding
    /// width and accents too; folding case only lowers `A`–`Z`. `PlayerTextTests` checks every one against
    /// Foundation.
    static func foldsAsItself(_ scalar: Unicode.Scalar) -> Bool {
        (0x20...0x7E).contains(scalar.value) || (0x4E00...0x9FFF).contains(scalar.value)
    }

    private static func asciiLowercased(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        guard (0x41...0x5A).contains(scalar.value) else { return scalar }
        return Unicode.Scalar(UInt8(scalar.value) + 0x20)
    }

    /// Characters that show as nothing although they are not default-ignorable.
    static func isBlankLooking(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x2800, 0x3164, 0x115F, 0x1160, 0xFFA0, 0x180E: return true
        default: return false
        }
    }

    private static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return false
        }
    }

    private static func isEmoji(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isEmoji && (scalar.value >= 0x2000 || scalar.properties.isEmojiPresentation)
    }

    /// Whether the scalar at `index` shows nothing. Variation selectors right after an emoji and a zero-width
    /// joiner between two emoji are part of how emoji are written, and allowed.
    static func isInvisible(_ scalars: [Unicode.Scalar], at index: Int) -> Bool {
        let scalar = scalars[index]
        if isBlankLooking(scalar) { return true }
        guard scalar.properties.isDefaultIgnorableCodePoint else { return false }
        let previous = index > 0 ? scalars[index - 1] : nil
        switch scalar.value {
        case 0xFE0E, 0xFE0F:
            return !(previous.map { $0.properties.isEmoji } ?? false)
        case 0x200D:
            // The joiner may follow a variation selector of the emoji before it.
            var before = index - 1
            while before >= 0, (0xFE0E...0xFE0F).contains(scalars[before].value) { before -= 1 }
            let joinsAfter = before >= 0 && isEmoji(scalars[before])
            let joinsBefore = index + 1 < scalars.count && isEmoji(scalars[index + 1])
            return !(joinsAfter && joinsBefore)
        default:
            return true
        }
    }

    /// A character someone can see: a letter, digit, punctuation or symbol that is not blank-looking.
    static func isVisible(_ scalar: Unicode.Scalar) -> Bool {
        if isBlankLooking(scalar) || scalar.properties.isDefaultIgnorableCodePoint { return false }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .decimalNumber, .letterNumber, .otherNumber,
            .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
            .finalPunctuation, .otherPunctuation, .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol:
            return true
        default:
            return false
        }
    }

    /// At most `maxMarksPerCharacter` combining marks follow each base, and none stands without a base.
    static func marksAreBounded(_ scalars: [Unicode.Scalar]) -> Bool {
        var run = 0
        var hasBase = false
        for scalar in scalars {
            if isMark(scalar) {
                run += 1
                if !hasBase || run > maxMarksPerCharacter { return false }
            } else {
                run = 0
                // A joiner or selector inside an emoji sequence does not start a new base.
                if !scalar.properties.isDefaultIgnorableCodePoint { hasBase = !scalar.properties.isWhitespace }
            }
        }
        return true
    }

    /// Scripts whose letters are easily confused with each other.
    enum LookAlikeScript: Hashable {
        case latin, greek, cyrillic
    }

    /// Which of Latin, Greek and Cyrillic the name's letters are written in.
    static func letterScripts(_ name: String) -> Set<LookAlikeScript> {
        var scripts = Set<LookAlikeScript>()
        for scalar in name.precomposedStringWithCompatibilityMapping.unicodeScalars
        where scalar.properties.isAlphabetic {
            switch scalar.value {
            case 0x41...0x5A, 0x61...0x7A, 0xAA, 0xBA, 0xC0...0xD6, 0xD8...0xF6, 0xF8...0x24F, 0x250...0x2AF,
                0x1D00...0x1D25, 0x1E00...0x1EFF, 0x2C60...0x2C7F, 0xA720...0xA7FF, 0xAB30...0xAB64:
                scripts.insert(.latin)
            case 0x370...0x3FF, 0x1F00...0x1FFF, 0x1D26...0x1D2A:
                scripts.insert(.greek)
            case 0x400...0x52F, 0x1C80...0x1C8F, 0x2DE0...0x2DFF, 0xA640...0xA69F, 0x1D2B:
                scripts.insert(.cyrillic)
            default:
                break
            }
        }
        return scripts
    }
}

/// Cyrillic and Greek letters drawn like Latin ones, mapped to those Latin letters.
enum Confusables {
    static func latin(for scalar: Unicode.Scalar) -> Unicode.Scalar? {
        table[scalar.value].map { Unicode.Scalar(UInt8($0)) }
    }

    private static let table: [UInt32: UInt32] = {
        var table: [UInt32: UInt32] = [:]
        func add(_ latin: String, _ others: [UInt32]) {
            let value = latin.unicodeScalars.first!.value
            for other in others { table[other] = value }
        }
        // Cyrillic capitals, then small letters.
        add("A", [0x0410, 0x0391])
        add("B", [0x0412, 0x0392])
        add("C", [0x0421, 0x03F9])
        add("E", [0x0415, 0x0395])
        add("H", [0x041D, 0x0397])
        add("I", [0x0406, 0x04C0, 0x0399])
        add("J", [0x0408, 0x037F])
        add("K", [0x041A, 0x039A])
        add("M", [0x041C, 0x039C])
        add("N", [0x039D])
        add("O", [0x041E, 0x039F])
        add("P", [0x0420, 0x03A1])
        add("S", [0x0405])
        add("T", [0x0422, 0x03A4])
        add("X", [0x0425, 0x03A7])
        add("Y", [0x04AE, 0x03A5])
        add("Z", [0x0396])
        add("a", [0x0430, 0x03B1])
        add("c", [0x0441, 0x03F2])
        add("d", [0x0501])
        add("e", [0x0435])
        add("h", [0x04BB])
        add("i", [0x0456, 0x03B9])
        add("j", [0x0458, 0x03F3])
        add("k", [0x03BA])
        add("n", [0x03B7])
        add("o", [0x043E, 0x03BF, 0x03C3])
        add("p", [0x0440, 0x03C1])
        add("q", [0x051B])
        add("s", [0x0455])
        add("u", [0x03C5])
        add("v", [0x03BD, 0x0475])
        add("w", [0x051D, 0x03C9])
        add("x", [0x0445, 0x03C7])
        add("y", [0x0443, 0x04AF, 0x03B3])
        return table
    }()
}
