import Foundation
import SpyNet

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A small HTTP/1.1 client for `http://` sources, over SpyNet's sockets. Foundation's URLSession on Linux reads
/// ahead of its delegate without limit (a 200 MB answer is held in memory before the delegate can cancel it), so
/// plain HTTP is read here instead, where the cap is checked on every read: a `Content-Length` over the cap is
/// refused before the body, a body is cut the moment it passes the cap, and compressed answers are not asked for
/// and refused, so nothing can expand. HTTPS still goes through URLSession.
enum PlainHTTPClient {
    /// What one request ended with.
    enum Outcome {
        /// The body of a 2xx answer.
        case body([UInt8])
        /// A redirect to follow (already checked to be http or https).
        case redirect(URL)
    }

    /// Longest response head accepted.
    static let maxHeadBytes = 64 * 1024

    /// Performs one GET of `url` (scheme http) within `deadlineMs` (monotonic) and `limits.maxBytes`.
    static func get(
        _ url: URL, limits: FetchLimits, deadlineMs: Int64, progress: Fetcher.Progress?
    ) -> Result<Outcome, FetchError> {
        guard let host = url.host, !host.isEmpty else { return .failure(.connection("no host in \(url)")) }
        let port = UInt16(clamping: url.port ?? 80)
        let remaining = deadlineMs - SystemClock.monotonicMs()
        guard remaining > 0 else { return .failure(.timedOut(limits.timeout)) }
        let socket: Socket
        do {
            socket = try Socket.connect(host: host, port: port, timeoutMs: Int(remaining))
        } catch {
            if error.operation == "getaddrinfo" { return .failure(.hostNotFound(host)) }
            if error.code == ETIMEDOUT { return .failure(.timedOut(limits.timeout)) }
            return .failure(.connection("cannot connect to \(host) (connection refused or unreachable)"))
        }
        defer { socket.close() }
        var connection = Reader(socket: socket, deadlineMs: deadlineMs, limits: limits, host: host)
        let request = requestHead(url, host: host, port: url.port)
        if let failure = connection.send(Array(request.utf8)) { return .failure(failure) }
        return connection.response(from: url, progress: progress)
    }

    static func requestHead(_ url: URL, host: String, port: Int?) -> String {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        var target = components?.percentEncodedPath ?? "/"
        if target.isEmpty { target = "/" }
        if let query = components?.percentEncodedQuery { target += "?" + query }
        let hostField = (host.contains(":") ? "[\(host)]" : host) + (port.map { ":\($0)" } ?? "")
        return "GET \(target) HTTP/1.1\r\nHost: \(hostField)\r\nUser-Agent: spyd\r\n"
            + "Accept: text/csv, application/json;q=0.9, */*;q=0.5\r\nAccept-Encoding: identity\r\n"
            + "Connection: close\r\n\r\n"
    }

    /// Reads from one connection, never holding more than the head limit plus the body cap plus one read.
    struct Reader {
        let socket: Socket
        let deadlineMs: Int64
        let limits: FetchLimits
        let host: String
        /// Bytes read but not yet consumed.
        var pending: [UInt8] = []
        var ended = false

        init(socket: Socket, deadlineMs: Int64, limits: FetchLimits, host: String) {
            self.socket = socket
            self.deadlineMs = deadlineMs
            self.limits = limits
            self.host = host
        }

        func send(_ bytes: [UInt8]) -> FetchError? {
            var offset = 0
            while offset < bytes.count {
                let result: WriteResult
                do {
                    result = try bytes.withUnsafeBytes { raw throws(SocketError) in
                        try socket.write(UnsafeRawBufferPointer(rebasing: raw[offset...]))
                    }
                } catch {
                    return .connection("the connection to \(host) was lost")
                }
                switch result {
                case .wrote(let count): offset += count
                case .wouldBlock: if let failure = wait(for: POLLOUT) { return failure }
                }
            }
            return nil
        }

        func wait(for events: Int32) -> FetchError? {
            while true {
                let remaining = deadlineMs - SystemClock.monotonicMs()
                guard remaining > 0 else { return .timedOut(limits.timeout) }
                var entry = pollfd(fd: socket.fd, events: Int16(events), revents: 0)
                let ready = poll(&entry, 1, Int32(clamping: remaining))
                if ready > 0 { return nil }
                if ready < 0 && errno != EINTR { return .connection("the connection to \(host) was lost") }
            }
        }

        /// Reads one more piece into `pending`; false at the end of the stream.
        mutating func fill() -> Result<Bool, FetchError> {
            if ended { return .success(false) }
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let result: ReadResult
                do {
                    result = try buffer.withUnsafeMutableBytes { raw throws(SocketError) in try socket.read(into: raw) }
                } catch {
                    return .failure(.connection("the connection to \(host) was lost"))
                }
                switch result {
                case .bytes(let count):
                    pending += buffer[..<count]
                    return .success(true)
                case .endOfStream:
                    ended = true
                    return .success(false)
                case .wouldBlock:
                    if let failure = wait(for: POLLIN) { return .failure(failure) }
                }
            }
        }

