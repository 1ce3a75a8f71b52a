import Foundation
import Glibc
import SpyGame
import Testing

@testable import SpyHost
@testable import SpyStorage

/// What a start and `spyd state check` take does not depend on what the journal holds: the peak resident set of
/// the `spyd` process (measured by GNU time, see `MeasuredRun`), against the same run on a good journal.
@Suite(.serialized, .enabled(if: MeasuredRun.canMeasure, "needs GNU time (/usr/bin/time)"))
struct StartupMemoryTests {
    /// Bytes of zeros or garbage the journals below carry.
    static let junkBytes = 200 << 20
    /// How much more than on a good journal a run may take.
    static let allowanceKiB = 16 << 10

    private func directory(journal: (inout [UInt8]) throws -> Void, junk: UInt8?) throws -> String {
        let directory = try DaemonProcess.temporaryDirectory().path
        chmod(directory, 0o700)
        var bytes = JournalFormat.header()
        try journal(&bytes)
        let path = "\(directory)/\(Journal.fileName)"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        guard let junk else { return directory }
        let fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
        try #require(fd >= 0)
        defer { close(fd) }
        if junk == 0 {
            // Zeros need no writing: the file's end is moved on, a hole that reads as zeros.
            #expect(ftruncate(fd, off_t(bytes.count + Self.junkBytes)) == 0)
            return directory
        }
        var random = SplitMix64(seed: UInt64(junk))
        var block = [UInt8](repeating: 0, count: 1 << 20)
        for index in block.indices { block[index] = UInt8(truncatingIfNeeded: random.next()) }
        for _ in 0..<(Self.junkBytes >> 20) {
            #expect(block.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == block.count)
        }
        return directory
    }

    private static func goodRecords(_ bytes: inout [UInt8]) throws {
        for code in ["AAAA", "BBBB", "CCCC"] {
            var room = Room(code: code, seed: 7)
            _ = room.apply(.join(name: "Amy", bot: false), now: 0)
            try JournalFormat.frame(
                .snapshot(
                    RoomSnapshot(
                        room: room, tokens: ["p1": String(repeating: "a", count: 32)], permanent: false,
                        bots: .init())),
                into: &bytes)
        }
    }

    /// The host, started on `directory` and stopped once it listens; and `spyd state check` of it, run first.
    private func measure(_ directory: String) throws -> (host: MeasuredRun, check: MeasuredRun) {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let spyd = DaemonProcess.binary.path
        let check = try MeasuredRun.run(spyd, ["state", "check", directory], timeout: 120)
        let host = try MeasuredRun.run(
            spyd, ["--host", "--bind", "127.0.0.1", "--port", "0", "--no-discovery", "--state-dir", directory],
            stopAt: "listening on", timeout: 120)
        #expect(host.output.contains("listening on"), "\(host.output)")
        #expect(host.status == 0, "\(host.output)")
        return (host, check)
    }

    @Test func startUpAndStateCheckTakeNoMoreForAHugeDamagedJournal() throws {
        let good = try measure(try directory(journal: Self.goodRecords, junk: nil))
        #expect(good.check.status == 0, "\(good.check.output)")
        let cases: [(String, (inout [UInt8]) throws -> Void, UInt8)] = [
            ("200 MB of zeros after the header", { _ in }, 0),
            ("200 MB of garbage after the header", { _ in }, 0x5A),
            ("good records, then 200 MB of garbage", Self.goodRecords, 0xA5),
        ]
        var lines = ["good journal: host \(good.host.peakKiB) KiB, state check \(good.check.peakKiB) KiB"]
        for (name, records, junk) in cases {
            let run = try measure(try directory(journal: records, junk: junk))
            lines.append(
                "\(name): host \(run.host.peakKiB) KiB in \(String(format: "%.1f", run.host.seconds)) s, state check "
                    + "\(run.check.peakKiB) KiB in \(String(format: "%.1f", run.check.seconds)) s")
            #expect(run.host.peakKiB <= good.host.peakKiB + Self.allowanceKiB, "\(name): \(lines.last!)")
            #expect(run.check.peakKiB <= good.check.peakKiB + Self.allowanceKiB, "\(name): \(lines.last!)")
            // Zeros after the last record are the journal's clean end; anything else there is a tail.
            #expect(run.check.status == (junk == 0 ? 0 : 1), "\(name): \(run.check.output)")
            if junk != 0 { #expect(run.host.output.contains("not trusted"), "\(name): \(run.host.output)") }
            if name.hasPrefix("good") {
                #expect(run.host.output.contains("room CCCC resumed"), "\(name): \(run.host.output)")
            }
        }
        print(lines.joined(separator: "\n"))
    }
}
