import Foundation
import SpyNet

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Bounds on one fetch.
public struct FetchLimits: Sendable, Equatable {
    /// Seconds the whole fetch may take, redirects included.
    public var timeout: TimeInterval
    /// Largest body accepted.
    public var maxBytes: Int
    /// Most redirects followed.
    public var maxRedirects: Int

    public init(timeout: TimeInterval = 10, maxBytes: Int = 8 << 20, maxRedirects: Int = 5) {
        self.timeout = timeout
        self.maxBytes = maxBytes
        self.maxRedirects = maxRedirects
    }
}

/// Why a fetch failed, each case with a one-line description for the host.
public enum FetchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server answered with a status other than 2xx.
    case httpStatus(Int)
    /// The fetch took longer than the timeout.
    case timedOut(TimeInterval)
    /// The body is larger than the cap.
    case tooLarge(limit: Int)
    /// More redirects than allowed.
    case tooManyRedirects(limit: Int)
    /// The host name does not resolve.
    case hostNotFound(String)
    /// The TLS handshake or certificate check failed.
    case tls(String)
    /// The connection could not be made or broke off, or the answer was not HTTP.
    case connection(String)
    /// A local file could not be read.
    case file(String)
    /// The server sent a web page (`Content-Type: text/html`) instead of a word list.
    case htmlPage
    /// A redirect pointed somewhere other than an http or https address.
    case redirectRefused(String)

    public var description: String {
        switch self {
        case .httpStatus(let status):
            return Self.statusText(status)
        case .timedOut(let seconds):
            return "timed out after \(ByteCountText.seconds(seconds))"
        case .tooLarge(let limit):
            return "larger than the \(ByteCountText.bytes(limit)) limit"
        case .tooManyRedirects(let limit):
            return "more than \(limit) redirects"
        case .hostNotFound(let host):
            return "DNS: host \(host) not found"
        case .tls(let reason):
            return "TLS: \(reason)"
        case .connection(let reason):
            return reason
        case .file(let reason):
            return reason
        case .htmlPage:
            return BankParseError.htmlPage.description
        case .redirectRefused(let location):
            return "refused a redirect to \(location) (only http and https addresses are followed)"
        }
    }
}

extension FetchError {
    /// Fixed wording (not the platform's) so log lines read the same everywhere, with a hint where one helps.
    static func statusText(_ status: Int) -> String {
        switch status {
        case 401, 403: return "HTTP \(status) Forbidden (is the sheet shared with \"anyone with the link\"?)"
        case 404: return "HTTP 404 Not Found"
        case 410: return "HTTP 410 Gone"
        case 429: return "HTTP 429 Too Many Requests"
        case 500: return "HTTP 500 Internal Server Error"
        case 502: return "HTTP 502 Bad Gateway"
        case 503: return "HTTP 503 Service Unavailable"
        case 504: return "HTTP 504 Gateway Timeout"
        default: return "HTTP \(status)"
        }
    }
}

/// Reads the bytes of a source, over HTTP(S) or from disk, within `FetchLimits`.
public enum Fetcher {
    /// Bytes received so far and the announced total, when the server gave one.
    public typealias Progress = @Sendable (_ received: Int, _ expected: Int?) -> Void

    /// Blocks the calling thread until the source is read or has failed; the daemon calls this once at start.
    public static func fetch(
        _ source: BankSource, limits: FetchLimits = FetchLimits(), progress: Progress? = nil
    ) -> Result<[UInt8], FetchError> {
        switch source.location {
        case .file(let path): return readFile(path, limits: limits)
        case .remote(let url): return download(url, limits: limits, progress: progress)
        }
    }

