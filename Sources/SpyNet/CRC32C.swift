/// CRC-32C (Castagnoli, polynomial 0x1EDC6F41 reflected as 0x82F63B78), the checksum iSCSI (RFC 3720) and most
/// storage logs use: it catches every burst of up to 32 flipped bits, so a torn or garbled record never passes.
public enum CRC32C {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? (value >> 1) ^ 0x82F6_3B78 : value >> 1 }
        return value
    }

    /// The checksum of `bytes`, continuing from `seed` (the checksum of what came before, or 0).
    public static func checksum<Bytes: Sequence<UInt8>>(_ bytes: Bytes, continuing seed: UInt32 = 0) -> UInt32 {
        var crc = ~seed
        table.withUnsafeBufferPointer { table in
            for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        }
        return ~crc
    }

    /// The checksum of the bytes at `buffer`.
    public static func checksum(_ buffer: UnsafeRawBufferPointer, continuing seed: UInt32 = 0) -> UInt32 {
        var crc = ~seed
        table.withUnsafeBufferPointer { table in
            for byte in buffer { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        }
        return ~crc
    }
}
