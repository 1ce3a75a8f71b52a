import Foundation
import SpyNet

/// Resume tokens kept on disk, so a player whose terminal closed gets the seat back by running spy-client again.
///
/// One small JSON file, private to the user, replaced atomically. Keyed by host, port and the room asked for.
struct TokenStore {
    /// What is remembered for one room.
    struct Entry: Codable, Equatable {
        /// Nil once the seat was given up: the name is still offered next time.
        var token: String?
        var name: String
        var room: String
    }

    let file: URL

    /// `$XDG_STATE_HOME/spy-client/tokens.json`, or `~/.local/state/spy-client/tokens.json`.
    static func standard(environment: [String: String]) -> TokenStore {
        let base: URL
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            base = URL(fileURLWithPath: state)
        } else {
            let home = environment["HOME"] ?? NSHomeDirectory()
            base = URL(fileURLWithPath: home).appendingPathComponent(".local/state")
        }
        return TokenStore(file: base.appendingPathComponent("spy-client/tokens.json"))
    }

    static func key(address: HostAddress, room: String?) -> String { "\(address)/\(room ?? "")" }

    /// A token file larger than this is not read: a few hundred rooms' entries take a few dozen KiB.
    static let maxFileBytes = 1 << 20

    func load() -> [String: Entry] {
        guard case .success(let bytes) = BoundedFile.read(file.path, maxBytes: Self.maxFileBytes) else { return [:] }
        return (try? JSONDecoder().decode([String: Entry].self, from: Data(bytes))) ?? [:]
    }

    func entry(_ key: String) -> Entry? { load()[key] }

    /// Forgets the seat's token but keeps the name the player chose.
    func forgetToken(_ key: String) {
        guard var entry = entry(key) else { return }
        entry.token = nil
        set(key, entry)
    }

    /// Stores or (with nil) forgets the entry. Failing to write only costs the automatic rejoin, so errors are
    /// ignored.
    func set(_ key: String, _ entry: Entry?) {
        var all = load()
        all[key] = entry
        let directory = file.deletingLastPathComponent()
        try? FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(all) else { return }
        try? AtomicFile.write([UInt8](data), to: file.path, mode: 0o600)
    }
}
