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
    /// A file larger than this is not read. The largest sheet a fetch takes (8 MiB) parses to much less.
    public var maxFileBytes: Int

    public init(directory: URL, maxFileBytes: Int = 32 << 20) {
        self.directory = directory
        self.maxFileBytes = maxFileBytes
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

    /// The cached copy of `spec`. The file is the host's own, but a disk or a hand can change it: its pairs must
    /// pass the checks a sheet's rows do, exactly as they were saved, or the whole file is set aside.
    public func read(_ spec: String) -> Result<Entry, ReadError> {
        let url = fileURL(for: spec)
        let data: Data
        switch BoundedFile.read(url.path, maxBytes: maxFileBytes) {
        case .success(let bytes): data = Data(bytes)
        case .failure(.missing): return .failure(.missing)
        case .failure(let refusal): return .failure(.corrupt(path: url.path, reason: refusal.reason))
        }
        return Self.entry(from: data, for: spec).mapError { .corrupt(path: url.path, reason: $0.reason) }
    }

    /// Why a file's bytes are not a usable copy of `spec`.
    public struct Unusable: Error, Equatable {
        public var reason: String
    }

    /// The copy of `spec` that `data` holds, if it is a usable one: the decoding half of `read`, without the file.
    public static func entry(from data: Data, for spec: String) -> Result<Entry, Unusable> {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        guard let entry = try? decoder.decode(Entry.self, from: data) else {
            return .failure(Unusable(reason: "not a cache entry"))
        }
        guard entry.version == 1 else { return .failure(Unusable(reason: "unknown version \(entry.version)")) }
        guard entry.source == spec else { return .failure(Unusable(reason: "belongs to another source")) }
        guard !entry.pairs.isEmpty else { return .failure(Unusable(reason: "holds no pairs")) }
        if let problem = problem(in: entry.pairs) { return .failure(Unusable(reason: problem)) }
        return .success(entry)
    }

    /// Why saved pairs are not what the parser makes of them, if they are not: each goes through the parser's row
    /// checks again (words, lengths, control characters, duplicates, clues) and must come out unchanged.
    static func problem(in pairs: [WordPair]) -> String? {
        let records = pairs.enumerated().map { index, pair in
            RawRecord(
                line: index + 1, unit: "pair", civilian: pair.civilian, spy: pair.spy, category: pair.category,
                language: pair.language.rawValue, label: pair.label.rawValue, civilianClues: pair.civilianClues,
                spyClues: pair.spyClues)
        }
        let assembled = BankParser.assemble(records, defaultLanguage: nil, defaultLabel: .family)
        if let row = assembled.skipped.first ?? assembled.droppedClues.first {
            return "\(row.unit) \(row.line): \(row.reason)"
        }
        if assembled.pairs != pairs {
            let index =
                pairs.indices.first { $0 < assembled.pairs.count && pairs[$0] != assembled.pairs[$0] }
                ?? min(pairs.count, assembled.pairs.count)
            return "pair \(index + 1) is not as the parser leaves it"
        }
        return nil
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
