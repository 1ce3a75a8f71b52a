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
    /// Whether the transfer is over (the spinner stops showing it).
    public var finished: Bool

    public init(source: String, received: Int, expected: Int?, finished: Bool = false) {
        self.source = source
        self.received = received
        self.expected = expected
        self.finished = finished
    }
}

/// What happened to one source during a load.
public struct SourceOutcome: Sendable, Equatable {
    /// Where the pairs of the source came from.
    public enum Origin: String, Sendable, Equatable {
        /// Fetched and parsed just now.
        case fresh
        /// The fetch failed (or was not tried); the last good copy from the cache was used.
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
    /// When the cached copy used was fetched.
    public var cachedAt: Date? = nil
    /// Whether the source is fetched over the network (a file is read, and never cached).
    public var isRemote: Bool = false
    /// Whether the source came from `--sheet`.
    public var isSheet: Bool = false

    /// The source as the banner names it: `sheet ID` for `--sheet`, else what the host typed.
    public var name: String { isSheet ? "sheet \(spec)" : spec }
}

/// One line of the account of a load, with its weight: a source that failed is a warning, not news.
public struct LoadNote: Sendable, Equatable {
    public var text: String
    public var isWarning: Bool

    public init(_ text: String, warning: Bool = false) {
        self.text = text
        self.isWarning = warning
    }
}

/// The bank a daemon starts with and a human account of how it was put together.
public struct LoadReport: Sendable {
    /// The merged pairs, de-duplicated by `WordPair.key`; never empty.
    public var pairs: [WordPair]
    /// One note per notable step: which source, fresh / cache / embedded, how many pairs, rows skipped.
    public var notes: [LoadNote]
    /// Per source, in the order given.
    public var outcomes: [SourceOutcome]
    /// Whether the embedded default was used (no source given, or none usable).
    public var usedEmbedded: Bool

    /// The notes' text.
    public var lines: [String] { notes.map(\.text) }

    /// Which bank is in use, for the banner and the `listening` line: the source and whether it was fetched,
    /// read or taken from the cache (with the copy's date), or the embedded bank and why, with the pair counts.
    public var inUse: String {
        let counts = BankLoader.summary(pairs)
        if outcomes.isEmpty { return "embedded, \(counts)" }
        if usedEmbedded {
            let names = outcomes.map(\.name).joined(separator: ", ")
            return "embedded fallback (\(names) could not be used), \(counts)"
        }
        func state(_ outcome: SourceOutcome) -> String {
            switch outcome.origin {
            case .fresh: return outcome.isRemote ? "fetched now" : "read now"
            case .cache: return "cached copy from \(outcome.cachedAt.map(BankLoader.timestamp) ?? "an earlier run")"
            case .failed: return "failed"
            }
        }
        if outcomes.count == 1, let only = outcomes.first { return "\(only.name), \(state(only)), \(counts)" }
        let parts = outcomes.map { outcome in
            outcome.origin == .failed
                ? "\(outcome.name) (failed)"
                : "\(outcome.name) (\(state(outcome)), \(BankLoader.pairCount(outcome.pairCount)))"
        }
        return parts.joined(separator: ", ") + "; together \(counts)"
    }
}

/// Why a source gave no pairs on a fresh read.
public enum SourceFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The specification itself is wrong.
    case source(BankSourceError)
    /// Reading the bytes failed.
    case fetch(FetchError)
    /// The bytes are not a usable bank.
    case parse(BankParseError)
    /// The source parsed, but holds fewer pairs than a bank needs.
    case tooFewPairs(found: Int, minimum: Int)

    public var description: String {
        switch self {
        case .source(let error): return error.description
        case .fetch(let error): return error.description
        case .parse(let error): return error.description
        case .tooFewPairs(let found, let minimum):
            return "only \(BankLoader.pairCount(found)); a bank needs at least \(minimum)"
        }
    }
}

/// How a load treats remote sources.
public enum LoadMode: Sendable, Equatable {
    /// Fetch every remote source (concurrently), falling back to its cached copy.
    case fetch
    /// Do not wait for the network: use each remote source's cached copy; files are still read.
    case cachedOnly
}

