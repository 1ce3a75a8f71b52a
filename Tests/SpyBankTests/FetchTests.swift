import Foundation
import SpyProtocol
import XCTest

@testable import SpyBank

/// Fetching over real HTTP from a server on 127.0.0.1 started by the test.
final class FetchTests: XCTestCase {
    static let sheet = Array("civilian,spy,category\n牛奶,豆漿,飲料\ncoffee,tea,Drinks\n".utf8)

    private var server: TestHTTPServer!

    override func setUpWithError() throws {
        server = try TestHTTPServer { path in
            switch path {
            case "/sheet.csv":
                return .response(status: 200, headers: [("Content-Type", "text/csv")], body: FetchTests.sheet)
            case "/missing":
                return .response(status: 404, body: Array("not here".utf8))
            case "/broken":
                return .response(status: 500, body: Array("oops".utf8))
            case "/slow":
                return .stall
            case "/huge":
                return .response(status: 200, body: [UInt8](repeating: UInt8(ascii: "a"), count: 4096))
            case "/huge-unannounced":
                return .response(
                    status: 200, body: [UInt8](repeating: UInt8(ascii: "a"), count: 4096), announceLength: false)
            case "/garbage-protocol":
                return .raw([0x00, 0xFF, 0x13, 0x37] + Array("no http here\r\n\r\n".utf8))
            case "/to-file":
                return .response(status: 302, headers: [("Location", "file:///etc/hostname")], body: [])
            case "/login":
                return .response(
                    status: 200, headers: [("Content-Type", "text/html; charset=utf-8")],
                    body: Array("<html><head></head><body><div class=\"x\">Sign in</div></body></html>".utf8))
            case "/chunked":
                let sheet = FetchTests.sheet
                let half = sheet.count / 2
                var body: [UInt8] = Array("\(String(half, radix: 16))\r\n".utf8)
                body += sheet[..<half]
                body += Array("\r\n\(String(sheet.count - half, radix: 16));x=y\r\n".utf8)
                body += sheet[half...]
                body += Array("\r\n0\r\n\r\n".utf8)
                return .response(
                    status: 200, headers: [("Transfer-Encoding", "chunked")], body: body, announceLength: false)
            case "/garbage-body":
                return .response(status: 200, body: [0xC3, 0x28, 0xFF, 0x00, 0x80])
            default:
                if path.hasPrefix("/hop/"), let hop = Int(path.dropFirst(5)) {
                    let next = hop == 0 ? "/sheet.csv" : "/hop/\(hop - 1)"
                    return .response(status: 302, headers: [("Location", next)], body: [])
                }
                return .response(status: 404, body: [])
            }
        }
    }

    override func tearDown() {
        server.stop()
    }

    private func fetch(_ path: String, timeout: TimeInterval = 5, maxBytes: Int = 1 << 20) -> Result<
        [UInt8], FetchError
    > {
        let source = try! BankSource.parse(server.url(path)).get()
        return Fetcher.fetch(source, limits: FetchLimits(timeout: timeout, maxBytes: maxBytes))
    }

    private func failure(_ result: Result<[UInt8], FetchError>) -> FetchError? {
        if case .failure(let error) = result { return error }
        XCTFail("expected a failure")
        return nil
    }

    func testGoodSheetIsFetchedWithProgress() throws {
        let received = Locked<[Int]>([])
        let source = try BankSource.parse(server.url("/sheet.csv")).get()
        let result = Fetcher.fetch(source, limits: FetchLimits(timeout: 5)) { bytes, expected in
            XCTAssertEqual(expected, FetchTests.sheet.count)
            received.update { $0.append(bytes) }
        }
        XCTAssertEqual(try result.get(), FetchTests.sheet)
        XCTAssertEqual(received.value.last, FetchTests.sheet.count)
    }

    func testNotFoundAndServerErrorGiveTheStatus() {
        XCTAssertEqual(failure(fetch("/missing")), .httpStatus(404))
        XCTAssertEqual(failure(fetch("/broken")), .httpStatus(500))
        XCTAssertEqual(FetchError.httpStatus(404).description, "HTTP 404 Not Found")
    }

    func testSlowResponseTimesOut() {
        XCTAssertEqual(failure(fetch("/slow", timeout: 0.5)), .timedOut(0.5))
        XCTAssertEqual(FetchError.timedOut(0.5).description, "timed out after 0.5 s")
    }

