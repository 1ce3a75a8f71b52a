import Foundation
import Testing

@testable import SpyProtocol

@Suite struct FrameFitTests {
    @Test func aSnapshotTooLargeForAFrameIsSentWithoutItsOldestClues() throws {
        let clues = (0..<40).map { ClueView(player: "p1", round: $0, text: String(repeating: "字", count: 100)) }
        let view = RoomView(room: "ABCD", phase: .describing, clues: clues)
        // Small enough a frame that only some of the clues fit.
        let limit = 8_000
        #expect(throws: FrameError.self) { try WireCodec.encodeFrame(ServerMessage.room(view), maxPayload: limit) }
        let (frame, trimmed) = try #require(WireCodec.encodeFrameFitting(.room(view), maxPayload: limit))
        #expect(trimmed > 0 && trimmed < 40)
        #expect(frame.count <= limit + FrameLimits.headerSize)
        let decoded = try WireCodec.decode(ServerMessage.self, from: Array(frame.dropFirst(FrameLimits.headerSize)))
        guard case .room(let sent) = decoded else {
            Issue.record("a room message expected")
            return
        }
        #expect(sent.clues == Array(clues.suffix(40 - trimmed)), "the newest clues are kept")
        // One clue more would not have fitted.
        var oneMore = view
        oneMore.clues = Array(clues.suffix(40 - trimmed + 1))
        #expect(throws: FrameError.self) { try WireCodec.encodeFrame(ServerMessage.room(oneMore), maxPayload: limit) }
    }

    @Test func aMessageThatFitsIsUnchanged() throws {
        let message = ServerMessage.room(RoomView(room: "ABCD", phase: .lobby))
        let (frame, trimmed) = try #require(WireCodec.encodeFrameFitting(message))
        #expect(trimmed == 0)
        #expect(frame == (try WireCodec.encodeFrame(message)))
    }
}
