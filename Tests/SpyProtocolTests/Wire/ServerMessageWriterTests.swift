import Foundation
import Testing

@testable import SpyProtocol

/// The host's hand-written server message JSON (`WireCodec.encodePayload(_: ServerMessage)`) against the references:
/// the same bytes as `Encodable` through `StreamingJSONEncoder`, the same message back through `JSONDecoder`, and
/// the same message as Foundation's `JSONEncoder` text reads back as.
enum WriterDifferential {
    /// Describes how the writer's output differs from the references, or `nil` when it does not.
    static func disagreement(_ message: ServerMessage) -> String? {
        let written = WireCodec.encodePayload(message)
        guard let streamed = try? StreamingJSONEncoder.encode(message) else { return "the streaming encoder failed" }
        if written != streamed {
            return "wrote \(text(written)), the streaming encoder \(text(streamed))"
        }
        guard let decoded = try? JSONDecoder().decode(ServerMessage.self, from: Data(written)) else {
            return "JSONDecoder cannot read \(text(written))"
        }
        if decoded != message { return "read back as \(decoded)" }
        // Foundation's JSONEncoder writes other bytes (keys in another order, `\/`, raw DEL): both texts are read
        // back and the values compared. Through JSONDecoder, not JSONSerialization, which on Linux drops a U+FEFF that
        // starts a run of text right after an escape, so it reads two valid spellings of one string differently.
        guard let reference = try? JSONEncoder().encode(message) else { return "JSONEncoder failed" }
        guard let fromReference = try? JSONDecoder().decode(ServerMessage.self, from: reference) else {
            return "JSONDecoder cannot read JSONEncoder's \(String(decoding: reference, as: UTF8.self))"
        }
        if fromReference != decoded { return "JSONEncoder's text reads as \(fromReference), ours as \(decoded)" }
        return nil
    }

    static func text(_ bytes: [UInt8]) -> String {
        String(decoding: bytes.prefix(300), as: UTF8.self).debugDescription
    }
}

@Suite struct ServerMessageWriterTests {
    /// Every type with every optional field present, on top of the shared samples (which leave most of them out).
    static let everyFieldPresent: [ServerMessage] = [
        .welcome(
            .init(
                protocol: 1, you: "p1", token: "t", room: "QXWZ", resumed: true,
                categories: [
                    BankCategory(name: "食物", language: .zhTW, pairs: 120, partyPairs: 3),
                    BankCategory(name: "Animals", language: .en, pairs: 80, partyPairs: 0),
                ], watch: false)),
        .welcome(.init(you: "", token: "", room: "QXWZ", categories: [], watch: true)),
        .room(
            RoomView(
                room: "QXWZ", phase: .voting, game: 3, round: 2,
                settings: GameSettings(
                    maxPlayers: 12, spies: 2, blank: true, clueMode: .typed, turnSeconds: 30, voteSeconds: 45,
                    tieRule: .random, revealOut: false, blankRule: .guess, language: .zhTW, allowParty: true,
                    categories: ["食物", "Animals"], spyWin: .parity),
                seats: MessageSamples.seats, turn: "p2", pk: ["p1", "p2"],
                clues: [ClueView(player: "p1", round: 1, text: "紅色 \"的\" 🍎"), ClueView(player: "p2", round: 1)],
                timerMs: 12_000, winner: .spies, timerKind: .vote)),
        .turn(.init(round: 3, player: "p1", pk: true, timerMs: 5_000, timerKind: .absent)),
        .voting(.init(round: 1, candidates: ["p1"], voters: ["p2"], pk: false, timerMs: 1, ballot: "p1")),
        .voteProgress(.init(voted: [], waiting: ["p1"], abstaining: ["p2", "p3"])),
        .voteResult(
            .init(
                round: 4, tally: [TallyEntry(player: "p1", voters: [])], abstained: [], outcome: .out, out: "p1",
                identity: .blank, tied: ["p1", "p2"])),
        .guessing(.init(player: "p3", timerMs: 20_000, timerKind: .turn)),
        .error(.init(code: .tooFewPlayers, message: "需要更多玩家", need: 4, have: 3)),
        .ping(.init(id: Int.min)),
        .pong(.init(id: Int.max)),
    ]

