import Glibc
import SpyNet

/// Where a journal's bytes are read from: its file, or bytes already in memory.
package protocol JournalSource {
    /// Bytes in all.
    var size: Int { get }
    /// Reads up to `buffer.count` bytes at `offset` (fewer only where the source ends); returns how many.
    func read(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}

/// A journal file, read with `pread` through a descriptor it was opened with.
package struct JournalFileSource: JournalSource {
    package let fd: Int32
    package let size: Int
    let path: String

    /// Opens the regular file at `path` for reading, without following a symbolic link and without waiting (a FIFO
    /// there is refused, not opened for a writer); `nil` when nothing is there. A file over `maxBytes` is refused.
    package static func open(_ path: String, maxBytes: Int) -> Result<JournalFileSource, BoundedFile.ReadError>? {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW)
        guard fd >= 0 else { return errno == ENOENT ? nil : .failure(.unreadable(code: errno)) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            Glibc.close(fd)
            return .failure(.unreadable(code: code))
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            Glibc.close(fd)
            return .failure(.notRegularFile(directory: info.st_mode & S_IFMT == S_IFDIR))
        }
        guard Int(info.st_size) <= maxBytes else {
            Glibc.close(fd)
            return .failure(.tooLarge(limit: maxBytes))
        }
        return .success(JournalFileSource(fd: fd, size: Int(info.st_size), path: path))
    }

    package func close() {
        Glibc.close(fd)
    }

    package func read(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        var done = 0
        while done < buffer.count {
            let count = pread(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
            if count < 0 {
                if errno == EINTR { continue }
                throw StorageError("cannot read the journal \(path): \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            done += count
        }
        return done
    }
}

/// A journal's bytes in memory.
package struct JournalBytesSource: JournalSource {
    let bytes: [UInt8]

    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    package var size: Int { bytes.count }

    package func read(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let count = max(0, min(buffer.count, bytes.count - offset))
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { raw in
            buffer.baseAddress!.copyMemory(from: raw.baseAddress! + offset, byteCount: count)
        }
        return count
    }
}

/// A journal's records read one at a time through a window of `windowBytes`, so that what reading takes does not
/// depend on what the file holds: a record's length is checked against `JournalFormat.maxPayloadBytes` and against
/// the bytes left before anything is set aside for it, and a record larger than the window has its checksum
/// verified as it streams past before its payload is read into memory. Where the records stop, the rest of the file
/// is looked through from its end for its last byte that is not zero, a window at a time.
package struct JournalReader<Source: JournalSource> {
    /// Bytes read at a time.
    package static var windowBytes: Int { ZeroWindow.bytes.count }

    /// One whole record whose checksum matches.
    package struct Record {
        /// Where its header starts.
        package var offset: Int
        /// Its framed size, header included.
        package var size: Int
        package var kind: UInt8
        package var payload: [UInt8]
    }

    /// Where the records end, and what follows them.
    package struct End: Equatable {
        /// Bytes up to the end of the last good record.
        package var goodBytes: Int
        /// Why the bytes after `goodBytes` are not records, when some of them are not zero.
        package var tailProblem: String?
        /// Bytes of the torn or corrupt tail, up to its last byte that is not zero (0 when the tail is whole).
        package var tailBytes = 0
        /// Zeros after the last record: space the host wrote ahead for its next records, not a tail.
        package var preallocatedBytes = 0

        package init(goodBytes: Int, tailProblem: String? = nil, tailBytes: Int = 0, preallocatedBytes: Int = 0) {
            self.goodBytes = goodBytes
            self.tailProblem = tailProblem
            self.tailBytes = tailBytes
            self.preallocatedBytes = preallocatedBytes
        }
    }

    package let source: Source
    private var window: [UInt8]
    /// The source's offset of `window[0]`, and how many of its bytes hold the source's.
    private var windowStart = 0
    private var windowCount = 0
    /// Where the next record starts.
    private var offset = JournalFormat.headerBytes
    /// Why reading stopped before the end of the source, once it has.
    private var stopped: String?
    private(set) package var end: End?

    package init(_ source: Source) {
        self.source = source
        window = [UInt8](repeating: 0, count: Self.windowBytes)
    }

    /// Why the source does not start with a header this host reads, if it does not.
    package mutating func headerProblem() throws -> JournalFormat.HeaderProblem? {
        guard let range = try load(0, JournalFormat.headerBytes) else { return .notAJournal }
        return JournalFormat.headerProblem(Array(window[range]))
    }

    /// The next record whose checksum matches; `nil` once the records stop (`end` then says how).
    package mutating func next() throws -> Record? {
        guard end == nil else { return nil }
        if let record = try readRecord() { return record }
        end = try finish()
        return nil
    }

    private mutating func readRecord() throws -> Record? {
        guard offset < source.size else { return nil }
        let headerBytes = JournalFormat.recordHeaderBytes
        guard let header = try load(offset, headerBytes) else { return stop("a record header cut short") }
        let length = Int(uint32(at: header.lowerBound))
        let checksum = uint32(at: header.lowerBound + 4)
        let kind = window[header.lowerBound + 8]
        guard length <= JournalFormat.maxPayloadBytes else { return stop("a record length of \(length) bytes") }
        let end = offset + headerBytes + length
        guard end <= source.size else { return stop("a record cut short") }
        let payload: [UInt8]
        if headerBytes + length <= Self.windowBytes {
            guard let range = try load(offset, headerBytes + length) else { return stop("a record cut short") }
            let matches = window.withUnsafeBytes { raw in
                CRC32C.checksum(
                    UnsafeRawBufferPointer(rebasing: raw[(range.lowerBound + headerBytes - 1)..<range.upperBound]))
                    == checksum
            }
            guard matches else { return stop("a record whose checksum does not match") }
            payload = Array(window[(range.lowerBound + headerBytes)..<range.upperBound])
        } else {
            // Larger than the window: the checksum first, as the bytes stream through the window, so that no
            // memory is taken for a length that garbage made up.
            var running: UInt32 = 0
            var at = offset + headerBytes - 1
            while at < end {
                guard let range = try load(at, min(Self.windowBytes, end - at)) else {
                    return stop("a record cut short")
                }
                running = window.withUnsafeBytes { raw in
                    CRC32C.checksum(UnsafeRawBufferPointer(rebasing: raw[range]), continuing: running)
                }
                at += range.count
            }
            guard running == checksum else { return stop("a record whose checksum does not match") }
            var whole = [UInt8](repeating: 0, count: length + 1)
            let read = try whole.withUnsafeMutableBytes { try source.read(at: offset + headerBytes - 1, into: $0) }
            // The file may have changed since (a host writes while `spyd state check` reads): checked again.
            guard read == whole.count, CRC32C.checksum(whole) == checksum else {
                return stop("a record whose checksum does not match")
            }
            whole.removeFirst()
            payload = whole
        }
        let record = Record(offset: offset, size: headerBytes + length, kind: kind, payload: payload)
        offset = end
        return record
    }

    private mutating func stop(_ problem: String) -> Record? {
        stopped = problem
        return nil
    }

    /// How the source ends after the last good record: zeros up to its end (a clean end) or a tail.
    private mutating func finish() throws -> End {
        var upTo = source.size
        while upTo > offset {
            let start = max(offset, upTo - Self.windowBytes)
            guard let range = try load(start, upTo - start) else { break }
            if let last = lastNonzero(in: range) {
                return End(
                    goodBytes: offset, tailProblem: stopped ?? "bytes after the last record",
                    tailBytes: start + (last - range.lowerBound) + 1 - offset)
            }
            upTo = start
        }
        return End(goodBytes: offset, preallocatedBytes: source.size - offset)
    }

    /// The index in `window` of the last byte of `range` that is not zero.
    private func lastNonzero(in range: Range<Int>) -> Int? {
        // `memcmp` against zeros first: most windows of a clean end are zeros, and a byte loop over hundreds of
        // megabytes is slow in a debug build.
        let allZero = window.withUnsafeBytes { raw in
            ZeroWindow.bytes.withUnsafeBytes { zero in
                memcmp(raw.baseAddress! + range.lowerBound, zero.baseAddress!, range.count) == 0
            }
        }
        if allZero { return nil }
        return window[range].lastIndex { $0 != 0 }
    }

    /// The range of `window` that holds the source's `count` bytes at `start` (at most `windowBytes`), reading them
    /// in when the window does not; `nil` when the source ends before them.
    private mutating func load(_ start: Int, _ count: Int) throws -> Range<Int>? {
        if start >= windowStart, start + count <= windowStart + windowCount {
            return (start - windowStart)..<(start - windowStart + count)
        }
        let source = self.source
        windowCount = try window.withUnsafeMutableBytes { try source.read(at: start, into: $0) }
        windowStart = start
        return windowCount >= count ? 0..<count : nil
    }

    private func uint32(at index: Int) -> UInt32 {
        UInt32(window[index]) | UInt32(window[index + 1]) << 8 | UInt32(window[index + 2]) << 16
            | UInt32(window[index + 3]) << 24
    }
}

/// A window's worth of zeros, to compare the end of a journal with.
private enum ZeroWindow {
    static let bytes = [UInt8](repeating: 0, count: 64 << 10)
}

extension JournalFormat {
    /// What a whole journal in memory holds, read as the host reads its file (for tests and tools).
    package struct Parsed {
        /// Each record that decodes, with its offset.
        package var records: [(offset: Int, record: JournalRecord)] = []
        /// The rooms the records hold, replayed.
        package var rooms = JournalRooms()
        /// How the records end.
        package var end = JournalReader<JournalBytesSource>.End(goodBytes: JournalFormat.headerBytes)

        package var goodBytes: Int { end.goodBytes }
        package var tailProblem: String? { end.tailProblem }
        package var tailBytes: Int { end.tailBytes }
        package var preallocatedBytes: Int { end.preallocatedBytes }
    }

    /// The records of `bytes`, a journal whose header is good.
    package static func parse(_ bytes: [UInt8]) -> Parsed {
        var parsed = Parsed()
        var reader = JournalReader(JournalBytesSource(bytes))
        // Bytes in memory cannot fail to be read.
        while let record = try? reader.next() {
            let decoded = JournalRecord.decode(kind: record.kind, payload: record.payload)
            if case .record(let taken) = decoded { parsed.records.append((record.offset, taken)) }
            parsed.rooms.take(decoded, offset: record.offset, size: record.size)
        }
        parsed.rooms.finish()
        if let end = reader.end { parsed.end = end }
        return parsed
    }
}
