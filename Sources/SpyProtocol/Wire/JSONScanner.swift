/// One strict pass over a JSON text: RFC 8259 grammar, UTF-8 inside strings, escapes and surrogate pairs,
/// a nesting limit. It keeps nothing but where the top-level value starts.
///
/// Stricter than `JSONDecoder`, which reads the values of fields it ignores only loosely (it takes `01`, `"\x"`,
/// a lone surrogate, a raw control character in a string or a trailing comma there): here every byte of the
/// payload must be JSON, so an unknown field can never carry what a known one could not.
struct JSONScanner {
    /// Why the text is not JSON; the reader maps it to `bad_frame` with a detail of its own.
    struct NotJSON: Error {}

    let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0
    /// Index of the top-level value's first byte.
    private(set) var objectStart = 0

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// Scans the whole text; `true` when it is one object, `false` when it is one array (any other value at the
    /// top is not JSON for the protocol, as `JSONSerialization` without fragments says).
    mutating func document() throws(NotJSON) -> Bool {
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") || bytes[index] == UInt8(ascii: "[") else {
            throw NotJSON()
        }
        objectStart = index
        let isObject = bytes[index] == UInt8(ascii: "{")
        try value()
        skipSpace()
        guard index == bytes.count else { throw NotJSON() }
        return isObject
    }

    private mutating func skipSpace() {
        while index < bytes.count, Self.isSpace(bytes[index]) { index += 1 }
    }

    private func peek() throws(NotJSON) -> UInt8 {
        guard index < bytes.count else { throw NotJSON() }
        return bytes[index]
    }

    private mutating func expect(_ byte: UInt8) throws(NotJSON) {
        guard try peek() == byte else { throw NotJSON() }
        index += 1
    }

    private mutating func value() throws(NotJSON) {
        switch try peek() {
        case UInt8(ascii: "{"): try object()
        case UInt8(ascii: "["): try array()
        case UInt8(ascii: "\""): try string()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        default: try number()
        }
    }

    private mutating func enter() throws(NotJSON) {
        depth += 1
        guard depth <= JSONPayloadReader.maxDepth else { throw NotJSON() }
        index += 1
        skipSpace()
    }

    private mutating func object() throws(NotJSON) {
        try enter()
        if try peek() == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return
        }
        while true {
            guard try peek() == UInt8(ascii: "\"") else { throw NotJSON() }
            try string()
            skipSpace()
            try expect(UInt8(ascii: ":"))
            skipSpace()
            try value()
            skipSpace()
            let next = try peek()
            index += 1
            if next == UInt8(ascii: "}") { break }
            guard next == UInt8(ascii: ",") else { throw NotJSON() }
            skipSpace()
        }
        depth -= 1
    }

    private mutating func array() throws(NotJSON) {
        try enter()
        if try peek() == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return
        }
        while true {
            try value()
            skipSpace()
            let next = try peek()
            index += 1
            if next == UInt8(ascii: "]") { break }
            guard next == UInt8(ascii: ",") else { throw NotJSON() }
            skipSpace()
        }
        depth -= 1
    }

    private mutating func literal(_ word: StaticString) throws(NotJSON) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw NotJSON() }
        let matches = word.withUTF8Buffer { wanted in (0..<count).allSatisfy { bytes[index + $0] == wanted[$0] } }
        guard matches else { throw NotJSON() }
        index += count
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private mutating func digits() throws(NotJSON) {
        guard index < bytes.count, Self.isDigit(bytes[index]) else { throw NotJSON() }
        while index < bytes.count, Self.isDigit(bytes[index]) { index += 1 }
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
    ///
    /// A number too large for a `Double` (`1e400`) is not JSON either, as `JSONSerialization` has it; only numbers
    /// with an exponent or hundreds of digits can be, so only those are converted.
    private mutating func number() throws(NotJSON) {
        let start = index
        var hasExponent = false
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        if try peek() == UInt8(ascii: "0") {
            index += 1
        } else {
            try digits()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            try digits()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            try digits()
            hasExponent = true
        }
        if hasExponent || index - start > 300 {
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            guard let value = Double(text), value.isFinite else { throw NotJSON() }
        }
    }

    /// The value of four hex digits at `index` (already checked by the scanner).
    static func hexValue(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt32 {
        var value: UInt32 = 0
        for offset in 0..<4 { value = value << 4 | UInt32(hexDigit(bytes[index + offset]) ?? 0) }
        return value
    }

    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: return byte - 0x30
        case 0x41...0x46: return byte - 0x41 + 10
        case 0x61...0x66: return byte - 0x61 + 10
        default: return nil
        }
    }

    /// Four hex digits after `\u`; the index moves past them.
    private mutating func hexEscape() throws(NotJSON) -> UInt32 {
        guard index + 4 <= bytes.count else { throw NotJSON() }
        var value: UInt32 = 0
        for offset in 0..<4 {
            guard let digit = Self.hexDigit(bytes[index + offset]) else { throw NotJSON() }
            value = value << 4 | UInt32(digit)
        }
        index += 4
        return value
    }

    private mutating func string() throws(NotJSON) {
        index += 1
        while true {
            guard index < bytes.count else { throw NotJSON() }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return
            case UInt8(ascii: "\\"):
                index += 1
                switch try peek() {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                    UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    index += 1
                case UInt8(ascii: "u"):
                    index += 1
                    let unit = try hexEscape()
                    if unit >= 0xDC00 && unit < 0xE000 { throw NotJSON() }
                    if unit >= 0xD800 && unit < 0xDC00 {
                        // A high surrogate must be followed by the escape of a low one.
                        guard index + 2 <= bytes.count, bytes[index] == UInt8(ascii: "\\"),
                            bytes[index + 1] == UInt8(ascii: "u")
                        else { throw NotJSON() }
                        index += 2
                        let low = try hexEscape()
                        guard low >= 0xDC00 && low < 0xE000 else { throw NotJSON() }
                    }
                default:
                    throw NotJSON()
                }
            case 0x00..<0x20:
                throw NotJSON()
            case 0x20..<0x80:
                index += 1
            default:
                guard let next = UTF8Check.sequenceEnd(bytes, at: index) else { throw NotJSON() }
                index = next
            }
        }
    }
}

/// Well-formed UTF-8 (RFC 3629): no overlong forms, no surrogates, nothing past U+10FFFF.
enum UTF8Check {
    /// Index just past the well-formed sequence starting at `index`, or `nil`.
    static func sequenceEnd(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
        let lead = bytes[index]
        if lead < 0x80 { return index + 1 }
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            high = 0x9F
        case 0xF0:
            length = 4
            low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            high = 0x8F
        default: return nil
        }
        guard index + length <= bytes.count else { return nil }
        let second = bytes[index + 1]
        guard second >= low && second <= high else { return nil }
        for offset in 2..<max(2, length) where bytes[index + offset] & 0xC0 != 0x80 { return nil }
        return index + length
    }
}
