import SpyProtocol
import XCTest

@testable import spy_bench

final class BenchPlayerTests: XCTestCase {
    private func seats(_ count: Int) -> [SeatView] {
        (1...count).map { SeatView(id: "p\($0)", seat: $0, name: "b\($0)") }
    }

    func testOwnerOpensARoomAndOthersJoinIt() {
        let owner = BenchPlayer(name: "o", isOwner: true, tableSize: 4, gamesWanted: 1, seed: 1)
        let guest = BenchPlayer(name: "g", isOwner: false, tableSize: 4, gamesWanted: 1, seed: 2)
        XCTAssertEqual(owner.hello(room: nil), .hello(ClientMessage.Hello(name: "o", create: true)))
        XCTAssertEqual(guest.hello(room: "ABCD"), .hello(ClientMessage.Hello(name: "g", room: "ABCD")))
    }

    func testOwnerStartsOnceWhenTheTableIsFullAndAgainAfterEachGame() {
        var owner = BenchPlayer(name: "o", isOwner: true, tableSize: 4, gamesWanted: 2, seed: 1)
        _ = owner.receive(.welcome(ServerMessage.Welcome(you: "p1", token: "t", room: "ABCD")))
        XCTAssertEqual(owner.receive(.room(RoomView(room: "ABCD", phase: .lobby, seats: seats(3)))).send, [])
        XCTAssertEqual(owner.receive(.room(RoomView(room: "ABCD", phase: .lobby, seats: seats(4)))).send, [.start])
        // A second view before the game starts must not start it twice.
        XCTAssertEqual(owner.receive(.room(RoomView(room: "ABCD", phase: .lobby, seats: seats(4)))).send, [])
        let over = ServerMessage.gameOver(
            ServerMessage.GameOver(
                game: 1, winner: .civilians, civilianWord: "a", spyWord: "b", reveal: [], scores: []))
        XCTAssertEqual(owner.receive(over).notes, [])
        XCTAssertEqual(owner.receive(.room(RoomView(room: "ABCD", phase: .gameOver, seats: seats(4)))).send, [.start])
        XCTAssertEqual(owner.receive(over).notes, [.finished])
        XCTAssertEqual(owner.receive(.room(RoomView(room: "ABCD", phase: .gameOver, seats: seats(4)))).send, [])
    }

    func testOwnerReadsRoomViewsOnlyBetweenGamesWhereTheyCanStartOne() {
        var owner = BenchPlayer(name: "o", isOwner: true, tableSize: 4, gamesWanted: 2, seed: 1)
        let guest = BenchPlayer(name: "g", isOwner: false, tableSize: 4, gamesWanted: 2, seed: 2)
        XCTAssertFalse(guest.needsDecoding("room"))
        XCTAssertTrue(owner.needsDecoding("room"))
        _ = owner.receive(.welcome(ServerMessage.Welcome(you: "p1", token: "t", room: "ABCD")))
        XCTAssertEqual(owner.receive(.room(RoomView(room: "ABCD", phase: .lobby, seats: seats(4)))).send, [.start])
        // While its game runs no room view can start another, so the owner skips them as the others do.
        XCTAssertFalse(owner.needsDecoding("room"))
        let over = ServerMessage.gameOver(
            ServerMessage.GameOver(
                game: 1, winner: .civilians, civilianWord: "a", spyWord: "b", reveal: [], scores: []))
        _ = owner.receive(over)
        XCTAssertTrue(owner.needsDecoding("room"))
        XCTAssertTrue(owner.needsDecoding("voting"))
        XCTAssertFalse(owner.needsDecoding("vote_result"))
    }

    func testPlayerDecodesOnlyTheTurnsThatNameIt() {
        var player = BenchPlayer(name: "g", isOwner: false, tableSize: 4, gamesWanted: 1, seed: 7)
        func turn(_ id: PlayerID) -> [UInt8] {
            WireCodec.encodePayload(ServerMessage.turn(ServerMessage.Turn(round: 1, player: id)))
        }
        XCTAssertTrue(player.needsDecoding("turn", payload: turn("p1")), "before the welcome it knows no id")
        _ = player.receive(.welcome(ServerMessage.Welcome(you: "p1", token: "t", room: "ABCD")))
        XCTAssertTrue(player.needsDecoding("turn", payload: turn("p1")))
        XCTAssertFalse(player.needsDecoding("turn", payload: turn("p10")))
        XCTAssertFalse(player.needsDecoding("turn", payload: turn("p2")))
    }

