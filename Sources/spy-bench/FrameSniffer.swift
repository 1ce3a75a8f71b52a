/// Reads a frame's `type` without decoding the JSON.
enum FrameSniffer {
    private static let marker = Array(#""type":""#.utf8)

    /// The value of the top-level `"type"` field, found as the first unescaped `"type":"` in the payload.
    /// `nil` when it is not found; the caller then decodes the frame in full.
    static func type(of payload: [UInt8]) -> String? {
        let unescaped = { (index: Int) in index == 0 || payload[index - 1] != UInt8(ascii: "\\") }
        guard let found = firstIndex(of: marker, in: payload, where: unescaped) else { return nil }
        let start = found + marker.count
        guard let end = payload[start...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
        return String(decoding: payload[start..<end], as: UTF8.self)
    }

    /// Whether `value` appears in the payload as a whole JSON string (`"p1"` is not found in `"p10"`).
    static func mentions(_ value: String, in payload: [UInt8]) -> Bool {
        firstIndex(of: Array("\"\(value)\"".utf8), in: payload) != nil
    }

    /// The value of the first `"key":` followed by a plain decimal integer; `nil` when there is none.
    static func integer(_ key: String, in payload: [UInt8]) -> Int? {
        let needle = Array("\"\(key)\":".utf8)
        guard let found = firstIndex(of: needle, in: payload) else { return nil }
        var index = found + needle.count
        let negative = index < payload.count && payload[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        var value = 0
        var digits = 0
        while index < payload.count, digits < 18, case let digit = payload[index] &- UInt8(ascii: "0"), digit < 10 {
            value = value * 10 + Int(digit)
            digits += 1
            index += 1
        }
        guard digits > 0 else { return nil }
        return negative ? -value : value
    }

    /// Where `needle` first starts in `payload` at an index `accept` agrees to.
    private static func firstIndex(
        of needle: [UInt8], in payload: [UInt8], where accept: (Int) -> Bool = { _ in true }
    ) -> Int? {
        guard let first = needle.first, payload.count >= needle.count else { return nil }
        for start in 0...(payload.count - needle.count)
        where payload[start] == first && accept(start)
            && payload[start..<start + needle.count].elementsEqual(needle)
        {
            return start
        }
        return nil
    }
}
