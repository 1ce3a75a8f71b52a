/// A gzip body of a few megabytes that expands to hundreds: one literal "a", then back-references of 258 bytes at
/// distance 1 in a single fixed-Huffman deflate block (13 bits per 258 bytes). Built bit by bit here so that no
/// large file is kept in the repository and no compression library is needed.
enum GzipBomb {
    /// Back-references in `body`; the expanded size is 1 + 258 × this.
    static let references = 800_000
    /// 206,400,001 bytes of "a".
    static let expandedSize = 1 + 258 * references
    /// CRC-32 of the expanded bytes (computed once with Python's `zlib.crc32(b"a" * 206400001)`), so that a
    /// client reading to the end sees a valid member, not a corrupt one.
    static let expandedCRC: UInt32 = 0xCF6B_4004

    /// The whole gzip member, about 1.3 MB.
    static let body: [UInt8] = {
        var writer = BitWriter()
        writer.raw(1, count: 1)  // final block
        writer.raw(1, count: 2)  // fixed Huffman codes
        writer.code(0x30 + 0x61, length: 8)  // literal "a"
        for _ in 0..<references {
            writer.code(0b1100_0101, length: 8)  // length symbol 285: 258 bytes
            writer.code(0, length: 5)  // distance symbol 0: 1 byte back
        }
        writer.code(0, length: 7)  // end of block
        let header: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF]
        return header + writer.finish() + littleEndian(expandedCRC)
            + littleEndian(UInt32(truncatingIfNeeded: expandedSize))
    }()

    private static func littleEndian(_ value: UInt32) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    /// Deflate's bit order: plain values least significant bit first, Huffman codes most significant bit first.
    private struct BitWriter {
        var bytes: [UInt8] = []
        var accumulator: UInt32 = 0
        var filled = 0

        mutating func raw(_ value: UInt32, count: Int) {
            accumulator |= value << filled
            filled += count
            while filled >= 8 {
                bytes.append(UInt8(truncatingIfNeeded: accumulator))
                accumulator >>= 8
                filled -= 8
            }
        }

        mutating func code(_ value: UInt32, length: Int) {
            for shift in stride(from: length - 1, through: 0, by: -1) { raw((value >> shift) & 1, count: 1) }
        }

        mutating func finish() -> [UInt8] {
            if filled > 0 { bytes.append(UInt8(truncatingIfNeeded: accumulator)) }
            return bytes
        }
    }
}
