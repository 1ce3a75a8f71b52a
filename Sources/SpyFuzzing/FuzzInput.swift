/// A cursor over a fuzzer's bytes that never runs out: past the end it yields zeros, so every input is a
/// complete script and the targets need no length checks of their own.
struct FuzzInput {
    private let bytes: [UInt8]
    private(set) var index = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    var isExhausted: Bool { index >= bytes.count }

    mutating func byte() -> UInt8 {
        guard index < bytes.count else { return 0 }
        defer { index += 1 }
        return bytes[index]
    }

    mutating func uint64() -> UInt64 {
        var value: UInt64 = 0
        for _ in 0..<8 { value = value << 8 | UInt64(byte()) }
        return value
    }

    /// Up to `count` bytes (fewer at the end of the input).
    mutating func take(_ count: Int) -> [UInt8] {
        let end = min(bytes.count, index + max(0, count))
        defer { index = max(index, end) }
        return index < end ? Array(bytes[index..<end]) : []
    }

    /// A string of up to `maxBytes` bytes, length taken from the input; invalid UTF-8 becomes U+FFFD as it would
    /// after the codec's own decoding.
    mutating func text(maxBytes: Int) -> String {
        let length = Int(byte()) % (maxBytes + 1)
        return String(decoding: take(length), as: UTF8.self)
    }

    /// Everything not read yet.
    mutating func rest() -> [UInt8] {
        take(bytes.count - index)
    }
}

/// A failed invariant: the fuzzer treats the trap as a finding and saves the input.
func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("fuzz invariant: \(message())") }
}
