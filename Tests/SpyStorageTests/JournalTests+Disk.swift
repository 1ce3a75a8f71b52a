import Foundation
import Glibc
import SpyGame
import Testing

@testable import SpyHost
@testable import SpyStorage

/// A failing disk: a write or sync that fails, a disk that fills, a journal moved away under the host.
extension JournalTests {
    /// A disk whose next writes or syncs fail, as a test decides.
    final class FailingDisk: @unchecked Sendable {
        var writeFailure: Int32?
        /// Bytes a failing write still puts on the disk before it fails (a full disk takes part of a write).
        var partialBytes = 0
        var syncFailure: Int32?
        var syncs = 0
        /// The file cannot grow past this many bytes: writes beyond are cut short, then refused (a disk that fills).
        var capacity: Int?

        var disk: Journal.Disk {
            Journal.Disk(
                write: { [self] fd, bytes, offset in
                    if let capacity, offset + bytes.count > capacity {
                        guard capacity > offset else {
                            errno = ENOSPC
                            return -1
                        }
                        return pwrite(fd, bytes.baseAddress, capacity - offset, off_t(offset))
                    }
                    if let code = writeFailure {
                        if partialBytes > 0, bytes.count > partialBytes {
                            let count = pwrite(fd, bytes.baseAddress, partialBytes, off_t(offset))
                            partialBytes = 0
                            return count
                        }
                        errno = code
                        return -1
                    }
                    return pwrite(fd, bytes.baseAddress, bytes.count, off_t(offset))
                },
                sync: { [self] fd in
                    syncs += 1
                    if let code = syncFailure {
                        errno = code
                        return -1
                    }
                    return fdatasync(fd)
                })
        }
    }

    private func failingCommit(_ fault: (FailingDisk) -> Void) throws {
        let directory = try privateDirectory()
        let failing = FailingDisk()
        let (journal, _) = try Journal.open(directory: directory, now: 0, disk: failing.disk) { Issue.record("\($0)") }
        var durable = snapshot()
        try journal.append(.snapshot(durable))
        try journal.commit()
        let size = journal.committedBytes

        fault(failing)
        try journal.append(.change(join("Bo", now: 10)))
        try journal.append(.change(join("Cy", now: 20)))
        #expect(throws: Journal.WriteError.self) { try journal.commit() }
        #expect(journal.isBroken)
        #expect(try fileBytes(journal.path).count == size)
        #expect(try rooms(in: directory) == [durable])

        // The disk is back, but the journal stays refused until it is rewritten whole.
        failing.writeFailure = nil
        failing.syncFailure = nil
        try journal.append(.change(join("Bo", now: 30)))
        #expect(throws: Journal.WriteError.self) { try journal.commit() }
        try journal.rewrite([durable])
        #expect(!journal.isBroken)
        let change = join("Dee", now: 40)
        try journal.append(.change(change))
        try journal.commit()
        try durable.replay(change)
        #expect(try rooms(in: directory) == [durable])
    }

    @Test func aFailedWriteCommitsNothing() throws {
        try failingCommit { $0.writeFailure = EIO }
    }

    @Test func aFullDiskThatTakesHalfAWriteCommitsNothing() throws {
        try failingCommit {
            $0.writeFailure = ENOSPC
            $0.partialBytes = 20
        }
    }

    @Test func aFailedSyncCommitsNothing() throws {
        try failingCommit { $0.syncFailure = EIO }
    }

