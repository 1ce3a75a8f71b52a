/// Sending a message that might not fit a frame, without silently dropping it.
extension WireCodec {
    /// A frame for `message`, shortened when it is too large: a room snapshot gives up its oldest clues (the
    /// `clue` messages already carried them) until it fits. `trimmedClues` says how many were left out; `nil`
    /// only for a message that cannot be shortened and does not fit.
    public static func encodeFrameFitting(
        _ message: ServerMessage, maxPayload: Int = FrameLimits.defaultMaxPayload
    ) -> (frame: [UInt8], trimmedClues: Int)? {
        if let frame = try? encodeFrame(message, maxPayload: maxPayload) { return (frame, 0) }
        guard case .room(let view) = message else { return nil }
        // The largest suffix of the clues that fits, by bisection over how many are kept.
        var fits = -1
        var best: [UInt8]?
        var low = 0
        var high = view.clues.count - 1
        while low <= high {
            let kept = (low + high) / 2
            var shorter = view
            shorter.clues = Array(view.clues.suffix(kept))
            if let frame = try? encodeFrame(ServerMessage.room(shorter), maxPayload: maxPayload) {
                fits = kept
                best = frame
                low = kept + 1
            } else {
                high = kept - 1
            }
        }
        guard let best, fits >= 0 else { return nil }
        return (best, view.clues.count - fits)
    }
}
