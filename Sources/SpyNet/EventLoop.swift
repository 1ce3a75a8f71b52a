/// One thread's event loop, in the shape of redis's `ae`: descriptors registered with their handlers, timers in a
/// heap, and an end-of-iteration pass that flushes the connections written to and then closes the ones that ended.
///
/// An iteration (`runOnce`) waits for readiness until the next timer's deadline, calls the handler of each ready
/// descriptor, fires the timers that are due, and finishes: every `LoopConnection` given output in this wake is
/// flushed once (a table's ten broadcasts cost one write per seat, not ten), and only then are the connections
/// closed that asked to be (`closeSoon`), so no handler ever runs on a connection closed under it. Each
/// registration gets a token of its own that is never reused, so a late event for a descriptor unregistered during
/// the same wake, or for a number the kernel has since handed out again, reaches no one.
///
/// The loop keeps what it is given: a handler until it is unregistered, a timer's action until it fires or is
/// cancelled, a connection written to or asked to close until the end of the wake. Anything there that holds its
/// owner strongly keeps the owner alive that long: hold it unowned, not weak (`LoopConnection` says why).
public final class EventLoop {
    /// Called with what a wait found ready on a registered descriptor.
    public typealias Handler = (PollReadiness) -> Void

    /// One registered descriptor.
    public struct Registration: Hashable, Sendable {
        /// Unique for the life of the loop.
        public let token: UInt64
        public let fd: Int32
    }

    /// The clock every deadline is read from.
    public let clock: any Clock
    /// Most bytes one readiness event reads from one connection, so one busy peer cannot starve the others.
    public let readBudget: Int
    /// Most ready descriptors one wake serves, its extra polls included, before its output is written: a burst of
    /// ready peers is served over several short wakes, each writing its answers, rather than in one long one. The
    /// others stay ready and come first in the next wait (epoll hands out what was left before what it returned).
    public let maxEventsPerWake: Int
    /// When the last wait returned (`clock` nanoseconds): input counts as received then, not when the loop got
    /// round to it.
    public private(set) var wokeAtNanos: UInt64 = 0

    private let epoll: Epoll
    // The loop's own lists and the per-connection state below are read and written on every ready descriptor; their
    // run-time exclusivity checks were a fifth of the host's instructions per ping. No access to them outlives the
    // statement that makes it (no `inout` is handed out, no closure runs inside one), so none can overlap another.
    @exclusivity(unchecked) private var handlers: [UInt64: Handler] = [:]
    private var lastToken: UInt64 = 0
    private var timers = TimerHeap<() -> Void>()
    @exclusivity(unchecked) private var toFlush: [LoopConnection] = []
    @exclusivity(unchecked) private var toClose: [LoopConnection] = []
    /// Runs at the end of every iteration before anything is flushed: a program's save step, so that nothing
    /// written during a wake leaves before what the wake changed is on disk.
    @exclusivity(unchecked) public var beforeFlush: (() -> Void)?
    let scratch: UnsafeMutableRawBufferPointer

    public init(clock: any Clock = SystemClock(), readBudget: Int = 64 * 1024, maxEventsPerWait: Int = 1024)
        throws(SocketError)
    {
        self.clock = clock
        self.readBudget = max(1, readBudget)
        self.maxEventsPerWake = max(1, maxEventsPerWait)
        epoll = try Epoll(maxEventsPerWait: maxEventsPerWait)
        scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
    }

    deinit {
        scratch.deallocate()
    }

    // MARK: Descriptors

    /// Starts watching `fd`; `handler` is called on every wake that finds it ready.
    @discardableResult
    public func register(fd: Int32, read: Bool = true, write: Bool = false, handler: @escaping Handler)
        throws(SocketError) -> Registration
    {
        lastToken += 1
        try epoll.add(fd: fd, token: lastToken, read: read, write: write)
        handlers[lastToken] = handler
        return Registration(token: lastToken, fd: fd)
    }

    /// Changes what a registered descriptor is watched for.
    public func update(_ registration: Registration, read: Bool, write: Bool) throws(SocketError) {
        guard handlers[registration.token] != nil else { return }
        try epoll.modify(fd: registration.fd, token: registration.token, read: read, write: write)
    }

    /// Stops watching a descriptor (call before closing it). Events already collected for it are dropped.
    public func unregister(_ registration: Registration) {
        guard handlers.removeValue(forKey: registration.token) != nil else { return }
        epoll.remove(fd: registration.fd)
    }

    /// How many descriptors are registered.
    public var registeredCount: Int { handlers.count }

    // MARK: Timers

    /// Runs `action` once the clock reaches `deadlineMs` (milliseconds on `clock`).
    @discardableResult
    public func arm(at deadlineMs: Int64, _ action: @escaping () -> Void) -> TimerID {
        timers.arm(at: deadlineMs, action)
    }

    /// Runs `action` once `delayMs` milliseconds have passed.
    @discardableResult
    public func arm(afterMs delayMs: Int64, _ action: @escaping () -> Void) -> TimerID {
        timers.arm(at: clock.nowMs() + delayMs, action)
    }

