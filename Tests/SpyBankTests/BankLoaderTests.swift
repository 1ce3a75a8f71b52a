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
        case serveWith([UInt8], [(String, String)])
        case fail(Int)
    }

    private var server: TestHTTPServer!
    private var behaviour: Locked<Behaviour>!
    private var cacheDirectory: TemporaryDirectory!

    static let sheet = Array("civilian,spy\n牛奶,豆漿\ncoffee,tea\n貓,狗\npiano,guitar\n火車,高鐵\n".utf8)
    static let sheetWords = ["牛奶/豆漿", "coffee/tea", "貓/狗", "piano/guitar", "火車/高鐵"]

    override func setUpWithError() throws {
        let behaviour = Locked(Behaviour.serve(Self.sheet))
        self.behaviour = behaviour
        server = try TestHTTPServer { _ in
            switch behaviour.value {
            case .serve(let body): return .response(status: 200, body: body)
            case .serveWith(let body, let headers): return .response(status: 200, headers: headers, body: body)
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
            progress: { note in progress.update { $0.append(note.text) } },
            transfer: { status in transfers.update { $0.append(status) } })
        XCTAssertEqual(words(report.pairs), Self.sheetWords)
        XCTAssertFalse(report.usedEmbedded)
        XCTAssertEqual(report.outcomes.map(\.origin), [.fresh])
        XCTAssertEqual(report.outcomes.first?.format, .csv)
        XCTAssertEqual(progress.value, report.lines)
        XCTAssertTrue(report.lines.contains { $0.contains("5 pairs") && $0.contains("fetched now") }, "\(report.lines)")
        XCTAssertEqual(transfers.value.first, TransferStatus(source: url, received: 0, expected: nil))
        XCTAssertEqual(
            transfers.value.dropLast().last,
            TransferStatus(source: url, received: Self.sheet.count, expected: Self.sheet.count))
        XCTAssertEqual(transfers.value.last?.finished, true)
        let cached = try BankCache(directory: cacheDirectory.url).read(url).get()
        XCTAssertEqual(cached.pairs, report.pairs)
        XCTAssertEqual(cached.source, url)
    }

    func testIndicatorPlugsIntoTheLoaderAsTheDaemonUsesIt() {
        let written = Locked<String>("")
        let indicator = FetchIndicator(animated: false) { text in written.update { $0 += text } }
        let report = BankLoader.load(
            sources: [server.url("/sheet.csv")], sheets: [], cacheDirectory: cacheDirectory.url,
            progress: { indicator.line($0.text) }, transfer: indicator.transfer)
        indicator.finish()
        XCTAssertEqual(written.value, report.lines.map { $0 + "\n" }.joined())
    }

    func testFailedFetchFallsBackToTheCachedCopy() {
        let url = server.url("/sheet.csv")
        XCTAssertEqual(load([url]).outcomes.map(\.origin), [.fresh])
        behaviour.update { $0 = .fail(500) }
        let report = load([url])
        XCTAssertEqual(words(report.pairs), Self.sheetWords)
        XCTAssertEqual(report.outcomes.map(\.origin), [.cache])
        XCTAssertEqual(report.outcomes.first?.failure, "HTTP 500 Internal Server Error")
        XCTAssertTrue(
            report.lines.contains { $0.contains("HTTP 500") && $0.contains("cached copy") && $0.contains("5 pairs") },
            "\(report.lines)")
    }

    func testCacheSurvivesARestartWithTheServerGone() {
        let url = server.url("/sheet.csv")
        _ = load([url])
        server.stop()
        // A new load with nothing carried over but the cache directory, as after a daemon restart.
        let report = BankLoader.load(
            sources: [url], sheets: [], cacheDirectory: cacheDirectory.url, timeout: 5)
        XCTAssertEqual(words(report.pairs), Self.sheetWords)
        XCTAssertEqual(report.outcomes.map(\.origin), [.cache])
    }

    func testUnparsableFreshCopyDoesNotReplaceTheCache() {
        let url = server.url("/sheet.csv")
        _ = load([url])
        behaviour.update { $0 = .serve(Array("civilian,spy\nsame,same\n".utf8)) }
        let report = load([url])
        XCTAssertEqual(report.outcomes.map(\.origin), [.cache])
        XCTAssertEqual(words(report.pairs), Self.sheetWords)
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
            report.notes.contains { $0.isWarning && $0.text.contains("corrupt") && $0.text.contains(file.path) },
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
        try Data("平民\t臥底\n豆漿\t牛奶\n蘋果\t梨子\nA\tB\nC\tD\nE\tF\n".utf8).write(to: file)
        let report = load([server.url("/sheet.csv"), file.path])
        XCTAssertEqual(words(report.pairs), Self.sheetWords + ["蘋果/梨子", "A/B", "C/D", "E/F"])
        XCTAssertEqual(report.outcomes.map(\.pairCount), [5, 5])
        XCTAssertEqual(report.lines.last, "merged: 9 pairs (4 zh-TW, 5 en), 1 duplicate across sources dropped")
        XCTAssertEqual(
            report.inUse,
            "\(server.url("/sheet.csv")) (fetched now, 5 pairs), \(file.path) (read now, 5 pairs); "
                + "together 9 pairs (4 zh-TW, 5 en)")
    }

    func testLocalFilesAreNotCached() throws {
        let file = cacheDirectory.url.appendingPathComponent("local.csv")
        try Data(Self.sheet).write(to: file)
        _ = load([file.path])
        let entries = try FileManager.default.contentsOfDirectory(atPath: cacheDirectory.url.path)
        XCTAssertEqual(entries, ["local.csv"])
    }

    func testSkippedRowsAreReported() {
        behaviour.update { $0 = .serve(Array("civilian,spy\ncat,dog\nlonely\nx,x\na,b\nc,d\ne,f\ng,h\n".utf8)) }
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

    // MARK: Refusing what is not a bank

    private func cachedBytes(_ url: String) -> Data? {
        FileManager.default.contents(atPath: BankCache(directory: cacheDirectory.url).fileURL(for: url).path)
    }

    func testHTMLPageIsRefusedAndNeverReplacesTheCache() {
        let url = server.url("/sheet.csv")
        _ = load([url])
        let good = cachedBytes(url)
        XCTAssertNotNil(good)
        let signIn = Array(
            "<!DOCTYPE html><html><head></head><body><div class=\"x\">Sign in</div>to continue to Sheets</body></html>"
                .utf8)
        // By content (a login page served as text/plain) and by content type.
        for headers in [[("Content-Type", "text/plain")], [("Content-Type", "text/html; charset=UTF-8")]] {
            behaviour.update { $0 = .serveWith(signIn, headers) }
            let report = load([url])
            XCTAssertEqual(report.outcomes.map(\.origin), [.cache])
            XCTAssertEqual(words(report.pairs), Self.sheetWords)
            XCTAssertEqual(cachedBytes(url), good, "a refused fetch must not touch the cached copy")
            let warning = report.notes.first { $0.isWarning && $0.text.contains("web page (HTML)") }
            XCTAssertNotNil(warning, "\(report.lines)")
            XCTAssertTrue(warning?.text.contains("private") ?? false)
        }
    }

    func testTooFewPairsIsAnErrorAndKeepsTheCache() {
        let url = server.url("/sheet.csv")
        _ = load([url])
        let good = cachedBytes(url)
        behaviour.update { $0 = .serve(Array("civilian,spy\na,b\nc,d\n".utf8)) }
        let report = load([url])
        XCTAssertEqual(report.outcomes.map(\.origin), [.cache])
        XCTAssertEqual(report.outcomes.first?.failure, "only 2 pairs; a bank needs at least 5")
        XCTAssertEqual(cachedBytes(url), good)
        XCTAssertEqual(
            SourceFailure.tooFewPairs(found: 1, minimum: 5).description, "only 1 pair; a bank needs at least 5")
    }

    func testFailuresAreWarningsAndSuccessIsNot() {
        let good = load([server.url("/sheet.csv")])
        XCTAssertFalse(good.notes.contains(where: \.isWarning), "\(good.lines)")
        behaviour.update { $0 = .fail(503) }
        let cached = load([server.url("/sheet.csv")])
        XCTAssertTrue(cached.notes.contains { $0.isWarning && $0.text.contains("HTTP 503") }, "\(cached.lines)")
        let none = load([server.url("/other.csv")])
        XCTAssertTrue(none.notes.dropFirst().allSatisfy(\.isWarning), "\(none.lines)")
        XCTAssertEqual(none.notes.first, LoadNote("fetching \(server.url("/other.csv"))"))
    }

    // MARK: Which bank is in use

    func testInUseNamesTheSourceAndHowItWasObtained() throws {
        let url = server.url("/sheet.csv")
        XCTAssertEqual(load([url]).inUse, "\(url), fetched now, 5 pairs (3 zh-TW, 2 en)")
        behaviour.update { $0 = .fail(503) }
        let cached = load([url])
        let date = BankLoader.timestamp(try XCTUnwrap(cached.outcomes.first?.cachedAt))
        XCTAssertEqual(cached.inUse, "\(url), cached copy from \(date), 5 pairs (3 zh-TW, 2 en)")
        let failed = load([server.url("/gone.csv")], sheets: ["abc#x"])
        XCTAssertEqual(
            failed.inUse,
            "embedded fallback (\(server.url("/gone.csv")), sheet abc#x could not be used), "
                + BankLoader.summary(EmbeddedBank.pairs))
        XCTAssertEqual(load([]).inUse, "embedded, " + BankLoader.summary(EmbeddedBank.pairs))
    }

    // MARK: Time

    func testHangingSourcesAreFetchedAtTheSameTime() throws {
        let hanging = try (0..<3).map { _ in try TestHTTPServer { _ in .stall } }
        defer { hanging.forEach { $0.stop() } }
        let started = Date()
        let report = load(hanging.map { $0.url("/sheet.csv") } + [server.url("/sheet.csv")], timeout: 2)
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertEqual(report.outcomes.map(\.origin), [.failed, .failed, .failed, .fresh])
        XCTAssertEqual(report.outcomes.first?.failure, "timed out after 2 s")
        XCTAssertEqual(words(report.pairs), Self.sheetWords)
        // One after another they would take at least 6 s; together, one timeout and some scheduling.
        XCTAssertLessThan(elapsed, 5.5)
        XCTAssertTrue(hanging.allSatisfy { $0.requests == ["/sheet.csv"] })
    }

    func testCachedOnlyModeDoesNotTouchTheNetworkAndRefreshFillsTheCache() {
        let url = server.url("/sheet.csv")
        let first = BankLoader.load(sources: [url], sheets: [], cacheDirectory: cacheDirectory.url, mode: .cachedOnly)
        XCTAssertTrue(first.usedEmbedded)
        XCTAssertEqual(server.requests, [])
        let notes = BankLoader.refreshCache(sources: [url], sheets: [], cacheDirectory: cacheDirectory.url)
        XCTAssertEqual(notes.map(\.isWarning), [false])
        XCTAssertEqual(server.requests, ["/sheet.csv"])
        let second = BankLoader.load(sources: [url], sheets: [], cacheDirectory: cacheDirectory.url, mode: .cachedOnly)
        XCTAssertEqual(second.outcomes.map(\.origin), [.cache])
        XCTAssertEqual(words(second.pairs), Self.sheetWords)
        XCTAssertEqual(server.requests, ["/sheet.csv"])
        behaviour.update { $0 = .fail(500) }
        let failedRefresh = BankLoader.refreshCache(sources: [url], sheets: [], cacheDirectory: cacheDirectory.url)
        XCTAssertEqual(failedRefresh.map(\.isWarning), [true])
        XCTAssertEqual(
            BankLoader.load(sources: [url], sheets: [], cacheDirectory: cacheDirectory.url, mode: .cachedOnly)
                .pairs.count, 5)
    }
}
