import SpyNet

/// The host's two times, read from what it was given and never from the system directly, so a test runs the host
/// under a manual clock: the event loop's monotonic clock (connection deadlines, rates, the loop's timers) and
/// wall-clock milliseconds (room deadlines, which are saved with the room and outlive a restart).
struct HostClock {
    /// The clock of the event loop the host runs on.
    let monotonic: any Clock
    private let wall: () -> Int64

    /// The system's wall clock beside `monotonic`.
    init(monotonic: any Clock) {
        self.monotonic = monotonic
        wall = { WallClock.nowMs() }
    }

    /// A wall clock that moves only with `monotonic`, reading `wallAtStartMs` now: for a host under a manual clock.
    init(following monotonic: any Clock, wallAtStartMs: Int64) {
        self.monotonic = monotonic
        let start = monotonic.nowMs()
        wall = { wallAtStartMs + monotonic.nowMs() - start }
    }

    /// Monotonic milliseconds.
    func monoMs() -> Int64 { monotonic.nowMs() }

    /// Milliseconds since 1970-01-01 UTC.
    func wallMs() -> Int64 { wall() }

    /// The monotonic moment at which the wall clock reads `wallDeadline` (now, when that has passed).
    func monoMs(atWall wallDeadline: Int64) -> Int64 {
        monoMs() + max(0, wallDeadline - wallMs())
    }
}
