import Foundation
import XCTest

@testable import SpyProtocol

final class StreamingJSONEncoderTests: XCTestCase {
    /// The same value as Foundation's encoder gives, compared as parsed JSON (key order may differ).
    private func assertMatchesFoundation<Value: Encodable>(
        _ value: Value, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let streamed = try StreamingJSONEncoder.encode(value)
        let reference = try JSONEncoder().encode(value)
        let parsedStream = try JSONSerialization.jsonObject(with: Data(streamed), options: [.fragmentsAllowed])
        let parsedReference = try JSONSerialization.jsonObject(with: reference, options: [.fragmentsAllowed])
        XCTAssertEqual(
            parsedStream as? NSObject, parsedReference as? NSObject, String(decoding: streamed, as: UTF8.self),
            file: file, line: line)
    }

    func testEveryMessageShapeMatchesFoundation() throws {
        let seats = [
            SeatView(id: "p1", seat: 1, name: "小明 \"quoted\" \\ back", owner: true, revealed: .spy, score: 3),
            SeatView(id: "p2", seat: 2, name: "tab\tnew\nline\u{1}", connected: false, alive: false),
        ]
        let view = RoomView(
            room: "ABCD", phase: .voting, game: 2, round: 3, settings: GameSettings(categories: ["食物", "Drinks"]),
            seats: seats, turn: "p1", pk: ["p1", "p2"], clues: [ClueView(player: "p1", round: 1, text: "🍵 熱的")],
            timerMs: 1500, winner: nil)
        let messages: [ServerMessage] = [
            .room(view),
            .welcome(ServerMessage.Welcome(you: "p1", token: "00ff", room: "ABCD", resumed: true)),
            .deal(ServerMessage.Deal(game: 1, word: nil)),
            .voteResult(
                ServerMessage.VoteResult(
                    round: 1, tally: [TallyEntry(player: "p1", voters: ["p2"])], abstained: ["p3"], outcome: .out,
                    out: "p1", identity: .civilian, tied: [])),
            .gameOver(
                ServerMessage.GameOver(
                    game: 1, winner: .blank, civilianWord: "牛奶", spyWord: "豆漿",
                    reveal: [RevealEntry(player: "p1", role: .blank, word: nil)], blankGuess: "奶",
                    scores: [ScoreEntry(player: "p1", score: -1)])),
            .error(ServerMessage.ErrorMessage(.badFrame)),
        ]
        for message in messages { try assertMatchesFoundation(message) }
        let moves: [ClientMessage] = [
            .hello(ClientMessage.Hello(name: "Amy", room: "ABCD", token: nil, password: "p/w")),
            .settings(SettingsChange(spies: 2, clueMode: .typed, categories: [])),
            .start, .vote(ClientMessage.Vote(target: "p2")),
        ]
        for move in moves { try assertMatchesFoundation(move) }
    }

    func testMessagesDecodeBackAndPutTheTypeFirst() throws {
        let message = ServerMessage.turn(ServerMessage.Turn(round: 2, player: "p3", pk: true, timerMs: 900))
        let bytes = WireCodec.encodePayload(message)
        XCTAssertTrue(String(decoding: bytes, as: UTF8.self).hasPrefix(#"{"type":"turn","#))
        XCTAssertEqual(try WireCodec.decode(ServerMessage.self, from: bytes), message)
    }

    func testNestedContainersScalarsAndEmptyValues() throws {
        struct Nested: Encodable {
            func encode(to encoder: Encoder) throws {
                var outer = encoder.container(keyedBy: Key.self)
                var inner = outer.nestedContainer(keyedBy: Key.self, forKey: .a)
                try inner.encode(1.5, forKey: .b)
                try inner.encodeNil(forKey: .c)
                var list = outer.nestedUnkeyedContainer(forKey: .b)
                try list.encode(true)
                try list.encode(UInt64.max)
                try outer.encode([String: Int](), forKey: .c)
            }
            enum Key: String, CodingKey { case a, b, c }
        }
        struct Empty: Encodable {}
        XCTAssertEqual(
            String(decoding: try StreamingJSONEncoder.encode(Nested()), as: UTF8.self),
            #"{"a":{"b":1.5,"c":null},"b":[true,18446744073709551615],"c":{}}"#)
        XCTAssertEqual(String(decoding: try StreamingJSONEncoder.encode(Empty()), as: UTF8.self), "{}")
        XCTAssertEqual(String(decoding: try StreamingJSONEncoder.encode([Int]()), as: UTF8.self), "[]")
        XCTAssertEqual(String(decoding: try StreamingJSONEncoder.encode("x\u{7f}"), as: UTF8.self), #""x\u007f""#)
        XCTAssertThrowsError(try StreamingJSONEncoder.encode([Double.nan]))
    }

    /// Strings, integers, booleans and collections of strings are written without the nested machinery, as their
    /// own `encode(to:)` writes them: as members, as elements and as single values, escapes and empties included.
    func testStringsAndCollectionsOfStringsAreWrittenAsTheirOwnEncodeWritesThem() throws {
        struct Fields: Encodable {
            var name = "a\"b\\c\n\u{1}/é"
            var count = -7
            var flag = true
            var list = ["x", "", "雞 🥚"]
            var set: Set<String> = ["only"]
            var map = ["k\"": "v\n"]
            var nested = [["p"], []]
            var maybe: [String]? = ["m"]
            var none: [String]? = nil
            var byKey = ["z": ["y"]]
            var emptySet = Set<String>()
            var emptyMap = [String: String]()
        }
        XCTAssertEqual(
            String(decoding: try StreamingJSONEncoder.encode(Fields()), as: UTF8.self),
            #"{"name":"a\"b\\c\n\u0001/é","count":-7,"flag":true,"list":["x","","雞 🥚"],"set":["only"],"#
                + #""map":{"k\"":"v\n"},"nested":[["p"],[]],"maybe":["m"],"byKey":{"z":["y"]},"emptySet":[],"#
                + #""emptyMap":{}}"#)
        // Several members: in the collection's own order, as Foundation's encoder writes them too.
        try assertMatchesFoundation(Fields(set: ["a", "b", "c", "d"], map: ["1": "x", "2": "y\"", "3": "z"]))

        struct Single: Encodable {
            func encode(to encoder: Encoder) throws {
                var container = encoder.singleValueContainer()
                try container.encode(["s": "t"])
            }
        }
        XCTAssertEqual(String(decoding: try StreamingJSONEncoder.encode(Single()), as: UTF8.self), #"{"s":"t"}"#)
        XCTAssertEqual(
            String(decoding: try StreamingJSONEncoder.encode([["a"], ["b", "c"]]), as: UTF8.self),
            #"[["a"],["b","c"]]"#)
        XCTAssertEqual(String(decoding: try StreamingJSONEncoder.encode([1, -2]), as: UTF8.self), "[1,-2]")
        XCTAssertEqual(String(decoding: try StreamingJSONEncoder.encode([false]), as: UTF8.self), "[false]")
    }
}
