/// Wrong passwords per address, answered with an exponentially growing wait.
///
/// The first two wrong passwords cost nothing (typos); each one after them doubles the time the address must wait
/// before it may try again, up to a minute. A burst is logged once, when it starts, and summed up when the address
/// has been quiet long enough to be forgotten.
package struct PasswordThrottle {
    package struct Entry: Equatable {
        /// Wrong passwords in this burst.
        package var failures: Int
        /// Attempts refused while the address had to wait.
        package var refused: Int
        /// Monotonic ms before which the address may not try.
        package var blockedUntil: Int64
        /// Monotonic ms of the last wrong password.
        package var lastFailure: Int64
    }

    /// Wait after the third wrong password; doubled for each one after it.
    package var baseDelayMs: Int64 = 250
    /// Longest wait.
    package var maxDelayMs: Int64 = 60_000
    /// Quiet time after which an address's burst is over and forgotten.
    package var forgetAfterMs: Int64 = 10 * 60_000
    /// Addresses remembered at once; past this the oldest burst is forgotten first.
    package var maxEntries = 4_096
    package private(set) var entries: [String: Entry] = [:]

    package init() {}

    /// Milliseconds the address must still wait, or `nil` when it may try now.
    package func waitMs(for address: String, now: Int64) -> Int64? {
        guard let entry = entries[address], entry.blockedUntil > now else { return nil }
        return entry.blockedUntil - now
    }

    /// Counts an attempt refused because the address had to wait.
    package mutating func recordRefusal(_ address: String) {
        entries[address]?.refused += 1
    }

    /// Records a wrong password; returns true when it starts a burst (the one to log).
    package mutating func recordFailure(_ address: String, now: Int64) -> Bool {
        var entry = entries[address] ?? Entry(failures: 0, refused: 0, blockedUntil: 0, lastFailure: now)
        let starts = entry.failures == 0
        entry.failures += 1
        entry.lastFailure = now
        if entry.failures >= 3 {
            let doublings = min(entry.failures - 3, 20)
            entry.blockedUntil = now + min(maxDelayMs, baseDelayMs << Int64(doublings))
        }
        if entries[address] == nil, entries.count >= maxEntries,
            let oldest = entries.min(by: { $0.value.lastFailure < $1.value.lastFailure })?.key
        {
            entries[oldest] = nil
        }
        entries[address] = entry
        return starts
    }

    /// A right password ends the address's burst.
    package mutating func recordSuccess(_ address: String) {
        entries[address] = nil
    }

    /// Forgets addresses quiet for `forgetAfterMs`; returns the bursts that ended, for the log.
    package mutating func sweep(now: Int64) -> [(address: String, entry: Entry)] {
        let ended = entries.filter { now - $0.value.lastFailure >= forgetAfterMs && now >= $0.value.blockedUntil }
        for address in ended.keys { entries[address] = nil }
        return ended.map { ($0.key, $0.value) }.sorted { $0.address < $1.address }
    }
}

/// How often one address may open rooms: at most `perMinute` in any 60 seconds.
package struct RoomOpeningRate {
    /// Rooms one address may open in a minute; 0 for no limit.
    package var perMinute: Int
    private var recent: [String: [Int64]] = [:]

    package init(perMinute: Int) {
        self.perMinute = perMinute
    }

    /// Whether `address` may open a room now; when it may, the opening is counted.
    package mutating func allow(_ address: String, now: Int64) -> Bool {
        guard perMinute > 0 else { return true }
        var times = recent[address, default: []]
        times.removeAll { now - $0 >= 60_000 }
        guard times.count < perMinute else {
            recent[address] = times
            return false
        }
        times.append(now)
        recent[address] = times
        return true
    }

    /// Forgets addresses that opened nothing in the last minute.
    package mutating func sweep(now: Int64) {
        recent = recent.filter { $0.value.contains { now - $0 < 60_000 } }
    }
}

/// Which connections to cut when the bytes held in unfinished frames pass the host's budget: the largest first,
/// until the rest fits. Cutting the largest frees the most memory per connection lost, and it is the attacker who
/// holds the most.
package enum PartialFrameBudget {
    package static func connectionsToCut(held: [(id: UInt64, bytes: Int)], budget: Int) -> [UInt64] {
        var total = held.reduce(0) { $0 + $1.bytes }
        guard total > budget else { return [] }
        var cut: [UInt64] = []
        for entry in held.sorted(by: { $0.bytes != $1.bytes ? $0.bytes > $1.bytes : $0.id < $1.id }) {
            guard total > budget, entry.bytes > 0 else { break }
            cut.append(entry.id)
            total -= entry.bytes
        }
        return cut
    }
}
