import Foundation
import SpyProtocol
import XCTest

@testable import SpyGame

/// Every illegal event is refused with a stable code and leaves the room exactly as it was.
final class IllegalEventTests: XCTestCase {
    private let vote = { (target: PlayerID) in ClientMessage.vote(.init(target: target)) }

    func testInTheLobby() {
        var table = Table()
        let ids = table.seat(3)
        table.refused(.start(by: ids[0], pairs: [Table.pair]), .tooFewPlayers)
        table.refused(.move(ids[0], .pass), .wrongPhase)
        table.refused(.move(ids[0], .clue(.init(text: "hi"))), .wrongPhase)
        table.refused(.move(ids[0], vote(ids[1])), .wrongPhase)
        table.refused(.move(ids[0], .guess(.init(word: "x"))), .wrongPhase)
        table.refused(.move(ids[0], .kick(.init(player: "p42"))), .badTarget)
        table.refused(.move(ids[1], .kick(.init(player: ids[2]))), .notOwner)
        table.refused(.move("p42", .pass), .notPlaying)
        table.refused(.move(ids[0], .start), .badMessage)
        table.refused(.move(ids[0], .ping(.init(id: 1))), .badMessage)
        table.refused(.move(ids[0], .hello(.init(name: "x"))), .badMessage)
        table.refused(.connected("p42"), .notPlaying)
        table.refused(.disconnected("p42"), .notPlaying)
        table.refused(.leave("p42"), .notPlaying)
    }

    func testWhileDescribing() throws {
        var table = Table(seed: 51)
        let ids = table.seat(5)
        table.start()
        let speaker = try XCTUnwrap(table.speaker)
        let other = ids.first { $0 != speaker }!
        table.refused(.move(other, .pass), .notYourTurn)
        table.refused(.move(speaker, vote(other)), .wrongPhase)
        table.refused(.move(speaker, .guess(.init(word: "x"))), .wrongPhase)
        table.refused(.move(ids[0], .settings(SettingsChange(spies: 1))), .wrongPhase)
        table.refused(.start(by: ids[0], pairs: [Table.pair]), .wrongPhase)
        table.refused(.join(name: "Late", bot: false), .gameInProgress)
        table.refused(.move(ids[0], .kick(.init(player: ids[0]))), .badTarget)
    }

    func testWhileVoting() throws {
        var table = Table(seed: 52)
        let ids = table.seat(6)
        table.start()
        let civilian = table.players(.civilian).first { $0 != ids[0] }!
        table.voteOut(civilian)
        XCTAssertEqual(table.phase, .describing)
        table.describeAll()
        let voter = table.alive[0]
        table.refused(.move(voter, vote(voter)), .selfVote)
        table.refused(.move(voter, vote(civilian)), .badTarget)
        table.refused(.move(voter, vote("p42")), .badTarget)
        table.refused(.move(civilian, vote(voter)), .notPlaying)
        table.refused(.move(voter, .pass), .wrongPhase)
        table.refused(.move(voter, .clue(.init(text: "x"))), .wrongPhase)
        table.refused(.move(voter, .guess(.init(word: "x"))), .wrongPhase)
    }

    func testOutPlayersCannotSpeak() throws {
        var table = Table(seed: 53, settings: GameSettings(clueMode: .typed))
        let ids = table.seat(6)
        table.start()
        let civilian = table.players(.civilian).first { $0 != ids[0] }!
        table.voteOut(civilian)
        table.refused(.move(civilian, .pass), .notPlaying)
        table.refused(.move(civilian, .clue(.init(text: "x"))), .notPlaying)
    }

    func testAtGameOver() throws {
        var table = Table(seed: 54)
        let ids = table.seat(4)
        table.start()
        table.voteOut(table.players(.spy)[0])
        XCTAssertEqual(table.phase, .gameOver)
        table.refused(.move(ids[0], .pass), .wrongPhase)
        table.refused(.move(ids[1], vote(ids[2])), .wrongPhase)
        table.refused(.start(by: ids[1], pairs: [Table.pair]), .notOwner)
        XCTAssertEqual(table.ok(.tick), [], "a stray tick does nothing")
    }
}
