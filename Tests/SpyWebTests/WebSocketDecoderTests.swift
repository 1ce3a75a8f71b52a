import Testing

@testable import SpyWeb

/// A frame as a client sends it: masked unless told otherwise; `declaredLength` overrides the length field.
func clientFrame(
    _ opcode: UInt8, _ payload: [UInt8], fin: Bool = true, masked: Bool = true, rsv: UInt8 = 0,
    declaredLength: UInt64? = nil, longForm: Bool = false
) -> [UInt8] {
    var bytes: [UInt8] = [(fin ? 0x80 : 0) | rsv << 4 | opcode]
    let length = declaredLength ?? UInt64(payload.count)
    let maskBit: UInt8 = masked ? 0x80 : 0
    if length < 126 && !longForm {
        bytes.append(maskBit | UInt8(length))
    } else if length <= 0xFFFF && !longForm {
        bytes += [maskBit | 126, UInt8(length >> 8), UInt8(length & 0xFF)]
    } else {
        bytes.append(maskBit | 127)
        for shift in stride(from: 56, through: 0, by: -8) {
            bytes.append(UInt8(truncatingIfNeeded: length >> UInt64(shift)))
        }
    }
    guard masked else { return bytes + payload }
    let mask: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]
    bytes += mask
    bytes += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
    return bytes
}

func text(_ string: String, fin: Bool = true) -> [UInt8] {
    clientFrame(0x1, Array(string.utf8), fin: fin)
}

/// Feeds `bytes` in pieces of `chunk` (0: at once), collecting events until the end or a failure.
func decode(_ bytes: [UInt8], chunk: Int = 0, maxMessage: Int = 65_536) -> ([WebSocketEvent], WebSocketFailure?) {
    var decoder = WebSocketDecoder(maxMessage: maxMessage)
    var events: [WebSocketEvent] = []
    let size = chunk == 0 ? max(1, bytes.count) : chunk
    var start = 0
    while start < bytes.count {
        decoder.feed(bytes[start..<min(bytes.count, start + size)])
        start += size
        do {
            while let event = try decoder.next() { events.append(event) }
        } catch {
            return (events, error)
        }
    }
    return (events, nil)
}