    /// A sheet the host names on the command line. Unlike the files `spyd` finds for itself (state, cache), it may
    /// be a pipe (`--bank <(curl …)`): it is read as it comes, up to the limit.
    static func readFile(_ path: String, limits: FetchLimits) -> Result<[UInt8], FetchError> {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            return .failure(.file("no such file: \(path)"))
        }
        if isDirectory.boolValue { return .failure(.file("is a directory: \(path)")) }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            return .failure(.file("cannot read \(path): permission denied"))
        }
        defer { try? handle.close() }
        do {
            let data = try handle.read(upToCount: limits.maxBytes + 1) ?? Data()
            if data.count > limits.maxBytes { return .failure(.tooLarge(limit: limits.maxBytes)) }
            return .success([UInt8](data))
        } catch {
            return .failure(.file("cannot read \(path): \(error.localizedDescription)"))
        }
    }

    /// Which code reads an http(s) address.
    enum Transport {
        /// `http://` through `PlainHTTPClient`, `https://` through URLSession.
        case automatic
        /// URLSession for both (tests use it to exercise the HTTPS path against a plain local server).
        case urlSession
    }

    static func download(
        _ url: URL, limits: FetchLimits, progress: Progress?, transport: Transport = .automatic
    ) -> Result<[UInt8], FetchError> {
        let deadline = SystemClock.monotonicMs() + Int64(limits.timeout * 1000)
        var current = url
        var redirects = 0
        while true {
            if transport == .automatic && current.scheme?.lowercased() == "http" {
                switch PlainHTTPClient.get(current, limits: limits, deadlineMs: deadline, progress: progress) {
                case .failure(let error): return .failure(error)
                case .success(.body(let bytes)): return .success(bytes)
                case .success(.redirect(let next)):
                    redirects += 1
                    guard redirects <= limits.maxRedirects else {
                        return .failure(.tooManyRedirects(limit: limits.maxRedirects))
                    }
                    current = next
                    continue
                }
            }
            var remaining = limits
            remaining.maxRedirects = limits.maxRedirects - redirects
            remaining.timeout = Double(deadline - SystemClock.monotonicMs()) / 1000
            guard remaining.timeout > 0 else { return .failure(.timedOut(limits.timeout)) }
            return downloadWithURLSession(current, limits: remaining, progress: progress).mapError { error in
                // Report the host's own timeout, not what was left of it after redirects.
                if case .timedOut = error { return .timedOut(limits.timeout) }
                if case .tooManyRedirects = error { return .tooManyRedirects(limit: limits.maxRedirects) }
                return error
            }
        }
    }

    static func downloadWithURLSession(_ url: URL, limits: FetchLimits, progress: Progress?) -> Result<
        [UInt8], FetchError
    > {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = limits.timeout
        configuration.timeoutIntervalForResource = limits.timeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        let delegate = DownloadDelegate(limits: limits, progress: progress)
        let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        var request = URLRequest(url: url, timeoutInterval: limits.timeout)
        request.setValue("text/csv, application/json;q=0.9, */*;q=0.5", forHTTPHeaderField: "Accept")
        // A sheet needs no compression; asking for none keeps an honest server from sending a body that expands.
        request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        let task = session.dataTask(with: request)
        task.resume()
        if delegate.finished.wait(timeout: .now() + limits.timeout) == .timedOut {
            delegate.fail(.timedOut(limits.timeout))
            task.cancel()
            // Cancellation completes promptly; the bound only guards against a stuck transfer thread.
            _ = delegate.finished.wait(timeout: .now() + 2)
        }
        session.finishTasksAndInvalidate()
        return delegate.result(host: url.host ?? url.absoluteString)
    }

    /// The location, shortened for a log line, when it names a scheme other than http or https; `nil` for an
    /// http(s) address or a relative one.
    static func refusedLocation(_ location: String) -> String? {
        let trimmed = location.trimmingCharacters(in: .whitespaces)
        guard let colon = trimmed.firstIndex(of: ":") else { return nil }
        let scheme = trimmed[..<colon]
        // A relative reference may hold a colon only after a "/", "?" or "#".
        guard let first = scheme.first, first.isASCII, first.isLetter,
            scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { return nil }
        if ["http", "https"].contains(scheme.lowercased()) { return nil }
        return String(trimmed.prefix(80))
    }

    /// `text/html` and `application/xhtml+xml`, whatever the parameters.
    static func isHTML(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let media = contentType.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        return media == "text/html" || media == "application/xhtml+xml"
    }

}

