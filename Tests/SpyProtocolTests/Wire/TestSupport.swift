import SpyProtocol

/// Deterministic generator so every run of a randomised test sees the same bytes.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}

/// The four header bytes announcing `length`.
func header(_ length: UInt32) -> [UInt8] {
    [UInt8(length >> 24), UInt8((length >> 16) & 0xFF), UInt8((length >> 8) & 0xFF), UInt8(length & 0xFF)]
}

/// A payload of `count` bytes whose content tells frames apart.
func payload(count: Int, tag: Int) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ tag) }
}

/// Every frame the decoder can produce from what it holds now.
func drain(_ decoder: inout FrameDecoder) throws(FrameError) -> [[UInt8]] {
    var frames: [[UInt8]] = []
    while let frame = try decoder.next() {
        frames.append(frame)
    }
    return frames
}

/// The bytes of a JSON text.
func bytes(_ text: String) -> [UInt8] {
    Array(text.utf8)
}