/// Builds the daemon's bank from the host's sources, falling back from a fresh fetch to the cached copy to the
/// embedded default, so that a game never starts with an empty bank.
public enum BankLoader {
    /// Most skipped rows listed per source in the report; the rest are counted.
    static let skippedRowsShown = 10
    /// Fewest pairs a source must give to count as a bank: enough for an evening's first games not to repeat.
    public static let minimumPairs = 5
    /// Most sources one load takes (each is fetched on its own thread).
    public static let maxSources = 16

    /// Loads `sources` (`--bank` values) and `sheets` (`--sheet` values). Remote sources are fetched at the same
    /// time, each within `timeout`; for each source: a fresh fetch (then saved to the cache), else the cached copy.
    /// Pairs of all sources are merged in the order given and de-duplicated. With no source, or when none gives a
    /// pair, the embedded default is used.
    ///
    /// - Parameters:
    ///   - cacheDirectory: where last good copies live (see `BankCache.defaultDirectory()`); `nil` disables the
    ///     cache.
    ///   - mode: `.cachedOnly` starts from the cached copies without touching the network.
    ///   - progress: called with each note as it happens (from the calling thread).
    ///   - transfer: called while bytes arrive (from networking threads), for a spinner.
    public static func load(
        sources: [String], sheets: [String], cacheDirectory: URL?, timeout: TimeInterval = 10,
        maxBytes: Int = 8 << 20, mode: LoadMode = .fetch, progress: (@Sendable (LoadNote) -> Void)? = nil,
        transfer: (@Sendable (TransferStatus) -> Void)? = nil
    ) -> LoadReport {
        var notes: [LoadNote] = []
        func say(_ note: LoadNote) {
            notes.append(note)
            progress?(note)
        }
        let specs = sources.map { ($0, false) } + sheets.map { ($0, true) }
        guard !specs.isEmpty else {
            let pairs = EmbeddedBank.pairs
            say(LoadNote("using the embedded default bank: \(summary(pairs))"))
            return LoadReport(pairs: pairs, notes: notes, outcomes: [], usedEmbedded: true)
        }

        let cache = cacheDirectory.map { BankCache(directory: $0) }
        let limits = FetchLimits(timeout: timeout, maxBytes: maxBytes)
        let parsed = specs.map { BankSource.parse($0.0, sheet: $0.1) }
        if mode == .fetch {
            for case .success(let source) in parsed where source.isRemote { say(LoadNote("fetching \(source)")) }
        }
        let results = concurrently(
            specs.indices.map { index in
                {
                    loadOne(
                        specs[index].0, sheet: specs[index].1, parsed: parsed[index], cache: cache, limits: limits,
                        mode: mode, transfer: transfer)
                }
            })
        var merged: [WordPair] = []
        var outcomes: [SourceOutcome] = []
        for result in results {
            result.notes.forEach(say)
            outcomes.append(result.outcome)
            merged += result.pairs
        }
        // Each source is already free of duplicates; only several sources can overlap.
        let unique = specs.count > 1 ? BankFilter.deduplicated(merged) : merged
        if unique.isEmpty {
            let pairs = EmbeddedBank.pairs
            say(LoadNote("no source gave any pair; using the embedded default bank: \(summary(pairs))", warning: true))
            return LoadReport(pairs: pairs, notes: notes, outcomes: outcomes, usedEmbedded: true)
        }
        if specs.count > 1 {
            let duplicates = merged.count - unique.count
            let note =
                duplicates > 0 ? ", \(duplicates) duplicate\(duplicates == 1 ? "" : "s") across sources dropped" : ""
            say(LoadNote("merged: \(summary(unique))\(note)"))
        }
        return LoadReport(pairs: unique, notes: notes, outcomes: outcomes, usedEmbedded: false)
    }

