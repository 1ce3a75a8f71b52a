/// SHA-1 (FIPS 180-4), for the WebSocket handshake and asset tags only: Foundation on Linux has no digest API,
/// and neither use needs collision resistance.
public enum SHA1 {
    /// The 20-byte digest of `message`.
    public static func hash<Bytes: Collection>(_ message: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        var state: (UInt32, UInt32, UInt32, UInt32, UInt32) = (
            0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0
        )
        var padded = Array(message)
        let bitLength = UInt64(padded.count) &* 8
        padded.append(0x80)
        while padded.count % 64 != 56 { padded.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) {
            padded.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
        }
        var words = [UInt32](repeating: 0, count: 80)
        for blockStart in stride(from: 0, to: padded.count, by: 64) {
            for index in 0..<16 {
                let base = blockStart + index * 4
                words[index] =
                    UInt32(padded[base]) << 24 | UInt32(padded[base + 1]) << 16 | UInt32(padded[base + 2]) << 8
                    | UInt32(padded[base + 3])
            }
            for index in 16..<80 {
                words[index] = rotate(words[index - 3] ^ words[index - 8] ^ words[index - 14] ^ words[index - 16], 1)
            }
            var (a, b, c, d, e) = state
            for index in 0..<80 {
                let f: UInt32
                let k: UInt32
                switch index {
                case 0..<20:
                    f = (b & c) | (~b & d)
                    k = 0x5A82_7999
                case 20..<40:
                    f = b ^ c ^ d
                    k = 0x6ED9_EBA1
                case 40..<60:
                    f = (b & c) | (b & d) | (c & d)
                    k = 0x8F1B_BCDC
                default:
                    f = b ^ c ^ d
                    k = 0xCA62_C1D6
                }
                let next = rotate(a, 5) &+ f &+ e &+ k &+ words[index]
                e = d
                d = c
                c = rotate(b, 30)
                b = a
                a = next
            }
            state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e)
        }
        var digest: [UInt8] = []
        digest.reserveCapacity(20)
        for word in [state.0, state.1, state.2, state.3, state.4] {
            digest += [UInt8(word >> 24), UInt8(word >> 16 & 0xFF), UInt8(word >> 8 & 0xFF), UInt8(word & 0xFF)]
        }
        return digest
    }

    /// The digest as lowercase hexadecimal.
    public static func hex<Bytes: Collection>(_ message: Bytes) -> String where Bytes.Element == UInt8 {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in hash(message) {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    private static func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 {
        value << count | value >> (32 - count)
    }
}
