import SpyNet
import Testing

/// The loop's timers, driven by a manual clock: nothing here waits for real time.
@Suite struct EventLoopTimerTests {
    private func makeLoop(startingAt ms: Int64 = 1000) throws -> (EventLoop, ManualClock) {
        let clock = ManualClock(ms: ms)
        return (try EventLoop(clock: clock), clock)
    }

    @Test func timersFireByDeadlineAndThoseDueTogetherInTheOrderArmed() throws {
        let (loop, clock) = try makeLoop(startingAt: 0)
        var fired: [String] = []
        loop.arm(at: 30) { fired.append("30") }
        loop.arm(at: 10) { fired.append("10a") }
        loop.arm(at: 20) { fired.append("20") }
        loop.arm(at: 10) { fired.append("10b") }
        loop.arm(at: 5) { fired.append("5") }

        clock.advance(ms: 4)
        #expect(loop.fireDueTimers() == 0)
        clock.advance(ms: 6)
        #expect(loop.fireDueTimers() == 3)
        #expect(fired == ["5", "10a", "10b"])
        clock.advance(ms: 100)
        loop.fireDueTimers()
        #expect(fired == ["5", "10a", "10b", "20", "30"])
        #expect(loop.nextDeadline() == nil)
    }

    @Test func manyTimersArmedInShuffledOrderFireSorted() throws {
        let (loop, clock) = try makeLoop(startingAt: 0)
        var random = TestRandom(state: 33)
        var deadlines: [Int64] = []
        var fired: [Int64] = []
        for _ in 0..<500 {
            let deadline = Int64(random.next() % 10_000)
            deadlines.append(deadline)
            loop.arm(at: deadline) { fired.append(deadline) }
        }
        // Fire in several passes, as a loop waking now and then would.
        for step in stride(from: Int64(0), through: 10_000, by: 777) {
            clock.advance(ms: step == 0 ? 0 : 777)
            loop.fireDueTimers()
            #expect(fired.allSatisfy { $0 <= clock.nowMs() })
        }
        clock.advance(ms: 10_000)
        loop.fireDueTimers()
        #expect(fired == deadlines.sorted())
    }

    @Test func aCancelledTimerNeverFiresAndCancellingAgainOrAfterFiringIsHarmless() throws {
        let (loop, clock) = try makeLoop()
        var fired: [String] = []
        let kept = loop.arm(afterMs: 100) { fired.append("kept") }
        let cancelled = loop.arm(afterMs: 50) { fired.append("cancelled") }
        loop.cancel(cancelled)
        loop.cancel(cancelled)
        #expect(!loop.isArmed(cancelled))
        #expect(loop.nextDeadline() == 1100)

        clock.advance(ms: 200)
        #expect(loop.fireDueTimers() == 1)
        #expect(fired == ["kept"])
        #expect(!loop.isArmed(kept))
        loop.cancel(kept)
        #expect(loop.waitTimeoutMs() == -1)
    }

    @Test func reArmingMovesATimerLaterOrEarlierAndItFiresOnceAtTheNewDeadline() throws {
        let (loop, clock) = try makeLoop(startingAt: 0)
        var count = 0
        let timer = loop.arm(at: 10) { count += 1 }
        #expect(loop.rearm(timer, at: 50))
        clock.advance(ms: 10)
        #expect(loop.fireDueTimers() == 0)
        #expect(loop.waitTimeoutMs() == 40)

        #expect(loop.rearm(timer, at: 20))
        #expect(loop.waitTimeoutMs() == 10)
        clock.advance(ms: 10)
        #expect(loop.fireDueTimers() == 1)
        clock.advance(ms: 100)
        #expect(loop.fireDueTimers() == 0)
        #expect(count == 1)
        // A fired timer cannot be brought back by re-arming it.
        #expect(!loop.rearm(timer, at: 500))
        #expect(loop.nextDeadline() == nil)
    }

    @Test func theWaitTimeoutIsTheTimeLeftUntilTheEarliestDeadline() throws {
        let (loop, clock) = try makeLoop(startingAt: 0)
        #expect(loop.waitTimeoutMs() == -1)
        #expect(loop.waitTimeoutMs(maxWaitMs: 500) == 500)

        loop.arm(at: 100) {}
        #expect(loop.waitTimeoutMs() == 100)
        let sooner = loop.arm(at: 40) {}
        #expect(loop.waitTimeoutMs() == 40)
        #expect(loop.waitTimeoutMs(maxWaitMs: 30) == 30)
        #expect(loop.waitTimeoutMs(maxWaitMs: 60) == 40)
        loop.cancel(sooner)
        #expect(loop.waitTimeoutMs() == 100)

        clock.advance(ms: 70)
        #expect(loop.waitTimeoutMs() == 30)
        clock.advance(ms: 80)
        // Overdue: do not wait at all.
        #expect(loop.waitTimeoutMs() == 0)
        loop.arm(at: Int64.max) {}
        loop.fireDueTimers()
        #expect(loop.waitTimeoutMs() == Int32.max)
    }

    @Test func aTimerArmedWhileTimersFireWaitsForTheNextPassEvenIfDue() throws {
        let (loop, clock) = try makeLoop(startingAt: 0)
        var ticks = 0
        func tick() {
            ticks += 1
            loop.arm(at: clock.nowMs()) { tick() }
        }
        loop.arm(at: 0) { tick() }
        #expect(loop.fireDueTimers() == 1)
        #expect(loop.fireDueTimers() == 1)
        #expect(ticks == 2)
    }

    @Test func cancellingAndReArmingMostTimersLeavesTheRestInOrder() throws {
        let (loop, clock) = try makeLoop(startingAt: 0)
        var fired: [Int] = []
        var timers: [TimerID] = []
        for index in 0..<300 { timers.append(loop.arm(at: Int64(index)) { fired.append(index) }) }
        for index in 0..<300 where index % 3 != 0 { loop.cancel(timers[index]) }
        // Every kept timer moved several times, leaving stale entries behind each time.
        for round in 1...4 {
            for index in stride(from: 0, to: 300, by: 3) { loop.rearm(timers[index], at: Int64(1000 * round - index)) }
        }
        clock.advance(ms: 3702)
        loop.fireDueTimers()
        #expect(fired.isEmpty)
        #expect(loop.nextDeadline() == 3703)
        clock.advance(ms: 298)
        loop.fireDueTimers()
        #expect(fired == Array(stride(from: 297, through: 0, by: -3)))
    }

    @Test func dueTimersFireInsideAnIterationOfTheLoop() throws {
        let (loop, clock) = try makeLoop(startingAt: 0)
        var fired = false
        loop.arm(at: 0) { fired = true }
        clock.advance(ms: 1)
        try loop.runOnce()
        #expect(fired)
    }
}
