import Foundation
import SpyProtocol
import XCTest

@testable import SpyGame

/// Replays the client moves of the transcript in docs/PROTOCOL.md through a real `Room` and checks that the room
/// sends exactly the frames the transcript shows, in order. Frames the daemon adds around the rules (`welcome`,
/// heartbeat `ping`/`pong`) are left out of the comparison.
final class TranscriptReplayTests: XCTestCase {
    private struct Line {
        var outgoing: Bool
        var peer: String
        var message: String
    }

    /// The seed whose deal matches the transcript: p4 is the spy, p1 speaks first, the civilians hold 咖啡.
    private static let seed: UInt64 = TranscriptReplayTests.findSeed()

    private static func transcriptLines() throws -> [Line] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("docs/PROTOCOL.md"), encoding: .utf8)
        guard let start = text.range(of: "```transcript\n") else { throw CocoaError(.fileReadCorruptFile) }
        let body = text[start.upperBound...]
        var lines: [Line] = []
        for raw in body.split(separator: "\n") {
            if raw.hasPrefix("```") { break }
            let outgoing = raw.hasPrefix("→ ")
            guard outgoing || raw.hasPrefix("← ") else { continue }
            let rest = raw.dropFirst(2)
            guard let space = rest.firstIndex(of: " ") else { continue }
            lines.append(Line(outgoing: outgoing, peer: String(rest[..<space]), message: String(rest[space...])))
        }
        return lines
    }

    private static let pair = WordPair(civilian: "咖啡", spy: "奶茶")

    /// The first seed (from 0) whose game 1 deals p4 the spy word and lets p1 speak first.
    private static func findSeed() -> UInt64 {
        for seed in UInt64(0)..<100_000 {
            var room = Room(code: "KFRW", settings: GameSettings(), seed: seed)
            for name in ["Amy", "Ben", "小明", "Dana"] { _ = room.apply(.join(name: name, bot: false), now: 0) }
            guard case .success(let effects) = room.apply(.start(by: "p1", pairs: [pair]), now: 0) else { continue }
            let deals = effects.compactMap { effect -> (PlayerID, String?)? in
                if case .send(let player, .deal(let deal)) = effect { return (player, deal.word) }
                return nil
            }
            let firstTurn = effects.lazy.compactMap { effect -> PlayerID? in
                if case .broadcast(.turn(let turn)) = effect { return turn.player }
                return nil
            }.first
            let wanted: [(PlayerID, String?)] = [("p1", "咖啡"), ("p2", "咖啡"), ("p3", "咖啡"), ("p4", "奶茶")]
            if firstTurn == "p1", deals.map(\.0) == wanted.map(\.0), deals.map(\.1) == wanted.map(\.1) {
                return seed
            }
        }
        return .max
    }

    func testTheDocumentedGameIsWhatTheRulesEngineSends() throws {
        XCTAssertNotEqual(Self.seed, .max, "no seed deals the transcript's game")
        var room = Room(code: "KFRW", settings: GameSettings(), seed: Self.seed)
        var produced: [(peer: String, message: ServerMessage)] = []
        var documented: [(peer: String, message: ServerMessage)] = []
        let daemonOnly: Set<String> = ["welcome", "ping", "pong"]
        for line in try Self.transcriptLines() {
            if line.outgoing {
                let move = try WireCodec.decode(ClientMessage.self, from: Array(line.message.utf8))
                let event: RoomEvent
                switch move {
                case .hello(let hello): event = .join(name: hello.name, bot: false)
                case .ping, .pong: continue
                case .start: event = .start(by: line.peer, pairs: [Self.pair])
                default: event = .move(line.peer, move)
                }
                let effects = try room.apply(event, now: 0).get()
                for effect in effects {
                    switch effect {
                    case .send(let player, let message): produced.append((player, message))
                    case .broadcast(let message): produced.append(("all", message))
                    case .joined(let player): XCTAssertEqual(player, "p\(room.playerIDs.count)")
                    default: break
                    }
                }
            } else {
                let message = try WireCodec.decode(ServerMessage.self, from: Array(line.message.utf8))
                if !daemonOnly.contains(message.type) { documented.append((line.peer, message)) }
            }
        }
        XCTAssertEqual(produced.count, documented.count)
        for (index, (made, shown)) in zip(produced, documented).enumerated() {
            XCTAssertEqual(made.peer, shown.peer, "frame \(index)")
            XCTAssertEqual(made.message, shown.message, "frame \(index): \(made.message.type)")
        }
        XCTAssertEqual(room.phase, .gameOver)
    }
}
