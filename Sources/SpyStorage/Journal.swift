import CStatx
import Foundation
import Glibc
import SpyGame
import SpyHost
import SpyNet
import SpyProtocol

/// The host's rooms on disk: one append-only file of checksummed records in the state directory.
///
/// Changes are buffered as the loop serves a wake and written together by `commit`: one write and one
/// `fdatasync` for every room of the wake. A room's snapshot replaces what came before it, and `rewrite` replaces
/// the whole file (temporary file, fsync, rename, fsync of the directory) with one snapshot per room, which is how
/// the file is compacted and how it is made whole again after a failed write.
///
/// The file is kept written with zeros ahead of its last record (`Policy.preallocationBytes` at a time). A commit
/// then writes over blocks the file already has, so its `fdatasync` flushes the data alone: an append that grew the
/// file would also have to write the inode (its size and blocks), one more round trip to the disk on every commit.
/// Blocks reserved with `fallocate` would not do: they are unwritten extents, and the first write into each
/// changes metadata all the same. Reading stops at the zeros: they are space kept ready, not a torn tail.
package final class Journal {
    /// The system calls the journal writes with; replaceable so tests can make the disk fail.
    struct Disk {
        /// `pwrite(2)`: bytes written, or -1 with `errno` set.
        var write: (_ fd: Int32, _ bytes: UnsafeRawBufferPointer, _ offset: Int) -> Int
        /// `fdatasync(2)`: 0, or -1 with `errno` set.
        var sync: (_ fd: Int32) -> Int32

        static var system: Disk {
            Disk(
                write: { fd, bytes, offset in pwrite(fd, bytes.baseAddress, bytes.count, off_t(offset)) },
                sync: { fdatasync($0) })
        }
    }

    /// A write or sync of the journal failed; nothing of the changes since the last commit is durable.
    struct WriteError: Error, CustomStringConvertible {
        var operation: String
        var code: Int32
        var description: String { "\(operation) of the journal failed: \(String(cString: strerror(code)))" }
    }

    /// When a room's changes are folded into a fresh snapshot of it, and when the file is compacted.
    struct Policy {
        /// Changes of one room after its snapshot before another snapshot is due.
        var eventsPerSnapshot = 256
        /// Bytes of one room's changes after its snapshot before another snapshot is due.
        var bytesPerSnapshot = 64 << 10
        /// The file is compacted once it is this large and more than twice what its rooms need.
        var compactAfterBytes = 8 << 20
        /// Zeros written ahead of the last record, in steps of this many bytes (0: none, the file grows with
        /// each commit). A commit that reaches the end of them writes the next step with its records.
        var preallocationBytes = 1 << 20

        /// The file size to write zeros up to once records end at `end`: at least half a step beyond it.
        func preallocatedEnd(after end: Int) -> Int {
            guard preallocationBytes > 0 else { return end }
            return (end + preallocationBytes / 2 + preallocationBytes - 1) / preallocationBytes * preallocationBytes
        }
    }

    package static let fileName = "rooms.journal"
    /// Largest journal read at start; compaction keeps it far smaller.
    package static let maxFileBytes = 1 << 30

    let directory: String
    let path: String
    let policy: Policy
    private let disk: Disk
    private var fd: Int32
    /// Bytes of the file that are durable.
    private(set) var committedBytes: Int
    /// The file's size: the records up to `committedBytes`, zeros after them.
    private(set) var fileBytes: Int
    /// What the open file is, to tell before each commit whether the journal's path still leads to it.
    private var placement: Placement?
    private var pending: [UInt8] = []
    /// A write or sync failed: the file's tail cannot be trusted until `rewrite` succeeds.
    private(set) var isBroken = false
    /// Per room: changes and their bytes since its last snapshot, and that snapshot's size.
    private var sinceSnapshot: [String: (changes: Int, bytes: Int)] = [:]
    private var snapshotBytes: [String: Int] = [:]
    /// What the rooms need of the file: their snapshots and the changes since, summed as records come (the host
    /// asks at every commit; a sum over a thousand rooms each time would cost more than the commit's records).
    private var liveBytes = 0
    /// Rooms whose changes since their snapshot passed the policy, kept as records come for the same reason.
    private var dueForSnapshot: Set<String> = []

    init(directory: String, fd: Int32, committedBytes: Int, fileBytes: Int, disk: Disk, policy: Policy) {
        self.directory = directory
        self.path = "\(directory)/\(Journal.fileName)"
        self.fd = fd
        self.committedBytes = committedBytes
        self.fileBytes = fileBytes
        self.disk = disk
        self.policy = policy
        placement = Placement(fd: fd)
    }

    deinit {
        if fd >= 0 { close(fd) }
    }

    /// Whether changes are waiting for `commit`.
    var hasPending: Bool { !pending.isEmpty }

    /// Whether the journal knows the room (has written its snapshot and not its closing).
    func holds(_ code: String) -> Bool { snapshotBytes[code] != nil }

    /// Buffers a record until the next `commit`.
    func append(_ record: JournalRecord) throws {
        let size = try JournalFormat.frame(record, into: &pending)
        account(record, size: size)
    }

    /// Buffers the record of a change until the next `commit`, written from the event's fields.
    func appendChange(
        room: String, now: Millis, event: RoomEvent?, tokens: [PlayerID: String]?, joinedByOthers: Bool?
    ) throws {
        let size = try JournalFormat.frameChange(
            room: room, now: now, event: event, tokens: tokens, joinedByOthers: joinedByOthers, into: &pending)
        accountChange(of: room, size: size)
    }

    private func accountChange(of room: String, size: Int) {
        // One lookup of the room, changed in place: this runs for every move.
        let since = Self.count(&sinceSnapshot[room, default: (0, 0)], bytes: size)
        liveBytes += size
        if since.changes >= policy.eventsPerSnapshot || since.bytes >= policy.bytesPerSnapshot {
            dueForSnapshot.insert(room)
        }
    }

    func account(_ record: JournalRecord, size: Int) {
        switch record {
        case .snapshot(let snapshot):
            forget(snapshot.room.code)
            snapshotBytes[snapshot.room.code] = size
            liveBytes += size
        case .change(let change):
            accountChange(of: change.room, size: size)
        case .closed(let code):
            forget(code)
        case .migrated:
            break
        }
    }

    private static func count(_ since: inout (changes: Int, bytes: Int), bytes: Int) -> (changes: Int, bytes: Int) {
        since.changes += 1
        since.bytes += bytes
        return since
    }

    /// Takes a room's records out of the books: a fresh snapshot or its closing supersedes them, or the room was
    /// set aside when the journal was opened.
    func forget(_ code: String) {
        liveBytes -=
            (snapshotBytes.removeValue(forKey: code) ?? 0) + (sinceSnapshot.removeValue(forKey: code)?.bytes ?? 0)
        dueForSnapshot.remove(code)
    }

    /// Rooms whose changes since their snapshot passed the policy: a fresh snapshot bounds their replay.
    var roomsDueForSnapshot: Set<String> { dueForSnapshot }

    /// Whether the file holds so much that is superseded that a rewrite would pay.
    var wantsCompaction: Bool {
        committedBytes >= policy.compactAfterBytes && committedBytes > 2 * liveBytes
    }

    /// Makes every buffered record durable: one write, one `fdatasync` (and, when the records reach the end of
    /// the zeros written ahead, the next step of zeros in the same sync). On failure nothing of them counts, the
    /// journal is broken, and only `rewrite` mends it.
    func commit() throws(WriteError) {
        if isBroken {
            pending.removeAll()
            throw WriteError(operation: "write", code: EIO)
        }
        guard !pending.isEmpty else { return }
        defer { pending.removeAll(keepingCapacity: pending.capacity <= 1 << 20) }
        let end = committedBytes + pending.count
        do throws(WriteError) {
            try checkInPlace()
            try write(pending, to: fd, at: committedBytes)
            if end > fileBytes {
                fileBytes =
                    end + Self.writeZeros(to: fd, from: end, upTo: policy.preallocatedEnd(after: end), disk: disk)
            }
            guard disk.sync(fd) == 0 else { throw WriteError(operation: "fdatasync", code: errno) }
        } catch {
            // Whatever reached the file after `committedBytes` is not trusted: cut it off if the disk lets us, and
            // in any case mend the file by a rewrite before anything else is appended.
            isBroken = true
            _ = ftruncate(fd, off_t(committedBytes))
            fileBytes = committedBytes
            throw error
        }
        committedBytes = end
    }

    /// Fails when the open file is no longer the journal of the directory (the file or the directory was moved,
    /// replaced or removed): what is written there would not be found at the next start.
    ///
    /// The journal's path is asked for its device and inode alone (`statx`, see `CStatx.h`): one lookup of the
    /// path, which also fails when a directory on it moved. A `stat` would read the file's times, and from then on
    /// every commit would change the inode and its `fdatasync` would write the inode too, one more round trip to
    /// the disk each time. Without `statx` (an older kernel, which has no such fine clock either) `lstat` is asked.
    private func checkInPlace() throws(WriteError) {
        guard let expected = placement else { throw WriteError(operation: "find", code: ENOENT) }
        guard let found = Placement.identity(ofPath: path) else { throw WriteError(operation: "find", code: errno) }
        guard found == expected else { throw WriteError(operation: "find", code: ENOENT) }
    }

    /// The open journal's device and inode, as its path should lead to them.
    private struct Placement: Equatable {
        var device: UInt64
        var inode: UInt64

        init?(fd: Int32) {
            var info = stat()
            guard fd >= 0, fstat(fd, &info) == 0 else { return nil }
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
        }

        private init(device: UInt64, inode: UInt64) {
            self.device = device
            self.inode = inode
        }

        /// What `path` itself (not a symbolic link's target) is; `nil` with `errno` set when it cannot be asked.
        static func identity(ofPath path: String) -> Placement? {
            var device: UInt64 = 0
            var inode: UInt64 = 0
            if cstatx_identity(path, &device, &inode) == 0 { return Placement(device: device, inode: inode) }
            guard errno == ENOSYS else { return nil }
            var info = stat()
            guard lstat(path, &info) == 0 else { return nil }
            return Placement(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        }
    }

    /// Takes the open journal file `fd` as this journal's, its records ending at `committedBytes` (at opening).
    func adopt(fd: Int32, committedBytes: Int, fileBytes: Int) {
        self.fd = fd
        self.committedBytes = committedBytes
        self.fileBytes = fileBytes
        placement = Placement(fd: fd)
    }

    /// The payload of the record at `offset`, `size` bytes framed, as the file holds it.
    func payload(at offset: Int, size: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: max(0, size - JournalFormat.recordHeaderBytes))
        let source = JournalFileSource(fd: fd, size: committedBytes, path: path)
        let read = try bytes.withUnsafeMutableBytes {
            try source.read(at: offset + JournalFormat.recordHeaderBytes, into: $0)
        }
        return Array(bytes[..<read])
    }

    /// Drops the records buffered since the last commit.
    func discardPending() {
        pending.removeAll(keepingCapacity: true)
    }

    /// Replaces the file with one snapshot per room (and, for a migration, the older files it was made from),
    /// atomically. Buffered records are dropped: `snapshots` must say everything.
    func rewrite(_ snapshots: [RoomSnapshot], migrated: [String: UInt32]? = nil) throws {
        pending.removeAll()
        let newFD = try Journal.writeFile(
            in: directory, snapshots: snapshots, migrated: migrated, disk: disk, policy: policy)
        close(fd)
        fd = newFD.fd
        placement = Placement(fd: fd)
        committedBytes = newFD.size
        fileBytes = newFD.fileSize
        isBroken = false
        sinceSnapshot.removeAll()
        snapshotBytes = newFD.snapshotBytes
        liveBytes = snapshotBytes.values.reduce(0, +)
        dueForSnapshot.removeAll()
    }

    /// Zeros from `start` up to `end`, as far as the disk takes them: returns how many were written. Space ahead
    /// is a saving, not a promise: on a disk with less than 16 times as much free, or a disk that fills up, there
    /// are fewer or none, and the file grows with each commit instead.
    private static func writeZeros(to fd: Int32, from start: Int, upTo end: Int, disk: Disk) -> Int {
        // The last free space of a nearly full disk is left for records.
        var space = statvfs()
        guard end > start, fstatvfs(fd, &space) == 0,
            Int(space.f_bavail) * Int(space.f_frsize) >= 16 * (end - start)
        else { return 0 }
        var written = 0
        while start + written < end {
            let count = zeros.withUnsafeBytes { raw in
                disk.write(
                    fd, UnsafeRawBufferPointer(rebasing: raw[..<min(raw.count, end - start - written)]),
                    start + written)
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            written += count
        }
        return written
    }

    private static let zeros = [UInt8](repeating: 0, count: 64 << 10)

    private func write(_ bytes: [UInt8], to fd: Int32, at start: Int) throws(WriteError) {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { raw in
                disk.write(fd, UnsafeRawBufferPointer(rebasing: raw[written...]), start + written)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw WriteError(operation: "write", code: errno)
            }
            if count == 0 { throw WriteError(operation: "write", code: ENOSPC) }
            written += count
        }
    }

    /// Writes a new journal file holding `snapshots` and renames it into place; returns it open for appending.
    private static func writeFile(
        in directory: String, snapshots: [RoomSnapshot], migrated: [String: UInt32]?, disk: Disk, policy: Policy
    ) throws -> (fd: Int32, size: Int, fileSize: Int, snapshotBytes: [String: Int]) {
        var bytes = JournalFormat.header()
        var sizes: [String: Int] = [:]
        if let migrated { try JournalFormat.frame(.migrated(migrated), into: &bytes) }
        for snapshot in snapshots {
            sizes[snapshot.room.code] = try JournalFormat.frame(.snapshot(snapshot), into: &bytes)
        }
        let path = "\(directory)/\(fileName)"
        let temporary = path + ".tmp"
        // Always a new file: whatever is at the temporary name (left by a crash, or planted) is unlinked, and a
        // symlink there is never written through.
        unlink(temporary)
        let fd = Glibc.open(temporary, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw WriteError(operation: "open", code: errno) }
        let writer = Journal(directory: directory, fd: -1, committedBytes: 0, fileBytes: 0, disk: disk, policy: policy)
        let zeros: Int
        do {
            try writer.write(bytes, to: fd, at: 0)
            zeros = writeZeros(to: fd, from: bytes.count, upTo: policy.preallocatedEnd(after: bytes.count), disk: disk)
            guard disk.sync(fd) == 0 else { throw WriteError(operation: "fsync", code: errno) }
            guard rename(temporary, path) == 0 else { throw WriteError(operation: "rename", code: errno) }
        } catch {
            close(fd)
            unlink(temporary)
            throw error
        }
        AtomicFile.syncDirectory(directory)
        return (fd, bytes.count, bytes.count + zeros, sizes)
    }
}
