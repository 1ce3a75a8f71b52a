import Foundation
import SpyProtocol
import XCTest

@testable import SpyGame

/// The largest messages the rules can produce, built from fields at their bounds, still fit one frame.
final class FrameBudgetTests: XCTestCase {
    /// The text that encodes to the most JSON within `characters` and `bytes`: as many `"` as there are
    /// characters (each escapes to two bytes), with combining marks filling up the bytes. Checked against the
    /// rules so the test cannot build something they would refuse.
    private func worstText(characters: Int, bytes: Int) -> String {
        let quotes = min(characters, bytes)
        var text = ""
        var spare = bytes - quotes
        for _ in 0..<quotes {
            text += "\""
            for _ in 0..<PlayerText.maxMarksPerCharacter where spare >= 3 {
                text += "\u{20D0}"  // a three-byte combining mark
                spare -= 3
            }
        }
        return text
    }

    private var worstName: String {
        let name = worstText(characters: PlayerText.maxNameColumns, bytes: PlayerText.maxNameBytes)
        XCTAssertNil(PlayerText.nameProblem(name, raw: name))
        XCTAssertEqual(name.utf8.count, PlayerText.maxNameBytes)
        return name
    }

    private var worstClue: String {
        let clue = worstText(characters: PlayerText.maxClueCharacters, bytes: PlayerText.maxClueBytes)
        XCTAssertNil(PlayerText.clueProblem(clue))
        XCTAssertEqual(clue.utf8.count, PlayerText.maxClueBytes)
        return clue
    }

    /// The longest id a room can hand out.
    private func id(_ index: Int) -> PlayerID { "p\(Int.max - index)" }

    private var worstSettings: GameSettings {
        let category = worstText(characters: PlayerText.maxCategoryCharacters, bytes: PlayerText.maxCategoryBytes)
        let settings = GameSettings(
            maxPlayers: Rules.maxTableSize, spies: 3, blank: true, clueMode: .typed, turnSeconds: 600,
            voteSeconds: 600, categories: Array(repeating: category, count: Rules.maxCategories), spyWin: .parity)
        XCTAssertNil(Rules.validate(settings, seated: Rules.maxTableSize))
        return settings
    }

    func testTheLargestRoomSnapshotFitsAFrame() throws {
        let seats = (0..<Rules.maxTableSize).map { index in
            SeatView(
                id: id(index), seat: index + 1, name: worstName, owner: true, connected: true, bot: true,
                alive: true, voted: true, revealed: .civilian, score: Int.max, sittingOut: true, left: true)
        }
        let clues = (0..<Rules.cluesInView).map { ClueView(player: id($0 % 20), round: Int.max, text: worstClue) }
        let view = RoomView(
            room: String(repeating: "Z", count: 16), phase: .gameOver, game: Int.max, round: Int.max,
            settings: worstSettings, seats: seats, turn: id(0), pk: (0..<Rules.maxTableSize).map(id),
            clues: clues, timerMs: Int.max, winner: .civilians, timerKind: .absent)
        let size = WireCodec.encodePayload(ServerMessage.room(view)).count
        XCTAssertLessThanOrEqual(size, FrameLimits.defaultMaxPayload, "largest snapshot: \(size) bytes")
        print("largest room snapshot: \(size) of \(FrameLimits.defaultMaxPayload) bytes")
    }

    func testTheLargestClueAndGameOverFitAFrame() throws {
        let clue = ServerMessage.clue(ClueView(player: id(0), round: Int.max, text: worstClue))
        XCTAssertLessThanOrEqual(WireCodec.encodePayload(clue).count, FrameLimits.defaultMaxPayload)
        // Bank words are at most 40 characters; give each four-byte letters with two four-byte marks.
        let word = String(repeating: "\u{1D400}\u{1D167}\u{1D167}", count: 40)
        let over = ServerMessage.gameOver(
            .init(
                game: Int.max, winner: .blank, civilianWord: word, spyWord: word,
                reveal: (0..<Rules.maxTableSize).map { RevealEntry(player: id($0), role: .civilian, word: word) },
                blankGuess: worstClue,
                scores: (0..<Rules.maxTableSize).map { ScoreEntry(player: id($0), score: Int.max) }))
        let size = WireCodec.encodePayload(over).count
        XCTAssertLessThanOrEqual(size, FrameLimits.defaultMaxPayload, "largest game over: \(size) bytes")
    }

    /// A `history` message holds `Rules.historyGamesPerMessage` records of the largest games: a full table, every
    /// player but one going out, the largest guesses of the blank and every spy, the longest words.
    func testTheLargestHistoryMessageFitsAFrame() throws {
        let word = String(repeating: "\u{1D400}\u{1D167}\u{1D167}", count: 40)
        let players = (0..<Rules.maxTableSize).map { index in
            GameRecord.Player(player: id(index), name: worstName, role: .civilian, points: Int.max, survived: false)
        }
        let outs = (0..<Rules.maxTableSize).map { index in
            GameRecord.Out(player: id(index), round: Int.max, reason: .voted, votes: Int.max, pk: true)
        }
        let guesses = (0..<4).map { GameRecord.Guess(player: id($0), round: Int.max, word: worstClue, correct: false) }
        let record = GameRecord(
            game: Int.max, civilianWord: word, spyWord: word, winner: .civilians, players: players, outs: outs,
            guesses: guesses)
        let message = ServerMessage.history(
            .init(games: Array(repeating: record, count: Rules.historyGamesPerMessage)))
        let size = WireCodec.encodePayload(message).count
        XCTAssertLessThanOrEqual(size, FrameLimits.defaultMaxPayload, "largest history: \(size) bytes")
        print("largest history message: \(size) of \(FrameLimits.defaultMaxPayload) bytes")
    }

    func testTheNameThatBlindedARoomIsRefused() {
        var table = Table()
        table.seat(3)
        let name = "Z" + String(repeating: "\u{0301}", count: 32_740)
        table.refused(.join(name: name, bot: false), .badName)
    }

    func testAClueOfHundredsOfMarksPerLetterIsRefused() throws {
        var table = Table(seed: 3, settings: GameSettings(clueMode: .typed))
        table.seat(4)
        table.start()
        let speaker = try XCTUnwrap(table.speaker)
        let clue = String(repeating: "x" + String(repeating: "\u{0301}", count: 330), count: 100)
        table.refused(.move(speaker, .clue(.init(text: clue))), .badClue)
        table.refused(.move(speaker, .clue(.init(text: "x\u{0301}\u{0301}\u{0301}"))), .badClue)
        table.ok(.move(speaker, .clue(.init(text: "x\u{0301}\u{0301}"))))
    }
}
