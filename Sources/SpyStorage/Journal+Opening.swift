import Glibc
import SpyHost
import SpyNet

extension Journal {
    /// What the journal held when it was opened.
    struct Contents {
        /// The rooms its records hold, replayed, and what was set aside or skipped.
        var rooms = JournalRooms()
        /// Bytes of a torn or corrupt tail that were cut off and kept aside (0 when none).
        var cutBytes = 0
        /// Room files of an older host that the journal was made from at this start.
        var migratedFiles = 0
    }

    /// Opens (or creates) the journal of `directory` at `now` (wall-clock ms, which names the files set aside). The
    /// file is read a window at a time (see `JournalReader`): what opening takes does not depend on its size. A
    /// torn or corrupt tail is cut off, kept aside in a file of its own and reported through `warn`; room files of
    /// an older host become the journal's first snapshots and are renamed `*.migrated` once the journal holding
    /// them is durable. What cannot be read safely (a symlink, an unreadable or oversized file, a journal of a
    /// newer format) stops the start, naming it.
    static func open(
        directory: String, now: Int64, disk: Disk = .system, policy: Policy = Policy(), warn: (String) -> Void
    ) throws -> (Journal, Contents) {
        try StateDirectory.prepare(directory)
        let path = "\(directory)/\(fileName)"
        var contents = Contents()
        let journal = Journal(directory: directory, fd: -1, committedBytes: 0, fileBytes: 0, disk: disk, policy: policy)
        var size = 0
        var fileSize = 0
        switch JournalFileSource.open(path, maxBytes: maxFileBytes) {
        case nil:
            break
        case .failure(let problem):
            throw StorageError(
                "the journal \(path) cannot be read (\(problem.reason)); it is not moved aside: fix it or move it "
                    + "away yourself, then start again")
        case .success(let source):
            defer { source.close() }
            var reader = JournalReader(source)
            switch try reader.headerProblem() {
            case .format(let format):
                throw StorageError(
                    "the journal \(path) has format \(format), which this host does not read (it reads format "
                        + "\(JournalFormat.version)); run the host that wrote it, or move the file away yourself")
            case .notAJournal:
                let aside = "\(path).corrupt-\(now / 1000)"
                rename(path, aside)
                warn("the journal \(fileName) has no valid header; moved aside to \(aside)")
            case nil:
                while let record = try reader.next() {
                    let decoded = JournalRecord.decode(kind: record.kind, payload: record.payload)
                    if case .record(let taken) = decoded { journal.account(taken, size: record.size) }
                    contents.rooms.take(decoded, offset: record.offset, size: record.size)
                }
                let end = reader.end ?? JournalReader<JournalFileSource>.End(goodBytes: source.size)
                size = end.goodBytes
                fileSize = source.size
                if let problem = end.tailProblem {
                    contents.cutBytes = end.tailBytes
                    let aside = "\(path).tail-\(now / 1000)"
                    try? copy(source, end.goodBytes..<(end.goodBytes + end.tailBytes), to: aside)
                    warn(
                        "the journal ends in \(problem) at byte \(end.goodBytes): the last \(contents.cutBytes) "
                            + "bytes are not trusted; cut off and kept in \(aside)")
                }
            }
        }
        contents.rooms.finish()
        if size > 0 {
            let fd = Glibc.open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC)
            guard fd >= 0 else {
                throw StorageError("cannot open the journal \(path): \(String(cString: strerror(errno)))")
            }
            if contents.cutBytes > 0 {
                guard ftruncate(fd, off_t(size)) == 0, fsync(fd) == 0 else {
                    let reason = String(cString: strerror(errno))
                    close(fd)
                    throw StorageError("cannot cut the torn tail off the journal \(path): \(reason)")
                }
                fileSize = size
            }
            journal.adopt(fd: fd, committedBytes: size, fileBytes: fileSize)
        }
        // A room set aside is not the journal's: a new room under its code starts with a snapshot of its own.
        for aside in contents.rooms.refused { journal.forget(aside.code) }
        contents.migratedFiles = try journal.adoptOlderFiles(
            contents: &contents, created: size == 0, now: now, warn: warn)
        return (journal, contents)
    }

    /// Copies `range` of `source` to a new file at `path` (a temporary name, `fsync`, rename), a few hundred KiB at a
    /// time, whatever the size of the range.
    private static func copy(_ source: JournalFileSource, _ range: Range<Int>, to path: String) throws {
        let temporary = path + ".tmp"
        unlink(temporary)
        let fd = Glibc.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw WriteError(operation: "open", code: errno) }
        var buffer = [UInt8](repeating: 0, count: 256 << 10)
        var at = range.lowerBound
        do {
            while at < range.upperBound {
                let want = min(buffer.count, range.upperBound - at)
                let got = try buffer.withUnsafeMutableBytes { raw in
                    try source.read(at: at, into: UnsafeMutableRawBufferPointer(rebasing: raw[..<want]))
                }
                guard got > 0 else { break }
                var written = 0
                while written < got {
                    let count = buffer.withUnsafeBytes { raw in
                        Glibc.write(fd, raw.baseAddress! + written, got - written)
                    }
                    if count < 0, errno == EINTR { continue }
                    guard count > 0 else { throw WriteError(operation: "write", code: errno) }
                    written += count
                }
                at += got
            }
            guard fsync(fd) == 0 else { throw WriteError(operation: "fsync", code: errno) }
            guard rename(temporary, path) == 0 else { throw WriteError(operation: "rename", code: errno) }
        } catch {
            close(fd)
            unlink(temporary)
            throw error
        }
        close(fd)
        AtomicFile.syncDirectory(directory(of: path))
    }

    private static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return String(path[..<slash])
    }

    /// The room files (`room-CODE.json`) of an older host: on a new journal they become its snapshots; next to a
    /// journal made from them they are set aside; any other is refused rather than ignored.
    private func adoptOlderFiles(
        contents: inout Contents, created: Bool, now: Int64, warn: (String) -> Void
    ) throws -> Int {
        let older = OlderRoomFiles(directory: directory)
        let snapshots = created ? try older.takeIn(now: now, warn: warn) : []
        var files: [String: UInt32] = [:]
        for name in try older.names() {
            guard
                case .success(let bytes) = BoundedFile.read(
                    "\(directory)/\(name)", maxBytes: OlderRoomFiles.maxFileBytes, followingLinks: false)
            else { throw StorageError("cannot read the state file \(directory)/\(name)") }
            files[name] = CRC32C.checksum(bytes)
        }
        if created {
            try rewrite(snapshots, migrated: files.isEmpty ? nil : files)
            contents.rooms = JournalRooms((files.isEmpty ? [] : [.migrated(files)]) + snapshots.map { .snapshot($0) })
        } else if !files.isEmpty {
            let known = contents.rooms.migrated
            if let stranger = files.keys.sorted().first(where: { known[$0] != files[$0] }) {
                throw StorageError(
                    "the state directory \(directory) holds a journal and also \(stranger), a room file the journal "
                        + "was not made from (written by an older host after the journal?); move it away or remove "
                        + "the journal \(Journal.fileName) to start from the room files, then start again")
            }
        }
        for name in files.keys.sorted() {
            let from = "\(directory)/\(name)"
            guard rename(from, from + ".migrated") == 0 else {
                throw StorageError("cannot set aside \(from): \(String(cString: strerror(errno)))")
            }
        }
        if !files.isEmpty {
            AtomicFile.syncDirectory(directory)
            warn(
                "moved \(files.count) room file(s) of an older host into the journal; the files are kept as "
                    + "room-*.json.migrated")
        }
        return created ? files.count : 0
    }
}
