import Foundation
import SpyProtocol
import Testing

/// What a peer can make the decoder hold: storage follows the bytes that arrived, never a header's promise.
struct FrameMemoryTests {
    @Test func aHeaderAloneReservesNothing() throws {
        var decoder = FrameDecoder()
        decoder.feed(header(65_000) + Array(repeating: 0x20, count: 10))
        #expect(try decoder.next() == nil)
        #expect(decoder.bufferedByteCount == 10)
        #expect(decoder.capacity < 256)
    }

    @Test func capacityGrowsWithTheBytesThatArrive() throws {
        var decoder = FrameDecoder()
        decoder.feed(header(65_000))
        var received = 0
        for step in [1, 7, 100, 1_000, 3_000, 10_000, 20_000] {
            decoder.feed(Array(repeating: 0x20, count: step))
            received += step
            #expect(try decoder.next() == nil)
            #expect(decoder.bufferedByteCount == received)
            #expect(decoder.capacity <= 2 * received + 64, "after \(received) bytes")
        }
    }

    @Test func aLargeFrameDoesNotLeaveItsBufferBehind() throws {
        var decoder = FrameDecoder()
        let big = Array(repeating: UInt8(0x20), count: 60_000)
        decoder.feed(try WireCodec.frame(big))
        #expect(try decoder.next() == big)
        #expect(try decoder.next() == nil)
        #expect(decoder.capacity <= FrameDecoder.idleCapacity)
    }

    @Test func theLimitCanBeLoweredBeforeHelloAndRaisedAfter() throws {
        var decoder = FrameDecoder(maxPayload: 4_096)
        decoder.feed(try WireCodec.frame(Array(repeating: 0x20, count: 4_096)))
        #expect(try decoder.next()?.count == 4_096)
        decoder.maxPayload = FrameLimits.defaultMaxPayload
        decoder.feed(try WireCodec.frame(Array(repeating: 0x20, count: 5_000)))
        #expect(try decoder.next()?.count == 5_000)

        var small = FrameDecoder(maxPayload: 4_096)
        small.feed(header(4_097) + [0x20])
        #expect(throws: FrameError.badLength(4_097)) { try small.next() }
        #expect(small.capacity == 0)
    }
}

/// A payload must be plain UTF-8: no byte-order mark, no invalid bytes, even where JSONDecoder would cope.
struct PayloadEncodingTests {
    private func code(_ payload: [UInt8]) -> ErrorCode? {
        do {
            _ = try WireCodec.decode(ClientMessage.self, from: payload)
            return nil
        } catch {
            return error.code
        }
    }

    @Test func utf16WithItsByteOrderMarkIsABadFrame() {
        let text = #"{"type":"ping","id":1}"#
        let units = Array(text.utf16)
        let littleEndian: [UInt8] =
            [0xFF, 0xFE] + units.flatMap { unit -> [UInt8] in [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let bigEndian: [UInt8] =
            [0xFE, 0xFF] + units.flatMap { unit -> [UInt8] in [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
        #expect(code(littleEndian) == .badFrame)
        #expect(code(bigEndian) == .badFrame)
        // Without the mark, JSONDecoder would still guess the encoding from the zero bytes.
        #expect(code(Array(littleEndian.dropFirst(2))) == .badFrame)
        #expect(code(Array(bigEndian.dropFirst(2))) == .badFrame)
    }

    @Test func aUTF8ByteOrderMarkIsABadFrame() {
        #expect(code([0xEF, 0xBB, 0xBF] + bytes(#"{"type":"ping","id":1}"#)) == .badFrame)
    }

    @Test func invalidUTF8InsideAStringIsABadFrame() {
        let cases: [[UInt8]] = [
            bytes(#"{"type":"ping","id":1,"x":""#) + [0xC3, 0x28] + bytes(#""}"#),
            bytes(#"{"type":"ping","id":1,"x":""#) + [0xED, 0xA0, 0x80] + bytes(#""}"#),
            bytes(#"{"type":"ping","id":1,"x":""#) + [0xF8, 0x88, 0x80, 0x80, 0x80] + bytes(#""}"#),
            bytes(#"{"type":"ping","id":1,"x":""#) + [0xC0, 0xAF] + bytes(#""}"#),
        ]
        for payload in cases {
            #expect(code(payload) == .badFrame, "\(payload.suffix(8))")
        }
        #expect(code(bytes(#"{"type":"ping","id":1,"x":"é 誰"}"#)) == nil)
    }
}
