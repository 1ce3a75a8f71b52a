import Foundation
import Glibc
import SpyHost
import SpyNet
import SpyProtocol

/// The room files of an older host: one `room-CODE.json` per room, the room's snapshot as JSON. The host no longer
/// writes them: at the first start on a directory that holds them they become the journal's first snapshots (see
/// `Journal.open`). Reading one changes nothing; only the start that takes them in sets a corrupt one aside.
package struct OlderRoomFiles {
    /// Largest room file read; a room's snapshot is a few KiB.
    package static let maxFileBytes = 16 << 20

    package let directory: String

    package init(directory: String) {
        self.directory = directory
    }

    /// Whether `name` is the name of a room file.
    package static func isRoomFile(_ name: String) -> Bool {
        name.hasPrefix("room-") && name.hasSuffix(".json")
    }

    /// The names of the room files in the directory, sorted.
    package func names() throws -> [String] {
        try StateDirectory.names(in: directory).filter(Self.isRoomFile).sorted()
    }

    /// The room the file `name` holds, or why it cannot be trusted (bad JSON, a number out of range, too large).
    /// A file that exists but cannot be read (a symlink, a FIFO, permissions) throws, naming it: it is not corrupt.
    package func read(_ name: String) throws -> Result<RoomSnapshot, Corrupt> {
        let path = "\(directory)/\(name)"
        guard let bytes = try Self.read(path) else { return .failure(Corrupt(problem: "it is too large")) }
        guard let snapshot = try? JSONDecoder().decode(RoomSnapshot.self, from: Data(bytes)) else {
            return .failure(Corrupt(problem: "it is not a room snapshot"))
        }
        if snapshot.format != 1 { return .failure(Corrupt(problem: "unknown format \(snapshot.format)")) }
        if "room-\(snapshot.room.code).json" != name {
            return .failure(Corrupt(problem: "it holds room \(snapshot.room.code.prefix(8))"))
        }
        if let wrong = snapshot.room.integrityProblem ?? snapshot.integrityProblem {
            return .failure(Corrupt(problem: wrong))
        }
        return .success(snapshot)
    }

    /// Why a room file cannot be trusted.
    package struct Corrupt: Error, Equatable {
        package var problem: String
    }

    /// Every snapshot that can be trusted, as a start takes them in: a corrupt file is renamed
    /// `*.corrupt-<seconds of now>` and reported through `warn`; a file that cannot be read throws.
    package func takeIn(now: Int64, warn: (String) -> Void) throws -> [RoomSnapshot] {
        let names = try StateDirectory.names(in: directory)
        var snapshots: [RoomSnapshot] = []
        for name in names.sorted() where Self.isRoomFile(name) {
            switch try read(name) {
            case .success(let snapshot):
                snapshots.append(snapshot)
            case .failure(let corrupt):
                let path = "\(directory)/\(name)"
                let aside = "\(path).corrupt-\(now / 1000)"
                rename(path, aside)
                let problem = JournalRooms.printable(corrupt.problem, limit: 400)
                warn("state file \(name) is corrupt (\(problem)); moved aside to \(aside)")
            }
        }
        for name in names where name.hasSuffix(".tmp") {
            unlink("\(directory)/\(name)")
        }
        return snapshots
    }

    /// The bytes of a room file, or nil when it is larger than `maxFileBytes` (corrupt). A symlink, a FIFO or a
    /// file that cannot be read throws: it is not moved aside as corrupt.
    static func read(_ path: String) throws -> [UInt8]? {
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
}