@Suite struct WebSocketDecoderTests {
    @Test(arguments: [0, 1, 2, 5, 13])
    func messagesFragmentsAndControlFramesDecodeWhateverTheReadSizes(chunk: Int) {
        let long = String(repeating: "長", count: 20_000)
        let stream =
            text("{\"type\":\"ping\",\"id\":1}") + clientFrame(0x9, [1, 2, 3]) + text("{\"a\":", fin: false)
            + clientFrame(0xA, []) + clientFrame(0x0, Array("1}".utf8)) + text(long)
            + clientFrame(0x8, [0x03, 0xE8] + Array("bye".utf8)) + text("after the close")
        let (events, failure) = decode(stream, chunk: chunk)
        #expect(failure == nil)
        #expect(
            events == [
                .text(Array("{\"type\":\"ping\",\"id\":1}".utf8)), .ping([1, 2, 3]), .pong([]),
                .text(Array("{\"a\":1}".utf8)), .text(Array(long.utf8)), .close(code: 1000, reason: "bye"),
            ])
    }

    @Test func aCharacterSplitAcrossFragmentsIsValid() {
        let bytes = Array("誰".utf8)
        let stream = clientFrame(0x1, [bytes[0]], fin: false) + clientFrame(0x0, Array(bytes[1...]))
        #expect(decode(stream).0 == [.text(bytes)])
    }

    @Test func anEmptyCloseHasNoCode() {
        #expect(decode(clientFrame(0x8, [])).0 == [.close(code: nil, reason: "")])
    }

    @Test func aCloseInTheMiddleOfAFragmentedMessageEndsIt() {
        let stream = text("{\"type\":", fin: false) + clientFrame(0x8, [0x03, 0xE9])
        let (events, failure) = decode(stream, chunk: 1)
        #expect(failure == nil)
        #expect(events == [.close(code: 1001, reason: "")])
    }

    @Test(arguments: [
        (clientFrame(0x1, Array("hi".utf8), masked: false), WebSocketCloseCode.protocolError),
        (clientFrame(0x2, [1, 2, 3]), .unsupportedData),
        (clientFrame(0x2, [1, 2, 3], fin: false), .unsupportedData),
        (clientFrame(0x1, [0xC3, 0x28]), .invalidPayload),
        (clientFrame(0x1, [0xED, 0xA0, 0x80]), .invalidPayload),
        (clientFrame(0x1, [0xE8, 0xAA], fin: false) + clientFrame(0x0, [0x41]), .invalidPayload),
        (clientFrame(0x1, Array("x".utf8), rsv: 4), .protocolError),
        (clientFrame(0x3, []), .protocolError),
        (clientFrame(0xB, []), .protocolError),
        (clientFrame(0x0, Array("x".utf8)), .protocolError),
        (text("a", fin: false) + text("b"), .protocolError),
        (clientFrame(0x9, Array(repeating: 1, count: 126)), .protocolError),
        (clientFrame(0x9, [1], fin: false), .protocolError),
        (clientFrame(0x8, [0x03]), .protocolError),
        (clientFrame(0x8, [0x03, 0xED]), .protocolError),
        (clientFrame(0x8, [0x03, 0xE8, 0xFF]), .invalidPayload),
        (clientFrame(0x8, [0x00, 0x00]), .protocolError),
        (clientFrame(0x1, Array("short".utf8), longForm: true), .protocolError),
        (clientFrame(0x1, [], declaredLength: 1 << 63), .protocolError),
        (clientFrame(0x1, [], declaredLength: UInt64.max), .protocolError),
        (clientFrame(0x1, [], declaredLength: (1 << 63) - 1), .messageTooBig),
        (clientFrame(0x1, [], declaredLength: 65_537), .messageTooBig),
        (
            text(String(repeating: "a", count: 40_000), fin: false) + text(String(repeating: "b", count: 30_000)),
            .protocolError
        ),
        (
            text(String(repeating: "a", count: 40_000), fin: false)
                + clientFrame(0x0, Array(repeating: 0x62, count: 30_000)), .messageTooBig
        ),
    ])
    func badStreamsFailWithTheirCloseCode(stream: [UInt8], code: WebSocketCloseCode) {
        for chunk in [0, 1, 7] {
            let (_, failure) = decode(stream, chunk: chunk)
            #expect(failure?.code == code, "chunk \(chunk): \(failure.map { "\($0)" } ?? "no failure")")
        }
    }

    @Test func aHostileLengthIsRefusedFromTheHeaderAlone() {
        var decoder = WebSocketDecoder(maxMessage: 65_536)
        // Only the header: the decoder must not wait for (or reserve) the announced payload.
        decoder.feed(Array(clientFrame(0x1, [], declaredLength: 1 << 40).prefix(10)))
        #expect(throws: WebSocketFailure.self) { _ = try decoder.next() }
        #expect(decoder.bufferedByteCount == 0)
    }

    @Test func theBufferHoldsOnlyWhatArrived() throws {
        var decoder = WebSocketDecoder(maxMessage: 65_536)
        let frame = text(String(repeating: "z", count: 60_000))
        decoder.feed(frame.prefix(100))
        #expect(try decoder.next() == nil)
        #expect(decoder.bufferedByteCount == 100)
        decoder.feed(frame.dropFirst(100))
        #expect(try decoder.next() == .text(Array(repeating: 0x7A, count: 60_000)))
        #expect(decoder.bufferedByteCount == 0)
    }

    @Test func theFailureRepeatsAndLaterBytesAreDropped() {
        var decoder = WebSocketDecoder(maxMessage: 100)
        decoder.feed(clientFrame(0x2, [1]))
        #expect(throws: WebSocketFailure(.unsupportedData, "text frames only")) { _ = try decoder.next() }
        decoder.feed(text("fine"))
        #expect(throws: WebSocketFailure.self) { _ = try decoder.next() }
        #expect(decoder.bufferedByteCount == 0)
    }

    @Test func serverFramesAreUnmaskedWithTheShortestLength() {
        #expect(WebSocketFrame.text(Array("hi".utf8)) == [0x81, 0x02, 0x68, 0x69])
        let medium = WebSocketFrame.text(Array(repeating: 0x61, count: 300))
        #expect(Array(medium.prefix(4)) == [0x81, 126, 0x01, 0x2C])
        let large = WebSocketFrame.text(Array(repeating: 0x61, count: 70_000))
        #expect(Array(large.prefix(10)) == [0x81, 127, 0, 0, 0, 0, 0, 0x01, 0x11, 0x70])
        #expect(large.count == 70_010)
        #expect(WebSocketFrame.pong([9]) == [0x8A, 0x01, 0x09])
        #expect(WebSocketFrame.close(.messageTooBig, reason: "big") == [0x88, 0x05, 0x03, 0xF1, 0x62, 0x69, 0x67])
        // A long reason is cut on a character boundary to fit a control frame.
        let close = WebSocketFrame.close(.normal, reason: String(repeating: "字", count: 100))
        #expect(close.count == 2 + 2 + 123)
        #expect(String(validating: close[4...], as: UTF8.self) != nil)
    }
}
