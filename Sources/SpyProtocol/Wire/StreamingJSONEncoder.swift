/// Encodes an `Encodable` value straight into JSON bytes, in one pass.
///
/// Foundation's `JSONEncoder` first builds a tree of boxed values, then serialises it; for the host, which encodes
/// a room snapshot after nearly every move, that was the largest single cost. This encoder writes each key and
/// value as the value's `encode(to:)` hands them over, so keys come out in the order the type encodes them (for
/// our messages: `type` first). It handles what the wire types use — keyed and unkeyed containers, nested
/// containers, several keyed containers on one encoder (how a message adds its `type` to its body's fields) —
/// and any other `Encodable` too.
public enum StreamingJSONEncoder {
    /// The JSON bytes of `value`.
    public static func encode<Value: Encodable>(_ value: Value) throws -> [UInt8] {
        try encode(value, leadingBytes: 0)
    }

    /// The JSON bytes of `value` after `leadingBytes` zero bytes, room for a frame header written in place so the
    /// payload is not copied into a second array to be framed.
    static func encode<Value: Encodable>(_ value: Value, leadingBytes: Int) throws -> [UInt8] {
        let writer = JSONByteWriter()
        writer.bytes.append(contentsOf: repeatElement(0, count: leadingBytes))
        let slot = JSONSlot()
        try value.encode(to: StreamingEncoder(writer: writer, slot: slot, codingPath: []))
        writer.close(slot)
        return writer.bytes
    }
}

/// The output and the escaping rules.
private final class JSONByteWriter {
    // Each append is an access of its own and none overlaps another (the writer is private to one `encode` call
    // and never handed out), so the dynamic exclusivity check each would make (about a fifth of a snapshot's
    // encoding) is left out.
    @exclusivity(unchecked) var bytes: [UInt8] = []

    init() {
        bytes.reserveCapacity(512)
    }

    /// Ends what `slot` opened (or writes `{}` for a value that encoded nothing, as `JSONEncoder` does).
    func close(_ slot: JSONSlot) {
        if let child = slot.openChild {
            close(child)
            slot.openChild = nil
        }
        switch slot.kind {
        case .none: bytes.append(contentsOf: [UInt8(ascii: "{"), UInt8(ascii: "}")])
        case .object: bytes.append(UInt8(ascii: "}"))
        case .array: bytes.append(UInt8(ascii: "]"))
        case .single: break
        }
        slot.kind = .single
    }

    /// Starts the next entry of `slot`: ends an unfinished nested container, then writes the separator.
    func beginEntry(in slot: JSONSlot) {
        if let child = slot.openChild {
            close(child)
            slot.openChild = nil
        }
        if slot.count > 0 { bytes.append(UInt8(ascii: ",")) }
        slot.count += 1
    }

    func key(_ key: String, in slot: JSONSlot) {
        beginEntry(in: slot)
        string(key)
        bytes.append(UInt8(ascii: ":"))
    }