    @Test func everySampleIsWrittenAsTheReferencesWriteIt() {
        let samples = MessageSamples.server + Self.everyFieldPresent
        #expect(Set(samples.map(\.type)) == Set(ServerMessage.allTypes))
        for message in samples {
            #expect(WriterDifferential.disagreement(message) == nil, "\(message)")
        }
    }

    @Test func everyDocumentedServerExampleIsWrittenTheSame() throws {
        let document = try ProtocolDocTests.document()
        var checked = 0
        for example in ProtocolDocTests.blocks(of: document) where example.info == "json server" {
            let json = example.lines.joined(separator: "\n")
            let message = try JSONDecoder().decode(ServerMessage.self, from: Data(json.utf8))
            #expect(WriterDifferential.disagreement(message) == nil, "example at line \(example.startLine)")
            checked += 1
        }
        for frame in try ProtocolDocTests.transcript(document) where !frame.fromClient {
            let message = try JSONDecoder().decode(ServerMessage.self, from: Data(frame.json.utf8))
            #expect(WriterDifferential.disagreement(message) == nil, "transcript line \(frame.line)")
            checked += 1
        }
        #expect(checked > 10)
    }

    @Test func escapesAsTheStreamingEncoderDoes() {
        let everyControl = String(decoding: (0..<0x20).map { UInt8($0) } + [0x7F], as: UTF8.self)
        let message = ServerMessage.bye(.init(reason: "a\"b\\c/d\(everyControl)小明🍵𠀋\u{2028}"))
        let written = String(decoding: WireCodec.encodePayload(message), as: UTF8.self)
        let controls =
            #"\u0000\u0001\u0002\u0003\u0004\u0005\u0006\u0007\u0008\t\n\u000b\u000c\r\u000e\u000f"#
            + #"\u0010\u0011\u0012\u0013\u0014\u0015\u0016\u0017\u0018\u0019\u001a\u001b\u001c\u001d\u001e\u001f"#
            + #"\u007f"#
        #expect(written == #"{"type":"bye","reason":"a\"b\\c/d"# + controls + "小明🍵𠀋\u{2028}\"}")
        #expect(WriterDifferential.disagreement(message) == nil)
    }

    @Test func integersAtTheEdgesOfInt() {
        for value in [0, 7, 10, -1, -10, 1_000_000, Int.max, Int.min, Int.min + 1] {
            let written = String(decoding: WireCodec.encodePayload(.pong(.init(id: value))), as: UTF8.self)
            #expect(written == #"{"type":"pong","id":\#(value)}"#)
        }
    }

    @Test func aSeededRandomCorpusIsWrittenAsTheReferencesWriteIt() {
        var corpus = ServerMessageCorpus(seed: 0x5EED_F00D)
        var failures = 0
        for index in 0..<6_000 {
            let message = corpus.message()
            if let problem = WriterDifferential.disagreement(message) {
                failures += 1
                if failures <= 5 { Issue.record("message \(index): \(problem)") }
            }
        }
        #expect(failures == 0)
    }

    @Test func framesCarryTheHeaderInPlace() throws {
        for message in MessageSamples.server + Self.everyFieldPresent {
            let payload = WireCodec.encodePayload(message)
            #expect(try WireCodec.encodeFrame(message) == WireCodec.frame(payload))
            let (fitted, trimmed) = try #require(WireCodec.encodeFrameFitting(message))
            #expect(fitted == (try WireCodec.frame(payload)) && trimmed == 0)
        }
        let pong = ServerMessage.pong(.init(id: 1))
        let size = WireCodec.encodePayload(pong).count
        #expect(throws: FrameError.badLength(UInt32(size))) { try WireCodec.encodeFrame(pong, maxPayload: size - 1) }
    }

    /// The output starts small and grows by copying: what was written before it grew, the leading bytes included,
    /// must come through every growth unchanged.
    @Test func anOutputThatGrowsManyTimesKeepsEveryByte() throws {
        let names = (0..<2_000).map { "名字 \($0) \"q\"\n" }
        var output = JSONOutput(leadingBytes: 4, capacity: 1)
        output.strings(names)
        output.int(Int.min)
        output.raw("}")
        let written = output.finish()
        let expected = [0, 0, 0, 0] + (try StreamingJSONEncoder.encode(names)) + Array("\(Int.min)}".utf8)
        #expect(written.count == expected.count)
        #expect(written == expected)
    }
}
