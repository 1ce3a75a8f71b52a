import Foundation
import Glibc
import SpyGame
import SpyNet
import SpyProtocol
import Testing

@testable import SpyHost
@testable import spyd

/// The host's per-address and memory guards, as plain values.
@Suite struct HostGuardTests {
    @Test func wrongPasswordsWaitLongerAndLonger() {
        var throttle = PasswordThrottle()
        let address = "192.0.2.7"
        let starts = throttle.recordFailure(address, now: 0)
        #expect(starts)
        // Two typos cost nothing.
        #expect(throttle.waitMs(for: address, now: 0) == nil)
        let startsAgain = throttle.recordFailure(address, now: 5)
        #expect(!startsAgain)
        #expect(throttle.waitMs(for: address, now: 5) == nil)
        _ = throttle.recordFailure(address, now: 10)
        var waits: [Int64] = []
        waits.append(throttle.waitMs(for: address, now: 10) ?? 0)
        var now: Int64 = 10
        for _ in 0..<12 {
            now += waits.last ?? 0
            let again = throttle.recordFailure(address, now: now)
            #expect(!again)
            waits.append(throttle.waitMs(for: address, now: now) ?? 0)
        }
        #expect(waits.first == 250)
        #expect(zip(waits, waits.dropFirst()).allSatisfy { $0 < $1 || $1 == throttle.maxDelayMs })
        #expect(waits.last == throttle.maxDelayMs)
        // Another address is not affected; a right password ends the burst.
        #expect(throttle.waitMs(for: "192.0.2.8", now: now) == nil)
        throttle.recordSuccess(address)
        #expect(throttle.waitMs(for: address, now: now) == nil)
    }

    @Test func aBurstIsSummedUpOnceItIsOver() {
        var throttle = PasswordThrottle()
        for time in 0..<5 { _ = throttle.recordFailure("a", now: Int64(time)) }
        throttle.recordRefusal("a")
        #expect(throttle.sweep(now: 1_000).isEmpty)
        let ended = throttle.sweep(now: 4 + throttle.forgetAfterMs + throttle.maxDelayMs)
        #expect(ended.count == 1 && ended.first?.entry.failures == 5 && ended.first?.entry.refused == 1)
        #expect(throttle.entries.isEmpty)
    }

    @Test func theThrottleRemembersABoundedNumberOfAddresses() {
        var throttle = PasswordThrottle()
        throttle.maxEntries = 8
        for index in 0..<100 { _ = throttle.recordFailure("10.0.0.\(index)", now: Int64(index)) }
        #expect(throttle.entries.count == 8)
        #expect(throttle.entries["10.0.0.99"] != nil)
    }

    @Test func roomOpeningsAreCountedPerAddressPerMinute() {
        var rate = RoomOpeningRate(perMinute: 3)
        let first = (0..<3).map { rate.allow("a", now: Int64($0)) }
        let fourth = rate.allow("a", now: 10)
        let otherAddress = rate.allow("b", now: 10)
        let aMinuteLater = rate.allow("a", now: 60_000)
        #expect(first == [true, true, true] && !fourth && otherAddress && aMinuteLater)
        var unlimited = RoomOpeningRate(perMinute: 0)
        let many = (0..<1_000).map { _ in unlimited.allow("a", now: 0) }
        #expect(!many.contains(false))
    }

    @Test func theBudgetCutsTheLargestPartialFramesFirst() {
        let held: [(id: UInt64, bytes: Int)] = [(1, 100), (2, 60_000), (3, 5_000), (4, 30_000), (5, 0)]
        #expect(PartialFrameBudget.connectionsToCut(held: held, budget: 100_000).isEmpty)
        #expect(PartialFrameBudget.connectionsToCut(held: held, budget: 64 * 1024) == [2])
        #expect(PartialFrameBudget.connectionsToCut(held: held, budget: 20_000) == [2, 4])
        #expect(PartialFrameBudget.connectionsToCut(held: held, budget: 0) == [2, 4, 3, 1])
    }

    @Test func hostOptionsForTheNewLimits() throws {
        let options = try HostCommand.options(
            from: HostCommand.spec.parse([
                "--host", "--max-rooms-per-address", "0", "--rooms-per-minute=2", "--unused-room-seconds", "5",
                "--max-partial-kb", "128",
            ]), environment: ["HOME": "/h"])
        #expect(options.limits.maxRoomsPerAddress == 0 && options.limits.roomsPerMinute == 2)
        #expect(options.limits.unusedRoomSeconds == 5 && options.limits.partialFrameBudget == 128 * 1024)
        let defaults = ServerLimits()
        #expect(defaults.maxHelloFrameBytes == 4_096 && defaults.maxRoomsPerAddress == 4)
    }
}
