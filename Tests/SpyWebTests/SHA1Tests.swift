import Testing

@testable import SpyWeb

@Suite struct SHA1Tests {
    /// The test vectors of RFC 3174, section 7.3, and the empty message.
    @Test(arguments: [
        ("abc", 1, "a9993e364706816aba3e25717850c26c9cd0d89d"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 1, "84983e441c3bd26ebaae4aa1f95129e5e54670f1"),
        ("a", 1_000_000, "34aa973cd4c4daa4f61eeb2bdbad27316534016f"),
        (
            "0123456701234567012345670123456701234567012345670123456701234567", 10,
            "dea356a2cddd90c7a7ecedc5ebb563934f460452"
        ),
        ("", 1, "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
    ])
    func rfc3174Vectors(text: String, repeats: Int, digest: String) {
        let message = Array(repeating: Array(text.utf8), count: repeats).flatMap { $0 }
        #expect(SHA1.hex(message) == digest)
    }

    /// Lengths around the 55/56/64-byte padding boundaries all give 20 bytes and differ from each other.
    @Test func paddingBoundaries() {
        let digests = (50...130).map { SHA1.hex(Array(repeating: UInt8(0x61), count: $0)) }
        #expect(Set(digests).count == digests.count)
        #expect(digests.allSatisfy { $0.count == 40 })
        #expect(SHA1.hash(Array(repeating: UInt8(0x61), count: 64)).count == 20)
    }

    /// RFC 6455, section 1.3: the key "dGhlIHNhbXBsZSBub25jZQ==" is answered with "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=".
    @Test func webSocketAcceptOfTheRFC6455Example() {
        #expect(WebSocketHandshake.acceptValue(forKey: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }
}
