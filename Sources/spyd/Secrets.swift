import Foundation
import Glibc
import SpyHost

extension ResumeToken {
    /// A fresh token.
    static func make() -> String {
        var bytes = [UInt8](repeating: 0, count: 16)
        SecureRandom.fill(&bytes)
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(32)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}

/// Bytes from `/dev/urandom` (never blocks once the system has booted; the same source as `getrandom`).
enum SecureRandom {
    static func fill(_ bytes: inout [UInt8]) {
        let fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
        precondition(fd >= 0, "cannot open /dev/urandom")
        defer { close(fd) }
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { raw in
                read(fd, raw.baseAddress! + filled, raw.count - filled)
            }
            if count < 0 && errno == EINTR { continue }
            precondition(count > 0, "cannot read /dev/urandom")
            filled += count
        }
    }

    /// A random 64-bit seed.
    static func seed() -> UInt64 {
        var bytes = [UInt8](repeating: 0, count: 8)
        fill(&bytes)
        return bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }
}
