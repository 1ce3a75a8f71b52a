import Foundation
import Glibc
import SpyProtocol
import XCTest

@testable import SpyBank

final class BankCacheTests: XCTestCase {
    private let pairs = [
        WordPair(civilian: "牛奶", spy: "豆漿", category: "飲料", language: .zhTW, label: .family),
        WordPair(civilian: "kiss", spy: "hug", category: "Party", language: .en, label: .party),
    ]

    func testWriteThenReadRoundTripsAndLeavesNoTemporaryFile() throws {
        let directory = try TemporaryDirectory()
        let cache = BankCache(directory: directory.url.appendingPathComponent("nested/spyd"))
        let saved = Date(timeIntervalSince1970: 1_800_000_000)
        try cache.write("https://example.org/a.csv", format: .csv, pairs: pairs, savedAt: saved)
        let entry = try cache.read("https://example.org/a.csv").get()
        XCTAssertEqual(entry.pairs, pairs)
        XCTAssertEqual(entry.savedAt, saved)
        XCTAssertEqual(entry.format, "CSV")
        let files = try FileManager.default.contentsOfDirectory(atPath: cache.directory.path)
        XCTAssertEqual(files, [cache.fileURL(for: "https://example.org/a.csv").lastPathComponent])
    }

    func testRewriteReplacesTheCopy() throws {
        let directory = try TemporaryDirectory()
        let cache = BankCache(directory: directory.url)
        try cache.write("s", format: .csv, pairs: pairs)
        try cache.write("s", format: .tsv, pairs: [pairs[0]])
        XCTAssertEqual(try cache.read("s").get().pairs, [pairs[0]])
    }

    func testFileNamesDifferPerSourceAndAreStable() {
        let cache = BankCache(directory: URL(fileURLWithPath: "/tmp/x"))
        XCTAssertNotEqual(cache.fileURL(for: "a"), cache.fileURL(for: "b"))
        // FNV-1a 64 of "a" is af63dc4c8601ec8c: the name must not change between releases or caches are lost.
        XCTAssertEqual(cache.fileURL(for: "a").lastPathComponent, "bank-af63dc4c8601ec8c.json")
    }

    func testMissingCorruptAndForeignFilesAreRejected() throws {
        let directory = try TemporaryDirectory()
        let cache = BankCache(directory: directory.url)
        XCTAssertEqual(cache.read("s").failure, .missing)

        try Data("garbage".utf8).write(to: cache.fileURL(for: "s"))
        guard case .corrupt(let path, _) = cache.read("s").failure else { return XCTFail("expected corrupt") }
        XCTAssertEqual(path, cache.fileURL(for: "s").path)

        try cache.write("other", format: .csv, pairs: pairs)
        try FileManager.default.copyItem(at: cache.fileURL(for: "other"), to: cache.fileURL(for: "t"))
        guard case .corrupt(_, let reason) = cache.read("t").failure else { return XCTFail("expected corrupt") }
        XCTAssertEqual(reason, "belongs to another source")
    }

    /// Writes a cache file holding `pairs` as they are, past the checks `write` trusts the parser for.
    private func plant(_ pairs: [WordPair], for spec: String, in cache: BankCache) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let entry = BankCache.Entry(version: 1, source: spec, savedAt: Date(), format: "CSV", pairs: pairs)
        try FileManager.default.createDirectory(at: cache.directory, withIntermediateDirectories: true)
        try encoder.encode(entry).write(to: cache.fileURL(for: spec))
    }

    func testCachedPairsMustPassTheSheetChecksUnchanged() throws {
        let directory = try TemporaryDirectory()
        let cache = BankCache(directory: directory.url)
        var clueNamesItsWord = pairs[0]
        clueNamesItsWord.civilianClues = ["白白的牛奶"]
        let planted: [(String, WordPair, String)] = [
            ("control", WordPair(civilian: "牛\u{1B}[2J奶", spy: "豆漿"), "control character"),
            ("long", WordPair(civilian: String(repeating: "長", count: 5_000), spy: "豆漿"), "longer than"),
            ("same", WordPair(civilian: "milk", spy: "MILK"), "the same"),
            ("empty", WordPair(civilian: "", spy: "豆漿"), "missing civilian word"),
            ("invisible", WordPair(civilian: "\u{200B}", spy: "豆漿"), "no visible letter"),
            ("clue", clueNamesItsWord, "pair 2"),
            ("untrimmed", WordPair(civilian: " 牛奶 ", spy: "豆漿"), "not as the parser leaves it"),
        ]
        for (spec, bad, reason) in planted {
            try plant([pairs[1], bad], for: spec, in: cache)
            guard case .corrupt(_, let said) = cache.read(spec).failure else {
                XCTFail("\(spec): a cached \(bad.civilian)/\(bad.spy) was used")
                continue
            }
            XCTAssertTrue(said.contains(reason), "\(spec): \(said)")
        }
        try plant([pairs[0], pairs[1], pairs[0]], for: "twice", in: cache)
        guard case .corrupt(_, let said) = cache.read("twice").failure else { return XCTFail("a duplicate was used") }
        XCTAssertTrue(said.contains("pair 3: duplicate"), said)
        try plant(pairs, for: "fine", in: cache)
        XCTAssertEqual(try cache.read("fine").get().pairs, pairs)
    }

    func testAFileOverTheLimitIsNotRead() throws {
        let directory = try TemporaryDirectory()
        let cache = BankCache(directory: directory.url, maxFileBytes: 4_096)
        try cache.write("s", format: .csv, pairs: pairs)
        XCTAssertEqual(try cache.read("s").get().pairs, pairs)
        let handle = try FileHandle(forWritingTo: cache.fileURL(for: "s"))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(repeating: 0x20, count: 4_096))
        try handle.close()
        guard case .corrupt(_, let reason) = cache.read("s").failure else {
            return XCTFail("an oversized file was read")
        }
        XCTAssertEqual(reason, "larger than 4096 bytes")
    }

    /// Opening a FIFO for reading waits for a writer: one where the cache file should be must not hold the host's start.
    func testAFIFOWhereTheFileShouldBeIsRefusedWithoutWaiting() throws {
        let directory = try TemporaryDirectory()
        let cache = BankCache(directory: directory.url)
        XCTAssertEqual(mkfifo(cache.fileURL(for: "s").path, 0o600), 0)
        guard case .corrupt(_, let reason) = cache.read("s").failure else { return XCTFail("a FIFO was read") }
        XCTAssertEqual(reason, "is not a regular file")
    }

    func testDefaultDirectoryFollowsXDGThenHome() {
        XCTAssertEqual(
            BankCache.defaultDirectory(environment: ["XDG_CACHE_HOME": "/x/cache", "HOME": "/home/h"])?.path,
            "/x/cache/spyd")
        XCTAssertEqual(
            BankCache.defaultDirectory(environment: ["XDG_CACHE_HOME": "relative", "HOME": "/home/h"])?.path,
            "/home/h/.cache/spyd")
        XCTAssertNil(BankCache.defaultDirectory(environment: [:]))
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
