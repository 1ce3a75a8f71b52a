import Foundation
import Glibc
import SpyGame
import SpyNet
import SpyProtocol

/// Everything needed to carry a room across a restart: the room (with its words and rng), the resume tokens,
/// and what the bots remember.
struct RoomSnapshot: Codable, Equatable {
    /// Layout version of this file.
    var format = 1
    /// The room itself.
    var room: Room
    /// Each seated player's resume token.
    var tokens: [PlayerID: String]
    /// Whether the room was opened at start (and stays open while empty).
    var permanent: Bool
    /// What the room's bots know.
    var bots: BotMemory
}

/// One file per room in a private directory, each replaced atomically: temp file, fsync, rename, fsync of the
/// directory. A crash at any point leaves either the old or the new snapshot, never a mix.
final class StateStore {
    let directory: String
    private let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()

    /// Opens (creating if needed, mode 0700) the directory.
    init(directory: String) throws {
        self.directory = directory
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    private func path(for code: String) -> String { "\(directory)/room-\(code).json" }

    /// Writes a room's snapshot durably.
    func save(_ snapshot: RoomSnapshot) throws {
        let data = try encoder.encode(snapshot)
        try AtomicFile.write(Array(data), to: path(for: snapshot.room.code), mode: 0o600)
    }

    /// Forgets a closed room.
    func remove(code: String) {
        unlink(path(for: code))
        AtomicFile.syncDirectory(directory)
    }

    /// Every readable snapshot. An unreadable one is renamed `*.corrupt-<time>` and reported through `warn`.
    func loadAll(warn: (String) -> Void) -> [RoomSnapshot] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        var snapshots: [RoomSnapshot] = []
        for name in names.sorted() where name.hasPrefix("room-") && name.hasSuffix(".json") {
            let path = "\(directory)/\(name)"
            do {
                let data = try Data(contentsOf: URL(fileURLWithPath: path))
                let snapshot = try JSONDecoder().decode(RoomSnapshot.self, from: data)
                guard snapshot.format == 1, "room-\(snapshot.room.code).json" == name else {
                    throw CocoaError(.fileReadCorruptFile)
                }
                snapshots.append(snapshot)
            } catch {
                let aside = "\(path).corrupt-\(Int(Date().timeIntervalSince1970))"
                rename(path, aside)
                warn("state file \(name) cannot be read; moved aside to \(aside)")
            }
        }
        for name in names where name.hasSuffix(".tmp") {
            unlink("\(directory)/\(name)")
        }
        return snapshots
    }
}
