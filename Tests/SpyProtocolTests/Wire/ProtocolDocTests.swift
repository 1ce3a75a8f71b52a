import Foundation
import SpyProtocol
import Testing

/// Keeps docs/PROTOCOL.md and the code in step: every example must decode, and every type and code must appear.
struct ProtocolDocTests {
    /// One fenced block of the document: its info string (`json client`, `transcript`, …) and its lines.
    struct Block {
        var info: String
        var lines: [String]
        var startLine: Int
    }

    /// A transcript line: who sent the frame to whom, and its JSON.
    struct TranscriptFrame {
        var fromClient: Bool
        var player: String
        var json: String
        var line: Int
    }

    static let documentURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/PROTOCOL.md")

    static func document() throws -> String {
        try String(contentsOf: documentURL, encoding: .utf8)
    }

    static func blocks(of document: String) -> [Block] {
        var blocks: [Block] = []
        var current: Block?
        for (index, line) in document.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.hasPrefix("```") {
                if let open = current {
                    blocks.append(open)
                    current = nil
                } else {
                    let info = line.dropFirst(3).trimmingCharacters(in: .whitespaces)
                    current = Block(info: info, lines: [], startLine: index + 1)
                }
            } else if current != nil {
                current?.lines.append(String(line))
            }
        }
        return blocks
    }

    static func decodeClient(_ json: String) throws(MessageError) -> ClientMessage {
        try WireCodec.decode(ClientMessage.self, from: Array(json.utf8))
    }

    static func decodeServer(_ json: String) throws(MessageError) -> ServerMessage {
        try WireCodec.decode(ServerMessage.self, from: Array(json.utf8))
    }

    static func transcript(_ document: String) throws -> [TranscriptFrame] {
        let block = try #require(blocks(of: document).first { $0.info == "transcript" })
        var frames: [TranscriptFrame] = []
        for (offset, raw) in block.lines.enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let parts = line.split(separator: " ", maxSplits: 2).map(String.init)
            let number = block.startLine + 1 + offset
            try #require(parts.count == 3, "transcript line \(number) is not `ARROW WHO JSON`")
            try #require(parts[0] == "→" || parts[0] == "←", "transcript line \(number) has no arrow")
            frames.append(TranscriptFrame(fromClient: parts[0] == "→", player: parts[1], json: parts[2], line: number))
        }
        return frames
    }

    @Test func documentIsFound() throws {
        #expect(try Self.document().hasPrefix("# The WhoIsSpy LAN protocol"))
    }

    @Test func everyExampleDecodes() throws {
        let examples = Self.blocks(of: try Self.document()).filter { $0.info.hasPrefix("json") }
        var clientTypes: Set<String> = []
        var serverTypes: Set<String> = []
        for example in examples {
            let json = example.lines.joined(separator: "\n")
            switch example.info {
            case "json client":
                do {
                    let message = try Self.decodeClient(json)
                    clientTypes.insert(message.type)
                    // The example must say what it decodes to, not rely on ignored fields.
                    let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
                    #expect(object?["type"] as? String == message.type)
                } catch {
                    Issue.record("client example at line \(example.startLine) does not decode: \(error)")
                }
            case "json server":
                do {
                    serverTypes.insert(try Self.decodeServer(json).type)
                } catch {
                    Issue.record("server example at line \(example.startLine) does not decode: \(error)")
                }
            default:
                Issue.record("json block at line \(example.startLine) is not marked client or server")
            }
        }
        #expect(clientTypes == Set(ClientMessage.allTypes), "every client message has an example")
        #expect(serverTypes == Set(ServerMessage.allTypes), "every host message has an example")
    }

    @Test func everyMessageHasASection() throws {
        let document = try Self.document()
        let clientPart = try #require(document.range(of: "## Client messages"))
        let serverPart = try #require(document.range(of: "## Host messages"))
        let sharedPart = try #require(document.range(of: "## Shared objects"))
        let clientText = document[clientPart.upperBound..<serverPart.lowerBound]
        let serverText = document[serverPart.upperBound..<sharedPart.lowerBound]
        for type in ClientMessage.allTypes {
            #expect(clientText.contains("\n### `\(type)`\n"), "client section for \(type)")
        }
        for type in ServerMessage.allTypes {
            #expect(serverText.contains("\n### `\(type)`\n"), "host section for \(type)")
        }
    }

    @Test func everyErrorCodeIsListedWithItsFatality() throws {
        let document = try Self.document()
        var listed: [String: Bool] = [:]
        for line in document.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 3, cells[1] == "yes" || cells[1] == "no" else { continue }
            listed[cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))] = cells[1] == "yes"
        }
        for code in ErrorCode.allCases {
            #expect(listed[code.rawValue] == code.isFatal, "error table row for \(code.rawValue)")
        }
        #expect(listed.count == ErrorCode.allCases.count, "the error table lists no code the code lacks")
    }

    @Test func documentedLimitsMatchTheCode() throws {
        let document = try Self.document()
        #expect(FrameLimits.defaultMaxPayload == 65_536)
        #expect(document.contains("`1 ≤ N ≤ 65,536`"))
        #expect(supportedProtocolVersions == [1])
        #expect(document.contains(ErrorCode.protocolVersion.defaultMessage))
        let example = Array(#"{"type":"ping","id":7}"#.utf8)
        let hex = try WireCodec.frame(example).map { String(format: "%02x", $0) }.joined(separator: " ")
        #expect(document.contains(hex))
    }

    @Test func transcriptDecodesInBothDirections() throws {
        let frames = try Self.transcript(try Self.document())
        #expect(frames.count > 50)
        for frame in frames {
            do {
                if frame.fromClient {
                    _ = try Self.decodeClient(frame.json)
                } else {
                    _ = try Self.decodeServer(frame.json)
                }
            } catch {
                Issue.record("transcript line \(frame.line) does not decode: \(error)")
            }
        }
    }

    @Test func transcriptTellsTheAdvertisedGame() throws {
        let frames = try Self.transcript(try Self.document())
        let players = ["p1", "p2", "p3", "p4"]
        #expect(frames.allSatisfy { players.contains($0.player) || (!$0.fromClient && $0.player == "all") })

        let hellos = frames.filter { $0.fromClient }.compactMap { try? Self.decodeClient($0.json) }
            .filter { if case .hello = $0 { return true } else { return false } }
        #expect(hellos.count == 4)
        #expect(try Self.decodeClient(try #require(frames.first).json).type == "hello")

        let server = frames.filter { !$0.fromClient }.compactMap { frame in
            (try? Self.decodeServer(frame.json)).map { (frame.player, $0) }
        }
        var welcomed: Set<String> = []
        var deals: [String: ServerMessage.Deal] = [:]
        var gameOver: ServerMessage.GameOver?
        var rounds: Set<Int> = []
        for (player, message) in server {
            switch message {
            case .welcome(let welcome):
                #expect(welcome.you == player)
                #expect(welcome.token.count == 32 && welcome.token.allSatisfy(\.isHexDigit))
                welcomed.insert(player)
            case .deal(let deal):
                #expect(player != "all", "a deal goes to one player")
                deals[player] = deal
            case .clue(let clue):
                #expect(clue.text == nil, "spoken mode carries no clue text")
                rounds.insert(clue.round)
            case .gameOver(let result):
                gameOver = result
            case .room(let room):
                #expect(room.settings.clueMode == .spoken && room.settings.spies == 1 && !room.settings.blank)
            default:
                break
            }
        }
        #expect(welcomed == Set(players))
        #expect(Set(deals.keys) == Set(players))
        let result = try #require(gameOver)
        #expect(result.winner == .civilians)
        #expect(rounds == [1, 2])
        #expect(result.reveal.filter { $0.role == .spy }.count == 1)
        for entry in result.reveal {
            #expect(deals[entry.player]?.word == entry.word, "deal of \(entry.player) matches the reveal")
        }
        let last = try #require(server.last { if case .gameOver = $0.1 { return false } else { return true } })
        if case .room(let room) = last.1 {
            #expect(room.phase == .gameOver)
        }
    }

    @Test func transcriptKeepsSecrets() throws {
        let frames = try Self.transcript(try Self.document())
        let gameOverIndex = try #require(frames.firstIndex { $0.json.contains(#""type":"game_over""#) })
        let result = try Self.decodeServer(frames[gameOverIndex].json)
        guard case .gameOver(let over) = result else {
            Issue.record("no game_over")
            return
        }
        for frame in frames[..<gameOverIndex] where !frame.fromClient {
            let message = try Self.decodeServer(frame.json)
            if case .deal = message { continue }
            #expect(!frame.json.contains(over.civilianWord), "line \(frame.line) leaks the civilians' word")
            #expect(!frame.json.contains(over.spyWord), "line \(frame.line) leaks the spies' word")
            #expect(!frame.json.contains("\"role\""), "line \(frame.line) leaks a role")
        }
    }
}
