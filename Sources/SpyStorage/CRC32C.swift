/// CRC-32C (Castagnoli, polynomial 0x1EDC6F41 reflected as 0x82F63B78), the checksum iSCSI (RFC 3720) and most
/// storage logs use: it catches every burst of up to 32 flipped bits, so a torn or garbled record never passes.
///
/// Eight bytes are taken per step ("slicing by 8": eight tables of 256 entries, 8 KiB), about six times the speed of
/// a byte at a time; the host checksums every record it journals.
package enum CRC32C {
    /// `tables[k * 256 + b]`: the CRC of byte `b` followed by `k` zero bytes.
    private static let tables: [UInt32] = {
        var tables = [UInt32](repeating: 0, count: 8 * 256)
        for index in 0..<256 {
            var value = UInt32(index)
            for _ in 0..<8 { value = value & 1 == 1 ? (value >> 1) ^ 0x82F6_3B78 : value >> 1 }
            tables[index] = value
        }
        for slice in 1..<8 {
            for index in 0..<256 {
                let previous = tables[(slice - 1) * 256 + index]
                tables[slice * 256 + index] = (previous >> 8) ^ tables[Int(previous & 0xFF)]
            }
        }
        return tables
    }()

    /// The checksum of `bytes`, continuing from `seed` (the checksum of what came before, or 0).
    package static func checksum<Bytes: Sequence<UInt8>>(_ bytes: Bytes, continuing seed: UInt32 = 0) -> UInt32 {
        if let sum = bytes.withContiguousStorageIfAvailable({
            checksum(UnsafeRawBufferPointer($0), continuing: seed)
        }) {
            return sum
        }
        var crc = ~seed
        tables.withUnsafeBufferPointer { table in
            for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        }
        return ~crc
    }

    /// The checksum of the bytes at `buffer`.
    package static func checksum(_ buffer: UnsafeRawBufferPointer, continuing seed: UInt32 = 0) -> UInt32 {
        var crc = ~seed
        guard let base = buffer.baseAddress else { return seed }
        let count = buffer.count
        tables.withUnsafeBufferPointer { tables in
            let table = tables.baseAddress!
            var offset = 0
            while offset + 8 <= count {
                let low = UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) ^ crc
                let high = UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self))
                crc =
                    table[7 * 256 + Int(low & 0xFF)] ^ table[6 * 256 + Int((low >> 8) & 0xFF)]
                    ^ table[5 * 256 + Int((low >> 16) & 0xFF)] ^ table[4 * 256 + Int(low >> 24)]
                    ^ table[3 * 256 + Int(high & 0xFF)] ^ table[2 * 256 + Int((high >> 8) & 0xFF)]
                    ^ table[1 * 256 + Int((high >> 16) & 0xFF)] ^ table[Int(high >> 24)]
                offset += 8
            }
            while offset < count {
                crc = table[Int((crc ^ UInt32(base.load(fromByteOffset: offset, as: UInt8.self))) & 0xFF)] ^ (crc >> 8)
                offset += 1
            }
        }
        return ~crc
    }
}