    /// Fetches every remote source fresh (concurrently) and saves the good ones as their cached copies, for the
    /// next start; what a host that started on its cached copies runs in the background.
    public static func refreshCache(
        sources: [String], sheets: [String], cacheDirectory: URL, timeout: TimeInterval = 10,
        maxBytes: Int = 8 << 20
    ) -> [LoadNote] {
        let cache = BankCache(directory: cacheDirectory)
        let limits = FetchLimits(timeout: timeout, maxBytes: maxBytes)
        let specs = (sources.map { ($0, false) } + sheets.map { ($0, true) }).compactMap { spec, sheet in
            (try? BankSource.parse(spec, sheet: sheet).get()).flatMap { $0.isRemote ? $0 : nil }
        }
        let notes = concurrently(
            specs.map { source in
                { () -> LoadNote in
                    switch fetchAndParse(source, limits: limits) {
                    case .success(let bank):
                        do {
                            try cache.write(source.spec, format: bank.format, pairs: bank.pairs)
                            return LoadNote(
                                "\(source.spec): cached copy refreshed for the next start: \(summary(bank.pairs))")
                        } catch {
                            return LoadNote("could not save the cached copy of \(source.spec): \(error)", warning: true)
                        }
                    case .failure(let failure):
                        return LoadNote("\(source.spec): \(failure); the cached copy is kept", warning: true)
                    }
                }
            })
        return notes
    }

    /// Runs each job on its own thread and returns their results in order, once all have finished. Every job is
    /// bounded by its own fetch deadline, so the slowest source sets the wait, not the sum of them.
    static func concurrently<Result: Sendable>(_ jobs: [@Sendable () -> Result]) -> [Result] {
        if jobs.count == 1, let only = jobs.first { return [only()] }
        let results = ResultSlots<Result>(count: jobs.count)
        let group = DispatchGroup()
        for (index, job) in jobs.enumerated() {
            group.enter()
            let thread = Thread {
                results.set(index, job())
                group.leave()
            }
            thread.start()
        }
        group.wait()
        return results.values
    }

    /// Reads one source fresh, without the cache: what `spyd bank check` and the first step of `load` do. A
    /// source with fewer than `minimum` pairs fails.
    public static func fetchAndParse(
        _ source: BankSource, limits: FetchLimits = FetchLimits(), minimum: Int = minimumPairs,
        transfer: (@Sendable (TransferStatus) -> Void)? = nil
    ) -> Result<ParsedBank, SourceFailure> {
        let spec = source.spec
        // Starts the spinner before the first byte: a slow server is exactly when the host needs to see it.
        if source.isRemote { transfer?(TransferStatus(source: spec, received: 0, expected: nil)) }
        let bytes = Fetcher.fetch(source, limits: limits) { received, expected in
            transfer?(TransferStatus(source: spec, received: received, expected: expected))
        }
        if source.isRemote { transfer?(TransferStatus(source: spec, received: 0, expected: nil, finished: true)) }
        switch bytes {
        case .failure(let error):
            return .failure(.fetch(error))
        case .success(let bytes):
            let bank: ParsedBank
            do {
                bank = try BankParser.parse(bytes)
            } catch {
                return .failure(.parse(error))
            }
            guard bank.pairs.count >= minimum else {
                return .failure(.tooFewPairs(found: bank.pairs.count, minimum: minimum))
            }
            return .success(bank)
        }
    }

    struct SourceResult: Sendable {
        var outcome: SourceOutcome
        var pairs: [WordPair]
        var notes: [LoadNote]
    }

