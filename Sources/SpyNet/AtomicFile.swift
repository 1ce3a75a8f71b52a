import Foundation
import Glibc

/// Durable whole-file replacement: after a crash the file holds either the old bytes or the new ones.
public enum AtomicFile {
    /// A step of the replacement failed; the old file is untouched.
    public struct WriteError: Error, CustomStringConvertible {
        public var operation: String
        public var path: String
        public var code: Int32

        public var description: String { "\(operation) \(path): \(String(cString: strerror(code)))" }
    }

    /// Replaces `path` with `bytes`: write `path.tmp`, fsync it, rename it over `path`, fsync the directory.
    ///
    /// The temporary file is always a new file (`O_CREAT|O_EXCL|O_NOFOLLOW`): a file or symlink already there,
    /// left by a crash or planted, is unlinked (which removes a symlink itself, never its target) and never written
    /// through.
    public static func write(_ bytes: [UInt8], to path: String, mode: mode_t = 0o644) throws(WriteError) {
        let temporary = path + ".tmp"
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC
        var fd = open(temporary, flags, mode)
        if fd < 0 && errno == EEXIST {
            guard unlink(temporary) == 0 else { throw WriteError(operation: "unlink", path: temporary, code: errno) }
            fd = open(temporary, flags, mode)
        }
        guard fd >= 0 else { throw WriteError(operation: "open", path: temporary, code: errno) }
        func fail(_ operation: String) -> WriteError {
            let error = WriteError(operation: operation, path: temporary, code: errno)
            close(fd)
            unlink(temporary)
            return error
        }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { raw in
                Glibc.write(fd, raw.baseAddress! + written, raw.count - written)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw fail("write")
            }
            written += count
        }
        guard fsync(fd) == 0 else { throw fail("fsync") }
        close(fd)
        guard rename(temporary, path) == 0 else {
            let error = WriteError(operation: "rename", path: temporary, code: errno)
            unlink(temporary)
            throw error
        }
        syncDirectory((path as NSString).deletingLastPathComponent)
    }

    /// Makes a rename in `directory` durable; a failure here loses durability, not data.
    public static func syncDirectory(_ directory: String) {
        let fd = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }
}
