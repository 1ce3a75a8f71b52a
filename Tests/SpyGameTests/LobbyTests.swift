import Foundation
import SpyProtocol
import XCTest

@testable import SpyGame

/// Joining, names, settings and starting.
final class LobbyTests: XCTestCase {
    func testJoinGivesIdsInOrderAndTheFirstOwnsTheRoom() {
        var table = Table()
        let effects = table.ok(.join(name: "  Alice ", bot: false))
        XCTAssertEqual(effects.first, .joined("p1"))
        guard case .broadcast(.room(let view)) = effects.last else { return XCTFail("room broadcast last") }
        XCTAssertEqual(view.seats, [SeatView(id: "p1", seat: 1, name: "Alice", owner: true)])
        XCTAssertFalse(table.room.hasBots)
        table.ok(.join(name: "Bot", bot: true))
        XCTAssertTrue(table.room.hasBots)
        XCTAssertEqual(table.room.playerIDs, ["p1", "p2"])
        XCTAssertTrue(table.room.isBot("p2"))
        XCTAssertFalse(table.room.isBot("p1"))
        XCTAssertEqual(table.room.name(of: "p1"), "Alice")
        XCTAssertNil(table.room.name(of: "p9"))
        table.ok(.leave("p2"))
        XCTAssertFalse(table.room.hasBots, "a bot that left holds no seat")
    }

    func testEmptyNamesGetDefaultNamesThatStayUnique() {
        var table = Table()
        table.ok(.join(name: "", bot: false))
        table.ok(.join(name: "玩家3", bot: false))
        table.ok(.join(name: "", bot: false))
        XCTAssertEqual(table.room.playerIDs.compactMap { table.room.name(of: $0) }, ["玩家1", "玩家3", "玩家4"])
        // Only an empty name means "give me a default"; a name of spaces is a mistake, and said to be one.
        table.refused(.join(name: "   ", bot: false), .badName)
    }

    func testNamesAreCheckedForWidthControlsAndDuplicates() {
        var table = Table()
        table.ok(.join(name: "Alice", bot: false))
        table.refused(.join(name: "ＡＬＩＣＥ", bot: false), .nameTaken)
        table.refused(.join(name: " alice", bot: false), .nameTaken)
        table.refused(.join(name: "Bob\u{1B}[31m", bot: false), .badName)
        table.refused(.join(name: "一二三四五六七八九", bot: false), .badName)
        table.ok(.join(name: "一二三四五六七八", bot: false))
        table.ok(.join(name: "abcdefghijklmnop", bot: false))
        table.refused(.join(name: "abcdefghijklmnopq", bot: false), .badName)
        table.refused(.join(name: "\u{0301}", bot: false), .badName)
    }

    func testJoinIsRefusedWhenFullOrPlaying() {
        var table = Table(settings: GameSettings(maxPlayers: 4))
        table.seat(4)
        table.refused(.join(name: "E", bot: false), .roomFull)
        var playing = Table()
        playing.seat(4)
        playing.start()
        playing.refused(.join(name: "E", bot: false), .gameInProgress)
    }

    func testSettingsAreValidated() {
        var table = Table()
        let ids = table.seat(5)
        let owner = ids[0]
        func change(_ change: SettingsChange) -> RoomEvent { .move(owner, .settings(change)) }
        table.refused(.move(ids[1], .settings(SettingsChange(blank: true))), .notOwner)
        table.refused(change(SettingsChange(maxPlayers: 3)), .badSettings)
        table.refused(change(SettingsChange(maxPlayers: 21)), .badSettings)
        table.refused(change(SettingsChange(maxPlayers: 4)), .badSettings)
        table.refused(change(SettingsChange(spies: 0)), .badSettings)
        table.refused(change(SettingsChange(spies: 4)), .tooManySpies)
        table.refused(change(SettingsChange(turnSeconds: 5)), .badSettings)
        table.refused(change(SettingsChange(voteSeconds: 601)), .badSettings)
        table.refused(change(SettingsChange(turnSeconds: -1)), .badSettings)
        table.refused(change(SettingsChange(categories: [""])), .badSettings)
        table.refused(change(SettingsChange(categories: ["a\nb"])), .badSettings)
        // Three spies are allowed for a room of up to 10, before everyone has arrived.
        table.ok(change(SettingsChange(spies: 3)))
        table.refused(change(SettingsChange(maxPlayers: 9)), .tooManySpies)
        table.ok(change(SettingsChange(maxPlayers: 9, spies: 2)))
        let effects = table.ok(
            change(
                SettingsChange(
                    blank: true, clueMode: .typed, turnSeconds: 10, voteSeconds: 600, tieRule: .random,
                    revealOut: false, blankRule: .guess, categories: [" food "])))
        XCTAssertEqual(table.room.settings.categories, ["food"])
        XCTAssertEqual(table.room.settings.tieRule, .random)
        XCTAssertEqual(effects.broadcasts.count, 1)
        XCTAssertEqual(
            table.ok(change(SettingsChange(blank: true))), [.send(ids[0], .room(table.room.view(now: table.now)))],
            "no change: no broadcast, the room to the owner only")
    }