    /// Zeros ahead are a saving, not a promise: a disk with room for the records but not for the zeros takes the
    /// records, and only a record that does not fit is refused.
    @Test func aDiskWithoutRoomForZerosAheadStillTakesEveryRecordThatFits() throws {
        let directory = try privateDirectory()
        let filling = FailingDisk()
        var policy = Journal.Policy()
        policy.preallocationBytes = 4_096
        let (journal, _) = try Journal.open(directory: directory, now: 0, disk: filling.disk, policy: policy) {
            Issue.record("\($0)")
        }
        var expected = snapshot()
        try journal.append(.snapshot(expected))
        try journal.commit()
        let zerosEnd = journal.fileBytes
        filling.capacity = zerosEnd + 600
        var now: Millis = 0
        while journal.committedBytes < zerosEnd + 300 {
            now += 10
            let change = tick(now: now)
            try journal.append(.change(change))
            try journal.commit()
            try expected.replay(change)
        }
        #expect(try fileBytes(journal.path).count <= zerosEnd + 600)
        #expect(try rooms(in: directory) == [expected])

        let durable = journal.committedBytes
        for number in 0..<20 { try journal.append(.change(tick(now: now + Millis(number)))) }
        #expect(throws: Journal.WriteError.self) { try journal.commit() }
        #expect(journal.isBroken)
        #expect(try fileBytes(journal.path).count == durable)
        #expect(try rooms(in: directory) == [expected])
    }

    /// A journal renamed, replaced (by a copy or by a symbolic link to itself) or removed under the host, or its
    /// directory moved away or another put in its place, takes no commit: what it wrote would not be found at the
    /// next start. A second name for the same file (a hard link) changes nothing the next start would find.
    @Test func aJournalMovedOrReplacedUnderTheHostTakesNoCommit() throws {
        for move in ["none", "hard link", "rename", "replace", "symlink", "remove", "directory gone", "directory"] {
            let directory = try privateDirectory()
            let (journal, _) = try Journal.open(directory: directory, now: 0) { Issue.record("\($0)") }
            try journal.append(.snapshot(snapshot()))
            try journal.commit()
            let path = journal.path
            switch move {
            case "rename":
                #expect(rename(path, path + ".old") == 0)
            case "replace":
                #expect(rename(path, path + ".old") == 0)
                try Data(try fileBytes(path + ".old")).write(to: URL(fileURLWithPath: path))
            case "hard link":
                #expect(link(path, path + ".second") == 0)
            case "symlink":
                #expect(rename(path, path + ".old") == 0)
                #expect(symlink(path + ".old", path) == 0)
            case "remove":
                #expect(unlink(path) == 0)
            case "directory gone":
                #expect(rename(directory, directory + ".away") == 0)
            case "directory":
                #expect(rename(directory, directory + ".away") == 0)
                #expect(mkdir(directory, 0o700) == 0)
                try Data(try fileBytes(directory + ".away/" + Journal.fileName)).write(to: URL(fileURLWithPath: path))
            default:
                break
            }
            try journal.append(.change(tick(now: 5)))
            if move == "none" || move == "hard link" {
                try journal.commit()
            } else {
                let error = #expect(throws: Journal.WriteError.self, "\(move)") { try journal.commit() }
                #expect(error?.operation == "find", "\(move)")
            }
        }
    }

    @Test func oneCommitIsOneSyncForEveryRoom() throws {
        let directory = try privateDirectory()
        let counting = FailingDisk()
        let (journal, _) = try Journal.open(directory: directory, now: 0, disk: counting.disk) { Issue.record("\($0)") }
        let before = counting.syncs
        for code in ["AAAA", "BBBB", "CCCC"] {
            try journal.append(.snapshot(snapshot(code)))
            try journal.append(.change(join("Bo", code, now: 10)))
        }
        try journal.commit()
        #expect(counting.syncs == before + 1)
        try journal.commit()
        #expect(counting.syncs == before + 1)
        #expect(try rooms(in: directory).count == 3)
    }

    @Test func aFailedRewriteLeavesTheOldFile() throws {
        let directory = try privateDirectory()
        let failing = FailingDisk()
        let (journal, _) = try Journal.open(directory: directory, now: 0, disk: failing.disk) { Issue.record("\($0)") }
        try journal.append(.snapshot(snapshot()))
        try journal.commit()
        failing.syncFailure = EIO
        #expect(throws: Journal.WriteError.self) { try journal.rewrite([snapshot("BBBB")]) }
        #expect(try rooms(in: directory) == [snapshot()])
        #expect(!FileManager.default.fileExists(atPath: journal.path + ".tmp"))
    }
}
