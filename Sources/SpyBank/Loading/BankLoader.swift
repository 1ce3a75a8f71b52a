import Foundation
import SpyProtocol

/// How far a download has got, for a spinner.
public struct TransferStatus: Sendable, Equatable {
    /// The source being fetched, as the host wrote it.
    public var source: String
    /// Bytes received so far.
    public var received: Int
    /// Bytes announced by the server, when it said.
    public var expected: Int?

    public init(source: String, received: Int, expected: Int?) {
        self.source = source
        self.received = received
        self.expected = expected
    }
}

/// What happened to one source during a load.
public struct SourceOutcome: Sendable, Equatable {
    /// Where the pairs of the source came from.
    public enum Origin: String, Sendable, Equatable {
        /// Fetched and parsed just now.
        case fresh
        /// The fetch failed; the last good copy from the cache was used.
        case cache
        /// Neither the fetch nor the cache gave pairs; the source contributes nothing.
        case failed
    }

    /// The source as the host wrote it.
    public var spec: String
    /// Where its pairs came from.
    public var origin: Origin
    /// How many pairs it contributed before merging.
    public var pairCount: Int
    /// The format recognised, when the source was read fresh.
    public var format: BankFormat?
    /// Rows skipped in the fresh copy.
    public var skipped: [SkippedRow]
    /// Why the fresh fetch failed, when it did.
    public var failure: String?
}

/// The bank a daemon starts with and a human account of how it was put together.
public struct LoadReport: Sendable {
    /// The merged pairs, de-duplicated by `WordPair.key`; never empty.
    public var pairs: [WordPair]
    /// One line per notable step: which source, fresh / cache / embedded, how many pairs, rows skipped.
    public var lines: [String]
    /// Per source, in the order given.
    public var outcomes: [SourceOutcome]
    /// Whether the embedded default was used (no source given, or none usable).
    public var usedEmbedded: Bool
}

/// Why a source gave no pairs on a fresh read.
public enum SourceFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The specification itself is wrong.
    case source(BankSourceError)
    /// Reading the bytes failed.
    case fetch(FetchError)
    /// The bytes are not a usable bank.
    case parse(BankParseError)

    public var description: String {
        switch self {
        case .source(let error): return error.description
        case .fetch(let error): return error.description
        case .parse(let error): return error.description
        }
    }
}

/// Builds the daemon's bank from the host's sources, falling back from a fresh fetch to the cached copy to the
/// embedded default, so that a game never starts with an empty bank.
public enum BankLoader {
    /// Most skipped rows listed per source in the report; the rest are counted.
    static let skippedRowsShown = 10

    /// Loads `sources` (`--bank` values) and `sheets` (`--sheet` values) in that order. For each source: a fresh
    /// fetch (then saved to the cache), else the cached copy; pairs of all sources are merged and de-duplicated.
    /// With no source, or when none gives a pair, the embedded default is used.
    ///
    /// - Parameters:
    ///   - cacheDirectory: where last good copies live (see `BankCache.defaultDirectory()`); `nil` disables the
    ///     cache.
    ///   - progress: called with each report line as it happens (from the calling thread).
    ///   - transfer: called while bytes arrive (from a networking thread), for a spinner.
    public static func load(
        sources: [String], sheets: [String], cacheDirectory: URL?, timeout: TimeInterval = 10,
        maxBytes: Int = 8 << 20, progress: (@Sendable (String) -> Void)? = nil,
        transfer: (@Sendable (TransferStatus) -> Void)? = nil
    ) -> LoadReport {
        var lines: [String] = []
        func say(_ line: String) {
            lines.append(line)
            progress?(line)
        }
        let specs = sources.map { ($0, false) } + sheets.map { ($0, true) }
        guard !specs.isEmpty else {
            let pairs = EmbeddedBank.pairs
            say("using the embedded default bank: \(summary(pairs))")
            return LoadReport(pairs: pairs, lines: lines, outcomes: [], usedEmbedded: true)
        }

        let cache = cacheDirectory.map(BankCache.init(directory:))
        let limits = FetchLimits(timeout: timeout, maxBytes: maxBytes)
        var merged: [WordPair] = []
        var outcomes: [SourceOutcome] = []
        for (spec, isSheet) in specs {
            let (outcome, pairs) = loadOne(
                spec, sheet: isSheet, cache: cache, limits: limits, say: say, transfer: transfer)
            outcomes.append(outcome)
            merged += pairs
        }
        // Each source is already free of duplicates; only several sources can overlap.
        let unique = specs.count > 1 ? BankFilter.deduplicated(merged) : merged
        if unique.isEmpty {
            let pairs = EmbeddedBank.pairs
            say("no source gave any pair; using the embedded default bank: \(summary(pairs))")
            return LoadReport(pairs: pairs, lines: lines, outcomes: outcomes, usedEmbedded: true)
        }
        if specs.count > 1 {
            let duplicates = merged.count - unique.count
            let note = duplicates > 0 ? ", \(duplicates) duplicates across sources dropped" : ""
            say("bank: \(summary(unique))\(note)")
        }
        return LoadReport(pairs: unique, lines: lines, outcomes: outcomes, usedEmbedded: false)
    }