/// Collects one transfer. URLSession calls it on its own queue while `download` waits on `finished`.
private final class DownloadDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    /// Signalled once, when the task completes (successfully, with an error, or cancelled).
    let finished = DispatchSemaphore(value: 0)
    private let limits: FetchLimits
    private let progress: Fetcher.Progress?
    private let lock = NSLock()
    // Guarded by `lock`: written on the session's queue, read by the waiting thread after `finished`.
    private var body: [UInt8] = []
    private var expected: Int?
    private var failure: FetchError?
    private var transportError: URLError?
    private var redirects = 0

    init(limits: FetchLimits, progress: Fetcher.Progress?) {
        self.limits = limits
        self.progress = progress
        body.reserveCapacity(limits.maxBytes)
    }

    /// Records the first failure; later ones (the cancellation it causes) do not overwrite it.
    func fail(_ error: FetchError) {
        lock.withLock { if failure == nil { failure = error } }
    }

    func result(host: String) -> Result<[UInt8], FetchError> {
        lock.withLock {
            if let failure { return .failure(failure) }
            if let transportError { return .failure(Self.classify(transportError, host: host, limits: limits)) }
            return .success(body)
        }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        if let http = response as? HTTPURLResponse, !(200..<300).contains(http.statusCode) {
            // After a refused redirect the 3xx arrives here too; `fail` keeps the redirect reason recorded first.
            fail(.httpStatus(http.statusCode))
            completionHandler(.cancel)
            return
        }
        if let http = response as? HTTPURLResponse, Fetcher.isHTML(http.value(forHTTPHeaderField: "Content-Type")) {
            fail(.htmlPage)
            completionHandler(.cancel)
            return
        }
        // Refused before a byte of the body is read. With a Content-Encoding the length is the compressed size,
        // so a small announced length proves nothing: the decompressed bytes are counted as they arrive.
        let announced = response.expectedContentLength
        if announced > Int64(limits.maxBytes) {
            fail(.tooLarge(limit: limits.maxBytes))
            completionHandler(.cancel)
            return
        }
        lock.withLock { expected = announced >= 0 ? Int(announced) : nil }
        progress?(0, announced >= 0 ? Int(announced) : nil)
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        // Nothing past the cap is kept: the chunk that crosses it is dropped and the transfer cancelled, so the
        // memory held stays within the cap plus what the transport has in flight.
        let (received, total, overLimit) = lock.withLock {
            if failure != nil { return (body.count, expected, true) }
            if body.count + data.count > limits.maxBytes { return (body.count + data.count, expected, true) }
            body.append(contentsOf: data)
            return (body.count, expected, false)
        }
        if overLimit {
            fail(.tooLarge(limit: limits.maxBytes))
            dataTask.cancel()
            return
        }
        progress?(received, total)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        let count = lock.withLock {
            redirects += 1
            return redirects
        }
        if count > limits.maxRedirects {
            fail(.tooManyRedirects(limit: limits.maxRedirects))
            completionHandler(nil)
            task.cancel()
            return
        }
        // Foundation on Linux resolves `file:///etc/passwd` against the server as a path, so the scheme is read
        // from the Location header itself, before anything resolves it.
        let location = response.value(forHTTPHeaderField: "Location") ?? ""
        if let refused = Fetcher.refusedLocation(location) ?? Fetcher.refusedLocation(request.url?.absoluteString ?? "")
        {
            fail(.redirectRefused(refused))
            completionHandler(nil)
            task.cancel()
            return
        }
        completionHandler(request)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if let error {
            let urlError = error as? URLError ?? URLError(.unknown, userInfo: [NSUnderlyingErrorKey: error])
            lock.withLock { transportError = urlError }
        }
        finished.signal()
    }

    static func classify(_ error: URLError, host: String, limits: FetchLimits) -> FetchError {
        switch error.code {
        case .timedOut:
            return .timedOut(limits.timeout)
        case .cannotFindHost, .dnsLookupFailed:
            return .hostNotFound(host)
        case .cannotConnectToHost:
            return .connection("cannot connect to \(host) (connection refused or unreachable)")
        case .networkConnectionLost:
            return .connection("the connection to \(host) was lost")
        case .notConnectedToInternet:
            return .connection("no network connection")
        case .badServerResponse, .cannotParseResponse, .unsupportedURL:
            // Sources are http(s) only, so an "unsupported" answer is libcurl refusing a reply that is not HTTP.
            return .connection("\(host) did not answer with valid HTTP")
        case .httpTooManyRedirects, .redirectToNonExistentLocation:
            return .tooManyRedirects(limit: limits.maxRedirects)
        case .secureConnectionFailed, .serverCertificateHasBadDate, .serverCertificateUntrusted,
            .serverCertificateHasUnknownRoot, .serverCertificateNotYetValid, .clientCertificateRejected,
            .clientCertificateRequired:
            return .tls("secure connection to \(host) failed (\(error.localizedDescription))")
        case .dataLengthExceedsMaximum:
            return .tooLarge(limit: limits.maxBytes)
        default:
            return .connection("\(host): \(error.localizedDescription)")
        }
    }
}

/// Short human spellings of sizes and durations for log lines.
enum ByteCountText {
    static func bytes(_ count: Int) -> String {
        if count < 1024 { return "\(count) B" }
        if count < 1 << 20 { return String(format: "%.1f KiB", Double(count) / 1024) }
        return String(format: "%.1f MiB", Double(count) / Double(1 << 20))
    }

    static func seconds(_ value: TimeInterval) -> String {
        value == value.rounded() ? "\(Int(value)) s" : String(format: "%.1f s", value)
    }
}
