/// A QR code (ISO/IEC 18004) of a text: byte mode, error correction level M, versions 1–10.
///
/// The smallest version that holds the text's UTF-8 bytes is used, and of the eight masks the one with the lowest
/// penalty (rules N1–N4 of the standard, scored on the finished symbol, format and version information included;
/// the lowest mask number wins a tie).
public struct QRCode: Sendable, Equatable {
    /// 1–10; the symbol is `17 + 4 × version` modules wide.
    public let version: Int
    /// The mask pattern applied, 0–7.
    public let mask: Int
    /// Modules per side.
    public let size: Int
    /// Row-major, `true` for dark.
    private let modules: [Bool]

    /// The most UTF-8 bytes a code can hold (version 10, level M).
    public static let maxBytes = QRTables.byteCapacity(version: 10)

    /// Encodes `text`, choosing the mask by penalty.
    public init(text: String) throws(QRCodeError) {
        try self.init(bytes: Array(text.utf8), mask: nil)
    }

    /// Encodes `bytes`; `mask` forces a mask pattern (0–7) instead of choosing by penalty.
    public init(bytes: [UInt8], mask forced: Int? = nil) throws(QRCodeError) {
        guard let version = QRTables.versions.first(where: { QRTables.byteCapacity(version: $0) >= bytes.count })
        else {
            throw .tooLong(bytes: bytes.count, limit: QRCode.maxBytes)
        }
        let codewords = QRCode.codewords(for: bytes, version: version)
        var base = QRMatrix(version: version)
        base.placeData(codewords)
        var best: (mask: Int, matrix: QRMatrix, penalty: Int)?
        precondition(forced.map { (0..<8).contains($0) } ?? true, "a QR mask pattern is 0–7")
        for mask in forced.map({ [$0] }) ?? Array(0..<8) {
            var candidate = base
            candidate.applyMask(mask)
            candidate.drawFormat(mask: mask)
            let penalty = forced == nil ? candidate.penalty() : 0
            if best == nil || penalty < best!.penalty { best = (mask, candidate, penalty) }
        }
        self.version = version
        self.mask = best!.mask
        self.size = base.size
        self.modules = best!.matrix.modules
    }

    /// Whether the module at column `x`, row `y` is dark; outside the symbol (the quiet zone) is light.
    public func isDark(x: Int, y: Int) -> Bool {
        guard x >= 0, y >= 0, x < size, y < size else { return false }
        return modules[y * size + x]
    }

    /// The penalty score of the symbol as drawn (N1 + N2 + N3 + N4).
    public var penalty: Int {
        QRMatrix(size: size, modules: modules).penalty()
    }

    /// Data bits (mode, count, bytes, terminator, padding) split into blocks, each followed by its error
    /// correction, then interleaved as the symbol stores them.
    static func codewords(for bytes: [UInt8], version: Int) -> [UInt8] {
        let layout = QRTables.layout(version: version)
        var bits = BitBuffer()
        bits.append(0b0100, count: 4)
        bits.append(bytes.count, count: QRTables.countBits(version: version))
        for byte in bytes { bits.append(Int(byte), count: 8) }
        let capacity = layout.dataCodewords * 8
        bits.append(0, count: min(4, capacity - bits.count))
        bits.append(0, count: (8 - bits.count % 8) % 8)
        var data = bits.bytes
        var pad: UInt8 = 0xEC
        while data.count < layout.dataCodewords {
            data.append(pad)
            pad = pad == 0xEC ? 0x11 : 0xEC
        }
        let generator = ReedSolomon.generator(degree: layout.eccPerBlock)
        var blocks: [[UInt8]] = []
        var corrections: [[UInt8]] = []
        var start = 0
        for length in layout.dataPerBlock {
            let block = Array(data[start..<start + length])
            start += length
            blocks.append(block)
            corrections.append(ReedSolomon.remainder(of: block, generator: generator))
        }
        var result: [UInt8] = []
        result.reserveCapacity(layout.dataCodewords + layout.eccPerBlock * blocks.count)
        for index in 0..<(layout.dataPerBlock.max() ?? 0) {
            for block in blocks where index < block.count { result.append(block[index]) }
        }
        for index in 0..<layout.eccPerBlock {
            for correction in corrections { result.append(correction[index]) }
        }
        return result
    }
}

/// Bits appended most significant first.
struct BitBuffer {
    private(set) var bytes: [UInt8] = []
    private(set) var count = 0

    mutating func append(_ value: Int, count length: Int) {
        guard length > 0 else { return }
        for shift in stride(from: length - 1, through: 0, by: -1) {
            if count % 8 == 0 { bytes.append(0) }
            if (value >> shift) & 1 == 1 { bytes[count / 8] |= 0x80 >> UInt8(count % 8) }
            count += 1
        }
    }
}
