import Foundation
import SpyTestSupport
import XCTest

@testable import SpyStorage
@testable import spy_bench
@testable import spyd

/// Runs the real `spy-bench` binary, which starts a real `spyd`, and checks that every game completes.
final class SmallRunTests: XCTestCase {
    private static func binary(_ name: String) -> URL { BuiltProducts.url(of: name) }

    /// Runs a load of the real binaries and returns its JSON report and exit status.
    private func runLoad(_ arguments: [String]) throws -> (report: BenchReport, status: Int32) {
        let process = Process()
        process.executableURL = Self.binary("spy-bench")
        process.arguments = arguments + ["--json", "--timeout", "120", "--spyd", Self.binary("spyd").path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (try JSONDecoder().decode(BenchReport.self, from: data), process.terminationStatus)
    }

    /// `--durable-moves`: each connection's settings changes are acknowledged one by one, and with a state
    /// directory the last one of each room is in the host's journal.
    func testDurableMovesAreAcknowledgedAndInTheJournal() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("spy-bench-durable-\(getpid())")
        try? FileManager.default.removeItem(at: directory)
        defer { try? FileManager.default.removeItem(at: directory) }
        let process = Process()
        process.executableURL = Self.binary("spy-bench")
        process.arguments = [
            "--rooms", "3", "--durable-moves", "25", "--state-dir", directory.path, "--json", "--timeout", "120",
            "--spyd", Self.binary("spyd").path,
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let report = try JSONDecoder().decode(DurableMovesReport.self, from: data)
        XCTAssertEqual(report.errors, 0, "\(report.firstErrors)")
        XCTAssertEqual(report.movesAcknowledged, 75)
        XCTAssertGreaterThan(report.movesPerSecond, 0)
        XCTAssertEqual(process.terminationStatus, 0)
        let journal = try Data(contentsOf: directory.appendingPathComponent(Journal.fileName))
        let saved = JournalRooms(JournalFormat.parse([UInt8](journal)).records.map(\.record)).rooms.map(\.snapshot)
        XCTAssertEqual(
            saved.filter { !$0.permanent }.map(\.room.settings.turnSeconds), Array(repeating: 35, count: 3))
    }

    func testFiveRoomsOfSixPlayTwoGamesEachWithoutErrors() throws {
        let (report, status) = try runLoad(["--rooms", "5", "--players", "6", "--games", "2"])
        XCTAssertEqual(report.errors, 0, "\(report.firstErrors)")
        XCTAssertEqual(report.gamesCompleted, 10)
        XCTAssertEqual(report.connectionsHeld, 30)
        XCTAssertGreaterThan(report.resultSamples, 0)
        XCTAssertGreaterThan(report.framesIn, 0)
        XCTAssertNotNil(report.daemonPeakRSSMB)
        XCTAssertEqual(status, 0)
    }

    /// With `--state-dir` the started host saves its rooms there, so the figures include writing them to disk.
    func testTheStartedHostSavesItsRoomsWhenGivenAStateDirectory() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("spy-bench-state-\(getpid())")
        try? FileManager.default.removeItem(at: directory)
        defer { try? FileManager.default.removeItem(at: directory) }
        let (report, status) = try runLoad([
            "--rooms", "2", "--players", "4", "--games", "1", "--state-dir", directory.path,
        ])
        XCTAssertEqual(report.errors, 0, "\(report.firstErrors)")
        XCTAssertEqual(report.gamesCompleted, 2)
        XCTAssertEqual(status, 0)
        // The host's own permanent room is saved too; the two the bench opened are the others.
        let journal = try Data(contentsOf: directory.appendingPathComponent(Journal.fileName))
        let saved = JournalRooms(JournalFormat.parse([UInt8](journal)).records.map(\.record)).rooms.map(\.snapshot)
        let opened = saved.filter { !$0.permanent }
        XCTAssertEqual(opened.count, 2, "\(saved.map(\.room.code))")
        XCTAssertEqual(opened.map { $0.room.latestGame }, [1, 1])

        let both = Process()
        both.executableURL = Self.binary("spy-bench")
        both.arguments = ["--host", "127.0.0.1", "--state-dir", directory.path]
        both.standardError = Pipe()
        try both.run()
        both.waitUntilExit()
        XCTAssertEqual(both.terminationStatus, 64, "--state-dir cannot reach a host spy-bench did not start")
    }

    /// `--spies` and `--blank` shape the bot-only games; a table they do not fit is a usage error (exit 64).
    func testBotsOnlyTakesSpiesAndABlankAndRefusesTablesThatCannotBeDealt() throws {
        func run(_ arguments: [String]) throws -> ProcessOutput {
            try ProcessOutput.run(Self.binary("spy-bench"), arguments)
        }
        let help = try run(["--help"])
        XCTAssertTrue(help.out.contains("--spies") && help.out.contains("--blank"), help.out)
        for bad in [
            ["--bots-only", "--players", "6", "--spies", "3"], ["--bots-only", "--players", "5", "--spies", "2"],
            ["--bots-only", "--spies", "0"], ["--bots-only", "--spies", "two"],
            ["--bots-only", "--players", "4", "--blank"], ["--bots-only", "--players", "6", "--spies", "2", "--blank"],
            ["--spies", "2", "--players", "8"], ["--blank", "--players", "6"],
        ] {
            let result = try run(bad)
            XCTAssertEqual(result.status, 64, "\(bad): \(result.err)")
            XCTAssertFalse(result.err.isEmpty, "\(bad)")
        }
        // A few games at each level show the options reach the table; the games are seeded (seed 1), so each run
        // plays the same ones, and the bots' strength over many games is measured apart (PERFORMANCE.md).
        let twoSpies = try run(["--bots-only", "--players", "8", "--spies", "2", "--games", "5", "--json"])
        XCTAssertEqual(twoSpies.status, 0, twoSpies.err)
        let twoSpyTallies = try JSONDecoder().decode([String: [String: Double]].self, from: Data(twoSpies.out.utf8))
        XCTAssertEqual(twoSpyTallies["normal"]?["games"], 5)
        let blank = try run(["--bots-only", "--players", "6", "--blank", "--games", "6", "--json"])
        XCTAssertEqual(blank.status, 0, blank.err)
        let tallies = try JSONDecoder().decode([String: [String: Double]].self, from: Data(blank.out.utf8))
        XCTAssertEqual(tallies["normal"]?["games"], 6)
        XCTAssertNotNil(tallies["normal"]?["blankWins"])
        XCTAssertEqual(tallies.values.compactMap { $0["giveaways"] }.reduce(0, +), 0)
        // With a blank in every game, some bot-only game somewhere ends with the blank's win or its guess.
        XCTAssertGreaterThan(tallies.values.compactMap { $0["blankWins"] }.reduce(0, +), 0)
    }
}
