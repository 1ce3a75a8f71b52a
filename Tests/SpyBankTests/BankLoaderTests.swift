import Foundation
import SpyProtocol
import XCTest

@testable import SpyBank

/// The fallback chain: fresh fetch → cached copy → embedded default, with a real loopback server and a
/// temporary cache directory per test.
final class BankLoaderTests: XCTestCase {
    /// What the test server currently does for every path.
    enum Behaviour {
        case serve([UInt8])
        case fail(Int)
    }

    private var server: TestHTTPServer!
    private var behaviour: Locked<Behaviour>!
    private var cacheDirectory: TemporaryDirectory!

    static let sheet = Array("civilian,spy\n牛奶,豆漿\ncoffee,tea\n".utf8)

    override func setUpWithError() throws {
        let behaviour = Locked(Behaviour.serve(Self.sheet))
        self.behaviour = behaviour
        server = try TestHTTPServer { _ in
            switch behaviour.value {
            case .serve(let body): return .response(status: 200, body: body)
            case .fail(let status): return .response(status: status, body: [])
            }
        }
        cacheDirectory = try TemporaryDirectory()
    }

    override func tearDown() {
        server.stop()
        cacheDirectory = nil
    }

    private func load(_ sources: [String], sheets: [String] = [], timeout: TimeInterval = 5) -> LoadReport {
        BankLoader.load(sources: sources, sheets: sheets, cacheDirectory: cacheDirectory.url, timeout: timeout)
    }

    private func words(_ pairs: [WordPair]) -> [String] { pairs.map { "\($0.civilian)/\($0.spy)" } }

    func testNoSourceUsesTheEmbeddedDefault() {
        let report = load([])
        XCTAssertEqual(report.pairs, EmbeddedBank.pairs)
        XCTAssertTrue(report.usedEmbedded)
        XCTAssertEqual(report.lines.count, 1)
        XCTAssertTrue(report.lines[0].contains("embedded default"), report.lines[0])
        XCTAssertTrue(report.lines[0].contains("\(EmbeddedBank.pairs.count) pairs"), report.lines[0])
    }

    func testFreshFetchIsUsedAndCached() throws {
        let url = server.url("/sheet.csv")
        let progress = Locked<[String]>([])
        let transfers = Locked<[TransferStatus]>([])
        let report = BankLoader.load(
            sources: [url], sheets: [], cacheDirectory: cacheDirectory.url, timeout: 5,
            progress: { line in progress.update { $0.append(line) } },
            transfer: { status in transfers.update { $0.append(status) } })
        XCTAssertEqual(words(report.pairs), ["牛奶/豆漿", "coffee/tea"])
        XCTAssertFalse(report.usedEmbedded)
        XCTAssertEqual(report.outcomes.map(\.origin), [.fresh])
        XCTAssertEqual(report.outcomes.first?.format, .csv)
        XCTAssertEqual(progress.value, report.lines)
        XCTAssertTrue(report.lines.contains { $0.contains("2 pairs") && $0.contains("fresh") }, "\(report.lines)")
        XCTAssertEqual(transfers.value.first, TransferStatus(source: url, received: 0, expected: nil))
        XCTAssertEqual(
            transfers.value.last, TransferStatus(source: url, received: Self.sheet.count, expected: Self.sheet.count))
        let cached = try BankCache(directory: cacheDirectory.url).read(url).get()
        XCTAssertEqual(cached.pairs, report.pairs)
        XCTAssertEqual(cached.source, url)
    }

    func testIndicatorPlugsIntoTheLoaderAsTheDaemonUsesIt() {
        let written = Locked<String>("")
        let indicator = FetchIndicator(animated: false) { text in written.update { $0 += text } }
        let report = BankLoader.load(
            sources: [server.url("/sheet.csv")], sheets: [], cacheDirectory: cacheDirectory.url,
            progress: indicator.line, transfer: indicator.transfer)
        indicator.finish()
        XCTAssertEqual(written.value, report.lines.map { $0 + "\n" }.joined())
    }

    func testFailedFetchFallsBackToTheCachedCopy() {
        let url = server.url("/sheet.csv")
        XCTAssertEqual(load([url]).outcomes.map(\.origin), [.fresh])
        behaviour.update { $0 = .fail(500) }
        let report = load([url])
        XCTAssertEqual(words(report.pairs), ["牛奶/豆漿", "coffee/tea"])
        XCTAssertEqual(report.outcomes.map(\.origin), [.cache])
        XCTAssertEqual(report.outcomes.first?.failure, "HTTP 500 Internal Server Error")
        XCTAssertTrue(
            report.lines.contains { $0.contains("HTTP 500") && $0.contains("cached copy") && $0.contains("2 pairs") },
            "\(report.lines)")
    }

