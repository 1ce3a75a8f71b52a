import Foundation
import Glibc

/// Resume tokens: 128 random bits from the kernel's secure generator, written as 32 lowercase hex digits.
enum ResumeToken {
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

    /// Whether `candidate` equals `token`, taking the same time wherever the first difference is, so that a
    /// guesser learns nothing from how long a refusal takes. Only the length (public: always 32) can end it early.
    static func matches(_ candidate: String, _ token: String) -> Bool {
        let a = Array(candidate.utf8)
        let b = Array(token.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices {
            difference |= a[index] ^ b[index]
        }
        return difference == 0
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

/// Room codes: four letters from an alphabet without the look-alikes I, L and O.
enum RoomCode {
    static let alphabet = Array("ABCDEFGHJKMNPQRSTUVWXYZ")

    /// A code from four draws of `next(bound)`, which returns a number below `bound`.
    static func make(_ next: (Int) -> Int) -> String {
        String((0..<4).map { _ in alphabet[next(alphabet.count)] })
    }

    /// The code as typed by a person, folded to upper case; `nil` when it cannot be a code.
    static func normalise(_ text: String) -> String? {
        let upper = text.trimmingCharacters(in: .whitespaces).uppercased()
        guard upper.count == 4, upper.allSatisfy({ alphabet.contains($0) }) else { return nil }
        return upper
    }
}
