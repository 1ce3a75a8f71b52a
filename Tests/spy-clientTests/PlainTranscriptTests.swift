import Foundation
import Glibc
import SpyProtocol
import Testing

@testable import SpyClient

/// The whole of what a screen-reader user hears in line mode through one game, from a scripted host: the word at
/// the deal, every turn, who voted, the result and the reveal, and leaving. Compared line by line.
@Suite(.serialized) final class PlainTranscriptTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "spy-plain-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    static let seats = [
        SeatView(id: "p1", seat: 1, name: "王小明", owner: true), SeatView(id: "p2", seat: 2, name: "Amy"),
        SeatView(id: "p3", seat: 3, name: "李大華"), SeatView(id: "p4", seat: 4, name: "Dana"),
    ]

    static func room(
        _ phase: Phase, round: Int = 1, turn: PlayerID? = nil, seats: [SeatView] = seats, clues: [ClueView] = [],
        winner: Winner? = nil
    ) -> RoomView {
        RoomView(
            room: "KXPT", phase: phase, game: phase == .lobby ? 0 : 1, round: phase == .lobby ? 0 : round,
            settings: GameSettings(clueMode: .typed), seats: seats, turn: turn, clues: clues, winner: winner)
    }

    @Test func aWholeGameInLineModeSaysEverythingAScreenReaderNeeds() throws {
        let host = try FakeHost()
        let environment = [
            "XDG_STATE_HOME": directory.path, "HOME": directory.path, "LANG": "en_US.UTF-8", "PATH": "/usr/bin:/bin",
        ]
        let client = try RunningProgram(
            "spy-client", ["127.0.0.1:\(host.port)", "--plain", "--name", "Amy"], environment: environment)
        let connection = try host.accept()
        guard case .hello = try connection.receive() else { throw EndToEndError("no hello") }
        connection.send(.welcome(.init(you: "p2", token: "tok", room: "KXPT")), .room(Self.room(.lobby)))
        try client.waitFor("Amy joined")

        // The deal, then 王小明 types a clue, then it is Amy's turn.
        let clue1 = ClueView(player: "p1", round: 1, text: "morning drink")
        connection.send(
            .deal(.init(game: 1, word: "coffee")), .turn(.init(round: 1, player: "p1")),
            .room(Self.room(.describing, turn: "p1")), .clue(clue1), .turn(.init(round: 1, player: "p2")),
            .room(Self.room(.describing, turn: "p2", clues: [clue1])))
        try client.waitFor("» Your turn")
        client.type("clue dark and hot")
        #expect(try connection.receive() == .clue(.init(text: "dark and hot")))
        let clue2 = ClueView(player: "p2", round: 1, text: "dark and hot")
        let clue3 = ClueView(player: "p3", round: 1)
        let clue4 = ClueView(player: "p4", round: 1, text: "with milk")
        let all = ["p1", "p2", "p3", "p4"]
        connection.send(
            .clue(clue2), .turn(.init(round: 1, player: "p3", timerMs: 20_000, timerKind: .absent)), .clue(clue3),
            .turn(.init(round: 1, player: "p4")), .clue(clue4), .voting(.init(round: 1, candidates: all, voters: all)),
            .room(Self.room(.voting, clues: [clue1, clue2, clue3, clue4])),
            .voteProgress(.init(voted: ["p1"], waiting: ["p2", "p3", "p4"])))
        try client.waitFor("王小明 has voted")
        client.type("vote 4")
        #expect(try connection.receive() == .vote(.init(target: "p4")))
        var out = Self.seats
        out[3].alive = false
        out[3].revealed = .spy
        connection.send(
            .voteProgress(.init(voted: ["p1", "p2"], waiting: ["p3", "p4"])),
            .voteProgress(.init(voted: ["p1", "p2", "p4"], waiting: ["p3"])),
            .voteResult(
                .init(
                    round: 1,
                    tally: [
                        TallyEntry(player: "p4", voters: ["p1", "p2"]), TallyEntry(player: "p1", voters: ["p4"]),
                    ],
                    abstained: ["p3"], outcome: .out, out: "p4", identity: .spy)),
            .gameOver(
                .init(
                    game: 1, winner: .civilians, civilianWord: "coffee", spyWord: "tea",
                    reveal: [
                        RevealEntry(player: "p1", role: .civilian, word: "coffee"),
                        RevealEntry(player: "p2", role: .civilian, word: "coffee"),
                        RevealEntry(player: "p3", role: .civilian, word: "coffee"),
                        RevealEntry(player: "p4", role: .spy, word: "tea"),
                    ],
                    scores: [])),
            .room(Self.room(.gameOver, seats: out, clues: [clue1, clue2, clue3, clue4], winner: .civilians)))
        try client.waitFor("Dana: spy (tea)")
        client.type("quit")
        #expect(try connection.receive() == .leave)
        connection.send(.bye(.init(reason: "left")))
        #expect(try client.waitForExit() == 0)

        let expected = """
            # Room KXPT · Lobby
              1 王小明 ★ 0 pt
              2 Amy you 0 pt
              3 李大華 0 pt
              4 Dana 0 pt
              Traditional Chinese and English · spies 1 · no blank · typed · no timers · tie: PK · spies win at 3 left
            · Amy joined
            · Game 1 starts: words are dealt
            » Your word: coffee (type word to see it again; clear your screen to hide it)
            · Turn: 王小明
            · 王小明: morning drink
            » Your turn: type clue YOUR CLUE (or pass)
            · Amy: dark and hot
            · Turn: 李大華
            · 李大華 is done
            · Turn: Dana
            · Dana: with milk
            » Voting opens — vote N: 1 王小明, 3 李大華, 4 Dana
            · 王小明 has voted
            You voted for Dana (you may change it)
            · Amy has voted
            · Dana has voted
            · Dana ← 王小明, Amy
            · 王小明 ← Dana
            · Abstained: 李大華
            · Dana is out: a spy
            · The civilians win! Civilian word: coffee  Spy word: tea
            · 王小明: civilian (coffee)
            · Amy: civilian (coffee)
            · 李大華: civilian (coffee)
            · Dana: spy (tea)
            """
        #expect(
            client.stdout.split(separator: "\n").map(String.init) == expected.split(separator: "\n").map(String.init))
        #expect(client.stderr.contains("You left the room: your seat is given up."))
    }
}