    /// Moves an armed timer to a new deadline. False when it has fired or was cancelled.
    @discardableResult
    public func rearm(_ timer: TimerID, at deadlineMs: Int64) -> Bool { timers.rearm(timer, at: deadlineMs) }

    /// Disarms a timer; a timer that fired or was cancelled already is left alone.
    public func cancel(_ timer: TimerID?) {
        if let timer { timers.cancel(timer) }
    }

    /// Whether `timer` is still waiting to fire.
    public func isArmed(_ timer: TimerID) -> Bool { timers.isArmed(timer) }

    /// The earliest deadline of an armed timer.
    public func nextDeadline() -> Int64? { timers.nextDeadline() }

    /// How long the next wait may last: until the first timer's deadline (0 when one is due, -1 with none), never
    /// longer than `maxWaitMs` when that is given.
    public func waitTimeoutMs(maxWaitMs: Int32? = nil) -> Int32 {
        var timeout: Int32 = -1
        if let deadline = timers.nextDeadline() {
            timeout = Int32(clamping: max(0, deadline - clock.nowMs()))
        }
        if let maxWaitMs, maxWaitMs >= 0, timeout < 0 || maxWaitMs < timeout { timeout = maxWaitMs }
        return timeout
    }

    /// Fires every timer due now, earliest first (same deadline: in the order armed). A timer armed by one that
    /// fires waits for the next pass even if it is due already. Returns how many fired.
    @discardableResult
    public func fireDueTimers() -> Int {
        let now = clock.nowMs()
        let armedBefore = timers.nextSequence
        var fired = 0
        while let (_, action) = timers.popDue(now: now, armedBefore: armedBefore) {
            fired += 1
            action()
        }
        return fired
    }

    // MARK: End of iteration

    /// Puts a connection on the list flushed once at the end of this iteration.
    func queueFlush(_ connection: LoopConnection) {
        guard !connection.queuedForFlush else { return }
        connection.queuedForFlush = true
        toFlush.append(connection)
    }

    /// Puts a connection on the list closed at the end of this iteration, after the flushes.
    func queueClose(_ connection: LoopConnection) {
        guard !connection.queuedForClose else { return }
        connection.queuedForClose = true
        toClose.append(connection)
    }

    /// Flushes every connection given output since the last call, then closes those that asked to close (each
    /// gets its last bytes written first, as far as the kernel takes them).
    public func finishIteration() {
        beforeFlush?()
        while !toFlush.isEmpty || !toClose.isEmpty {
            let flushing = toFlush
            toFlush.removeAll(keepingCapacity: true)
            for connection in flushing {
                connection.queuedForFlush = false
                connection.flushNow()
            }
            let closing = toClose
            toClose.removeAll(keepingCapacity: true)
            for connection in closing {
                connection.flushNow()
                connection.close()
            }
            // A failed write may have ended a connection: its owner's bookkeeping runs before the next round.
            if !toFlush.isEmpty || !toClose.isEmpty { beforeFlush?() }
        }
    }

    // MARK: Running

    /// Ends a wait in progress (or the next one) early; safe from a signal handler through `wakeWriteFD`.
    public func wake() { epoll.wake() }

    /// Write one byte here (even from a signal handler) to end a wait.
    public var wakeWriteFD: Int32 { epoll.wakeWriteFD }

    /// One iteration: finish what is pending, wait (until the next deadline, at most `maxWaitMs`), serve the ready
    /// descriptors, fire the due timers, finish again. Returns whether `wake()` ended the wait.
    ///
    /// With `morePolls`, input that arrived while the ready descriptors were served is looked for (without
    /// waiting) and served too, up to that many times, before anything is written: a table's ballots land
    /// microseconds apart, and each served in a wake of its own would cost a write to every seat. Every poll of a
    /// wake together serves at most `maxEventsPerWake` descriptors.
    @discardableResult
    public func runOnce(maxWaitMs: Int32? = nil, morePolls: Int = 0) throws(SocketError) -> Bool {
        finishIteration()
        var (ready, woken) = try epoll.wait(timeoutMs: waitTimeoutMs(maxWaitMs: maxWaitMs))
        wokeAtNanos = clock.nowNanos()
        serve(ready)
        var served = ready.count
        var polls = 0
        while !ready.isEmpty, polls < morePolls, served < maxEventsPerWake {
            polls += 1
            let more = try epoll.wait(timeoutMs: 0, maxEvents: maxEventsPerWake - served)
            (ready, woken) = (more.ready, woken || more.woken)
            serve(ready)
            served += ready.count
        }
        fireDueTimers()
        finishIteration()
        return woken
    }

    private func serve(_ ready: [PollReadiness]) {
        for event in ready {
            // Looked up per event: an earlier handler of this wake may have unregistered this one.
            handlers[event.token]?(event)
        }
    }
}

@available(*, unavailable)
extension EventLoop: Sendable {}
