import Foundation
import Glibc
import SpyBank
import SpyGame
import SpyHost
import SpyNet
import SpyProtocol

/// One file per room in a private directory, each replaced atomically: temp file, fsync, rename, fsync of the
/// directory. A crash at any point leaves either the old or the new snapshot, never a mix.
final class StateStore {
    /// Writes `bytes` durably to `path`; replaceable so tests can make the disk fail.
    typealias Writer = (_ bytes: [UInt8], _ path: String) throws -> Void

    /// Largest state file read; a room's snapshot is a few KiB.
    static let maxFileBytes = 16 << 20

    let directory: String
    private let writer: Writer

    /// Opens the directory, creating it (mode 0700) if needed. An existing directory must belong to the host's user
    /// and be writable by nobody else: whoever can write there can plant files the host trusts.
    init(
        directory: String,
        writer: @escaping Writer = { bytes, path in try AtomicFile.write(bytes, to: path, mode: 0o600) }
    ) throws {
        self.directory = directory
        self.writer = writer
        try StateStore.prepare(directory)
    }

    private func path(for code: String) -> String { "\(directory)/room-\(code).json" }

    /// Writes a room's snapshot durably. Every accepted move is saved before anyone hears of it, so this runs once
    /// per move: the streaming encoder writes the bytes directly, where `JSONEncoder` built a tree of the whole room
    /// first and took more than half of the host's CPU with a state directory.
    func save(_ snapshot: RoomSnapshot) throws {
        try writer(try StreamingJSONEncoder.encode(snapshot), path(for: snapshot.room.code))
    }

    /// Forgets a closed room.
    func remove(code: String) {
        unlink(path(for: code))
        AtomicFile.syncDirectory(directory)
    }

    /// Every snapshot that can be trusted. A file that is not a valid snapshot (bad JSON, a number out of range) is
    /// renamed `*.corrupt-<time>` and reported through `warn`; a file that exists but cannot be read is not corrupt,
    /// and throws, naming it, so the host refuses to start rather than lose or overwrite a room.
    func loadAll(warn: (String) -> Void) throws -> [RoomSnapshot] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw StorageError("cannot list the state directory \(directory): \(error.localizedDescription)")
        }
        var snapshots: [RoomSnapshot] = []
        for name in names.sorted() where name.hasPrefix("room-") && name.hasSuffix(".json") {
            let path = "\(directory)/\(name)"
            let problem: String?
            if let bytes = try StateStore.read(path) {
                do {
                    let snapshot = try JSONDecoder().decode(RoomSnapshot.self, from: Data(bytes))
                    if snapshot.format != 1 {
                        problem = "unknown format \(snapshot.format)"
                    } else if "room-\(snapshot.room.code).json" != name {
                        problem = "it holds room \(snapshot.room.code.prefix(8))"
                    } else if let wrong = snapshot.room.integrityProblem ?? snapshot.integrityProblem {
                        problem = wrong
                    } else {
                        snapshots.append(snapshot)
                        problem = nil
                    }
                } catch {
                    problem = "it is not a room snapshot"
                }
            } else {
                problem = "it is too large"
            }
            if let problem {
                let aside = "\(path).corrupt-\(Int(Date().timeIntervalSince1970))"
                rename(path, aside)
                warn("state file \(name) is corrupt (\(problem)); moved aside to \(aside)")
            }
        }
        for name in names where name.hasSuffix(".tmp") {
            unlink("\(directory)/\(name)")
        }
        return snapshots
    }

    /// The names of the room files in the directory.
    func roomFileNames() throws -> [String] {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: directory).filter {
                $0.hasPrefix("room-") && $0.hasSuffix(".json")
            }
        } catch {
            throw StorageError("cannot list the state directory \(directory): \(error.localizedDescription)")
        }
    }

    /// The bytes of a state file, or nil when it is larger than `maxFileBytes` (corrupt). A symlink, a FIFO or a
    /// file that cannot be read throws: it is not moved aside as corrupt.
    private static func read(_ path: String) throws -> [UInt8]? {
        func refusal(_ code: Int32) -> StorageError {
            StorageError(
                "state file \(path) exists but cannot be read (\(String(cString: strerror(code)))); it is not moved "
                    + "aside as corrupt: fix its permissions or move it away yourself, then start again")
        }
        switch BoundedFile.read(path, maxBytes: maxFileBytes, followingLinks: false) {
        case .success(let bytes): return bytes
        case .failure(.tooLarge): return nil
        case .failure(.missing): throw refusal(ENOENT)
        case .failure(.notRegularFile): throw refusal(EINVAL)
        case .failure(.unreadable(let code)): throw refusal(code)
        }
    }

    /// Creates the directory (0700) or checks an existing one: it must be a directory of the host's user, not
    /// writable by group or others. A directory the host has just created gets mode 0700 whatever the umask.
    static func prepare(_ directory: String) throws {
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
}
