import Foundation
import SpyProtocol
import Testing

/// `ClientMessage.read(from:)` (the host's byte reader) against `WireCodec.decode` (Foundation's `JSONDecoder`, the
/// reference): the same message, or the same error code and detail, except where the reader is stricter on purpose.
enum ReaderDifferential {
    static func reference(_ payload: [UInt8]) -> Result<ClientMessage, MessageError> {
        Result { () throws(MessageError) in try WireCodec.decode(ClientMessage.self, from: payload) }
    }

    static func candidate(_ payload: [UInt8]) -> Result<ClientMessage, MessageError> {
        Result { () throws(MessageError) in try ClientMessage.read(from: payload) }
    }

    /// Payloads `JSONDecoder` reads (or classifies differently) although they are not strict UTF-8 JSON: a byte-order
    /// mark, a NUL byte (UTF-16 or UTF-32 text), invalid UTF-8 inside a string it skips, text `JSONSerialization`
    /// refuses in a field it skips (`01`, `"\x"`, a lone surrogate, a raw control character), or a trailing comma.
    static func isNotStrictJSON(_ payload: [UInt8]) -> Bool {
        if payload.starts(with: [0xEF, 0xBB, 0xBF]) || payload.starts(with: [0xFE, 0xFF])
            || payload.starts(with: [0xFF, 0xFE]) || payload.contains(0)
        {
            return true
        }
        guard let text = String(validating: payload, as: UTF8.self) else { return true }
        if (try? JSONSerialization.jsonObject(with: Data(payload))) == nil { return true }
        return text.range(of: #",[ \t\r\n]*[\]}]"#, options: .regularExpression) != nil
    }

    /// Whether the first `type` key of the object is not a string while a later one is: `JSONDecoder` reports the
    /// first as a bad field, `JSONSerialization` (which it asks next) sees the last; the reader takes the first
    /// occurrence of every key, `type` included, so it is a `bad_frame`.
    static func hasDuplicateType(_ payload: [UInt8]) -> Bool {
        String(decoding: payload, as: UTF8.self).components(separatedBy: #""type""#).count > 2
    }

    /// Whether the reader's refusal may be that of an integer written with a fraction or an exponent.
    static func isIntegerRefusal(_ error: MessageError, _ payload: [UInt8]) -> Bool {
        error.code == .badMessage && error.detail.hasPrefix("bad value for field \"") && hasNonIntegerNumber(payload)
    }

    /// Whether a number outside the payload's strings has a fraction or an exponent.
    static func hasNonIntegerNumber(_ payload: [UInt8]) -> Bool {
        var inString = false
        var escaped = false
        var inNumber = false
        for byte in payload {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"): inNumber = true
            case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): if inNumber { return true }
            case UInt8(ascii: "+"): break
            default: inNumber = false
            }
        }
        return false
    }

    /// Describes how the two disagree, or `nil` when they agree (or differ only as documented).
    static func disagreement(_ payload: [UInt8]) -> String? {
        let expected = reference(payload)
        let actual = candidate(payload)
        switch (expected, actual) {
        case (.success(let want), .success(let got)):
            return want == got ? nil : "decoded \(got), JSONDecoder \(want)"
        case (.failure(let want), .failure(let got)):
            if want == got { return nil }
            if want.code == got.code, want.detail == #"bad value for field """#,
                got.detail.hasPrefix("bad value for field \"")
            {
                return nil  // JSONDecoder names no field for a number that does not fit; the reader does.
            }
            if got.code == .badFrame, isNotStrictJSON(payload) || hasDuplicateType(payload) { return nil }
            if want.code == .badMessage, isIntegerRefusal(got, payload) {
                return nil  // The reader stops at an integer written as `1.0`, before JSONDecoder's problem.
            }
            return "failed with \(got), JSONDecoder with \(want)"
        case (.success(let want), .failure(let got)):
            if got.code == .badFrame, isNotStrictJSON(payload) { return nil }
            if isIntegerRefusal(got, payload) {
                return nil  // JSONDecoder reads `1.0` or `1e2` as an integer; the protocol does not.
            }
            return "failed with \(got), JSONDecoder decoded \(want)"
        case (.failure(let want), .success(let got)):
            return "decoded \(got), JSONDecoder failed with \(want)"
        }
    }

