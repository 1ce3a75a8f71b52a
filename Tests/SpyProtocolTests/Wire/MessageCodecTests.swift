import Foundation
import SpyProtocol
import Testing

private func decodeClient(_ text: String) -> Result<ClientMessage, MessageError> {
    Result { () throws(MessageError) in try WireCodec.decode(ClientMessage.self, from: bytes(text)) }
}

private func code(_ payload: [UInt8]) -> ErrorCode? {
    do {
        _ = try WireCodec.decode(ClientMessage.self, from: payload)
        return nil
    } catch {
        return error.code
    }
}

private func serverCode(_ text: String) -> ErrorCode? {
    do {
        _ = try WireCodec.decode(ServerMessage.self, from: bytes(text))
        return nil
    } catch {
        return error.code
    }
}

/// The payload's top-level keys, to check what the wire carries.
private func jsonObject(_ payload: [UInt8]) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any])
}

struct MessageCodecTests {
    @Test func samplesCoverEveryType() {
        #expect(Set(MessageSamples.client.map(\.type)) == Set(ClientMessage.allTypes))
        #expect(Set(MessageSamples.server.map(\.type)) == Set(ServerMessage.allTypes))
        #expect(ClientMessage.allTypes.count == Set(ClientMessage.allTypes).count)
        #expect(ServerMessage.allTypes.count == Set(ServerMessage.allTypes).count)
    }

    @Test(arguments: MessageSamples.client)
    func clientRoundTrip(message: ClientMessage) throws {
        let frame = try WireCodec.encodeFrame(message)
        var decoder = FrameDecoder()
        decoder.feed(frame)
        let payload = try #require(try decoder.next())
        #expect(try jsonObject(payload)["type"] as? String == message.type)
        #expect(try WireCodec.decode(ClientMessage.self, from: payload) == message)
        // The host's decoder does not mistake a client message for one of its own, and vice versa.
        if !ServerMessage.allTypes.contains(message.type) {
            #expect(throws: MessageError.self) { try WireCodec.decode(ServerMessage.self, from: payload) }
        }
    }

    @Test(arguments: MessageSamples.server)
    func serverRoundTrip(message: ServerMessage) throws {
        let frame = try WireCodec.encodeFrame(message)
        var decoder = FrameDecoder()
        decoder.feed(frame)
        let payload = try #require(try decoder.next())
        #expect(try jsonObject(payload)["type"] as? String == message.type)
        #expect(try WireCodec.decode(ServerMessage.self, from: payload) == message)
    }

    @Test func exactCoreShapes() throws {
        let hello = try jsonObject(WireCodec.encodePayload(ClientMessage.hello(.init(name: "Amy"))))
        #expect(hello.keys.sorted() == ["name", "protocol", "type"])
        #expect(decodeClient(#"{"type":"hello","protocol":1,"name":"Amy"}"#) == .success(.hello(.init(name: "Amy"))))
        #expect(decodeClient(#"{"type":"ping","id":7}"#) == .success(.ping(.init(id: 7))))
        let pong = WireCodec.encodePayload(ServerMessage.pong(.init(id: 7)))
        #expect(String(decoding: pong, as: UTF8.self) == #"{"type":"pong","id":7}"#)
        let error = WireCodec.encodePayload(ServerMessage.error(.init(code: .wrongPhase, message: "No.")))
        #expect(String(decoding: error, as: UTF8.self) == #"{"type":"error","code":"wrong_phase","message":"No."}"#)
        let blank = try jsonObject(WireCodec.encodePayload(ServerMessage.deal(.init(game: 1, word: nil))))
        #expect(blank["word"] == nil)
        #expect(blank["blank"] as? Bool == true)
    }

    @Test func unknownFieldsAreIgnored() {
        #expect(decodeClient(#"{"type":"pass","extra":[1,{"a":null}]}"#) == .success(.pass))
    }

    @Test func nullStandsForAnAbsentOptionalField() {
        let hello = #"{"type":"hello","protocol":1,"name":"Amy","room":null,"token":null,"create":null}"#
        #expect(decodeClient(hello) == .success(.hello(.init(name: "Amy"))))
        #expect(decodeClient(#"{"id":7,"type":"ping"}"#) == .success(.ping(.init(id: 7))))
    }

    @Test(arguments: [
        #"{"type":"welcome","protocol":1}"#, #"{"type":"Hello","protocol":1,"name":"a"}"#, #"{"type":""}"#,
        #"{"type":"hello ","protocol":1,"name":"a"}"#, #"{"type":"vote_result"}"#,
    ])
    func unknownClientType(text: String) {
        #expect(code(bytes(text)) == .unknownType)
    }

    @Test func unknownServerType() {
        #expect(serverCode(#"{"type":"hello","protocol":1,"name":"a"}"#) == .unknownType)
        #expect(serverCode(#"{"type":"confetti"}"#) == .unknownType)
    }

