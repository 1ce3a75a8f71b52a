import Foundation

/// A tiny seeded generator whose whole state is one integer, so a room (and its future draws) can be saved,
/// restored and replayed exactly. Our own algorithm rather than the standard library's so that a seed gives the
/// same game on every platform and Swift version.
public struct SplitMix64: Codable, Sendable, Equatable {
    /// The generator's entire state.
    public private(set) var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A uniform integer in `0..<bound` (bound > 0), without the modulo bias of `next() % bound`.
    public mutating func next(below bound: Int) -> Int {
        precondition(bound > 0, "bound must be positive")
        let limit = UInt64(bound)
        // Values at or above the largest multiple of `limit` would favour small results; draw again.
        let threshold = (0 &- limit) % limit
        while true {
            let value = next()
            if value >= threshold { return Int(value % limit) }
        }
    }

    /// A fair coin.
    public mutating func nextBool() -> Bool {
        next() >> 63 == 1
    }

    /// `items` in a uniformly random order (Fisher–Yates).
    public mutating func shuffled<T>(_ items: [T]) -> [T] {
        var result = items
        var index = result.count - 1
        while index > 0 {
            let other = next(below: index + 1)
            result.swapAt(index, other)
            index -= 1
        }
        return result
    }
}
