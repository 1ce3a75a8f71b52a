/// The frame of a `pong`, the answer to every keep-alive and the message a host sends most: written into one array of
/// its exact length, with no output buffer to grow and copy out of.
extension WireCodec {
    /// `{"type":"pong","id":ID}` after its 4-byte length: the same bytes as `encodeFrame(ServerMessage.pong(…))`.
    public static func pongFrame(id: Int) -> [UInt8] {
        let head: StaticString = #"{"type":"pong","id":"#
        var magnitude = id.magnitude
        var digits = 1
        while magnitude >= 10 {
            magnitude /= 10
            digits += 1
        }
        let sign = id < 0 ? 1 : 0
        let payload = head.utf8CodeUnitCount + sign + digits + 1
        let count = FrameLimits.headerSize + payload
        return [UInt8](unsafeUninitializedCapacity: count) { bytes, initialized in
            bytes[0] = 0
            bytes[1] = 0
            bytes[2] = UInt8(truncatingIfNeeded: payload >> 8)
            bytes[3] = UInt8(truncatingIfNeeded: payload)
            var at = FrameLimits.headerSize
            head.withUTF8Buffer { utf8 in
                for byte in utf8 {
                    bytes[at] = byte
                    at += 1
                }
            }
            if sign == 1 { bytes[at] = UInt8(ascii: "-") }
            var rest = id.magnitude
            var index = count - 2
            repeat {
                bytes[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                index -= 1
            } while rest > 0
            bytes[count - 1] = UInt8(ascii: "}")
            initialized = count
        }
    }
}
