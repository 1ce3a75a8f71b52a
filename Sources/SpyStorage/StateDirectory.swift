import Foundation
import Glibc

/// The directory the host keeps its rooms in: its own, and writable by nobody else, since whoever can write there
/// can plant files the host trusts.
package enum StateDirectory {
    /// Creates the directory (0700) or checks an existing one: it must be a directory of the host's user, not
    /// writable by group or others. A directory the host has just created gets mode 0700 whatever the umask.
    package static func prepare(_ directory: String) throws {
        var info = stat()
        if stat(directory, &info) != 0 {
            guard errno == ENOENT else {
                throw StorageError("cannot use the state directory \(directory): \(String(cString: strerror(errno)))")
            }
            do {
                try FileManager.default.createDirectory(
                    atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw StorageError("cannot create the state directory \(directory): \(error.localizedDescription)")
            }
            chmod(directory, 0o700)
            guard stat(directory, &info) == 0 else {
                throw StorageError("cannot use the state directory \(directory): \(String(cString: strerror(errno)))")
            }
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw StorageError("the state directory \(directory) is not a directory; choose another with --state-dir")
        }
        guard info.st_uid == geteuid() else {
            throw StorageError(
                "the state directory \(directory) belongs to another user (uid \(info.st_uid)); the host only keeps "
                    + "its rooms in a directory of its own: choose another with --state-dir")
        }
        guard info.st_mode & 0o022 == 0 else {
            let mode = String(info.st_mode & 0o777, radix: 8)
            throw StorageError(
                "the state directory \(directory) is writable by group or others (mode \(mode)), so anyone could "
                    + "plant files the host would trust: run `chmod 700 \(directory)` or choose another with --state-dir"
            )
        }
    }

    /// The names in the directory.
    package static func names(in directory: String) throws -> [String] {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw StorageError("cannot list the state directory \(directory): \(error.localizedDescription)")
        }
    }
}