    func testCacheSurvivesARestartWithTheServerGone() {
        let url = server.url("/sheet.csv")
        _ = load([url])
        server.stop()
        // A new load with nothing carried over but the cache directory, as after a daemon restart.
        let report = BankLoader.load(
            sources: [url], sheets: [], cacheDirectory: cacheDirectory.url, timeout: 5)
        XCTAssertEqual(words(report.pairs), ["牛奶/豆漿", "coffee/tea"])
        XCTAssertEqual(report.outcomes.map(\.origin), [.cache])
    }

    func testUnparsableFreshCopyDoesNotReplaceTheCache() {
        let url = server.url("/sheet.csv")
        _ = load([url])
        behaviour.update { $0 = .serve(Array("civilian,spy\nsame,same\n".utf8)) }
        let report = load([url])
        XCTAssertEqual(report.outcomes.map(\.origin), [.cache])
        XCTAssertEqual(words(report.pairs), ["牛奶/豆漿", "coffee/tea"])
    }

    func testCorruptCacheFileIsIgnoredWithAWarning() throws {
        let url = server.url("/sheet.csv")
        _ = load([url])
        let file = BankCache(directory: cacheDirectory.url).fileURL(for: url)
        try Data("{\"version\":1,\"source\":".utf8).write(to: file)
        behaviour.update { $0 = .fail(404) }
        let report = load([url])
        XCTAssertTrue(report.usedEmbedded)
        XCTAssertEqual(report.pairs, EmbeddedBank.pairs)
        XCTAssertEqual(report.outcomes.map(\.origin), [.failed])
        XCTAssertTrue(
            report.lines.contains { $0.hasPrefix("warning:") && $0.contains("corrupt") && $0.contains(file.path) },
            "\(report.lines)")
    }

    func testNoUsableSourceAndNoCacheFallsBackToTheEmbeddedDefault() {
        behaviour.update { $0 = .fail(404) }
        let report = load([server.url("/a.csv"), "/nonexistent/bank.csv"], sheets: ["not a sheet id!"])
        XCTAssertTrue(report.usedEmbedded)
        XCTAssertEqual(report.pairs, EmbeddedBank.pairs)
        XCTAssertEqual(report.outcomes.map(\.origin), [.failed, .failed, .failed])
        XCTAssertEqual(report.outcomes[0].failure, "HTTP 404 Not Found")
        XCTAssertTrue(report.outcomes[1].failure?.hasPrefix("no such file") ?? false)
        XCTAssertTrue(report.lines.last?.contains("embedded default") ?? false, "\(report.lines)")
    }

    func testNoCacheDirectoryMeansNoCaching() {
        let url = server.url("/sheet.csv")
        _ = BankLoader.load(sources: [url], sheets: [], cacheDirectory: nil, timeout: 5)
        behaviour.update { $0 = .fail(503) }
        let report = BankLoader.load(sources: [url], sheets: [], cacheDirectory: nil, timeout: 5)
        XCTAssertTrue(report.usedEmbedded)
    }

    func testSourcesAreMergedAndDeduplicated() throws {
        let file = cacheDirectory.url.appendingPathComponent("extra.tsv")
        try Data("平民\t臥底\n豆漿\t牛奶\n蘋果\t梨子\n".utf8).write(to: file)
        let report = load([server.url("/sheet.csv"), file.path])
        XCTAssertEqual(words(report.pairs), ["牛奶/豆漿", "coffee/tea", "蘋果/梨子"])
        XCTAssertEqual(report.outcomes.map(\.pairCount), [2, 2])
        XCTAssertTrue(report.lines.last?.contains("1 duplicates across sources dropped") ?? false, "\(report.lines)")
    }

    func testLocalFilesAreNotCached() throws {
        let file = cacheDirectory.url.appendingPathComponent("local.csv")
        try Data(Self.sheet).write(to: file)
        _ = load([file.path])
        let entries = try FileManager.default.contentsOfDirectory(atPath: cacheDirectory.url.path)
        XCTAssertEqual(entries, ["local.csv"])
    }

    func testSkippedRowsAreReported() {
        behaviour.update { $0 = .serve(Array("civilian,spy\ncat,dog\nlonely\nx,x\n".utf8)) }
        let report = load([server.url("/sheet.csv")])
        XCTAssertEqual(report.outcomes.first?.skipped.map(\.line), [3, 4])
        XCTAssertTrue(report.lines.contains("  skipped line 3: missing spy word"), "\(report.lines)")
        XCTAssertTrue(report.lines.contains { $0.contains("2 rows skipped") }, "\(report.lines)")
    }

    func testSlowSourceTimesOutAndFallsBack() throws {
        let slow = try TestHTTPServer { _ in .stall }
        defer { slow.stop() }
        let report = load([slow.url("/sheet.csv")], timeout: 0.5)
        XCTAssertTrue(report.usedEmbedded)
        XCTAssertEqual(report.outcomes.first?.failure, "timed out after 0.5 s")
    }
}
