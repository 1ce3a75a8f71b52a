/// Monotonic time as an event loop sees it: the system's in a program, one a test moves by hand.
///
/// Every deadline of a loop is read from its clock, so a rule that waits (a timeout, a retry, a heartbeat) is
/// tested by advancing a `ManualClock` instead of sleeping.
public protocol Clock: AnyObject {
    /// Nanoseconds since an arbitrary fixed point; never goes back.
    func nowNanos() -> UInt64
}

extension Clock {
    /// Milliseconds since the same fixed point.
    public func nowMs() -> Int64 { Int64(nowNanos() / 1_000_000) }
}

/// The system's monotonic clock (`CLOCK_MONOTONIC`), which does not jump with the wall clock.
public final class SystemClock: Clock {
    public init() {}

    public func nowNanos() -> UInt64 { MonotonicClock.nowNanos() }
}

/// A clock that stands still until told to move, for tests of timers and timeouts.
public final class ManualClock: Clock {
    private var nanos: UInt64

    /// Starts at `ms` milliseconds.
    public init(ms: Int64 = 0) { nanos = UInt64(max(0, ms)) * 1_000_000 }

    public func nowNanos() -> UInt64 { nanos }

    /// Moves the clock forward by `ms` milliseconds (a negative amount is ignored: time never goes back).
    public func advance(ms: Int64) { nanos += UInt64(max(0, ms)) * 1_000_000 }
}

@available(*, unavailable)
extension ManualClock: Sendable {}
