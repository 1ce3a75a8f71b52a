import Foundation
import SpyProtocol
import XCTest

@testable import SpyGame

/// The deal must be uniform: every seat is a spy (or the blank, or the first speaker) about equally often.
final class FairnessTests: XCTestCase {
    /// Pearson's chi-squared statistic of `counts` against equal expected counts.
    private func chiSquared(_ counts: [Int], expected: Double) -> Double {
        counts.reduce(0) { $0 + pow(Double($1) - expected, 2) / expected }
    }

    func testEverySeatIsASpyEquallyOftenOverTenThousandDeals() {
        var rng = SplitMix64(seed: 2026)
        let players = (1...6).map { "p\($0)" }
        var spyCounts = [Int](repeating: 0, count: players.count)
        for _ in 0..<10_000 {
            let roles = Room.dealRoles(to: players, spies: 1, blank: false, rng: &rng)
            for (seat, id) in players.enumerated() where roles[id] == .spy { spyCounts[seat] += 1 }
        }
        XCTAssertEqual(spyCounts.reduce(0, +), 10_000)
        // 5 degrees of freedom: 20.52 is the 0.1 % critical value.
        XCTAssertLessThan(chiSquared(spyCounts, expected: 10_000 / 6), 20.52, "\(spyCounts)")
    }

    func testTwoSpiesAndTheBlankAreSpreadEvenlyOverEightSeats() {
        var rng = SplitMix64(seed: 7)
        let players = (1...8).map { "p\($0)" }
        var spyCounts = [Int](repeating: 0, count: players.count)
        var blankCounts = [Int](repeating: 0, count: players.count)
        for _ in 0..<10_000 {
            let roles = Room.dealRoles(to: players, spies: 2, blank: true, rng: &rng)
            XCTAssertEqual(roles.values.filter { $0 == .spy }.count, 2)
            XCTAssertEqual(roles.values.filter { $0 == .blank }.count, 1)
            for (seat, id) in players.enumerated() {
                if roles[id] == .spy { spyCounts[seat] += 1 }
                if roles[id] == .blank { blankCounts[seat] += 1 }
            }
        }
        // 7 degrees of freedom: 24.32 is the 0.1 % critical value.
        XCTAssertLessThan(chiSquared(spyCounts, expected: 20_000 / 8), 24.32, "\(spyCounts)")
        XCTAssertLessThan(chiSquared(blankCounts, expected: 10_000 / 8), 24.32, "\(blankCounts)")
    }

    func testTheRoomDealsSpiesAndFirstSpeakersEvenly() {
        let games = 1_200
        var spyCounts = [Int](repeating: 0, count: 4)
        var firstCounts = [Int](repeating: 0, count: 4)
        for seed in 0..<UInt64(games) {
            var table = Table(seed: seed &* 0x9E37_79B9)
            let ids = table.seat(4)
            table.start()
            spyCounts[ids.firstIndex(of: table.players(.spy)[0])!] += 1
            firstCounts[ids.firstIndex(of: table.game.firstSpeaker)!] += 1
        }
        // 3 degrees of freedom: 16.27 is the 0.1 % critical value.
        XCTAssertLessThan(chiSquared(spyCounts, expected: Double(games) / 4), 16.27, "\(spyCounts)")
        XCTAssertLessThan(chiSquared(firstCounts, expected: Double(games) / 4), 16.27, "\(firstCounts)")
    }

    func testBoundedDrawsAreUniform() {
        var rng = SplitMix64(seed: 99)
        var counts = [Int](repeating: 0, count: 7)
        for _ in 0..<70_000 { counts[rng.next(below: 7)] += 1 }
        // 6 degrees of freedom: 22.46 is the 0.1 % critical value.
        XCTAssertLessThan(chiSquared(counts, expected: 10_000), 22.46, "\(counts)")
    }

    func testSplitMix64MatchesTheReferenceSequence() {
        // First outputs of the reference SplitMix64 for seed 0.
        var rng = SplitMix64(seed: 0)
        XCTAssertEqual(rng.next(), 0xE220_A839_7B1D_CDAF)
        XCTAssertEqual(rng.next(), 0x6E78_9E6A_A1B9_65F4)
        XCTAssertEqual(rng.next(), 0x06C4_5D18_8009_454F)
    }
}