        mutating func response(from url: URL, progress: Fetcher.Progress?) -> Result<Outcome, FetchError> {
            let invalid = FetchError.connection("\(host) did not answer with valid HTTP")
            var headEnd: Int?
            while headEnd == nil {
                headEnd = Self.endOfHead(pending)
                if headEnd != nil { break }
                guard pending.count <= maxHeadBytes else { return .failure(invalid) }
                switch fill() {
                case .failure(let error): return .failure(error)
                case .success(false):
                    return .failure(
                        pending.isEmpty ? .connection("\(host) closed the connection without answering") : invalid)
                case .success(true): continue
                }
            }
            guard let headEnd, let head = String(validating: pending[..<headEnd], as: UTF8.self) else {
                return .failure(invalid)
            }
            pending.removeFirst(headEnd + 4)
            let lines = head.components(separatedBy: "\r\n")
            let statusParts = lines[0].split(separator: " ", maxSplits: 2)
            guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."), let status = Int(statusParts[1]),
                (100...599).contains(status)
            else { return .failure(invalid) }
            var fields: [String: String] = [:]
            for line in lines.dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { return .failure(invalid) }
                let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
                let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                fields[name] = fields[name].map { $0 + ", " + value } ?? value
            }
            if [301, 302, 303, 307, 308].contains(status), let location = fields["location"] {
                if let refused = Fetcher.refusedLocation(location) { return .failure(.redirectRefused(refused)) }
                guard let next = URL(string: location, relativeTo: url)?.absoluteURL,
                    ["http", "https"].contains(next.scheme?.lowercased() ?? "")
                else { return .failure(.redirectRefused(String(location.prefix(80)))) }
                return .success(.redirect(next))
            }
            guard (200..<300).contains(status) else { return .failure(.httpStatus(status)) }
            if Fetcher.isHTML(fields["content-type"]) { return .failure(.htmlPage) }
            if let encoding = fields["content-encoding"], encoding.lowercased() != "identity" {
                // Never asked for; refusing it means nothing can expand past the cap.
                return .failure(.connection("\(host) sent a compressed (\(encoding)) answer that was not asked for"))
            }
            let chunked = fields["transfer-encoding"]?.lowercased().contains("chunked") ?? false
            var length: Int?
            if !chunked, let text = fields["content-length"] {
                guard let value = Int(text), value >= 0 else { return .failure(invalid) }
                guard value <= limits.maxBytes else { return .failure(.tooLarge(limit: limits.maxBytes)) }
                length = value
            }
            progress?(0, length)
            let body = chunked ? readChunked(progress: progress) : readPlain(length: length, progress: progress)
            return body.map(Outcome.body)
        }

        mutating func readPlain(length: Int?, progress: Fetcher.Progress?) -> Result<[UInt8], FetchError> {
            var body: [UInt8] = []
            // Reserved, not touched: pages count only once written, and the array never doubles past the cap.
            body.reserveCapacity(min(length ?? limits.maxBytes, limits.maxBytes))
            while true {
                if !pending.isEmpty {
                    guard body.count + pending.count <= limits.maxBytes else {
                        return .failure(.tooLarge(limit: limits.maxBytes))
                    }
                    body += pending
                    pending.removeAll(keepingCapacity: true)
                    progress?(body.count, length)
                }
                if let length, body.count >= length { return .success(Array(body.prefix(length))) }
                switch fill() {
                case .failure(let error): return .failure(error)
                case .success(true): continue
                case .success(false):
                    if let length, body.count < length {
                        return .failure(.connection("the connection to \(host) was lost"))
                    }
                    return .success(body)
                }
            }
        }

        mutating func readChunked(progress: Fetcher.Progress?) -> Result<[UInt8], FetchError> {
            let invalid = FetchError.connection("\(host) did not answer with valid HTTP")
            var body: [UInt8] = []
            body.reserveCapacity(limits.maxBytes)
            while true {
                guard case .success(let sizeLine) = line() else { return .failure(invalid) }
                let hex = sizeLine.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
                guard !hex.isEmpty, hex.count <= 15, let size = Int(hex, radix: 16) else { return .failure(invalid) }
                if size == 0 { return .success(body) }
                guard body.count + size <= limits.maxBytes else { return .failure(.tooLarge(limit: limits.maxBytes)) }
                var left = size
                while left > 0 {
                    if pending.isEmpty {
                        switch fill() {
                        case .failure(let error): return .failure(error)
                        case .success(false): return .failure(.connection("the connection to \(host) was lost"))
                        case .success(true): break
                        }
                    }
                    let take = min(left, pending.count)
                    body += pending[..<take]
                    pending.removeFirst(take)
                    left -= take
                    progress?(body.count, nil)
                }
                guard case .success(let empty) = line(), empty.isEmpty else { return .failure(invalid) }
            }
        }

        /// One CRLF-terminated line of at most 1 KiB, without its end.
        mutating func line() -> Result<String, FetchError> {
            while true {
                if let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    var bytes = Array(pending[..<end])
                    pending.removeFirst(end + 1)
                    if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
                    return .success(String(decoding: bytes, as: UTF8.self))
                }
                guard pending.count <= 1024 else { return .failure(.connection("\(host) sent an over-long line")) }
                switch fill() {
                case .failure(let error): return .failure(error)
                case .success(false): return .failure(.connection("the connection to \(host) was lost"))
                case .success(true): continue
                }
            }
        }

        static func endOfHead(_ bytes: [UInt8]) -> Int? {
            guard bytes.count >= 4 else { return nil }
            for index in 0...(bytes.count - 4)
            where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
                return index
            }
            return nil
        }
    }
}