    func string(_ text: String) {
        // Most strings (keys, ids, codes, names) need no escape: one append instead of one per byte. The check runs
        // over the string's contiguous UTF-8, not through its generic view.
        var text = text
        let plain = text.withUTF8 { utf8 in
            !utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F })
        }
        if plain {
            bytes.append(UInt8(ascii: "\""))
            text.withUTF8 { bytes.append(contentsOf: $0) }
            bytes.append(UInt8(ascii: "\""))
            return
        }
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x00..<0x20, 0x7F:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: Array("\\u00".utf8))
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0x0F)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Writes `value` if it is a string, an `Int`, a `Bool` or a collection of strings (an array, a set, a
    /// dictionary by string), exactly as its own `encode(to:)` would; returns whether it did. The standard library's
    /// collections hand each element to a container's generic `encode` through an existential, which for a string
    /// took a nested slot, an `Encoder` and a single-value container: about 1,700 instructions for each string of a
    /// set, against a compare of types here.
    func direct<Value: Encodable>(_ value: Value) -> Bool {
        if Value.self == String.self {
            string(unsafeBitCast(value, to: String.self))
        } else if Value.self == Int.self {
            literal(String(unsafeBitCast(value, to: Int.self)))
        } else if Value.self == Bool.self {
            literal(unsafeBitCast(value, to: Bool.self) ? "true" : "false")
        } else if Value.self == [String].self {
            strings(unsafeBitCast(value, to: [String].self))
        } else if Value.self == Set<String>.self {
            strings(unsafeBitCast(value, to: Set<String>.self))
        } else if Value.self == [String: String].self {
            bytes.append(UInt8(ascii: "{"))
            var first = true
            for (key, text) in unsafeBitCast(value, to: [String: String].self) {
                if !first { bytes.append(UInt8(ascii: ",")) }
                first = false
                string(key)
                bytes.append(UInt8(ascii: ":"))
                string(text)
            }
            bytes.append(UInt8(ascii: "}"))
        } else {
            return false
        }
        return true
    }

    private func strings(_ list: some Sequence<String>) {
        bytes.append(UInt8(ascii: "["))
        var first = true
        for text in list {
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            string(text)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    func literal(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    func double(_ value: Double) throws {
        guard value.isFinite else {
            throw EncodingError.invalidValue(
                value, EncodingError.Context(codingPath: [], debugDescription: "JSON has no NaN or infinity"))
        }
        if value == value.rounded(), abs(value) < 1e15 {
            literal(String(Int64(value)))
        } else {
            literal("\(value)")
        }
    }
}

/// One JSON value being written: what it opened and how many entries it has.
private final class JSONSlot {
    enum Kind {
        /// Nothing written yet.
        case none
        /// `{` written.
        case object
        /// `[` written.
        case array
        /// A scalar written, or the container closed.
        case single
    }

    var kind: Kind = .none
    var count = 0
    /// A nested container handed out by `nestedContainer`, closed before the next entry.
    var openChild: JSONSlot?
}

private struct StreamingEncoder: Encoder {
    let writer: JSONByteWriter
    let slot: JSONSlot
    let codingPath: [CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if slot.kind == .none {
            writer.bytes.append(UInt8(ascii: "{"))
            slot.kind = .object
        }
        return KeyedEncodingContainer(StreamingKeyedContainer<Key>(writer: writer, slot: slot, codingPath: codingPath))
    }

    func unkeyedContainer() -> UnkeyedEncodingContainer {
        if slot.kind == .none {
            writer.bytes.append(UInt8(ascii: "["))
            slot.kind = .array
        }
        return StreamingUnkeyedContainer(writer: writer, slot: slot, codingPath: codingPath)
    }

    func singleValueContainer() -> SingleValueEncodingContainer {
        StreamingSingleValueContainer(writer: writer, slot: slot, codingPath: codingPath)
    }
}

/// Writes a nested value into a fresh slot and closes it.
private func writeNested<Value: Encodable>(
    _ value: Value, writer: JSONByteWriter, codingPath: [CodingKey]
) throws {
    let child = JSONSlot()
    try value.encode(to: StreamingEncoder(writer: writer, slot: child, codingPath: codingPath))
    writer.close(child)
}

private struct StreamingKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let writer: JSONByteWriter
    let slot: JSONSlot
    let codingPath: [CodingKey]

    mutating func encodeNil(forKey key: Key) throws {
        writer.key(key.stringValue, in: slot)
        writer.literal("null")
    }

    mutating func encode(_ value: Bool, forKey key: Key) throws {
        writer.key(key.stringValue, in: slot)
        writer.literal(value ? "true" : "false")
    }

    mutating func encode(_ value: String, forKey key: Key) throws {
        writer.key(key.stringValue, in: slot)
        writer.string(value)
    }

    mutating func encode(_ value: Double, forKey key: Key) throws {
        writer.key(key.stringValue, in: slot)
        try writer.double(value)
    }

    mutating func encode(_ value: Float, forKey key: Key) throws {
        try encode(Double(value), forKey: key)
    }

    mutating func encode(_ value: Int, forKey key: Key) throws {
        writer.key(key.stringValue, in: slot)
        writer.literal(String(value))
    }

    mutating func encode(_ value: Int8, forKey key: Key) throws { try encode(Int(value), forKey: key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try encode(Int(value), forKey: key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try encode(Int(value), forKey: key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try encode(Int(value), forKey: key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws {
        writer.key(key.stringValue, in: slot)
        writer.literal(String(value))
    }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try encode(UInt(value), forKey: key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try encode(UInt(value), forKey: key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try encode(UInt(value), forKey: key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try encode(UInt(value), forKey: key) }

    mutating func encode<Value: Encodable>(_ value: Value, forKey key: Key) throws {
        writer.key(key.stringValue, in: slot)
        if writer.direct(value) { return }
        try writeNested(value, writer: writer, codingPath: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        writer.key(key.stringValue, in: slot)
        let child = JSONSlot()
        slot.openChild = child
        return StreamingEncoder(writer: writer, slot: child, codingPath: codingPath + [key]).container(
            keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> UnkeyedEncodingContainer {
        writer.key(key.stringValue, in: slot)
        let child = JSONSlot()
        slot.openChild = child
        return StreamingEncoder(writer: writer, slot: child, codingPath: codingPath + [key]).unkeyedContainer()
    }

    mutating func superEncoder() -> Encoder {
        superEncoder(forKey: Key(stringValue: "super")!)
    }

    mutating func superEncoder(forKey key: Key) -> Encoder {
        writer.key(key.stringValue, in: slot)
        let child = JSONSlot()
        slot.openChild = child
        return StreamingEncoder(writer: writer, slot: child, codingPath: codingPath + [key])
    }
}

private struct StreamingUnkeyedContainer: UnkeyedEncodingContainer {
    let writer: JSONByteWriter
    let slot: JSONSlot
    let codingPath: [CodingKey]
    var count: Int { slot.count }

    mutating func encodeNil() throws {
        writer.beginEntry(in: slot)
        writer.literal("null")
    }

    mutating func encode(_ value: Bool) throws {
        writer.beginEntry(in: slot)
        writer.literal(value ? "true" : "false")
    }

    mutating func encode(_ value: String) throws {
        writer.beginEntry(in: slot)
        writer.string(value)
    }

    mutating func encode(_ value: Int) throws {
        writer.beginEntry(in: slot)
        writer.literal(String(value))
    }

    mutating func encode(_ value: Double) throws {
        writer.beginEntry(in: slot)
        try writer.double(value)
    }

    mutating func encode<Value: Encodable>(_ value: Value) throws {
        writer.beginEntry(in: slot)
        if writer.direct(value) { return }
        try writeNested(value, writer: writer, codingPath: codingPath)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
        NestedKey
    > {
        writer.beginEntry(in: slot)
        let child = JSONSlot()
        slot.openChild = child
        return StreamingEncoder(writer: writer, slot: child, codingPath: codingPath).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> UnkeyedEncodingContainer {
        writer.beginEntry(in: slot)
        let child = JSONSlot()
        slot.openChild = child
        return StreamingEncoder(writer: writer, slot: child, codingPath: codingPath).unkeyedContainer()
    }

    mutating func superEncoder() -> Encoder {
        writer.beginEntry(in: slot)
        let child = JSONSlot()
        slot.openChild = child
        return StreamingEncoder(writer: writer, slot: child, codingPath: codingPath)
    }
}

private struct StreamingSingleValueContainer: SingleValueEncodingContainer {
    let writer: JSONByteWriter
    let slot: JSONSlot
    let codingPath: [CodingKey]

    private func claim() {
        slot.kind = .single
    }

    mutating func encodeNil() throws {
        claim()
        writer.literal("null")
    }

    mutating func encode(_ value: Bool) throws {
        claim()
        writer.literal(value ? "true" : "false")
    }

    mutating func encode(_ value: String) throws {
        claim()
        writer.string(value)
    }

    mutating func encode(_ value: Double) throws {
        claim()
        try writer.double(value)
    }

    mutating func encode(_ value: Float) throws { try encode(Double(value)) }

    mutating func encode(_ value: Int) throws {
        claim()
        writer.literal(String(value))
    }

    mutating func encode(_ value: Int8) throws { try encode(Int(value)) }
    mutating func encode(_ value: Int16) throws { try encode(Int(value)) }
    mutating func encode(_ value: Int32) throws { try encode(Int(value)) }
    mutating func encode(_ value: Int64) throws { try encode(Int(value)) }
    mutating func encode(_ value: UInt) throws {
        claim()
        writer.literal(String(value))
    }
    mutating func encode(_ value: UInt8) throws { try encode(UInt(value)) }
    mutating func encode(_ value: UInt16) throws { try encode(UInt(value)) }
    mutating func encode(_ value: UInt32) throws { try encode(UInt(value)) }
    mutating func encode(_ value: UInt64) throws { try encode(UInt(value)) }

    mutating func encode<Value: Encodable>(_ value: Value) throws {
        claim()
        if writer.direct(value) { return }
        try writeNested(value, writer: writer, codingPath: codingPath)
    }
}
