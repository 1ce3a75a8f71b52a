import Foundation
import SpyProtocol

/// The evening's history as files a spreadsheet or a script reads: CSV with one row per player and game, or JSON
/// with the records as the host sent them.
enum HistoryExport {
    enum Format: Equatable, Sendable {
        case csv
        case json
    }

    /// JSON for a name ending in `.json`, CSV otherwise.
    static func format(of path: String) -> Format {
        path.lowercased().hasSuffix(".json") ? .json : .csv
    }

    /// The files `x` writes in the current directory: both formats, named after the room.
    static func defaultPaths(room: String?) -> [String] {
        let stem = "spy-history" + (room.map { "-" + $0.filter { $0.isASCII && $0.isLetter } } ?? "")
        return [stem + ".csv", stem + ".json"]
    }

    static func bytes(_ records: [GameRecord], room: String?, as format: Format) -> [UInt8] {
        switch format {
        case .csv: return Array(csv(records).utf8)
        case .json: return json(records, room: room)
        }
    }

    static let csvHeader = [
        "game", "winner", "civilian_word", "spy_word", "player", "name", "role", "points", "survived", "out_round",
        "out_reason", "out_votes", "out_pk", "guess", "guess_correct",
    ]

    /// One row per player of each game (a header first), every field quoted when it needs to be.
    static func csv(_ records: [GameRecord]) -> String {
        var rows = [csvHeader]
        for record in records {
            for player in record.players {
                let out = record.outs.first { $0.player == player.player }
                let guess = record.guesses.last { $0.player == player.player }
                rows.append([
                    String(record.game), record.winner.rawValue, record.civilianWord, record.spyWord, player.player,
                    player.name, player.role.rawValue, String(player.points), String(player.survived),
                    out.map { String($0.round) } ?? "", out?.reason.rawValue ?? "",
                    out?.votes.map(String.init) ?? "", out?.pk.map { String($0) } ?? "",
                    guess.map { $0.word ?? "" } ?? "", guess.map { String($0.correct) } ?? "",
                ])
            }
        }
        return rows.map { $0.map(csvField).joined(separator: ",") }.joined(separator: "\r\n") + "\r\n"
    }

    /// A field as RFC 4180 wants it; text a spreadsheet would run as a formula (a name starting with `=`, `+`,
    /// `-` or `@`) is prefixed with an apostrophe, as these names and words come from other players.
    static func csvField(_ field: String) -> String {
        var text = field
        if let first = text.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first), Int(text) == nil {
            text = "'" + text
        }
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    private struct Document: Encodable {
        var room: String?
        var games: [GameRecord]
    }

    static func json(_ records: [GameRecord], room: String?) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(Document(room: room, games: records))) ?? Data("{}".utf8)
        return Array(data) + [UInt8(ascii: "\n")]
    }
}
