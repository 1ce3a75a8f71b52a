import SpyProtocol

/// The path of every byte a client sends: frame decoder, then message decoding and validation.
enum FrameStreamTarget {
    static func run(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        // The first bytes choose how the stream is cut, as reads of any size would cut it.
        let cuts = input.take(4).map { Int($0 % 64) + 1 }
        let stream = input.rest()
        var decoder = FrameDecoder()
        var offset = 0
        var cutIndex = 0
        while offset < stream.count {
            let size = cuts.isEmpty ? stream.count : cuts[cutIndex % cuts.count]
            cutIndex += 1
            let end = min(stream.count, offset + size)
            decoder.feed(stream[offset..<end])
            offset = end
            require(decoder.capacity <= 2 * (FrameLimits.headerSize + decoder.maxPayload), "decoder over its cap")
            while true {
                let payload: [UInt8]?
                do {
                    payload = try decoder.next()
                } catch {
                    return
                }
                guard let payload else { break }
                check(payload)
            }
        }
        _ = try? decoder.finish()
    }

    /// A payload either is refused with a code or decodes to a message that survives its own round trip.
    static func check(_ payload: [UInt8]) {
        // The host's own reader is stricter than JSONDecoder, never looser: what it reads, JSONDecoder reads alike.
        let read = try? ClientMessage.read(from: payload)
        let message: ClientMessage
        do {
            message = try WireCodec.decode(ClientMessage.self, from: payload)
            require(read == nil || read == message, "the host's reader and JSONDecoder disagree")
        } catch {
            require(read == nil, "the host's reader accepts what JSONDecoder refuses")
            require(!error.detail.isEmpty || error.code != .internal, "a refusal without a reason")
            return
        }
        let again = WireCodec.encodePayload(message)
        guard let decoded = try? WireCodec.decode(ClientMessage.self, from: again) else {
            fatalError("fuzz invariant: a decoded \(message.type) does not decode after encoding")
        }
        require(decoded == message, "a \(message.type) changed in its round trip")
    }
}