    func testBodyOverTheCapIsRefusedWhetherAnnouncedOrNot() {
        XCTAssertEqual(failure(fetch("/huge", maxBytes: 1000)), .tooLarge(limit: 1000))
        XCTAssertEqual(failure(fetch("/huge-unannounced", maxBytes: 1000)), .tooLarge(limit: 1000))
        XCTAssertEqual(try fetch("/huge", maxBytes: 4096).get().count, 4096)
    }

    func testRedirectChainWithinTheLimitIsFollowed() {
        XCTAssertEqual(try fetch("/hop/4").get(), FetchTests.sheet)
        XCTAssertTrue(server.requests.contains("/hop/0"))
    }

    func testRedirectChainBeyondTheLimitFails() {
        XCTAssertEqual(failure(fetch("/hop/9")), .tooManyRedirects(limit: 5))
        XCTAssertFalse(server.requests.contains("/sheet.csv"))
    }

    func testRedirectToALocalFileIsRefusedWithTheReason() {
        XCTAssertEqual(failure(fetch("/to-file")), .redirectRefused("file:///etc/hostname"))
        XCTAssertEqual(
            FetchError.redirectRefused("file:///etc/hostname").description,
            "refused a redirect to file:///etc/hostname (only http and https addresses are followed)")
        XCTAssertFalse(server.requests.contains("/etc/hostname"), "the location must not become a request")
        // URLSession (the HTTPS path) resolves such a location against the server on Linux; it is refused too.
        let viaURLSession = Fetcher.download(
            URL(string: server.url("/to-file"))!, limits: FetchLimits(timeout: 5), progress: nil,
            transport: .urlSession)
        XCTAssertEqual(viaURLSession, .failure(.redirectRefused("file:///etc/hostname")))
        XCTAssertFalse(server.requests.contains("/etc/hostname"))
    }

    func testHTMLPageIsRefusedByItsContentType() {
        XCTAssertEqual(failure(fetch("/login")), .htmlPage)
        XCTAssertTrue(FetchError.htmlPage.description.contains("private"), FetchError.htmlPage.description)
        XCTAssertTrue(FetchError.htmlPage.description.contains("login"), FetchError.htmlPage.description)
    }

    func testChunkedBodyIsReadAndCapped() {
        XCTAssertEqual(try fetch("/chunked").get(), FetchTests.sheet)
        XCTAssertEqual(failure(fetch("/chunked", maxBytes: 20)), .tooLarge(limit: 20))
    }

    func testGarbageInsteadOfHTTPFailsWithAReason() {
        guard let error = failure(fetch("/garbage-protocol")) else { return }
        XCTAssertEqual(error, .connection("127.0.0.1 did not answer with valid HTTP"))
        XCTAssertFalse(error.description.contains("\n"))
    }

    func testGarbageBodyIsFetchedButNotParsed() throws {
        let source = try BankSource.parse(server.url("/garbage-body")).get()
        guard case .failure(.parse(.notText)) = BankLoader.fetchAndParse(source) else {
            return XCTFail("expected a parse failure")
        }
    }

    func testRefusedConnectionFails() throws {
        let closed = try TestHTTPServer { _ in .stall }
        let address = closed.url("/sheet.csv")
        closed.stop()
        let result = Fetcher.fetch(try BankSource.parse(address).get(), limits: FetchLimits(timeout: 5))
        guard case .failure(.connection(let reason)) = result else {
            return XCTFail("expected a connection failure, got \(result)")
        }
        XCTAssertTrue(reason.contains("127.0.0.1"), reason)
    }

    func testLocalFilesAreReadWithinTheCap() throws {
        let directory = try TemporaryDirectory()
        let path = directory.url.appendingPathComponent("bank.csv").path
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(FetchTests.sheet)))
        let source = try BankSource.parse(path).get()
        XCTAssertEqual(try Fetcher.fetch(source).get(), FetchTests.sheet)
        XCTAssertEqual(
            failure(Fetcher.fetch(source, limits: FetchLimits(maxBytes: 10))), .tooLarge(limit: 10))
        let missing = try BankSource.parse(directory.url.appendingPathComponent("nope.csv").path).get()
        guard case .file(let reason) = failure(Fetcher.fetch(missing)) else { return XCTFail("expected file error") }
        XCTAssertTrue(reason.hasPrefix("no such file"), reason)
        let folder = try BankSource.parse(directory.url.path).get()
        guard case .file(let folderReason) = failure(Fetcher.fetch(folder)) else {
            return XCTFail("expected a directory error")
        }
        XCTAssertTrue(folderReason.hasPrefix("is a directory"), folderReason)
    }
}
