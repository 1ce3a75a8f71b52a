import Foundation
import XCTest

@testable import spy_bench

/// Runs the real `spy-bench` binary, which starts a real `spyd`, and checks that every game completes.
final class SmallRunTests: XCTestCase {
    private static func binary(_ name: String) -> URL {
        let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent(name)
        if FileManager.default.isExecutableFile(atPath: besideTests.path) { return besideTests }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/debug/\(name)")
    }

    func testFiveRoomsOfSixPlayTwoGamesEachWithoutErrors() throws {
        let process = Process()
        process.executableURL = Self.binary("spy-bench")
        process.arguments = [
            "--rooms", "5", "--players", "6", "--games", "2", "--json", "--timeout", "120",
            "--spyd", Self.binary("spyd").path,
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let report = try JSONDecoder().decode(BenchReport.self, from: data)
        XCTAssertEqual(report.errors, 0, "\(report.firstErrors)")
        XCTAssertEqual(report.gamesCompleted, 10)
        XCTAssertEqual(report.connectionsHeld, 30)
        XCTAssertGreaterThan(report.resultSamples, 0)
        XCTAssertGreaterThan(report.framesIn, 0)
        XCTAssertNotNil(report.daemonPeakRSSMB)
        XCTAssertEqual(process.terminationStatus, 0)
    }
}
