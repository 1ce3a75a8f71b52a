import SpyNet

/// A point on the monotonic clock after which a wait gives up.
public struct Deadline: Sendable, Comparable {
    /// Monotonic milliseconds.
    public var ms: Int64

    public init(ms: Int64) { self.ms = ms }

    /// `seconds` from now.
    public static func after(seconds: Double) -> Deadline {
        Deadline(ms: SystemClock.monotonicMs() + Int64(seconds * 1000))
    }

    /// Milliseconds left, never negative.
    public var remainingMs: Int64 { max(0, ms - SystemClock.monotonicMs()) }

    /// Whether the deadline has passed.
    public var hasPassed: Bool { SystemClock.monotonicMs() >= ms }

    public static func < (lhs: Deadline, rhs: Deadline) -> Bool { lhs.ms < rhs.ms }
}
