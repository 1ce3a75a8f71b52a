import Foundation

/// A minimal PNG writer for tests: 8-bit greyscale, zlib stored blocks (no compression), CRC-32 and Adler-32.
enum PNGFile {
    /// A PNG of `grid` (true = black), each module `scale` pixels square.
    static func encode(_ grid: [[Bool]], scale: Int) -> [UInt8] {
        let width = (grid.first?.count ?? 0) * scale
        let height = grid.count * scale
        var raw: [UInt8] = []
        raw.reserveCapacity((width + 1) * height)
        for row in grid {
            var line: [UInt8] = [0]  // filter type None
            for dark in row { line += [UInt8](repeating: dark ? 0 : 255, count: scale) }
            for _ in 0..<scale { raw += line }
        }
        var header: [UInt8] = []
        header += bigEndian(UInt32(width))
        header += bigEndian(UInt32(height))
        header += [8, 0, 0, 0, 0]  // depth 8, greyscale, deflate, no filter method extras, no interlace
        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        file += chunk("IHDR", header)
        file += chunk("IDAT", zlibStored(raw))
        file += chunk("IEND", [])
        return file
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        return bigEndian(UInt32(data.count)) + typeBytes + data + bigEndian(crc32(typeBytes + data))
    }

    /// A zlib stream of stored (uncompressed) deflate blocks of at most 65,535 bytes.
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var start = 0
        repeat {
            let length = min(65_535, data.count - start)
            let final: UInt8 = start + length == data.count ? 1 : 0
            out.append(final)
            out += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF)]
            out += data[start..<start + length]
            start += length
        } while start < data.count
        return out + bigEndian(adler32(data))
    }

    static func crc32(_ data: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func adler32(_ data: [UInt8]) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}

/// `zbarimg` from Debian's zbar-tools: a real QR decoder. Under `CI=true` its absence is a failure.
enum ZBar {
    static let path = ["/usr/bin/zbarimg", "/usr/local/bin/zbarimg"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }
    static let isRequired = ProcessInfo.processInfo.environment["CI"] == "true"
    /// Whether a test that needs it runs: when it is installed, or when CI requires it (and then fails).
    static let shouldRun = path != nil || isRequired

    struct Missing: Error, CustomStringConvertible {
        var description: String {
            "zbarimg is not installed (apt-get install zbar-tools, or scripts/install-test-deps.sh)"
        }
    }

    /// The text of every code zbarimg finds in a PNG of `grid`.
    static func decode(_ grid: [[Bool]]) throws -> String {
        guard let path else { throw Missing() }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("qr-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(PNGFile.encode(grid, scale: 4)).write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["--raw", "-q", file.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        var text = String(decoding: data, as: UTF8.self)
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }
}