    func testPlayerPassesOnlyOnItsOwnTurnAndVotesForSomeoneElse() {
        var player = BenchPlayer(name: "g", isOwner: false, tableSize: 4, gamesWanted: 1, seed: 7)
        _ = player.receive(.welcome(ServerMessage.Welcome(you: "p2", token: "t", room: "ABCD")))
        XCTAssertEqual(player.receive(.turn(ServerMessage.Turn(round: 1, player: "p1"))).send, [])
        XCTAssertEqual(player.receive(.turn(ServerMessage.Turn(round: 1, player: "p2"))).send, [.pass])
        for _ in 0..<50 {
            let voting = ServerMessage.Voting(round: 1, candidates: ["p1", "p2", "p3"], voters: ["p1", "p2", "p3"])
            let (send, notes) = player.receive(.voting(voting))
            XCTAssertEqual(notes, [.votingOpened(voters: 3), .sentBallot])
            guard case .vote(let vote) = send.first else { return XCTFail("no ballot") }
            XCTAssertNotEqual(vote.target, "p2")
        }
    }

    func testPlayerOutsideTheVoteOnlyNotesIt() {
        var player = BenchPlayer(name: "g", isOwner: false, tableSize: 4, gamesWanted: 1, seed: 7)
        _ = player.receive(.welcome(ServerMessage.Welcome(you: "p4", token: "t", room: "ABCD")))
        let voting = ServerMessage.Voting(round: 2, candidates: ["p1", "p2"], voters: ["p3"], pk: true)
        XCTAssertEqual(player.receive(.voting(voting)).send, [])
    }

    func testHeartbeatAndErrors() {
        var player = BenchPlayer(name: "g", isOwner: false, tableSize: 4, gamesWanted: 1, seed: 7)
        XCTAssertEqual(player.receive(.ping(ServerMessage.Ping(id: 9))).send, [.pong(ClientMessage.Pong(id: 9))])
        let notes = player.receive(.error(ServerMessage.ErrorMessage(.roomFull))).notes
        XCTAssertEqual(notes.count, 1)
        guard case .failure(let text) = notes.first else { return XCTFail("error not noted") }
        XCTAssertTrue(text.hasPrefix("room_full"))
    }

    func testPercentilesByNearestRank() {
        var samples = LatencySamples()
        for value in 1...100 { samples.add(UInt64(value) * 1_000_000) }
        XCTAssertEqual(samples.percentileMs(0.5), 50)
        XCTAssertEqual(samples.percentileMs(0.99), 99)
        XCTAssertEqual(samples.maxMs, 100)
        XCTAssertEqual(LatencySamples().percentileMs(0.99), 0)
    }

    func testProcessUsageParsesProcFiles() {
        let stat = "1234 (spy d) S 1 1234 1234 0 -1 4194560 500 0 0 0 250 50 0 0 20 0 1 0 100 1000 200"
        let status = "Name:\tspyd\nVmPeak:\t  20000 kB\nVmHWM:\t   12345 kB\nVmRSS:\t   10000 kB\n"
        let usage = ProcessUsage.parse(stat: stat, status: status, ticksPerSecond: 100)
        XCTAssertEqual(usage, ProcessUsage(cpuSeconds: 3.0, peakRSSBytes: 12345 * 1024))
    }

    func testOptionsRefuseNonLoopbackTargets() throws {
        let parsed = try BenchOptions.command.parse(["--host", "192.168.1.5"])
        XCTAssertThrowsError(try BenchOptions.parse(parsed))
        let local = try BenchOptions.parse(try BenchOptions.command.parse(["--host=127.0.0.1", "--rooms", "3"]))
        XCTAssertEqual(local.rooms, 3)
        XCTAssertEqual(local.host, "127.0.0.1")
    }

