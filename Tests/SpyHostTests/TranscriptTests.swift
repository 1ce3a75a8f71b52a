import Foundation
import SpyGame
import SpyHostHarness
import SpyProtocol
import Testing

@testable import SpyHost

/// The transcript at the end of docs/PROTOCOL.md is a session of the host itself: its client lines are played
/// into the host's core, byte for byte, and what each connection receives, `welcome` and heartbeat included, must
/// be exactly the document's host lines, byte for byte and nothing more. When it is not, the session as the host
/// plays it now is written next to the build, ready to replace the block.
@Suite struct TranscriptTests {
    /// A line of the block: a comment, a frame a client sends, or a frame the host sends to one player or to all.
    enum Line: Equatable {
        case comment(String)
        case client(String, String)
        case host(String, String)

        var text: String {
            switch self {
            case .comment(let text): return text
            case .client(let player, let json): return "→ \(player) \(json)"
            case .host(let player, let json): return "← \(player) \(json)"
            }
        }
    }

    /// The bank of the recorded host, the fewest pairs a game may be dealt from; and the seed that makes its room
    /// KFRW and deals 咖啡 and 奶茶 as the transcript tells (p4 the spy, p1 speaking first).
    static let bank = [("咖啡", "奶茶"), ("牛奶", "豆漿"), ("可樂", "雪碧"), ("紅茶", "綠茶"), ("果汁", "蔬菜汁")].map {
        WordPair(civilian: $0.0, spy: $0.1, category: "飲料", language: .zhTW)
    }
    static let seed: UInt64 = 72_804_005

    static func documentedLines() throws -> [Line] {
        let text = try ProtocolDocument.text()
        let start = try #require(text.range(of: "```transcript\n"))
        let body = text[start.upperBound...]
        let end = try #require(body.range(of: "\n```"))
        return body[..<end.lowerBound].split(separator: "\n").map { raw in
            let line = String(raw)
            guard line.hasPrefix("→ ") || line.hasPrefix("← ") else { return .comment(line) }
            let parts = line.split(separator: " ", maxSplits: 2).map(String.init)
            return parts[0] == "→" ? .client(parts[1], parts[2]) : .host(parts[1], parts[2])
        }
    }

    /// Plays the client lines of `lines` into a host and records the session: the same client lines and comments,
    /// and the host lines as the host sends them now.
    static func record(_ lines: [Line]) throws -> [Line] {
        let host = EmbeddedHost(bank: bank) { $0.seed = seed }
        var connections: [(player: String, id: UInt64)] = []
        var recorded: [Line] = []
        var unanswered: Set<String> = []
        func collect() {
            var pending = connections.map { (player: $0.player, frames: host.payloads(on: $0.id)) }
            for line in Self.hostLines(&pending) {
                recorded.append(line)
                if case .host(let to, let json) = line, json.hasPrefix(#"{"type":"ping""#) {
                    unanswered.formUnion(to == "all" ? connections.map(\.player) : [to])
                }
            }
        }
        for line in lines {
            guard case .client(let player, let json) = line else { continue }
            if json.hasPrefix(#"{"type":"pong""#), !unanswered.contains(player) {
                // The host pings a connection it has heard nothing from for 30 s: let that time pass.
                host.advance(seconds: Double(host.core.limits.pingSeconds))
                collect()
            }
            unanswered.remove(player)
            recorded.append(line)
            if !connections.contains(where: { $0.player == player }) {
                connections.append((player, host.connect()))
            }
            let id = try #require(connections.first { $0.player == player }?.id)
            try host.send(payload: Array(json.utf8), on: id)
            collect()
        }
        return withComments(of: lines, in: recorded)
    }

    /// `frames` with the comments of `documented`, each after as many frame lines as it follows there.
    static func withComments(of documented: [Line], in frames: [Line]) -> [Line] {
        var comments: [Int: [Line]] = [:]
        var count = 0
        for line in documented {
            if case .comment = line { comments[count, default: []].append(line) } else { count += 1 }
        }
        var result = comments[0] ?? []
        for (index, line) in frames.enumerated() {
            result.append(line)
            result += comments[index + 1] ?? []
        }
        return result
    }

    /// The frames connections received after one client line, as lines: a frame every connection has next is one
    /// line to `all` (unless it is of a type the host only sends to one connection, as a `deal`, which each gets
    /// on a line of its own, in the order of the players); any other frame is its connection's own line.
    static func hostLines(_ pending: inout [(player: String, frames: [[UInt8]])]) -> [Line] {
        var lines: [Line] = []
        while pending.contains(where: { !$0.frames.isEmpty }) {
            if let head = pending.first?.frames.first, !isPrivate(head),
                pending.allSatisfy({ $0.frames.first == head })
            {
                lines.append(.host("all", String(decoding: head, as: UTF8.self)))
                for index in pending.indices { pending[index].frames.removeFirst() }
                continue
            }
            let index =
                pending.indices.first { pending[$0].frames.first.map(isPrivate) == true }
                ?? pending.indices.first { !pending[$0].frames.isEmpty }!
            let frame = pending[index].frames.removeFirst()
            lines.append(.host(pending[index].player, String(decoding: frame, as: UTF8.self)))
        }
        return lines
    }

    /// Whether a frame is of a type the host only ever sends to one connection (so one player alone at the table
    /// is not "all" for it).
    static func isPrivate(_ frame: [UInt8]) -> Bool {
        let type = (try? WireCodec.decode(ServerMessage.self, from: frame))?.type ?? ""
        return ["welcome", "deal", "pong", "error", "bye", "claim", "claim_pending", "claim_done"].contains(type)
    }

    @Test func theTranscriptIsTheHostsOwnSession() throws {
        let documented = try Self.documentedLines()
        let recorded = try Self.record(documented)
        let frames = { (lines: [Line]) in lines.filter { if case .comment = $0 { false } else { true } } }
        guard frames(recorded) != frames(documented) else { return }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("protocol-transcript.txt")
        try Data(recorded.map(\.text).joined(separator: "\n").appending("\n").utf8).write(to: file)
        let first = Array(zip(frames(recorded), frames(documented))).firstIndex { $0 != $1 }
        Issue.record(
            """
            the transcript is not what the host sends now (first difference at frame \
            \(first.map(String.init) ?? "count \(frames(recorded).count) against \(frames(documented).count)")); \
            the session as recorded is in \(file.path)
            """)
    }

    /// Every `pong` in the transcript answers the `ping` before it with the same `id`.
    @Test func everyPongEchoesItsPing() throws {
        var pings: [String: Int] = [:]
        for line in try Self.documentedLines() {
            switch line {
            case .host(let player, let json):
                if case .ping(let ping) = try WireCodec.decode(ServerMessage.self, from: Array(json.utf8)) {
                    pings[player] = ping.id
                }
            case .client(let player, let json):
                if case .pong(let pong) = try WireCodec.decode(ClientMessage.self, from: Array(json.utf8)) {
                    #expect(pong.id == pings[player] ?? pings["all"], "\(player)'s pong")
                }
            case .comment:
                break
            }
        }
        #expect(!pings.isEmpty)
    }
}
