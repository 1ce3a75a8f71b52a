import Foundation
import SpyProtocol
import XCTest

@testable import SpyBank

/// The size cap against bodies far larger than it, made on the fly by a server on 127.0.0.1: the fetch must stop
/// at the cap (or before the body), not after holding everything. Peak memory is measured by hand (docs/BANK.md);
/// these tests assert the refusal and where the transfer was cut.
final class FetchLimitTests: XCTestCase {
    static let cap = 8 << 20
    static let bigBody = 200_000_000
    static let chunkSize = 64 * 1024
    static let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: chunkSize)

    private var server: TestHTTPServer!
    /// Body bytes the server managed to hand to the kernel before the client went away.
    private let sent = Locked(0)

    override func setUpWithError() throws {
        let sent = self.sent
        let stream: @Sendable (Int) -> [UInt8]? = { index in
            guard index * Self.chunkSize < Self.bigBody else { return nil }
            sent.update { $0 += Self.chunkSize }
            return Self.chunk
        }
        server = try TestHTTPServer { path in
            switch path {
            case "/announced": return .streamed(length: Self.bigBody, next: stream)
            case "/unannounced": return .streamed(length: nil, next: stream)
            case "/bomb":
                return .response(
                    status: 200, headers: [("Content-Type", "text/csv"), ("Content-Encoding", "gzip")],
                    body: GzipBomb.body)
            default: return .response(status: 404, body: [])
            }
        }
    }

    override func tearDown() {
        server.stop()
    }

    /// Fetches `path` with the real cap, returning the result and the most bytes the progress callback reported.
    private func fetch(_ path: String, transport: Fetcher.Transport = .automatic) -> (Result<[UInt8], FetchError>, Int)
    {
        let most = Locked(0)
        let limits = FetchLimits(timeout: 60, maxBytes: Self.cap)
        let result = Fetcher.download(
            URL(string: server.url(path))!, limits: limits,
            progress: { received, _ in
                most.update { $0 = max($0, received) }
            }, transport: transport)
        return (result, most.value)
    }

    func testAnnouncedLengthOverTheCapIsRefusedBeforeTheBody() {
        let (result, received) = fetch("/announced")
        XCTAssertEqual(result, .failure(.tooLarge(limit: Self.cap)))
        XCTAssertEqual(received, 0, "no byte of the body may be taken")
    }

    func testUnannouncedBodyIsCutAtTheCapWhileItStreams() {
        let (result, received) = fetch("/unannounced")
        XCTAssertEqual(result, .failure(.tooLarge(limit: Self.cap)))
        XCTAssertLessThanOrEqual(received, Self.cap)
        XCTAssertGreaterThan(received, Self.cap / 2, "the body up to the cap is read")
        // The server stops once the client has closed; socket buffers and chunks in flight are a few MB.
        XCTAssertTrue(server.waitForStreamsToEnd(1, timeout: 60), "the server is still sending")
        XCTAssertLessThan(sent.value, Self.bigBody / 4, "the transfer must be cut, not read to the end")
    }

    func testGzipBombIsRefusedWithoutExpandingOverPlainHTTP() {
        let (result, received) = fetch("/bomb")
        XCTAssertEqual(
            result, .failure(.connection("127.0.0.1 sent a compressed (gzip) answer that was not asked for")))
        XCTAssertEqual(received, 0)
    }

    /// The HTTPS path (URLSession, which decompresses) against the same server.
    func testGzipBombIsCutAtTheCapAsItExpandsThroughURLSession() {
        XCTAssertLessThan(GzipBomb.body.count, Self.cap, "the compressed body itself is under the cap")
        let (result, received) = fetch("/bomb", transport: .urlSession)
        XCTAssertEqual(result, .failure(.tooLarge(limit: Self.cap)))
        XCTAssertLessThanOrEqual(received, Self.cap)
    }

    func testAnnouncedLengthOverTheCapIsRefusedBeforeTheBodyThroughURLSession() {
        let (result, received) = fetch("/announced", transport: .urlSession)
        XCTAssertEqual(result, .failure(.tooLarge(limit: Self.cap)))
        XCTAssertEqual(received, 0)
    }
}