    func testBotsOnlyAllowsManyGamesAndPlaysThemWithoutGivingAWordAway() throws {
        XCTAssertThrowsError(try BenchOptions.parse(try BenchOptions.command.parse(["--games", "2000"])))
        let options = try BenchOptions.parse(try BenchOptions.command.parse(["--bots-only", "--games", "2000"]))
        XCTAssertTrue(options.botsOnly)
        XCTAssertEqual(options.games, 2000)
        var small = options
        small.games = 3
        small.players = 5
        XCTAssertEqual(runBotsOnly(small), 0)
    }

    func testBotsOnlySpiesAndBlankAreCheckedAgainstTheTable() throws {
        func options(_ arguments: [String]) throws -> BenchOptions {
            try BenchOptions.parse(try BenchOptions.command.parse(["--bots-only"] + arguments))
        }
        XCTAssertEqual(try options([]).spies, 1)
        XCTAssertFalse(try options([]).blank)
        XCTAssertEqual(try options(["--players", "8", "--spies", "2"]).spies, 2)
        XCTAssertEqual(try options(["--players=10", "--spies=3", "--blank"]).spies, 3)
        XCTAssertTrue(try options(["--players", "6", "--blank"]).blank)
        XCTAssertThrowsError(try options(["--players", "6", "--spies", "3"]))
        XCTAssertThrowsError(try options(["--players", "6", "--spies", "2", "--blank"]))
        XCTAssertNoThrow(try options(["--players", "7", "--spies", "2", "--blank"]))
        XCTAssertNoThrow(try options(["--players", "7", "--spies", "2"]))
        XCTAssertThrowsError(try BenchOptions.parse(try BenchOptions.command.parse(["--spies", "2"])))
    }

    func testBotsOnlyPlaysTheEmbeddedPairsOfTheLanguageAsked() throws {
        func options(_ arguments: [String]) throws -> BenchOptions {
            try BenchOptions.parse(try BenchOptions.command.parse(["--bots-only"] + arguments))
        }
        XCTAssertEqual(try options([]).language, .both)
        XCTAssertEqual(try options(["--language", "zh-Hans"]).language, .zhHans)
        XCTAssertEqual(try options(["--language=zh-TW"]).language, .zhTW)
        XCTAssertThrowsError(try options(["--language", "fr"]))
        XCTAssertThrowsError(try BenchOptions.parse(try BenchOptions.command.parse(["--language", "en"])))
        var english = try options(["--language", "en", "--players", "5"])
        english.games = 3
        XCTAssertEqual(runBotsOnly(english), 0)
    }
}

final class FrameSnifferTests: XCTestCase {
    func testFindsTheTypeOfEveryServerMessage() {
        let messages: [ServerMessage] = [
            .room(RoomView(room: "ABCD", phase: .lobby, seats: [SeatView(id: "p1", seat: 1, name: #""type":"x""#)])),
            .clue(ClueView(player: "p1", round: 1, text: #"say "type":"vote" now"#)),
            .voteProgress(ServerMessage.VoteProgress(voted: ["p1"], waiting: [])),
            .pong(ServerMessage.Pong(id: 3)),
        ]
        for message in messages {
            XCTAssertEqual(FrameSniffer.type(of: WireCodec.encodePayload(message)), message.type)
        }
        XCTAssertNil(FrameSniffer.type(of: Array(#"{"kind":"room"}"#.utf8)))
    }

    func testReadsTheTurnTimerOfARoomViewWhateverTheNamesSay() {
        for seconds in [10, 437, 600] {
            let view = RoomView(
                room: "ABCD", phase: .lobby, settings: GameSettings(turnSeconds: seconds),
                seats: [SeatView(id: "p1", seat: 1, name: #""turnSeconds":99"#)])
            let payload = WireCodec.encodePayload(ServerMessage.room(view))
            XCTAssertEqual(FrameSniffer.integer("turnSeconds", in: payload), seconds)
        }
        XCTAssertNil(FrameSniffer.integer("turnSeconds", in: Array(#"{"turnSeconds":"x"}"#.utf8)))
        XCTAssertEqual(FrameSniffer.integer("n", in: Array(#"{"n":-12}"#.utf8)), -12)
    }
}
