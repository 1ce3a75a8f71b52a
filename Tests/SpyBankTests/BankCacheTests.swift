import Foundation
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
