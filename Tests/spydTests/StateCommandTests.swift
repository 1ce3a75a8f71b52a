import Foundation
import Glibc
import SpyGame
import SpyNet
import SpyProtocol
import Testing

@testable import SpyHost
@testable import SpyStorage
@testable import spyd

/// `spyd state check`: what a state directory holds, read without changing it.
@Suite struct StateCommandTests {
    private func run(_ arguments: [String]) -> (status: Int32, output: [String], errors: [String]) {
        var output: [String] = []
        var errors: [String] = []
        let status = StateCommand.run(
            arguments, environment: ["HOME": "/nonexistent"], now: 100_000, output: { output.append($0) },
            errors: { errors.append($0) })
        return (status, output, errors)
    }

    private func journalDirectory() throws -> (String, Journal) {
        let directory = try DaemonProcess.temporaryDirectory().path
        chmod(directory, 0o700)
        let (journal, _) = try Journal.open(directory: directory, now: 0) { Issue.record("\($0)") }
        for code in ["AAAA", "BBBB"] {
            var room = Room(code: code, seed: 3)
            _ = room.apply(.join(name: "Amy", bot: false), now: 0)
            var snapshot = RoomSnapshot(
                room: room, tokens: ["p1": String(repeating: "a", count: 32)], permanent: code == "AAAA",
                bots: .init())
            snapshot.savedAt = 40_000
            try journal.append(.snapshot(snapshot))
        }
        for (index, name) in ["Bo", "Cy", "Dee"].enumerated() {
            let event = LoggedEvent(.join(name: name, bot: false))
            try journal.append(.change(RoomChange(room: "BBBB", now: Millis(90_000 + index), event: event)))
        }
        try journal.commit()
        return (directory, journal)
    }

    @Test func itSaysWhatTheJournalHolds() throws {
        let (directory, journal) = try journalDirectory()
        let result = run(["check", directory])
        #expect(result.status == 0, "\(result)")
        #expect(result.output.contains("rooms: 2"))
        #expect(result.output.contains { $0.contains("AAAA") && $0.contains("1 seats") && $0.contains("60 s old") })
        #expect(result.output.contains { $0.contains("BBBB") && $0.contains("4 seats") && $0.contains("3 changes") })
        #expect(result.output.contains("tail: whole (every record's checksum matches)"))
        let zeros =
            (try FileManager.default.attributesOfItem(atPath: "\(directory)/\(Journal.fileName)")[.size]
                as? Int ?? 0) - journal.committedBytes
        #expect(zeros > 0)
        #expect(
            result.output.contains(
                "space written ahead: \(zeros) bytes of zeros after the last record, where the next records go "
                    + "(the journal ends at byte \(journal.committedBytes))"))
        #expect(result.output.last == "ok")
    }

    /// A record torn by a crash, with the zeros written ahead after it: the torn bytes are the tail, the zeros
    /// are not counted in it.
    @Test func aTornRecordBeforeTheZerosIsATornTail() throws {
        let (directory, journal) = try journalDirectory()
        let fd = open(journal.path, O_WRONLY | O_CLOEXEC)
        try #require(fd >= 0)
        let stray: [UInt8] = [40, 0, 0, 0, 9, 9, 9, 9, 2, 0x7B]
        #expect(pwrite(fd, stray, stray.count, off_t(journal.committedBytes)) == stray.count)
        close(fd)
        let result = run(["check", directory])
        #expect(result.status == 1)
        #expect(
            result.output.contains {
                $0.contains("torn or corrupt tail: 10 bytes from byte \(journal.committedBytes)")
                    && $0.contains("a record whose checksum does not match")
            }, "\(result.output)")
        #expect(!result.output.contains { $0.hasPrefix("space written ahead") })
        #expect(result.output.last == "not ok")
    }

    @Test func aTornTailIsReportedAndLeftForTheNextStart() throws {
        let (directory, journal) = try journalDirectory()
        let path = journal.path
        #expect(truncate(path, off_t(journal.committedBytes - 3)) == 0)
        let result = run(["check", directory])
        #expect(result.status == 1)
        #expect(result.output.contains { $0.contains("torn or corrupt tail") && $0.contains("a record cut short") })
        #expect(result.output.contains { $0.contains("BBBB") && $0.contains("2 changes") })
        #expect(result.output.last == "not ok")
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
        #expect(size == journal.committedBytes - 3)
    }

    @Test func itTakesHelpAndRefusesWhatItDoesNotKnow() throws {
        #expect(run(["--help"]).output.first == "Usage: spyd state check [DIR]")
        let help = run(["check", "--help"])
        #expect(help.status == 0 && help.output.contains { $0.contains("DIR") })
        #expect(run([]).status == 64)
        #expect(run(["fix"]).status == 64)
        #expect(run(["check", "--force"]).status == 64)
        #expect(run(["check", "/nonexistent/spyd-state"]).status == 1)
    }

    @Test(.tags(.shell), .tags(.shell)) func theProgramRunsIt() throws {
        let (directory, _) = try journalDirectory()
        #expect(try SpydRun.run(["state", "check", directory]).status == 0)
        #expect(try SpydRun.run(["state", "check", "--bogus"]).status == 64)
    }
}