    private static func loadOne(
        _ spec: String, sheet: Bool, parsed: Result<BankSource, BankSourceError>, cache: BankCache?,
        limits: FetchLimits, mode: LoadMode, transfer: (@Sendable (TransferStatus) -> Void)?
    ) -> SourceResult {
        var notes: [LoadNote] = []
        var outcome = SourceOutcome(
            spec: spec, origin: .failed, pairCount: 0, format: nil, skipped: [], failure: nil, isSheet: sheet)
        let source: BankSource
        switch parsed {
        case .failure(let error):
            outcome.failure = error.description
            notes.append(LoadNote("\(spec): unusable source: \(error)", warning: true))
            return SourceResult(outcome: outcome, pairs: [], notes: notes)
        case .success(let parsed):
            source = parsed
        }
        outcome.isRemote = source.isRemote
        let fresh: Result<ParsedBank, SourceFailure>
        if mode == .cachedOnly && source.isRemote {
            fresh = .failure(.fetch(.connection("not fetched at start (--quick-start)")))
        } else {
            fresh = fetchAndParse(source, limits: limits, transfer: transfer)
        }
        switch fresh {
        case .success(let bank):
            outcome.origin = .fresh
            outcome.pairCount = bank.pairs.count
            outcome.format = bank.format
            outcome.skipped = bank.skipped
            let how = source.isRemote ? "fetched" : "read"
            notes.append(
                LoadNote(
                    "\(spec): \(summary(bank.pairs)) (\(bank.format.rawValue), \(how) now)\(skippedNote(bank.skipped))")
            )
            for row in bank.skipped.prefix(skippedRowsShown) { notes.append(LoadNote("  skipped \(row)")) }
            if bank.skipped.count > skippedRowsShown {
                notes.append(LoadNote("  … and \(bank.skipped.count - skippedRowsShown) more skipped rows"))
            }
            for row in bank.droppedClues.prefix(skippedRowsShown) { notes.append(LoadNote("  clue dropped, \(row)")) }
            if bank.droppedClues.count > skippedRowsShown {
                notes.append(LoadNote("  … and \(bank.droppedClues.count - skippedRowsShown) more clues dropped"))
            }
            if source.isRemote, let cache {
                do {
                    try cache.write(spec, format: bank.format, pairs: bank.pairs)
                } catch {
                    notes.append(LoadNote("could not save the cached copy of \(spec): \(error)", warning: true))
                }
            }
            return SourceResult(outcome: outcome, pairs: bank.pairs, notes: notes)
        case .failure(let failure):
            outcome.failure = failure.description
            guard let cache, source.isRemote else {
                notes.append(LoadNote("\(spec): unusable: \(failure)", warning: true))
                return SourceResult(outcome: outcome, pairs: [], notes: notes)
            }
            switch cache.read(spec) {
            case .success(let entry):
                outcome.origin = .cache
                outcome.pairCount = entry.pairs.count
                outcome.cachedAt = entry.savedAt
                notes.append(
                    LoadNote(
                        "\(spec): \(failure); using the cached copy from \(timestamp(entry.savedAt)): "
                            + summary(entry.pairs), warning: mode == .fetch))
                return SourceResult(outcome: outcome, pairs: entry.pairs, notes: notes)
            case .failure(.missing):
                notes.append(LoadNote("\(spec): unusable: \(failure); no cached copy", warning: true))
            case .failure(let corrupt):
                notes.append(LoadNote("\(corrupt)", warning: true))
                notes.append(LoadNote("\(spec): unusable: \(failure); no usable cached copy", warning: true))
            }
            return SourceResult(outcome: outcome, pairs: [], notes: notes)
        }
    }

    /// "1 pair", "412 pairs".
    public static func pairCount(_ count: Int) -> String { "\(count) pair\(count == 1 ? "" : "s")" }

    /// "412 pairs (300 zh-TW, 112 en, 5 party)"; "1012 pairs (300 zh-TW, 600 zh-Hans, 112 en, 5 party)". zh-TW and
    /// en are always counted, zh-Hans only when the bank has some.
    public static func summary(_ pairs: [WordPair]) -> String {
        let traditional = pairs.count { $0.language == .zhTW }
        let simplified = pairs.count { $0.language == .zhHans }
        let english = pairs.count { $0.language == .en }
        let party = pairs.count { $0.label == .party }
        var parts = ["\(traditional) zh-TW"]
        if simplified > 0 { parts.append("\(simplified) zh-Hans") }
        parts.append("\(english) en")
        if party > 0 { parts.append("\(party) party") }
        return "\(pairCount(pairs.count)) (\(parts.joined(separator: ", ")))"
    }

    private static func skippedNote(_ skipped: [SkippedRow]) -> String {
        skipped.isEmpty ? "" : ", \(skipped.count) row\(skipped.count == 1 ? "" : "s") skipped"
    }

    /// "2026-11-28 20:15 UTC".
    public static func timestamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm 'UTC'"
        return formatter.string(from: date)
    }
}

/// Results written by worker threads, one slot each.
final class ResultSlots<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Value?]

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ value: Value) { lock.withLock { slots[index] = value } }

    var values: [Value] { lock.withLock { slots.map { $0! } } }
}
