import SpyProtocol
import Testing

struct FrameDecoderTests {
    private let payloads: [[UInt8]] = [
        bytes(#"{"type":"start"}"#), [0x7B], payload(count: 300, tag: 1), bytes(#"{"type":"ping","id":7}"#),
        payload(count: 1, tag: 2), payload(count: 256, tag: 3),
    ]

    private var stream: [UInt8] {
        payloads.flatMap { try! WireCodec.frame($0) }
    }

    @Test func dripFedOneByteAtATime() throws {
        var decoder = FrameDecoder()
        var frames: [[UInt8]] = []
        var frameEnds: Set<Int> = []
        var end = 0
        for payload in payloads {
            end += FrameLimits.headerSize + payload.count
            frameEnds.insert(end)
        }
        for (index, byte) in stream.enumerated() {
            decoder.feed([byte])
            let ready = try drain(&decoder)
            // A frame comes out exactly when its last byte arrives, never earlier.
            #expect(ready.count == (frameEnds.contains(index + 1) ? 1 : 0), "after byte \(index)")
            frames += ready
        }
        #expect(frames == payloads)
        #expect(decoder.bufferedByteCount == 0)
        try decoder.finish()
    }

    @Test func manyFramesInOneBuffer() throws {
        var generator = SplitMix64(seed: 1)
        let many = (0..<2_000).map { payload(count: Int.random(in: 1...200, using: &generator), tag: $0) }
        var decoder = FrameDecoder()
        decoder.feed(many.flatMap { try! WireCodec.frame($0) })
        #expect(try drain(&decoder) == many)
        #expect(decoder.bufferedByteCount == 0)
        try decoder.finish()
    }

    @Test func frameSplitAtEveryOffset() throws {
        let stream = self.stream
        for offset in 0...stream.count {
            var decoder = FrameDecoder()
            decoder.feed(stream[..<offset])
            var frames = try drain(&decoder)
            decoder.feed(stream[offset...])
            frames += try drain(&decoder)
            #expect(frames == payloads, "split at \(offset)")
            try decoder.finish()
        }
    }

    @Test func frameSplitAtEveryPairOfOffsets() throws {
        let stream = payloads.prefix(4).flatMap { try! WireCodec.frame($0) }
        for first in 0...stream.count {
            for second in first...stream.count {
                var decoder = FrameDecoder()
                decoder.feed(stream[..<first])
                var frames = try drain(&decoder)
                decoder.feed(stream[first..<second])
                frames += try drain(&decoder)
                decoder.feed(stream[second...])
                frames += try drain(&decoder)
                #expect(frames == Array(payloads.prefix(4)), "split at \(first) and \(second)")
            }
        }
    }

    @Test func feedFromRawBuffer() throws {
        var decoder = FrameDecoder()
        stream.withUnsafeBytes { decoder.feed($0) }
        #expect(try drain(&decoder) == payloads)
    }

    @Test(arguments: [
        (UInt32(0), FrameLimits.defaultMaxPayload), (UInt32(65_537), FrameLimits.defaultMaxPayload),
        (UInt32.max, FrameLimits.defaultMaxPayload), (UInt32(0), 10), (UInt32(11), 10), (UInt32.max, 10),
        (UInt32(0x8000_0000), FrameLimits.defaultMaxPayload),
    ])
    func maliciousLengthRejectedAtTheHeader(length: UInt32, maxPayload: Int) throws {
        var decoder = FrameDecoder(maxPayload: maxPayload)
        decoder.feed(header(length).prefix(3))
        #expect(try decoder.next() == nil)
        decoder.feed(header(length).suffix(1))
        #expect(throws: FrameError.badLength(length)) { try decoder.next() }
        // Nothing of the announced payload was buffered or reserved.
        #expect(decoder.bufferedByteCount == 0)
        #expect(decoder.capacity <= 64)
        // The stream stays failed, and later bytes are not kept.
        decoder.feed(payload(count: 100_000, tag: 0))
        #expect(decoder.bufferedByteCount == 0)
        #expect(decoder.capacity <= 64)
        #expect(throws: FrameError.badLength(length)) { try decoder.next() }
        #expect(throws: FrameError.badLength(length)) { try decoder.finish() }
    }

    @Test func badLengthAfterGoodFramesInOneRead() throws {
        var decoder = FrameDecoder(maxPayload: 100)
        let good = payload(count: 100, tag: 9)
        decoder.feed(try WireCodec.frame(good, maxPayload: 100) + header(101) + payload(count: 101, tag: 0))
        #expect(try decoder.next() == good)
        #expect(throws: FrameError.badLength(101)) { try decoder.next() }
        #expect(decoder.bufferedByteCount == 0)
    }

    @Test func largestFrameIsAccepted() throws {
        let largest = payload(count: FrameLimits.defaultMaxPayload, tag: 4)
        var decoder = FrameDecoder()
        decoder.feed(header(UInt32(FrameLimits.defaultMaxPayload)))
        #expect(try decoder.next() == nil)
        decoder.feed(largest)
        #expect(try decoder.next() == largest)
    }

    @Test func endOfStreamMidFrameIsReported() throws {
        let frame = try WireCodec.frame(payload(count: 10, tag: 5))
        for cut in 1..<frame.count {
            var decoder = FrameDecoder()
            decoder.feed(frame.prefix(cut))
            #expect(try decoder.next() == nil)
            #expect(throws: FrameError.truncated(buffered: cut), "cut after \(cut) bytes") { try decoder.finish() }
        }
        var decoder = FrameDecoder()
        decoder.feed(frame + frame.prefix(FrameLimits.headerSize))
        #expect(try drain(&decoder).count == 1)
        #expect(throws: FrameError.truncated(buffered: FrameLimits.headerSize)) { try decoder.finish() }
    }

    @Test func cleanEndOfStream() throws {
        var decoder = FrameDecoder()
        try decoder.finish()
        decoder.feed(stream)
        _ = try drain(&decoder)
        try decoder.finish()
    }

    @Test func memoryStaysBoundedWhileStreaming() throws {
        for maxPayload in [64, 1_000, FrameLimits.defaultMaxPayload] {
            var generator = SplitMix64(seed: UInt64(maxPayload))
            let frameLimit = FrameLimits.headerSize + maxPayload
            let frameCount = maxPayload == FrameLimits.defaultMaxPayload ? 300 : 5_000
            var stream: [UInt8] = []
            for index in 0..<frameCount {
                // Mostly small frames with some at or near the maximum, the worst case for leftovers.
                let size =
                    Bool.random(using: &generator)
                    ? Int.random(in: 1...min(maxPayload, 40), using: &generator)
                    : Int.random(in: max(1, maxPayload - 8)...maxPayload, using: &generator)
                stream += try WireCodec.frame(payload(count: size, tag: index), maxPayload: maxPayload)
            }
            var decoder = FrameDecoder(maxPayload: maxPayload)
            var offset = 0
            var received = 0
            var largestCapacity = 0
            while offset < stream.count {
                // A read returns at most one maximal frame's worth of bytes.
                let chunk = min(stream.count - offset, Int.random(in: 1...frameLimit, using: &generator))
                decoder.feed(stream[offset..<offset + chunk])
                offset += chunk
                largestCapacity = max(largestCapacity, decoder.capacity)
                received += try drain(&decoder).count
                #expect(decoder.bufferedByteCount < frameLimit)
            }
            #expect(received == frameCount)
            #expect(largestCapacity <= 2 * frameLimit + 64, "max payload \(maxPayload)")
            try decoder.finish()
        }
    }
}
