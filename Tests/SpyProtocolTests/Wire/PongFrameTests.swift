import Testing

@testable import SpyProtocol

/// The pong written straight into its frame against the general writer's frame and the `Encodable` one, for ids of
/// every length and sign.
@Suite struct PongFrameTests {
    @Test(arguments: [0, 7, 9, 10, 99, 100, 12_345, 1 << 40, -1, -10, -987_654_321, Int.max, Int.min])
    func thePongFrameIsTheWritersFrame(id: Int) throws {
        let general = try WireCodec.encodeFrame(ServerMessage.pong(.init(id: id)))
        #expect(WireCodec.pongFrame(id: id) == general)
        #expect(general == (try WireCodec.frame(StreamingJSONEncoder.encode(ServerMessage.pong(.init(id: id))))))
    }
}