    @Test(arguments: [
        #"{"type":"hello","name":"Amy"}"#, #"{"type":"hello","protocol":1}"#,
        #"{"type":"hello","protocol":"1","name":"a"}"#,
        #"{"type":"hello","protocol":1.5,"name":"a"}"#, #"{"type":"hello","protocol":1,"name":null}"#,
        #"{"type":"hello","protocol":1,"name":"a","create":"yes"}"#,
        #"{"type":"hello","protocol":99999999999999999999999,"name":"a"}"#, #"{"type":"ping"}"#,
        #"{"type":"ping","id":"7"}"#, #"{"type":"settings"}"#, #"{"type":"settings","settings":[]}"#,
        #"{"type":"settings","settings":{"spies":"two"}}"#, #"{"type":"settings","settings":{"clueMode":"shouted"}}"#,
        #"{"type":"settings","settings":{"categories":"food"}}"#, #"{"type":"clue"}"#, #"{"type":"clue","text":5}"#,
        #"{"type":"vote"}"#, #"{"type":"vote","target":["p1"]}"#, #"{"type":"guess"}"#, #"{"type":"kick","player":{}}"#,
    ])
    func missingOrIllTypedField(text: String) {
        #expect(code(bytes(text)) == .badMessage)
    }

    @Test func badMessageDetailNamesTheField() {
        guard case .failure(let error) = decodeClient(#"{"type":"vote"}"#) else {
            Issue.record("decoded")
            return
        }
        #expect(error == MessageError(.badMessage, "missing field \"target\""))
        guard case .failure(let typed) = decodeClient(#"{"type":"settings","settings":{"spies":"two"}}"#) else {
            Issue.record("decoded")
            return
        }
        #expect(typed.detail == "wrong type for field \"settings.spies\"")
    }

    @Test func serverFieldsAreChecked() {
        #expect(serverCode(#"{"type":"error","code":"not_a_code","message":"x"}"#) == .badMessage)
        #expect(serverCode(#"{"type":"welcome","protocol":1,"you":"p1","room":"ABCD","resumed":false}"#) == .badMessage)
        #expect(serverCode(#"{"type":"deal","game":1}"#) == .badMessage)
    }

    @Test func aWelcomeListingACategoryOfAnUnknownLanguageIsReadWithoutIt() throws {
        let text =
            #"{"type":"welcome","protocol":1,"you":"p1","token":"t","room":"ABCD","resumed":false,"categories":["#
            + #"{"name":"食物","language":"zh-Hans","pairs":40,"partyPairs":0},"#
            + #"{"name":"음식","language":"ko","pairs":30,"partyPairs":0},"#
            + #"{"name":"Food","language":"en","pairs":38,"partyPairs":1}]}"#
        let decoded = try WireCodec.decode(ServerMessage.self, from: bytes(text))
        guard case .welcome(let welcome) = decoded else {
            Issue.record("not a welcome: \(decoded)")
            return
        }
        #expect(welcome.categories?.map(\.name) == ["食物", "Food"])
        #expect(welcome.categories?.first?.language == .zhHans)
        #expect(welcome.you == "p1" && welcome.watch == nil)
        // A known language's entry must still be whole.
        #expect(
            serverCode(
                #"{"type":"welcome","protocol":1,"you":"p1","token":"t","room":"ABCD","resumed":false,"#
                    + #""categories":[{"name":"Food","language":"en"}]}"#) == .badMessage)
    }

    @Test(arguments: [
        [0xFF], [0xC0, 0xAF], [0xED, 0xA0, 0x80], bytes(#"{"type":"pass"}"#) + [0xFE],
        [0x7B, 0x22, 0x74, 0x79, 0x70, 0x65, 0x22, 0x3A, 0x22, 0xE8, 0xA9, 0x22, 0x7D],
    ])
    func invalidUTF8IsABadFrame(payload: [UInt8]) {
        #expect(code(payload) == .badFrame)
    }

    @Test(arguments: [
        "[]", #"[{"type":"pass"}]"#, "42", "-0.5", #""pass""#, "true", "null", "", " ", "{", #"{"type":"pass"} {}"#,
        "{}", #"{"type":5}"#, #"{"type":null}"#, #"{"type":["pass"]}"#, #"{"Type":"pass"}"#,
        "{'type':'pass'}",
    ])
    func notAJSONObjectWithATypeIsABadFrame(text: String) {
        #expect(code(bytes(text)) == .badFrame, "\(text)")
    }

    @Test func deeplyNestedJSONIsRefusedWithoutCrashing() throws {
        let depth = 10_000
        let arrays = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let objects = String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
        let inside =
            #"{"type":"clue","text":"x","extra":"# + String(repeating: "[", count: depth)
            + String(repeating: "]", count: depth) + "}"
        for text in [arrays, objects, inside] {
            let payload = bytes(text)
            #expect(payload.count <= FrameLimits.defaultMaxPayload)
            let result = code(payload)
            #expect(result == .badFrame, "\(String(text.prefix(40)))")
            #expect(serverCode(text) != nil)
        }
    }

    @Test func sixtyKilobyteStrings() throws {
        let long = String(repeating: "詞", count: 20_000)
        let clue = #"{"type":"clue","text":""# + long + #""}"#
        #expect(bytes(clue).count > 60_000)
        #expect(bytes(clue).count <= FrameLimits.defaultMaxPayload)
        #expect(decodeClient(clue) == .success(.clue(.init(text: long))))

        let longType = #"{"type":""# + String(repeating: "x", count: 61_000) + #""}"#
        guard case .failure(let error) = decodeClient(longType) else {
            Issue.record("decoded")
            return
        }
        #expect(error.code == .unknownType)
        #expect(error.detail.count < 100)

        let escaped = #"{"type":"clue","text":""# + String(repeating: #"\u8a5e"#, count: 10_000) + #""}"#
        #expect(decodeClient(escaped) == .success(.clue(.init(text: String(repeating: "詞", count: 10_000)))))
        let unterminated = #"{"type":"clue","text":""# + String(repeating: "a", count: 60_000)
        #expect(code(bytes(unterminated)) == .badFrame)
    }

    @Test func encoderRefusesPayloadsOverTheMaximum() throws {
        let largest = [UInt8](repeating: 0x20, count: FrameLimits.defaultMaxPayload)
        #expect(try WireCodec.frame(largest).count == FrameLimits.defaultMaxPayload + FrameLimits.headerSize)
        #expect(throws: FrameError.badLength(65_537)) { try WireCodec.frame(largest + [0x20]) }
        #expect(throws: FrameError.badLength(0)) { try WireCodec.frame([]) }
        #expect(throws: FrameError.badLength(11)) {
            try WireCodec.frame(Array(repeating: 1, count: 11), maxPayload: 10)
        }
        let huge = ClientMessage.clue(.init(text: String(repeating: "x", count: FrameLimits.defaultMaxPayload)))
        #expect(throws: FrameError.self) { try WireCodec.encodeFrame(huge) }
        let small = ServerMessage.pong(.init(id: 1))
        #expect(throws: FrameError.self) { try WireCodec.encodeFrame(small, maxPayload: 8) }
        let payload = WireCodec.encodePayload(small)
        #expect(try WireCodec.encodeFrame(small, maxPayload: payload.count) == header(UInt32(payload.count)) + payload)
    }

    @Test func everyErrorCodeRoundTripsWithItsSentence() throws {
        for code in ErrorCode.allCases {
            let message = ServerMessage.error(.init(code))
            let payload = WireCodec.encodePayload(message)
            #expect(try jsonObject(payload)["code"] as? String == code.rawValue)
            #expect(try WireCodec.decode(ServerMessage.self, from: payload) == message)
            #expect(!code.defaultMessage.isEmpty)
            #expect(code.rawValue.allSatisfy { $0.isLowercase || $0 == "_" })
        }
    }
}

struct ErrorCodeTests {
    @Test func protocolVersionErrorNamesTheSpokenVersions() {
        for version in supportedProtocolVersions {
            #expect(ErrorCode.protocolVersion.defaultMessage.contains(String(version)))
        }
    }

