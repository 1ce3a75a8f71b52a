import Testing

@testable import SpyProtocol

/// What an answer costs does not grow with the host's rooms: counted in encodings, not timed.
@Suite struct DiscoveryAnswerCostTests {
    static func answer(rooms count: Int) -> DiscoveryAnswer {
        DiscoveryAnswer(
            name: "Host", port: 7777, protocol: 1, password: false,
            rooms: (0..<count).map { _ in .init(code: "ABCD", seated: 20, free: 0, playing: true) })
    }

    @Test func anAnswerTakesAtMostTwoEncodingsWithOneRoomOrTwoThousand() throws {
        for rooms in [1, 20, 2_000] {
            let (datagram, encodings) = Self.answer(rooms: rooms).encodedCountingWork(limit: 1_200)
            #expect(encodings <= 2, "\(encodings) encodings for \(rooms) rooms")
            let bytes = try #require(datagram)
            let decoded = try #require(DiscoveryAnswer.decode(bytes))
            #expect(decoded.rooms.count + decoded.more == rooms)
            #expect(decoded.rooms.count > 0 && decoded.rooms.count <= DiscoveryAnswer.maximumRooms)
        }
    }
}
