import Glibc

/// Whole-file reads that take at most a limit and never wait. A FIFO, a device or a directory where a file should
/// be is refused rather than read: opening a FIFO for reading waits for a writer, and a device may never end.
public enum BoundedFile {
    /// Why a file was not read.
    public enum ReadError: Error, Equatable, Sendable {
        /// Nothing is there.
        case missing
        /// Something other than a regular file is there.
        case notRegularFile(directory: Bool)
        /// The file holds more than the limit.
        case tooLarge(limit: Int)
        /// The system refused (permissions, a symlink when links are not followed, an I/O error).
        case unreadable(code: Int32)

        /// Why, in words that sit inside a sentence ("cannot read PATH: REASON").
        public var reason: String {
            switch self {
            case .missing: return "no such file"
            case .notRegularFile(let directory): return directory ? "is a directory" : "is not a regular file"
            case .tooLarge(let limit): return "larger than \(limit) bytes"
            case .unreadable(let code): return String(cString: strerror(code)).lowercased()
            }
        }
    }

    /// The bytes of the regular file at `path`, at most `maxBytes` of them. With `followingLinks` off, a symlink
    /// at `path` is refused (`ELOOP`) rather than followed.
    public static func read(_ path: String, maxBytes: Int, followingLinks: Bool = true) -> Result<[UInt8], ReadError> {
        // O_NONBLOCK: the open of a FIFO returns at once, and fstat then turns it away.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | (followingLinks ? 0 : O_NOFOLLOW))
        guard fd >= 0 else { return .failure(errno == ENOENT ? .missing : .unreadable(code: errno)) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(.unreadable(code: errno)) }
        guard info.st_mode & S_IFMT == S_IFREG else {
            return .failure(.notRegularFile(directory: info.st_mode & S_IFMT == S_IFDIR))
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while bytes.count <= maxBytes {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(.unreadable(code: errno))
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return bytes.count > maxBytes ? .failure(.tooLarge(limit: maxBytes)) : .success(bytes)
    }
}
