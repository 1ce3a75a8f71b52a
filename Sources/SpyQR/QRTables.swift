/// Why a text cannot be drawn as a QR code.
public enum QRCodeError: Error, Equatable, CustomStringConvertible {
    /// The text needs more bytes than version 10 at error correction level M holds.
    case tooLong(bytes: Int, limit: Int)

    public var description: String {
        switch self {
        case .tooLong(let bytes, let limit):
            return "\(bytes) bytes do not fit in a QR code (at most \(limit) bytes)"
        }
    }
}

/// The numbers of ISO/IEC 18004 this encoder needs: versions 1–10 at error correction level M only.
enum QRTables {
    static let versions = 1...10

    /// Error correction codewords per block, and the data codewords of each block, for level M.
    struct BlockLayout {
        let eccPerBlock: Int
        let dataPerBlock: [Int]

        var dataCodewords: Int { dataPerBlock.reduce(0, +) }
    }

    /// Table 9 of the standard, level M, versions 1–10.
    static func layout(version: Int) -> BlockLayout {
        switch version {
        case 1: return BlockLayout(eccPerBlock: 10, dataPerBlock: [16])
        case 2: return BlockLayout(eccPerBlock: 16, dataPerBlock: [28])
        case 3: return BlockLayout(eccPerBlock: 26, dataPerBlock: [44])
        case 4: return BlockLayout(eccPerBlock: 18, dataPerBlock: [32, 32])
        case 5: return BlockLayout(eccPerBlock: 24, dataPerBlock: [43, 43])
        case 6: return BlockLayout(eccPerBlock: 16, dataPerBlock: [27, 27, 27, 27])
        case 7: return BlockLayout(eccPerBlock: 18, dataPerBlock: [31, 31, 31, 31])
        case 8: return BlockLayout(eccPerBlock: 22, dataPerBlock: [38, 38, 39, 39])
        case 9: return BlockLayout(eccPerBlock: 22, dataPerBlock: [36, 36, 36, 37, 37])
        default: return BlockLayout(eccPerBlock: 26, dataPerBlock: [43, 43, 43, 43, 44])
        }
    }

    /// Bits of the byte-mode character count: 8 up to version 9, 16 from version 10.
    static func countBits(version: Int) -> Int { version <= 9 ? 8 : 16 }

    /// The most bytes a version holds in byte mode at level M.
    static func byteCapacity(version: Int) -> Int {
        (layout(version: version).dataCodewords * 8 - 4 - countBits(version: version)) / 8
    }

    /// Centres of the alignment patterns along each axis (Annex E).
    static func alignmentCentres(version: Int) -> [Int] {
        switch version {
        case 1: return []
        case 2: return [6, 18]
        case 3: return [6, 22]
        case 4: return [6, 26]
        case 5: return [6, 30]
        case 6: return [6, 34]
        case 7: return [6, 22, 38]
        case 8: return [6, 24, 42]
        case 9: return [6, 26, 46]
        default: return [6, 28, 50]
        }
    }
}
