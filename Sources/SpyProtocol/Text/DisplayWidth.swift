import Foundation

/// Terminal column widths of text (East Asian Wide and Fullwidth characters take two columns).
public enum DisplayWidth {
    /// Columns `text` takes in a terminal.
    public static func of(_ text: String) -> Int {
        text.utf8.withContiguousStorageIfAvailable(columns(ofUTF8:))
            ?? text.unicodeScalars.reduce(0) { $0 + width(of: $1) }
    }

    /// A screen line is mostly ASCII and padding: those bytes are counted as they are, and only the other
    /// scalars are decoded (a `String`'s UTF-8 is always valid) to be looked up.
    private static func columns(ofUTF8 bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        let raw = UnsafeRawPointer(base)
        var columns = 0
        var index = 0
        while index < bytes.count {
            // Eight printable ASCII bytes at a time: a wide line's padding and its plain text.
            if index + 8 <= bytes.count, isPrintableASCII(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) {
                columns += 8
                index += 8
                continue
            }
            let lead = bytes[index]
            if lead < 0x80 {
                if lead >= 0x20 && lead != 0x7F { columns += 1 }
                index += 1
                continue
            }
            let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
            guard index + length <= bytes.count else { break }
            var value = UInt32(lead & (0x7F >> length))
            for offset in 1..<length { value = value << 6 | UInt32(bytes[index + offset] & 0x3F) }
            if let scalar = Unicode.Scalar(value) { columns += width(of: scalar) }
            index += length
        }
        return columns
    }

    /// Whether all eight bytes are printable ASCII, 0x20 to 0x7E (the byte tests are the exact ones from "Bit
    /// Twiddling Hacks": a byte below n, a zero byte).
    static func isPrintableASCII(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        guard word & highBits == 0 else { return false }
        let hasControl = (word &- ones &* 0x20) & ~word & highBits != 0
        let delete = word ^ (ones &* 0x7F)
        let hasDelete = (delete &- ones) & ~delete & highBits != 0
        return !hasControl && !hasDelete
    }

    /// Columns one scalar takes: 0 for combining marks and zero-width characters, 2 for wide ones, else 1.
    public static func width(of scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        // Printable ASCII, most of any line, needs no table.
        if (0x20..<0x7F).contains(value) { return 1 }
        if value < 0x1_0000 { return Int(basicPlaneWidths[Int(value)]) }
        return ruleWidth(of: scalar)
    }

    /// `ruleWidth` of every scalar of the Basic Multilingual Plane (CJK text, kana, Hangul, combining marks), made
    /// once: a redraw measures every line, and the general category lookup with the wide ranges' comparisons cost
    /// more than the rest of it. 64 KiB; the surrogates, which are not scalars, are 0.
    private static let basicPlaneWidths: [UInt8] = (0..<UInt32(0x1_0000)).map { value in
        Unicode.Scalar(value).map { UInt8(ruleWidth(of: $0)) } ?? 0
    }

    /// The width by the rules themselves, for the scalars outside the table and to make it.
    static func ruleWidth(of scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if (0x20..<0x7F).contains(value) { return 1 }
        if value == 0 { return 0 }
        if value < 0x20 || (0x7F..<0xA0).contains(value) { return 0 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if value == 0x200B { return 0 }
        return isWide(value) ? 2 : 1
    }

    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0, 0x23F3,
            0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F, 0x2693, 0x26A1, 0x26AA...0x26AB,
            0x26BD...0x26BE, 0x26C4...0x26C5, 0x26CE, 0x26D4, 0x26EA, 0x26F2...0x26F3, 0x26F5, 0x26FA, 0x26FD,
            0x2705, 0x270A...0x270B, 0x2728, 0x274C, 0x274E, 0x2753...0x2755, 0x2757, 0x2795...0x2797, 0x27B0,
            0x27BF, 0x2B1B...0x2B1C, 0x2B50, 0x2B55, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF,
            0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19,
            0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x17000...0x18CFF,
            0x1B000...0x1B2FF, 0x1F004, 0x1F0CF, 0x1F18E, 0x1F191...0x1F19A, 0x1F200...0x1F2FF,
            0x1F300...0x1F64F, 0x1F680...0x1F6FF, 0x1F7E0...0x1F7EB, 0x1F90C...0x1F9FF, 0x1FA70...0x1FAFF,
            0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }

