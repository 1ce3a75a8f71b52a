/// Sending a message that might not fit a frame, without silently dropping it.
extension WireCodec {
    /// The JSON payload of `message`, shortened when it is too large for a frame: a room snapshot gives up its
    /// oldest clues (the `clue` messages already carried them) until it fits. `trimmedClues` says how many were
    /// left out; `nil` only for a message that cannot be shortened and does not fit.
    public static func encodePayloadFitting(
        _ message: ServerMessage, maxPayload: Int = FrameLimits.defaultMaxPayload
    ) -> (payload: [UInt8], trimmedClues: Int)? {
        let whole = encodePayload(message)
        if !whole.isEmpty, whole.count <= maxPayload { return (whole, 0) }
        guard case .room(let view) = message else { return nil }
        // The largest suffix of the clues that fits, by bisection over how many are kept.
        var best: (payload: [UInt8], kept: Int)?
        var low = 0
        var high = view.clues.count - 1
        while low <= high {
            let kept = (low + high) / 2
            var shorter = view
            shorter.clues = Array(view.clues.suffix(kept))
            let payload = encodePayload(ServerMessage.room(shorter))
            if payload.count <= maxPayload {
                best = (payload, kept)
                low = kept + 1
            } else {
                high = kept - 1
            }
        }
        guard let best else { return nil }
        return (best.payload, view.clues.count - best.kept)
    }

    /// A complete frame for `message`, shortened as `encodePayloadFitting` does.
    public static func encodeFrameFitting(
        _ message: ServerMessage, maxPayload: Int = FrameLimits.defaultMaxPayload
    ) -> (frame: [UInt8], trimmedClues: Int)? {
        // Nearly every message fits whole: written once, header in place, no copy.
        if let whole = try? encodeFrame(message, maxPayload: maxPayload) { return (whole, 0) }
        guard let (payload, trimmed) = encodePayloadFitting(message, maxPayload: maxPayload),
            let frame = try? frame(payload, maxPayload: maxPayload)
        else { return nil }
        return (frame, trimmed)
    }
}
