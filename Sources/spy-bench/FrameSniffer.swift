/// Reads a frame's `type` without decoding the JSON.
enum FrameSniffer {
    private static let marker = Array(#""type":""#.utf8)

    /// The value of the top-level `"type"` field, found as the first unescaped `"type":"` in the payload.
    /// `nil` when it is not found; the caller then decodes the frame in full.
    static func type(of payload: [UInt8]) -> String? {
        guard payload.count > marker.count else { return nil }
        var index = 0
        let last = payload.count - marker.count
        while index <= last {
            if payload[index] == UInt8(ascii: "\""), index == 0 || payload[index - 1] != UInt8(ascii: "\\"),
                payload[index..<index + marker.count].elementsEqual(marker)
            {
                let start = index + marker.count
                guard let end = payload[start...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
                return String(decoding: payload[start..<end], as: UTF8.self)
            }
            index += 1
        }
        return nil
    }

    /// Whether `value` appears in the payload as a whole JSON string (`"p1"` is not found in `"p10"`).
    static func mentions(_ value: String, in payload: [UInt8]) -> Bool {
        let needle = Array("\"\(value)\"".utf8)
        guard payload.count >= needle.count else { return false }
        for start in 0...(payload.count - needle.count)
        where payload[start] == needle[0] && payload[start..<start + needle.count].elementsEqual(needle) {
            return true
        }
        return false
    }
}