    static func text(_ payload: [UInt8]) -> String {
        String(decoding: payload.prefix(200), as: UTF8.self).debugDescription
    }
}

struct ClientMessageReaderTests {
    @Test func everyDocumentedClientExampleDecodesTheSame() throws {
        let examples = ProtocolDocTests.blocks(of: try ProtocolDocTests.document()).filter { $0.info == "json client" }
        #expect(examples.count >= ClientMessage.allTypes.count)
        var transcriptMoves = 0
        for example in examples {
            let payload = Array(example.lines.joined(separator: "\n").utf8)
            #expect(ReaderDifferential.disagreement(payload) == nil, "example at line \(example.startLine)")
            #expect(throws: Never.self) { try ClientMessage.read(from: payload) }
        }
        for frame in try ProtocolDocTests.transcript(try ProtocolDocTests.document()) where frame.fromClient {
            transcriptMoves += 1
            let payload = Array(frame.json.utf8)
            #expect(ReaderDifferential.disagreement(payload) == nil, "transcript line \(frame.line)")
        }
        #expect(transcriptMoves > 0)
    }

    @Test(arguments: MessageSamples.client)
    func samplesRoundTrip(message: ClientMessage) throws {
        #expect(try ClientMessage.read(from: WireCodec.encodePayload(message)) == message)
    }

    /// The malformed and edge cases the codec tests use, each with JSONDecoder's verdict.
    @Test(arguments: ReaderCorpus.fixedCases)
    func fixedCaseMatchesJSONDecoder(text: String) {
        #expect(ReaderDifferential.disagreement(Array(text.utf8)) == nil, "\(text.prefix(80).debugDescription)")
    }

