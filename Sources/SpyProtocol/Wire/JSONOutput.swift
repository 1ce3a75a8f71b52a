/// JSON bytes written by hand: the host's output for the messages it sends after nearly every move.
///
/// A value type written through `inout`, so appending a byte costs no exclusivity check on a class's buffer and no
/// `Encoder` machinery (boxed containers, coding paths, one object per nested value) runs. Escaping follows
/// `StreamingJSONEncoder` byte for byte (tests compare the two): `"`, `\`, newline, carriage return and tab get
/// their short escapes, other control characters and DEL `\u00xx`, everything else (CJK, emoji) goes out as
/// UTF-8. A Swift `String` always holds valid Unicode, so no lone surrogate can reach the output.
package struct JSONOutput: ~Copyable {
    // Its own buffer rather than an `Array`: an append is a bounds check and a `memcpy`, where `Array`'s generic
    // `append(contentsOf:)` checks uniqueness and capacity again on every key and value.
    private var storage: UnsafeMutableRawPointer
    private var count: Int
    private var capacity: Int

    /// An output that starts with `leadingBytes` zero bytes (room for a frame header written in place) and has room
    /// for about `capacity` bytes of JSON.
    package init(leadingBytes: Int = 0, capacity: Int) {
        self.capacity = max(leadingBytes + capacity, 64)
        storage = .allocate(byteCount: self.capacity, alignment: 1)
        storage.initializeMemory(as: UInt8.self, repeating: 0, count: leadingBytes)
        count = leadingBytes
    }

    deinit {
        storage.deallocate()
    }

    /// The bytes written, leading bytes included.
    package consuming func finish() -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            if count > 0 {
                buffer.baseAddress!.initialize(from: storage.assumingMemoryBound(to: UInt8.self), count: count)
            }
            initialized = count
        }
    }

    /// How many bytes are written, leading bytes included.
    package var byteCount: Int { count }

    /// The bytes written so far, to fill in a header after the fact.
    package mutating func withUnsafeMutableBytes<Result>(
        _ body: (UnsafeMutableRawBufferPointer) throws -> Result
    ) rethrows -> Result {
        try body(UnsafeMutableRawBufferPointer(start: storage, count: count))
    }

    /// Appends the bytes written to `bytes`, with one copy.
    package func append(to bytes: inout [UInt8]) {
        let source = UnsafeRawBufferPointer(start: storage, count: count)
        bytes.append(contentsOf: source.assumingMemoryBound(to: UInt8.self))
    }

    /// Takes back what was written after the first `byteCount` bytes.
    package mutating func truncate(to byteCount: Int) {
        precondition(byteCount >= 0 && byteCount <= count)
        count = byteCount
    }

    /// Bytes as they are, unescaped: JSON another encoder wrote, or a journal payload that is not JSON at all.
    package mutating func verbatim(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(toHold: extra) }
    }

    // Kept out of line so that every append inlined at its call site stays a compare and a copy.
    @inline(never)
    private mutating func grow(toHold extra: Int) {
        let grown = max(capacity * 2, count + extra)
        let larger = UnsafeMutableRawPointer.allocate(byteCount: grown, alignment: 1)
        larger.copyMemory(from: storage, byteCount: count)
        storage.deallocate()
        storage = larger
        capacity = grown
    }

    @inline(__always)
    private mutating func append(_ base: UnsafeRawPointer, count length: Int) {
        reserve(length)
        (storage + count).copyMemory(from: base, byteCount: length)
        count += length
    }

    private mutating func append(_ source: UnsafeRawBufferPointer) {
        guard let base = source.baseAddress, !source.isEmpty else { return }
        append(base, count: source.count)
    }

    /// Bytes written as they are: punctuation and literals, never text from outside.
    ///
    /// Inlined, a literal's length is a constant at its call site, so its copy compiles to a few moves instead of a
    /// closure and a call to `memcpy` (a room's view writes about ninety literals).
    @inline(__always)
    package mutating func raw(_ text: StaticString) {
        if text.hasPointerRepresentation {
            append(UnsafeRawPointer(text.utf8Start), count: text.utf8CodeUnitCount)
        } else {
            // A one-character literal may be held as a scalar rather than a pointer: the buffer covers both.
            text.withUTF8Buffer { append(UnsafeRawBufferPointer($0)) }
        }
    }

    @inline(__always)
    package mutating func byte(_ value: UInt8) {
        reserve(1)
        storage.storeBytes(of: value, toByteOffset: count, as: UInt8.self)
        count += 1
    }

    /// `{"type":"<type>"`: every message's first member.
    package mutating func open(type: StaticString) {
        raw(#"{"type":""#)
        raw(type)
        byte(UInt8(ascii: "\""))
    }

    /// `"name":` for the first member of a nested object (the caller wrote `{`).
    @inline(__always)
    package mutating func firstKey(_ name: StaticString) {
        byte(UInt8(ascii: "\""))
        raw(name)
        raw(#"":"#)
    }

    /// `,"name":` for every later member.
    @inline(__always)
    package mutating func key(_ name: StaticString) {
        raw(#",""#)
        raw(name)
        raw(#"":"#)
    }

    @inline(__always)
    package mutating func bool(_ value: Bool) {
        if value { raw("true") } else { raw("false") }
    }

    package mutating func int(_ value: Int) {
        if value >= 0, value < 10 {
            byte(UInt8(ascii: "0") + UInt8(value))
            return
        }
        if value < 0 { byte(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        // 20 digits hold UInt64.max, so any Int's magnitude (Int.min's included).
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = digits.count
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            append(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: digits[start...])))
        }
    }

    package mutating func string(_ text: String) {
        var text = text
        byte(UInt8(ascii: "\""))
        text.withUTF8 { utf8 in
            // Nearly every string (ids, codes, names, words) needs no escape: one append for all of it.
            if !utf8.contains(where: Self.needsEscape) {
                append(UnsafeRawBufferPointer(utf8))
            } else {
                for unit in utf8 { escaped(unit) }
            }
        }
        byte(UInt8(ascii: "\""))
    }

    /// A JSON array of strings.
    package mutating func strings(_ list: [String]) {
        byte(UInt8(ascii: "["))
        for (index, text) in list.enumerated() {
            if index > 0 { byte(UInt8(ascii: ",")) }
            string(text)
        }
        byte(UInt8(ascii: "]"))
    }

    /// A JSON array of objects, each written by `element` (which writes the braces too).
    mutating func array<Element>(_ list: [Element], _ element: (inout JSONOutput, Element) -> Void) {
        byte(UInt8(ascii: "["))
        for (index, item) in list.enumerated() {
            if index > 0 { byte(UInt8(ascii: ",")) }
            element(&self, item)
        }
        byte(UInt8(ascii: "]"))
    }

    private static func needsEscape(_ unit: UInt8) -> Bool {
        unit < 0x20 || unit == UInt8(ascii: "\"") || unit == UInt8(ascii: "\\") || unit == 0x7F
    }

    private mutating func escaped(_ unit: UInt8) {
        switch unit {
        case UInt8(ascii: "\""): raw(#"\""#)
        case UInt8(ascii: "\\"): raw(#"\\"#)
        case 0x0A: raw(#"\n"#)
        case 0x0D: raw(#"\r"#)
        case 0x09: raw(#"\t"#)
        case 0x00..<0x20, 0x7F:
            raw(#"\u00"#)
            byte(Self.hexDigit(unit >> 4))
            byte(Self.hexDigit(unit & 0x0F))
        default: byte(unit)
        }
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
