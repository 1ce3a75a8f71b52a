import Testing

@testable import SpyWeb

/// Feeds `text` in pieces of `chunk` bytes (0: all at once) and returns the first outcome that is not `.needMore`.
func parse(_ bytes: [UInt8], chunk: Int = 0) -> HTTPRequestParser.Outcome {
    var parser = HTTPRequestParser()
    let size = chunk == 0 ? max(1, bytes.count) : chunk
    var start = 0
    while start < bytes.count {
        let outcome = parser.feed(bytes[start..<min(bytes.count, start + size)])
        if outcome != .needMore { return outcome }
        start += size
    }
    return parser.outcome
}

func parse(_ text: String, chunk: Int = 0) -> HTTPRequestParser.Outcome {
    parse(Array(text.utf8), chunk: chunk)
}

func status(_ outcome: HTTPRequestParser.Outcome) -> HTTPStatus? {
    if case .failed(let status, _) = outcome { return status }
    return nil
}

@Suite struct HTTPRequestParserTests {
    static let board = "GET /board?room=KFRW HTTP/1.1\r\nHost: 192.168.1.5:7777\r\nAccept: text/html\r\n\r\n"

    @Test(arguments: [0, 1, 2, 3, 7, 64])
    func aRequestParsesWhateverTheReadSizes(chunk: Int) throws {
        let outcome = parse(Self.board + "extra", chunk: chunk)
        guard case .complete(let request, let leftover) = outcome else {
            Issue.record("got \(outcome)")
            return
        }
        #expect(request.method == "GET")
        #expect(request.path == "/board")
        #expect(request.query == "room=KFRW")
        #expect(request.header("host") == "192.168.1.5:7777")
        #expect(request.header("ACCEPT") == "text/html")
        // Bytes after the head are kept for the next protocol, whichever read they came in.
        if chunk == 0 || chunk >= 64 { #expect(leftover == Array("extra".utf8)) }
    }

    @Test func bareLineFeedsAndHeadAreAccepted() {
        guard case .complete(let request, _) = parse("HEAD / HTTP/1.0\n\n") else {
            Issue.record("HEAD with bare LF refused")
            return
        }
        #expect(request.isHead)
    }

    @Test func anIncompleteHeadNeedsMore() {
        #expect(parse("GET / HTTP/1.1\r\nHost: x\r\n") == .needMore)
        #expect(parse("GET / HT") == .needMore)
    }

    @Test(arguments: [
        ("GARBAGE\r\n\r\n", HTTPStatus.badRequest),
        ("GET /\r\n\r\n", .badRequest),
        ("GET / HTTP/2.0\r\nHost: x\r\n\r\n", .badRequest),
        ("GET  / HTTP/1.1\r\nHost: x\r\n\r\n", .badRequest),
        ("GET http://evil/ HTTP/1.1\r\nHost: x\r\n\r\n", .badRequest),
        ("GET / HTTP/1.1\r\n\r\n", .badRequest),
        ("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", .badRequest),
        ("GET / HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n", .badRequest),
        ("GET / HTTP/1.1\r\nHost: x\r\nNoColon\r\n\r\n", .badRequest),
        ("GET / HTTP/1.1\r\nHost: x\r\n folded\r\n\r\n", .badRequest),
        ("GET / HTTP/1.1\r\nHost: x\r\nA: b\u{1}c\r\n\r\n", .badRequest),
        ("GET / HTTP/1.1\r\nHost: x\rY: z\r\n\r\n", .badRequest),
        ("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n", .badRequest),
        ("POST / HTTP/1.1\r\nHost: x\r\n\r\n", .methodNotAllowed),
        ("DELETE /ws HTTP/1.1\r\nHost: x\r\n\r\n", .methodNotAllowed),
        ("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello", .payloadTooLarge),
        ("GET / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n", .payloadTooLarge),
    ])
    func badRequestsGetTheirStatus(text: String, expected: HTTPStatus) {
        #expect(status(parse(text)) == expected, "\(text.debugDescription)")
        #expect(status(parse(text, chunk: 1)) == expected, "\(text.debugDescription) byte by byte")
    }

    @Test func aZeroContentLengthIsFine() {
        guard case .complete = parse("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n") else {
            Issue.record("refused")
            return
        }
    }

    @Test func theHeadIsCappedAt8KiBWithoutWaitingForItsEnd() {
        let longLine = "GET /" + String(repeating: "a", count: 9_000)
        #expect(status(parse(longLine)) == .headersTooLarge)
        #expect(status(parse(longLine, chunk: 1)) == .headersTooLarge)
        var headers = "GET / HTTP/1.1\r\nHost: x\r\n"
        while headers.utf8.count < 8_300 { headers += "X-Filler: \(String(repeating: "b", count: 100))\r\n" }
        #expect(status(parse(headers)) == .headersTooLarge)
        #expect(status(parse(headers, chunk: 5)) == .headersTooLarge)
        // Exactly at the cap is accepted.
        var exact = "GET / HTTP/1.1\r\nHost: x\r\nX-Pad: "
        exact += String(repeating: "c", count: HTTPRequestParser.maxHeadBytes - exact.utf8.count - 4) + "\r\n\r\n"
        #expect(exact.utf8.count == HTTPRequestParser.maxHeadBytes)
        guard case .complete = parse(exact) else {
            Issue.record("a head of exactly 8 KiB refused")
            return
        }
    }

    @Test func theOutcomeStaysOnceDecided() {
        var parser = HTTPRequestParser()
        let first = parser.feed(Array("POST / HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        #expect(status(first) == .methodNotAllowed)
        #expect(parser.feed(Array("GET / HTTP/1.1\r\n\r\n".utf8)) == first)
    }

    @Test func headerTokensSplitLists() {
        guard
            case .complete(let request, _) = parse(
                "GET /ws HTTP/1.1\r\nHost: x\r\nConnection: keep-alive, Upgrade\r\nconnection:  close \r\n\r\n")
        else {
            Issue.record("refused")
            return
        }
        #expect(request.headerTokens("Connection") == ["keep-alive", "Upgrade", "close"])
    }
}

@Suite struct HTTPHeaderLinesTests {
    static func head(lines: Int) -> [UInt8] {
        Array(("GET / HTTP/1.1\r\nHost: h\r\n" + String(repeating: "a:\r\n", count: lines - 1) + "\r\n").utf8)
    }

    /// Parsing N header lines moves each header a bounded number of times (the list grows in place), not once
    /// per later line: counted, not timed.
    @Test func parsingHeaderLinesIsLinear() throws {
        for lines in [10, 50, 100] {
            var parser = HTTPRequestParser()
            guard case .complete(let request, _) = parser.feed(Self.head(lines: lines)) else {
                Issue.record("\(lines) header lines refused: \(parser.outcome)")
                continue
            }
            #expect(request.headers.count == lines)
            #expect(parser.headersMoved <= 2 * lines, "\(parser.headersMoved) moves for \(lines) lines")
        }
    }

    @Test func moreThanAHundredHeaderLinesAre431() {
        #expect(status(parse(Self.head(lines: 101))) == .headersTooLarge)
        #expect(status(parse(Self.head(lines: 101), chunk: 5)) == .headersTooLarge)
        // Refused at the 101st line, before the rest of the head arrives.
        #expect(status(parse(Array(Self.head(lines: 2_700).prefix(16 + 9 + 4 * 100)))) == .headersTooLarge)
    }

    @Test func aSecondContentLengthIs400EvenWhenTheFirstIsZero() {
        let request = "GET / HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\nContent-Length: 5\r\n\r\n"
        #expect(status(parse(request)) == .badRequest)
        let twice = "GET / HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\ncontent-length: 0\r\n\r\n"
        #expect(status(parse(twice)) == .badRequest)
    }
}
