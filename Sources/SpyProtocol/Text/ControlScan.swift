/// A fast first look for control characters in text about to reach a terminal.
public enum ControlScan {
    /// Whether `text` may hold a C0 control, DEL or a C1 control: a byte below a space, 0x7F, or 0xC2 (the lead byte
    /// of every C1 control, U+0080 to U+009F, and of U+00A0 to U+00BF). `false` means it holds none; `true` means
    /// its scalars must be looked at. A screen line is mostly printable ASCII and padding, skipped eight bytes at a
    /// time.
    public static func mayHoldControls(_ text: String) -> Bool {
        text.utf8.withContiguousStorageIfAvailable(mayHoldControls(utf8:))
            ?? text.utf8.contains(where: isSuspect)
    }

    private static func mayHoldControls(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        let raw = UnsafeRawPointer(base)
        var index = 0
        while index < bytes.count {
            if index + 8 <= bytes.count,
                DisplayWidth.isPrintableASCII(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            {
                index += 8
                continue
            }
            if isSuspect(bytes[index]) { return true }
            index += 1
        }
        return false
    }

    private static func isSuspect(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x7F || byte == 0xC2
    }
}
