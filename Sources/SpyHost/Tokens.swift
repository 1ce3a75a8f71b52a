import Foundation

/// Resume tokens: 128 random bits from the kernel's secure generator, written as 32 lowercase hex digits (made by
/// the shell, which reads the generator).
package enum ResumeToken {
    /// Whether `candidate` equals `token`, taking the same time wherever the first difference is, so that a
    /// guesser learns nothing from how long a refusal takes. Only the length (public: always 32) can end it early.
    package static func matches(_ candidate: String, _ token: String) -> Bool {
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

/// Room codes: four letters from an alphabet without the look-alikes I, L and O.
package enum RoomCode {
    package static let alphabet = Array("ABCDEFGHJKMNPQRSTUVWXYZ")

    /// A code from four draws of `next(bound)`, which returns a number below `bound`.
    package static func make(_ next: (Int) -> Int) -> String {
        String((0..<4).map { _ in alphabet[next(alphabet.count)] })
    }

    /// The code as typed by a person, folded to upper case; `nil` when it cannot be a code.
    package static func normalise(_ text: String) -> String? {
        let upper = text.trimmingCharacters(in: .whitespaces).uppercased()
        guard upper.count == 4, upper.allSatisfy({ alphabet.contains($0) }) else { return nil }
        return upper
    }
}
