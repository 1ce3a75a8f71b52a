/// A strict JSON reader over a payload's bytes, for the object shapes of the protocol.
///
/// `read` checks the whole text once: RFC 8259 grammar (unknown fields too), UTF-8, nesting at most
/// `maxDepth` deep, a JSON object at the top with a string `type` field. Fields are then looked up in place, by
/// key, the first occurrence of a key deciding (as `JSONDecoder` does); nothing is copied until a field's value is
/// asked for. Failures carry the error code and detail the host sends back (`bad_frame` for text that is not a
/// UTF-8 JSON object with a string `type`, `bad_message` for a field that is missing or has the wrong type).
struct JSONPayloadReader {
    /// Containers may be nested this deep, the top-level object included (Foundation's limit).
    static let maxDepth = 512

    let bytes: UnsafeBufferPointer<UInt8>

    /// The checked payload's top-level object and its `type`.
    static func read(_ bytes: UnsafeBufferPointer<UInt8>) throws(MessageError) -> (JSONObjectFields, String) {
        var scanner = JSONScanner(bytes: bytes)
        let isObject: Bool
        do {
            isObject = try scanner.document()
        } catch {
            throw MessageError(.badFrame, encodingProblem(bytes) ?? "payload is not JSON")
        }
        guard isObject else { throw MessageError(.badFrame, "payload is not a JSON object") }
        let top = JSONObjectFields(reader: JSONPayloadReader(bytes: bytes), start: scanner.objectStart, path: "")
        guard let typeValue = top.position(of: "type"), bytes[typeValue] == UInt8(ascii: "\"") else {
            throw MessageError(.badFrame, "the object has no string \"type\" field")
        }
        return (top, top.reader.string(at: typeValue))
    }