    /// Reads one source fresh, without the cache: what `spyd bank check` and the first step of `load` do.
    public static func fetchAndParse(
        _ source: BankSource, limits: FetchLimits = FetchLimits(),
        transfer: (@Sendable (TransferStatus) -> Void)? = nil
    ) -> Result<ParsedBank, SourceFailure> {
        let spec = source.spec
        // Starts the spinner before the first byte: a slow server is exactly when the host needs to see it.
        if source.isRemote { transfer?(TransferStatus(source: spec, received: 0, expected: nil)) }
        let bytes = Fetcher.fetch(source, limits: limits) { received, expected in
            transfer?(TransferStatus(source: spec, received: received, expected: expected))
        }
        switch bytes {
        case .failure(let error):
            return .failure(.fetch(error))
        case .success(let bytes):
            do {
                return .success(try BankParser.parse(bytes))
            } catch {
                return .failure(.parse(error))
            }
        }
    }

    private static func loadOne(
        _ spec: String, sheet: Bool, cache: BankCache?, limits: FetchLimits, say: (String) -> Void,
        transfer: (@Sendable (TransferStatus) -> Void)?
    ) -> (SourceOutcome, [WordPair]) {
        var outcome = SourceOutcome(
            spec: spec, origin: .failed, pairCount: 0, format: nil, skipped: [], failure: nil)
        let source: BankSource
        switch BankSource.parse(spec, sheet: sheet) {
        case .failure(let error):
            outcome.failure = error.description
            say("\(spec): unusable source: \(error)")
            return (outcome, [])
        case .success(let parsed):
            source = parsed
        }
        if source.isRemote { say("fetching \(source)") }
        switch fetchAndParse(source, limits: limits, transfer: transfer) {
        case .success(let bank):
            outcome.origin = .fresh
            outcome.pairCount = bank.pairs.count
            outcome.format = bank.format
            outcome.skipped = bank.skipped
            say("\(spec): \(summary(bank.pairs)) (\(bank.format.rawValue), fresh)\(skippedNote(bank.skipped))")
            for row in bank.skipped.prefix(skippedRowsShown) { say("  skipped \(row)") }
            if bank.skipped.count > skippedRowsShown {
                say("  … and \(bank.skipped.count - skippedRowsShown) more skipped rows")
            }
            if source.isRemote, let cache {
                do {
                    try cache.write(spec, format: bank.format, pairs: bank.pairs)
                } catch {
                    say("warning: could not save the cached copy of \(spec): \(error)")
                }
            }
            return (outcome, bank.pairs)
        case .failure(let failure):
            outcome.failure = failure.description
            guard let cache, source.isRemote else {
                say("\(spec): unusable: \(failure)")
                return (outcome, [])
            }
            switch cache.read(spec) {
            case .success(let entry):
                outcome.origin = .cache
                outcome.pairCount = entry.pairs.count
                say(
                    "\(spec): \(failure); using the cached copy from \(timestamp(entry.savedAt)): "
                        + summary(entry.pairs))
                return (outcome, entry.pairs)
            case .failure(.missing):
                say("\(spec): unusable: \(failure); no cached copy")
            case .failure(let corrupt):
                say("warning: \(corrupt)")
                say("\(spec): unusable: \(failure); no usable cached copy")
            }
            return (outcome, [])
        }
    }

    /// "412 pairs (300 zh-TW, 112 en, 5 party)".
    public static func summary(_ pairs: [WordPair]) -> String {
        let chinese = pairs.count { $0.language == .zhTW }
        let english = pairs.count { $0.language == .en }
        let party = pairs.count { $0.label == .party }
        var parts = ["\(chinese) zh-TW", "\(english) en"]
        if party > 0 { parts.append("\(party) party") }
        return "\(pairs.count) pair\(pairs.count == 1 ? "" : "s") (\(parts.joined(separator: ", ")))"
    }

    private static func skippedNote(_ skipped: [SkippedRow]) -> String {
        skipped.isEmpty ? "" : ", \(skipped.count) row\(skipped.count == 1 ? "" : "s") skipped"
    }

    private static func timestamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm 'UTC'"
        return formatter.string(from: date)
    }
}