    /// `text` cut to at most `columns` columns, never splitting a wide character.
    public static func truncate(_ text: String, toColumns columns: Int) -> String {
        if of(text) <= columns { return text }
        var used = 0
        var result = ""
        for character in text {
            let width = of(String(character))
            if used + width > columns { break }
            used += width
            result.append(character)
        }
        return result
    }

    /// `text` padded with spaces (or truncated) to exactly `columns` columns.
    public static func pad(_ text: String, toColumns columns: Int) -> String {
        let cut = truncate(text, toColumns: columns)
        return cut + spaces(columns - of(cut))
    }

    /// `count` spaces (none if `count` is not positive), written at once: padding a wide screen line is frequent.
    public static func spaces(_ count: Int) -> String {
        guard count > 0 else { return "" }
        return String(unsafeUninitializedCapacity: count) { buffer in
            _ = memset(buffer.baseAddress!, 0x20, count)
            return count
        }
    }
}

/// Text folding used to compare names and to find a word inside a clue.
public enum TextFold {
    /// Trimmed, NFKC-normalised (full-width → half-width), case-folded, for comparisons.
    public static func key(_ text: String) -> String {
        simpleKey(text) ?? foundationKey(text)
    }

    /// The general path of `key`, through Foundation's normalisation and folding.
    static func foundationKey(_ text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        // Invisible characters would let a clue hide the word (`ap\u{200B}ple`).
        var visible = String.UnicodeScalarView()
        for scalar in trimmed.precomposedStringWithCompatibilityMapping.unicodeScalars
        where !scalar.properties.isDefaultIgnorableCodePoint {
            visible.append(scalar)
        }
        let compatible = String(visible)
        return compatible.folding(options: [.caseInsensitive, .widthInsensitive, .diacriticInsensitive], locale: nil)
    }

    /// The key of text made only of ASCII and CJK ideographs, which normalisation and width, diacritic and case
    /// folding leave alone but for ASCII upper case; `nil` for anything else. Most words of a bank are such text,
    /// and Foundation's folding costs microseconds a word, which adds up over a bank of a thousand pairs.
    static func simpleKey(_ text: String) -> String? {
        var scalars = String.UnicodeScalarView()
        var lastNonSpace = 0
        for scalar in text.unicodeScalars {
            let value = scalar.value
            switch value {
            case 0x20, 0x09...0x0D:
                if scalars.isEmpty { continue }
                scalars.append(scalar)
            case 0x21...0x7E:
                let lowered = (0x41...0x5A).contains(value) ? Unicode.Scalar(UInt8(value + 0x20)) : scalar
                scalars.append(lowered)
                lastNonSpace = scalars.count
            case 0x3400...0x4DBF, 0x4E00...0x9FFF:
                scalars.append(scalar)
                lastNonSpace = scalars.count
            default:
                return nil
            }
        }
        if lastNonSpace < scalars.count {
            scalars.removeSubrange(scalars.index(scalars.startIndex, offsetBy: lastNonSpace)...)
        }
        return String(scalars)
    }

    /// Whether `text` holds a control character (C0, DEL, C1) or a line/paragraph separator.
    public static func hasControlCharacters(_ text: String) -> Bool {
        text.unicodeScalars.contains { scalar in
            scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value) || scalar.value == 0x2028
                || scalar.value == 0x2029
        }
    }

    /// Whether `clue` contains `word` once both are folded (spaces ignored too).
    public static func contains(_ clue: String, word: String) -> Bool {
        let foldedWord = key(word).filter { !$0.isWhitespace }
        guard !foldedWord.isEmpty else { return false }
        let foldedClue = key(clue).filter { !$0.isWhitespace }
        return foldedClue.contains(foldedWord)
    }
}