    /// Why a payload that failed to scan is not plain UTF-8, or `nil` when it is (then it is not JSON).
    ///
    /// The scanner validates UTF-8 only where JSON allows other than ASCII (inside strings), so after a failure
    /// the whole payload is looked at again, for the same detail whatever comes first in it.
    static func encodingProblem(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) || bytes.starts(with: [0xFE, 0xFF])
            || bytes.starts(with: [0xFF, 0xFE])
        {
            return "payload starts with a byte-order mark"
        }
        if bytes.contains(0) { return "payload holds a NUL byte" }
        var index = 0
        while index < bytes.count {
            guard let next = UTF8Check.sequenceEnd(bytes, at: index) else { return "payload is not valid UTF-8" }
            index = next
        }
        return nil
    }

    // MARK: Values of a checked payload

    /// Index just past the value starting at `index` (in a payload already checked by the scanner).
    func skipValue(at index: Int) -> Int {
        var index = index
        switch bytes[index] {
        case UInt8(ascii: "\""):
            index += 1
            while bytes[index] != UInt8(ascii: "\"") {
                index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
            }
            return index + 1
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            repeat {
                switch bytes[index] {
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
                case UInt8(ascii: "\""):
                    index = skipValue(at: index) - 1
                default: break
                }
                index += 1
            } while depth > 0
            return index
        default:
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D: return index
                default: index += 1
                }
            }
            return index
        }
    }

    /// Index of the first non-whitespace byte at or after `index`.
    func skipSpace(_ index: Int) -> Int {
        var index = index
        while index < bytes.count, JSONScanner.isSpace(bytes[index]) { index += 1 }
        return index
    }

    /// Whether the string starting at `index` (its opening quote) is exactly `key`.
    func stringEquals(at index: Int, _ key: StaticString) -> Bool {
        let count = key.utf8CodeUnitCount
        let start = index + 1
        if start + count < bytes.count, bytes[start + count] == UInt8(ascii: "\"") {
            let plain = key.withUTF8Buffer { wanted in
                (0..<count).allSatisfy { bytes[start + $0] == wanted[$0] }
            }
            if plain { return true }
        }
        // An escaped key (`"t\u0079pe"`) is the same key once unescaped.
        guard bytes[start..<skipValue(at: index) - 1].contains(UInt8(ascii: "\\")) else { return false }
        return key.withUTF8Buffer { wanted in Array(string(at: index).utf8) == Array(wanted) }
    }

    /// The string starting at `index` (its opening quote), unescaped.
    func string(at index: Int) -> String {
        let end = skipValue(at: index) - 1
        let body = UnsafeBufferPointer(rebasing: bytes[(index + 1)..<end])
        guard body.contains(UInt8(ascii: "\\")) else { return String(decoding: body, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(body.count)
        var position = 0
        while position < body.count {
            let byte = body[position]
            guard byte == UInt8(ascii: "\\") else {
                out.append(byte)
                position += 1
                continue
            }
            let escape = body[position + 1]
            position += 2
            switch escape {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = JSONScanner.hexValue(body, at: position)
                position += 4
                if scalar >= 0xD800 && scalar < 0xDC00 {
                    // The scanner made sure a low surrogate escape follows.
                    let low = JSONScanner.hexValue(body, at: position + 2)
                    position += 6
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                out.append(contentsOf: String(Unicode.Scalar(scalar)!).utf8)
            default: out.append(escape)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// The members of one object of a checked payload, looked up by key.
struct JSONObjectFields {
    let reader: JSONPayloadReader
    /// Index of the object's `{`.
    let start: Int
    /// Dotted path of the object in the message, for error details ("" at the top).
    let path: String
    /// The members in order, found once: a message type with many optional fields looks each up, and walking
    /// the object again for every key would cost as many walks as the type has fields.
    private let members: [Member]

    private struct Member {
        /// Index of the key's opening quote.
        var key: Int
        /// Bytes between the key's quotes.
        var keyLength: Int
        /// Whether the key holds an escape (and must be unescaped to be compared).
        var escaped: Bool
        /// Index of the value.
        var value: Int
    }

    init(reader: JSONPayloadReader, start: Int, path: String) {
        self.reader = reader
        self.start = start
        self.path = path
        var members: [Member] = []
        var index = reader.skipSpace(start + 1)
        while reader.bytes[index] == UInt8(ascii: "\"") {
            let keyEnd = reader.skipValue(at: index)
            let escaped = reader.bytes[(index + 1)..<(keyEnd - 1)].contains(UInt8(ascii: "\\"))
            let value = reader.skipSpace(reader.skipSpace(keyEnd) + 1)
            members.append(Member(key: index, keyLength: keyEnd - index - 2, escaped: escaped, value: value))
            index = reader.skipSpace(reader.skipValue(at: value))
            guard reader.bytes[index] == UInt8(ascii: ",") else { break }
            index = reader.skipSpace(index + 1)
        }
        self.members = members
    }

    /// Index of the value of the first member named `key`, or `nil`.
    func position(of key: StaticString) -> Int? {
        let count = key.utf8CodeUnitCount
        return key.withUTF8Buffer { wanted in
            for member in members {
                if member.escaped {
                    if reader.stringEquals(at: member.key, key) { return member.value }
                    continue
                }
                guard member.keyLength == count else { continue }
                let first = member.key + 1
                if (0..<count).allSatisfy({ reader.bytes[first + $0] == wanted[$0] }) { return member.value }
            }
            return nil
        }
    }

    func fieldPath(_ key: StaticString) -> String {
        path.isEmpty ? "\(key)" : "\(path).\(key)"
    }

    /// A field that must be present and not `null`.
    func required<Value: JSONFieldValue>(_ key: StaticString, as type: Value.Type = Value.self) throws(MessageError)
        -> Value
    {
        guard let index = position(of: key) else { throw MessageError(.badMessage, "missing field \"\(key)\"") }
        guard reader.bytes[index] != UInt8(ascii: "n") else {
            throw MessageError(.badMessage, "null for field \"\(fieldPath(key))\"")
        }
        return try Value.read(JSONFieldValueSlot(reader: reader, index: index, place: .field(in: path, key)))
    }

    /// A field that may be absent or `null`.
    func optional<Value: JSONFieldValue>(_ key: StaticString, as type: Value.Type = Value.self) throws(MessageError)
        -> Value?
    {
        guard let index = position(of: key), reader.bytes[index] != UInt8(ascii: "n") else { return nil }
        return try Value.read(JSONFieldValueSlot(reader: reader, index: index, place: .field(in: path, key)))
    }
}

/// One value of a checked payload, with its place in the message for error details.
struct JSONFieldValueSlot {
    let reader: JSONPayloadReader
    let index: Int
    let place: Place

    /// Where a value sits, spelled out (`settings.categories.2`) only when an error names it: building the dotted
    /// path of every field read would cost a string for each.
    enum Place {
        case field(in: String, StaticString)
        case element(in: String, Int)
    }

    /// The dotted path of the value in the message.
    var path: String {
        switch place {
        case .field(let parent, let key): parent.isEmpty ? "\(key)" : "\(parent).\(key)"
        case .element(let parent, let position): "\(parent).\(position)"
        }
    }

    var firstByte: UInt8 { reader.bytes[index] }

    func wrongType() -> MessageError { MessageError(.badMessage, "wrong type for field \"\(path)\"") }
    func badValue() -> MessageError { MessageError(.badMessage, "bad value for field \"\(path)\"") }
}

/// A type a message field can hold, read from a checked payload.
protocol JSONFieldValue {
    static func read(_ slot: JSONFieldValueSlot) throws(MessageError) -> Self
}

extension String: JSONFieldValue {
    static func read(_ slot: JSONFieldValueSlot) throws(MessageError) -> String {
        guard slot.firstByte == UInt8(ascii: "\"") else { throw slot.wrongType() }
        return slot.reader.string(at: slot.index)
    }
}

extension Bool: JSONFieldValue {
    static func read(_ slot: JSONFieldValueSlot) throws(MessageError) -> Bool {
        switch slot.firstByte {
        case UInt8(ascii: "t"): return true
        case UInt8(ascii: "f"): return false
        default: throw slot.wrongType()
        }
    }
}

extension Int: JSONFieldValue {
    /// Integers as the protocol has them: JSON numbers without a fraction or an exponent. `1.0`, `1e2` and `1.5`
    /// are bad values (stricter than `JSONDecoder`, which reads the first two as whole numbers), as are numbers past
    /// `Int`'s range; a number too large for a `Double` is not JSON at all (the scanner says so first).
    static func read(_ slot: JSONFieldValueSlot) throws(MessageError) -> Int {
        let bytes = slot.reader.bytes
        var index = slot.index
        guard bytes[index] == UInt8(ascii: "-") || (bytes[index] >= 0x30 && bytes[index] <= 0x39) else {
            throw slot.wrongType()
        }
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        var value = 0
        var overflow = false
        while index < bytes.count, bytes[index] >= 0x30 && bytes[index] <= 0x39 {
            let digit = Int(bytes[index] - 0x30)
            let (times, o1) = value.multipliedReportingOverflow(by: 10)
            let (next, o2) = negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
            overflow = overflow || o1 || o2
            value = next
            index += 1
        }
        // Digits followed by anything (a fraction or an exponent) are not an integer.
        guard index == slot.reader.skipValue(at: slot.index), !overflow else { throw slot.badValue() }
        return value
    }
}

extension Array: JSONFieldValue where Element: JSONFieldValue {
    static func read(_ slot: JSONFieldValueSlot) throws(MessageError) -> [Element] {
        guard slot.firstByte == UInt8(ascii: "[") else { throw slot.wrongType() }
        let reader = slot.reader
        var elements: [Element] = []
        var index = reader.skipSpace(slot.index + 1)
        // The array's own path is spelled out once for all its elements.
        let arrayPath = reader.bytes[index] == UInt8(ascii: "]") ? "" : slot.path
        while reader.bytes[index] != UInt8(ascii: "]") {
            let place = JSONFieldValueSlot.Place.element(in: arrayPath, elements.count)
            let element = JSONFieldValueSlot(reader: reader, index: index, place: place)
            guard element.firstByte != UInt8(ascii: "n") else {
                throw MessageError(.badMessage, "null for field \"\(element.path)\"")
            }
            elements.append(try Element.read(element))
            index = reader.skipSpace(reader.skipValue(at: index))
            if reader.bytes[index] == UInt8(ascii: ",") { index = reader.skipSpace(index + 1) }
        }
        return elements
    }
}

/// The wire's enumerations are strings; one the type does not know is a bad value.
extension JSONFieldValue where Self: RawRepresentable, RawValue == String {
    static func read(_ slot: JSONFieldValueSlot) throws(MessageError) -> Self {
        guard let value = Self(rawValue: try String.read(slot)) else { throw slot.badValue() }
        return value
    }
}

extension JSONFieldValueSlot {
    /// The value as a nested object, for its own fields.
    func object() throws(MessageError) -> JSONObjectFields {
        guard firstByte == UInt8(ascii: "{") else { throw wrongType() }
        return JSONObjectFields(reader: reader, start: index, path: path)
    }
}

extension JSONObjectFields: JSONFieldValue {
    static func read(_ slot: JSONFieldValueSlot) throws(MessageError) -> JSONObjectFields {
        try slot.object()
    }
}