    @Test func fatalCodesAreTheHandshakeAndConnectionOnes() {
        let fatal = Set(ErrorCode.allCases.filter(\.isFatal))
        #expect(fatal.contains(.frameTooLarge))
        #expect(fatal.contains(.protocolVersion))
        #expect(fatal.contains(.replaced))
        #expect(!fatal.contains(.alreadyJoined))
        #expect(!fatal.contains(.badFrame))
        #expect(!fatal.contains(.wrongPhase))
        #expect(!fatal.contains(.internal))
    }
}

struct HostilePayloadTests {
    /// Mutated and truncated copies of real messages never crash the decoder, and each failure has a decoding code.
    @Test func mutatedMessagesFailCleanly() {
        var generator = SplitMix64(seed: 42)
        let originals =
            MessageSamples.client.map { WireCodec.encodePayload($0) }
            + MessageSamples.server.map { WireCodec.encodePayload($0) }
        let decodingCodes: Set<ErrorCode> = [.badFrame, .unknownType, .badMessage]
        var failures = 0
        for round in 0..<3_000 {
            var payload = originals[round % originals.count]
            switch Int.random(in: 0..<4, using: &generator) {
            case 0:
                payload = Array(payload.prefix(Int.random(in: 0..<payload.count, using: &generator)))
            case 1:
                for _ in 0..<Int.random(in: 1...4, using: &generator) {
                    payload[Int.random(in: 0..<payload.count, using: &generator)] = UInt8.random(
                        in: 0...255, using: &generator)
                }
            case 2:
                payload.insert(
                    contentsOf: Array(#"[{"\u0000":"#.utf8), at: Int.random(in: 0...payload.count, using: &generator))
            default:
                payload.remove(at: Int.random(in: 0..<payload.count, using: &generator))
            }
            let client: ErrorCode?
            do {
                _ = try WireCodec.decode(ClientMessage.self, from: payload)
                client = nil
            } catch {
                client = error.code
            }
            let server: ErrorCode?
            do {
                _ = try WireCodec.decode(ServerMessage.self, from: payload)
                server = nil
            } catch {
                server = error.code
            }
            for code in [client, server].compactMap({ $0 }) {
                failures += 1
                #expect(decodingCodes.contains(code))
            }
        }
        #expect(failures > 3_000)
    }
}