    func testStartChecksTheRealTable() {
        var table = Table(settings: GameSettings(spies: 2))
        let ids = table.seat(5)
        table.refused(.start(by: ids[1], pairs: [Table.pair]), .notOwner)
        table.refused(.start(by: ids[0], pairs: [Table.pair]), .tooManySpies)
        table.ok(.move(ids[0], .settings(SettingsChange(spies: 1, blank: true))))
        table.ok(.leave(ids[4]))
        table.refused(.start(by: ids[0], pairs: [Table.pair]), .tooFewPlayers)
        table.ok(.join(name: "E", bot: false))
        table.refused(.start(by: ids[0], pairs: [WordPair(civilian: "同", spy: "同")]), .badSettings)
        table.refused(.start(by: ids[0], pairs: []), .badSettings)
        table.refused(.start(by: "p99", pairs: [Table.pair]), .notPlaying)
        table.ok(.start(by: ids[0], pairs: [Table.pair]))
        XCTAssertEqual(table.players(.blank).count, 1)
        table.refused(.start(by: ids[0], pairs: [Table.pair]), .wrongPhase)
        table.refused(.move(ids[0], .settings(SettingsChange(blank: false))), .wrongPhase)
    }

    func testBlankNeedsCiviliansToStayTheMajority() {
        XCTAssertFalse(Rules.civiliansAreMajority(players: 4, spies: 1, blank: true))
        XCTAssertTrue(Rules.civiliansAreMajority(players: 5, spies: 1, blank: true))
        XCTAssertFalse(Rules.civiliansAreMajority(players: 6, spies: 2, blank: true))
        XCTAssertTrue(Rules.civiliansAreMajority(players: 7, spies: 2, blank: true))
        XCTAssertEqual(Rules.startProblem(GameSettings(blank: true), players: 4)?.code, .tooFewPlayers)
        XCTAssertNil(Rules.startProblem(GameSettings(blank: true), players: 5))
        XCTAssertNil(Rules.startProblem(GameSettings(spies: 3), players: 10))
        XCTAssertEqual(Rules.startProblem(GameSettings(spies: 3), players: 9)?.code, .tooManySpies)
        XCTAssertEqual(Rules.startProblem(GameSettings(spies: 2), players: 5)?.code, .tooManySpies)
    }

    func testEndConditionsInOrder() {
        XCTAssertEqual(Rules.winner(spies: 0, others: 3, blankIn: true, blankRule: .survive), .blank)
        XCTAssertEqual(Rules.winner(spies: 0, others: 3, blankIn: true, blankRule: .guess), .civilians)
        XCTAssertEqual(Rules.winner(spies: 0, others: 2, blankIn: false, blankRule: .survive), .civilians)
        XCTAssertEqual(Rules.winner(spies: 1, others: 2, blankIn: false, blankRule: .survive), .spies)
        XCTAssertEqual(Rules.winner(spies: 2, others: 2, blankIn: true, blankRule: .survive, spyWin: .parity), .spies)
        XCTAssertNil(Rules.winner(spies: 2, others: 2, blankIn: true, blankRule: .survive))
        XCTAssertNil(Rules.winner(spies: 1, others: 3, blankIn: true, blankRule: .survive))
        XCTAssertNil(Rules.winner(spies: 2, others: 3, blankIn: false, blankRule: .survive))
    }

    func testBetweenGamesPlayersJoinSettingsChangeAndTheDepartedSeatGoes() throws {
        var table = Table(seed: 71)
        let ids = table.seat(6)
        table.start()
        let leaver = table.players(.civilian).first { $0 != ids[0] }!
        table.ok(.leave(leaver))
        table.voteOut(table.players(.spy)[0])
        XCTAssertEqual(table.phase, .gameOver)
        XCTAssertEqual(table.room.view(now: table.now).seats.count, 6, "the leaver stays on the game-over screen")
        XCTAssertNotNil(table.room.name(of: leaver))
        XCTAssertFalse(table.room.playerIDs.contains(leaver))
        table.ok(.move(ids[0], .settings(SettingsChange(spies: 2))))
        let newcomer = table.ok(.join(name: "New", bot: false))
        XCTAssertTrue(newcomer.contains(.joined("p7")))
        XCTAssertEqual(table.room.view(now: table.now).seats.map(\.id), ids.filter { $0 != leaver } + ["p7"])
        table.ok(.start(by: ids[0], pairs: [Table.pair]))
        XCTAssertEqual(table.game.number, 2)
        XCTAssertEqual(table.players(.spy).count, 2)
        XCTAssertEqual(table.room.view(now: table.now).seats.map(\.alive), Array(repeating: true, count: 6))
    }
}
