import Foundation
import SpyNet
import SpyProtocol

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The last good copy of each remote source, so a host whose network is down still gets its own sheet.
///
/// One JSON file per source, named by a hash of the source text, holding the parsed pairs. Files are replaced
/// atomically (temporary file, fsync, rename, fsync of the directory), so a crash leaves the old copy or the new
/// one, never half of one.
public struct BankCache: Sendable {
    /// A cached copy as stored on disk.
    public struct Entry: Codable, Sendable, Equatable {
        /// Layout version of the file.
        public var version: Int
        /// The source text the copy belongs to (guards against a hash collision).
        public var source: String
        /// When the copy was fetched.
        public var savedAt: Date
        /// The format the source had.
        public var format: String
        /// The pairs parsed from it.
        public var pairs: [WordPair]
    }

    /// Why a cached copy could not be used.
    public enum ReadError: Error, Sendable, Equatable, CustomStringConvertible {
        /// No copy was ever saved for the source.
        case missing
        /// The file exists but is unreadable, truncated, not ours, or empty of pairs.
        case corrupt(path: String, reason: String)

        public var description: String {
            switch self {
            case .missing: return "no cached copy"
            case .corrupt(let path, let reason): return "ignoring corrupt cache file \(path): \(reason)"
            }
        }
    }

    /// Directory holding the files.
    public var directory: URL

    public init(directory: URL) {
        self.directory = directory
    }

    /// `$XDG_CACHE_HOME/spyd` when that is an absolute path, else `$HOME/.cache/spyd`; `nil` without either.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("spyd", isDirectory: true)
        }
        if let home = environment["HOME"], home.hasPrefix("/") {
            return URL(fileURLWithPath: home, isDirectory: true)
                .appendingPathComponent(".cache/spyd", isDirectory: true)
        }
        return nil
    }

    /// The file for `spec`: a 64-bit FNV-1a hash of its UTF-8 bytes, stable across runs and builds.
    public func fileURL(for spec: String) -> URL {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in spec.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let name = String(hash, radix: 16)
        return directory.appendingPathComponent("bank-\(String(repeating: "0", count: 16 - name.count))\(name).json")
    }

    /// The cached copy of `spec`.
    public func read(_ spec: String) -> Result<Entry, ReadError> {
        let url = fileURL(for: spec)
        guard let data = FileManager.default.contents(atPath: url.path) else { return .failure(.missing) }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let entry: Entry
        do {
            entry = try decoder.decode(Entry.self, from: data)
        } catch {
            return .failure(.corrupt(path: url.path, reason: "not a cache entry"))
        }
        guard entry.version == 1 else {
            return .failure(.corrupt(path: url.path, reason: "unknown version \(entry.version)"))
        }
        guard entry.source == spec else {
            return .failure(.corrupt(path: url.path, reason: "belongs to another source"))
        }
        guard !entry.pairs.isEmpty else { return .failure(.corrupt(path: url.path, reason: "holds no pairs")) }
        return .success(entry)
    }

    /// Saves `pairs` as the last good copy of `spec`.
    public func write(_ spec: String, format: BankFormat, pairs: [WordPair], savedAt: Date = Date()) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        let entry = Entry(version: 1, source: spec, savedAt: savedAt, format: format.rawValue, pairs: pairs)
        let data = try encoder.encode(entry)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try AtomicFile.write([UInt8](data), to: fileURL(for: spec).path)
    }
}
