/// Names one armed timer of an `EventLoop`; never reused, so cancelling a timer that already fired does nothing.
public struct TimerID: Hashable, Sendable {
    let value: UInt64
}

/// Timers ordered by deadline in a binary heap, so the next deadline is found in O(1) and arming or firing one
/// costs O(log n): the loop's wait timeout is the first deadline, not a minimum folded by hand over every
/// deadline a program keeps.
///
/// Cancelling and re-arming leave the old heap entry in place and mark it stale (its generation no longer
/// matches); stale entries are skipped when they reach the top and swept out when they outnumber live ones.
struct TimerHeap<Action> {
    private struct Entry {
        var deadline: Int64
        /// Arming order, so timers due at the same moment fire in the order they were armed.
        var sequence: UInt64
        var id: UInt64
        var generation: UInt64
    }

    private struct Armed {
        var deadline: Int64
        var generation: UInt64
        var action: Action
    }

    private var heap: [Entry] = []
    private var armed: [UInt64: Armed] = [:]
    private var lastID: UInt64 = 0
    private var lastSequence: UInt64 = 0

    /// How many timers are armed.
    var count: Int { armed.count }

    /// Arms a timer for `deadline` (milliseconds on the loop's clock).
    mutating func arm(at deadline: Int64, _ action: Action) -> TimerID {
        lastID += 1
        armed[lastID] = Armed(deadline: deadline, generation: 0, action: action)
        push(id: lastID, generation: 0, deadline: deadline)
        return TimerID(value: lastID)
    }

    /// Moves an armed timer to `deadline`, keeping its id and action. False when it is no longer armed.
    @discardableResult
    mutating func rearm(_ timer: TimerID, at deadline: Int64) -> Bool {
        guard var entry = armed[timer.value] else { return false }
        entry.generation += 1
        entry.deadline = deadline
        armed[timer.value] = entry
        push(id: timer.value, generation: entry.generation, deadline: deadline)
        return true
    }

    /// Disarms a timer. False when it had fired or was cancelled already.
    @discardableResult
    mutating func cancel(_ timer: TimerID) -> Bool {
        armed.removeValue(forKey: timer.value) != nil
    }

    /// Whether `timer` is still waiting to fire.
    func isArmed(_ timer: TimerID) -> Bool { armed[timer.value] != nil }

    /// The earliest deadline of an armed timer, if any.
    mutating func nextDeadline() -> Int64? {
        dropStaleTop()
        return heap.first?.deadline
    }

    /// Takes out the earliest timer due at `now` or before that was armed before sequence `before` (timers armed
    /// while firing wait for the next pass, so a timer that re-arms itself for now cannot spin the loop).
    mutating func popDue(now: Int64, armedBefore before: UInt64) -> (id: TimerID, action: Action)? {
        dropStaleTop()
        guard let top = heap.first, top.deadline <= now, top.sequence < before else { return nil }
        removeTop()
        guard let entry = armed.removeValue(forKey: top.id) else { return nil }
        return (TimerID(value: top.id), entry.action)
    }

    /// The sequence number the next arming will get; a firing pass stops at timers armed from here on.
    var nextSequence: UInt64 { lastSequence + 1 }

    // MARK: Heap

    private mutating func push(id: UInt64, generation: UInt64, deadline: Int64) {
        lastSequence += 1
        heap.append(Entry(deadline: deadline, sequence: lastSequence, id: id, generation: generation))
        siftUp(heap.count - 1)
        if heap.count > 64 && heap.count > 2 * armed.count { sweepStale() }
    }

    private func isStale(_ entry: Entry) -> Bool { armed[entry.id]?.generation != entry.generation }

    private mutating func dropStaleTop() {
        while let top = heap.first, isStale(top) { removeTop() }
    }

    private mutating func sweepStale() {
        let armed = self.armed
        heap.removeAll { armed[$0.id]?.generation != $0.generation }
        for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
    }

    private mutating func removeTop() {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        siftDown(0)
    }

    private static func before(_ a: Entry, _ b: Entry) -> Bool {
        a.deadline != b.deadline ? a.deadline < b.deadline : a.sequence < b.sequence
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.before(heap[child], heap[parent]) else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { return }
            var first = left
            if left + 1 < heap.count && Self.before(heap[left + 1], heap[left]) { first = left + 1 }
            guard Self.before(heap[first], heap[parent]) else { return }
            heap.swapAt(first, parent)
            parent = first
        }
    }
}
