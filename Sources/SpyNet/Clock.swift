import Foundation
import Glibc

/// Time as a program reads it, from the system in a program and from a test's hand in a test: monotonic time for
/// deadlines, timers and rates (it never goes back and does not jump with the wall clock), and wall-clock time for
/// what outlives the process (a room's deadlines, saved with the room).
///
/// Every deadline of a loop and every time the host reads come from one clock, so a rule that waits (a timeout, a
/// retry, a heartbeat, a grace period) is tested by advancing a `ManualClock` instead of sleeping. The host's core
/// takes both readings of one moment as a `HostTime`.
public protocol Clock: AnyObject {
    /// Nanoseconds since an arbitrary fixed point; never goes back.
    func nowNanos() -> UInt64
    /// Milliseconds since 1970-01-01 UTC.
    func wallMs() -> Int64
}

extension Clock {
    /// Monotonic milliseconds since the same fixed point as `nowNanos`.
    public func nowMs() -> Int64 { Int64(nowNanos() / 1_000_000) }
}

/// The system's clocks: `CLOCK_MONOTONIC` and `CLOCK_REALTIME`.
public final class SystemClock: Clock, Sendable {
    public init() {}

    public func nowNanos() -> UInt64 { Self.monotonicNanos() }

    public func wallMs() -> Int64 { Self.wallClockMs() }

    /// Nanoseconds on the system's monotonic clock, for latencies and timeouts outside a loop.
    public static func monotonicNanos() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    /// Milliseconds on the system's monotonic clock.
    public static func monotonicMs() -> Int64 { Int64(monotonicNanos() / 1_000_000) }

    /// Milliseconds since 1970-01-01 UTC on the system's wall clock.
    public static func wallClockMs() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }
}

/// A clock that stands still until told to move, for tests of timers and timeouts. Its wall clock moves with its
/// monotonic one. A test's thread may move it while a loop's thread reads it.
public final class ManualClock: Clock, @unchecked Sendable {
    private let lock = NSLock()
    private var nanos: UInt64
    private let wallAtZeroMs: Int64

    /// Starts at `ms` monotonic milliseconds, the wall clock reading `wallMs` then.
    public init(ms: Int64 = 0, wallMs: Int64 = 1_800_000_000_000) {
        nanos = UInt64(max(0, ms)) * 1_000_000
        wallAtZeroMs = wallMs - max(0, ms)
    }

    public func nowNanos() -> UInt64 { lock.withLock { nanos } }

    public func wallMs() -> Int64 { wallAtZeroMs + nowMs() }

    /// Moves the clock forward by `ms` milliseconds (a negative amount is ignored: time never goes back).
    public func advance(ms: Int64) { lock.withLock { nanos += UInt64(max(0, ms)) * 1_000_000 } }
}