    /// Stricter than JSONDecoder on purpose: an integer is written without a fraction or an exponent, as
    /// docs/PROTOCOL.md says, so `1.0` and `1e2` are bad values like `1.5` (JSONDecoder reads them as 1 and 100, and
    /// rounds `59999999999999989.99999`), and the id echoed is always the one sent.
    @Test func integersWithAFractionOrAnExponentAreRefused() throws {
        let document = try ProtocolDocTests.document()
        #expect(document.contains("Integers are JSON numbers without fraction or exponent"))
        for number in [
            "1.0", "1e2", "1E2", "1.5", "-0.0", "7e0", "10e-1", "59999999999999989.99999", "9007199254740991.0",
            "-9007199254740993.0",
        ] {
            let payload = Array(#"{"type":"ping","id":\#(number)}"#.utf8)
            #expect(
                ReaderDifferential.candidate(payload)
                    == .failure(MessageError(.badMessage, #"bad value for field "id""#)),
                "\(number)")
            #expect(ReaderDifferential.disagreement(payload) == nil, "\(number)")
        }
        let settings = Array(#"{"type":"settings","settings":{"maxPlayers":6.0}}"#.utf8)
        #expect(
            ReaderDifferential.candidate(settings)
                == .failure(MessageError(.badMessage, #"bad value for field "settings.maxPlayers""#)))
        for (number, value) in [("9007199254740991", 9_007_199_254_740_991), ("-0", 0), ("7", 7)] {
            let payload = Array(#"{"type":"ping","id":\#(number)}"#.utf8)
            #expect(ReaderDifferential.candidate(payload) == .success(.ping(.init(id: value))), "\(number)")
        }
        // A fraction in a field nobody reads is no integer's business.
        let ignored = Array(#"{"type":"ping","id":7,"extra":1.5e3}"#.utf8)
        #expect(ReaderDifferential.candidate(ignored) == .success(.ping(.init(id: 7))))
    }

    @Test func invalidUTF8MatchesJSONDecoder() {
        for payload in ReaderCorpus.invalidUTF8 {
            #expect(ReaderDifferential.disagreement(payload) == nil, "\(payload)")
            #expect((try? ClientMessage.read(from: payload)) == nil)
        }
    }

    /// Seeded random messages, then mutations of them: the two decoders agree on every one.
    @Test func randomCorpusMatchesJSONDecoder() {
        var generator = SplitMix64(seed: 16)
        var outcomes: [String: Int] = [:]
        var failures = 0
        for round in 0..<20_000 {
            var payload = ReaderCorpus.randomMessage(using: &generator)
            if round % 3 != 0 { payload = ReaderCorpus.mutate(payload, using: &generator) }
            switch ReaderDifferential.candidate(payload) {
            case .success(let message): outcomes[message.type, default: 0] += 1
            case .failure(let error): outcomes[error.code.rawValue, default: 0] += 1
            }
            if let problem = ReaderDifferential.disagreement(payload) {
                failures += 1
                if failures <= 20 { Issue.record("\(ReaderDifferential.text(payload)): \(problem)") }
            }
        }
        #expect(failures == 0)
        // The corpus reaches every message type and every decoding error.
        for key in ClientMessage.allTypes + ["bad_frame", "unknown_type", "bad_message"] {
            #expect(outcomes[key, default: 0] > 20, "\(key): \(outcomes)")
        }
    }

    @Test func nestingLimitIsFoundations() {
        for depth in [510, 511, 512, 513] {
            let text =
                #"{"type":"pass","x":"# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
                + "}"
            let payload = Array(text.utf8)
            #expect(ReaderDifferential.disagreement(payload) == nil, "depth \(depth)")
            let accepted = (try? ClientMessage.read(from: payload)) != nil
            #expect(accepted == (depth + 1 <= 512), "depth \(depth)")
        }
    }

    /// Where the reader is stricter than JSONDecoder on purpose: every byte must be UTF-8 JSON, even in a field
    /// nobody reads, and the first `type` decides.
    @Test(arguments: [
        #"{"type":"pass","x":01}"#, #"{"type":"pass","x":1.}"#, #"{"type":"pass","x":-}"#,
        #"{"type":"pass","x":"\x"}"#, #"{"type":"pass","x":"\ud800"}"#, #"{"type":"pass","x":"\udc00"}"#,
        "{\"type\":\"pass\",\"x\":\"\u{1}\"}", #"{"type":"pass","x":1,}"#, #"{"type":"pass","x":[1,]}"#,
        "\u{FEFF}{\"type\":\"pass\"}", #"{"type":5,"type":"pass"}"#, #"{"type":"pass","x":1e400}"#,
    ])
    func stricterThanJSONDecoder(text: String) {
        let payload = Array(text.utf8)
        guard case .failure(let error) = ReaderDifferential.candidate(payload) else {
            Issue.record("accepted \(text.debugDescription)")
            return
        }
        #expect(error.code == .badFrame)
        #expect(ReaderDifferential.disagreement(payload) == nil)
    }

    @Test func invalidUTF8InAnIgnoredStringIsABadFrame() {
        let payload = Array(#"{"type":"pass","x":""#.utf8) + [0xFF] + Array(#""}"#.utf8)
        #expect(
            ReaderDifferential.candidate(payload) == .failure(MessageError(.badFrame, "payload is not valid UTF-8")))
    }

    @Test func detailsNameTheField() {
        let cases: [(String, MessageError)] = [
            (#"{"type":"vote"}"#, MessageError(.badMessage, "missing field \"target\"")),
            (
                #"{"type":"settings","settings":{"spies":"two"}}"#,
                MessageError(.badMessage, "wrong type for field \"settings.spies\"")
            ),
            (
                #"{"type":"settings","settings":{"categories":["a",null]}}"#,
                MessageError(.badMessage, "null for field \"settings.categories.1\"")
            ),
            (
                #"{"type":"settings","settings":{"maxPlayers":1.5}}"#,
                MessageError(.badMessage, "bad value for field \"settings.maxPlayers\"")
            ),
            (#"{"type":"ping","id":1e400}"#, MessageError(.badFrame, "payload is not JSON")),
            (#"[{"type":"pass"}]"#, MessageError(.badFrame, "payload is not a JSON object")),
            (#"{"type":null}"#, MessageError(.badFrame, "the object has no string \"type\" field")),
        ]
        for (text, error) in cases {
            #expect(ReaderDifferential.candidate(Array(text.utf8)) == .failure(error), "\(text)")
        }
    }

    @Test func escapesAndSurrogatePairsDecode() throws {
        let text = #"{"t\u0079pe":"clue","text":"\u8a5e\ud83d\ude00\"\\\/\b\f\n\r\t\u0000"}"#
        #expect(try ClientMessage.read(from: Array(text.utf8)) == .clue(.init(text: "詞😀\"\\/\u{8}\u{C}\n\r\t\u{0}")))
        #expect(ReaderDifferential.disagreement(Array(text.utf8)) == nil)
    }
}
