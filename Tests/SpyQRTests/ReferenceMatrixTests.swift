import Foundation
import Testing

@testable import SpyQR

/// One reference symbol written by scripts/make-qr-fixtures.py from Python's `qrcode`.
struct ReferenceSymbol: CustomStringConvertible {
    let name: String
    let bytes: [UInt8]
    let version: Int
    /// ISO/IEC 18004 penalty of the finished symbol for each mask, as `qrcode.util.lost_point` scores it.
    let penalties: [Int]
    /// For each mask, the rows of the finished symbol.
    let matrices: [[[Bool]]]

    var description: String { name }

    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Fixtures")

    static let names = [
        "short", "v1-full", "v2-first", "banner-url", "about-100", "zh-tw", "v6-full", "v7-first", "v10-full",
    ]

    static func load(_ name: String) throws -> ReferenceSymbol {
        let text = try String(contentsOf: directory.appendingPathComponent(name + ".txt"), encoding: .utf8)
        var bytes: [UInt8] = []
        var version = 0
        var penalties: [Int] = []
        var matrices: [[[Bool]]] = []
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: " ")
            switch fields.first {
            case "bytes":
                let hex: [Character] = fields.count > 1 ? Array(fields[1]) : []
                bytes = stride(from: 0, to: hex.count, by: 2).map { UInt8(String(hex[$0..<$0 + 2]), radix: 16)! }
            case "version": version = Int(fields[1])!
            case "penalties": penalties = fields.dropFirst().map { Int($0)! }
            case "mask": matrices.append([])
            default: matrices[matrices.count - 1].append(line.map { $0 == "1" })
            }
        }
        return ReferenceSymbol(name: name, bytes: bytes, version: version, penalties: penalties, matrices: matrices)
    }
}

func rows(of code: QRCode) -> [[Bool]] {
    (0..<code.size).map { y in (0..<code.size).map { x in code.isDark(x: x, y: y) } }
}

@Suite struct ReferenceMatrixTests {
    @Test(arguments: ReferenceSymbol.names)
    func everyMaskMatchesTheReference(_ name: String) throws {
        let reference = try ReferenceSymbol.load(name)
        #expect(reference.matrices.count == 8)
        for mask in 0..<8 {
            let code = try QRCode(bytes: reference.bytes, mask: mask)
            #expect(code.version == reference.version, "\(name): version")
            #expect(code.mask == mask)
            #expect(code.size == 17 + 4 * reference.version)
            #expect(rows(of: code) == reference.matrices[mask], "\(name) with mask \(mask)")
            #expect(code.penalty == reference.penalties[mask], "\(name): penalty of mask \(mask)")
        }
    }

    @Test(arguments: ReferenceSymbol.names)
    func theChosenMaskHasTheLowestReferencePenalty(_ name: String) throws {
        let reference = try ReferenceSymbol.load(name)
        let lowest = reference.penalties.min()!
        let expected = reference.penalties.firstIndex(of: lowest)!
        let code = try QRCode(bytes: reference.bytes)
        #expect(code.mask == expected)
        #expect(rows(of: code) == reference.matrices[expected])
    }

    @Test func textIsEncodedAsItsUTF8Bytes() throws {
        let reference = try ReferenceSymbol.load("zh-tw")
        let text = String(decoding: reference.bytes, as: UTF8.self)
        #expect(text.hasPrefix("誰是臥底"))
        #expect(try QRCode(text: text) == QRCode(bytes: reference.bytes))
    }

    @Test func aTieGoesToTheLowerMask() throws {
        // The reference scores masks 3 and 4 of "A" the same.
        let reference = try ReferenceSymbol.load("short")
        #expect(reference.penalties[3] == reference.penalties[4])
        #expect(try QRCode(text: "A").mask == 3)
    }
}

@Suite struct QRCodeLimitsTests {
    @Test func theSmallestVersionThatHoldsTheBytesIsUsed() throws {
        let capacities = [14, 26, 42, 62, 84, 106, 122, 152, 180, 213]
        for (index, capacity) in capacities.enumerated() {
            #expect(try QRCode(bytes: [UInt8](repeating: 0x61, count: capacity)).version == index + 1)
            if index < 9 {
                #expect(try QRCode(bytes: [UInt8](repeating: 0x61, count: capacity + 1)).version == index + 2)
            }
        }
        #expect(try QRCode(text: "").version == 1)
    }

    @Test func longerThanVersionTenIsRefused() {
        #expect(QRCode.maxBytes == 213)
        #expect(throws: QRCodeError.tooLong(bytes: 214, limit: 213)) {
            try QRCode(bytes: [UInt8](repeating: 0x61, count: 214))
        }
    }

    @Test func reedSolomonMatchesTheStandardsWorkedExample() {
        // ISO/IEC 18004 Annex I: "01234567" at 1-M, data codewords and their ten error correction codewords.
        let data: [UInt8] = [
            0x10, 0x20, 0x0C, 0x56, 0x61, 0x80, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11,
        ]
        let correction = ReedSolomon.remainder(of: data, generator: ReedSolomon.generator(degree: 10))
        #expect(correction == [0xA5, 0x24, 0xD4, 0xC1, 0xED, 0x36, 0xC7, 0x87, 0x2C, 0x55])
    }
}
