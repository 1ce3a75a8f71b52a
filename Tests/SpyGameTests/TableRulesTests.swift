import Foundation
import SpyProtocol
import XCTest

@testable import SpyGame

/// The seed's ending and its parity variant, honest start refusals, and replies a client can count on.
final class TableRulesTests: XCTestCase {
    /// Ten seats, three spies: civilians are voted out one by one until the spies win.
    private func playTenSeatsThreeSpies(_ spyWin: SpyWin) -> [(alive: Int, winner: Winner?)] {
        var table = Table(seed: 5, settings: GameSettings(spies: 3, spyWin: spyWin))
        table.seat(10)
        table.start()
        XCTAssertEqual(table.players(.spy).count, 3)
        var steps: [(alive: Int, winner: Winner?)] = []
        for civilian in table.players(.civilian) where table.phase == .describing {
            let over = table.voteOut(civilian).gameOver
            steps.append((table.alive.count, over?.winner))
        }
        return steps
    }

    func testTheSeedsRuleIsTheDefault() {
        XCTAssertEqual(GameSettings().spyWin, .three)
    }

    func testUnderTheSeedsRuleThreeSpiesAgainstThreeCiviliansPlayOn() {
        let steps = playTenSeatsThreeSpies(.three)
        XCTAssertEqual(steps.map(\.alive), [9, 8, 7, 6, 5, 4, 3])
        XCTAssertEqual(steps.dropLast().compactMap(\.winner), [], "no end before three are left")
        XCTAssertEqual(steps.last?.winner, .spies)
    }

    func testUnderTheParityRuleThreeSpiesAgainstThreeCiviliansWin() {
        let steps = playTenSeatsThreeSpies(.parity)
        XCTAssertEqual(steps.map(\.alive), [9, 8, 7, 6])
        XCTAssertEqual(steps.last?.winner, .spies)
    }

    func testCiviliansStillWinUnderEitherRuleWhenTheLastSpyIsOut() throws {
        for spyWin in SpyWin.allCases {
            var table = Table(seed: 9, settings: GameSettings(spies: 2, spyWin: spyWin))
            table.seat(7)
            table.start()
            let spies = table.players(.spy)
            XCTAssertNil(table.voteOut(spies[0]).gameOver)
            XCTAssertEqual(try XCTUnwrap(table.voteOut(spies[1]).gameOver).winner, .civilians)
        }
    }

    func testEndConditionsOfBothRules() {
        XCTAssertNil(Rules.winner(spies: 2, others: 2, blankIn: false, blankRule: .survive, spyWin: .three))
        XCTAssertNil(Rules.winner(spies: 3, others: 1, blankIn: false, blankRule: .survive, spyWin: .three))
        XCTAssertEqual(Rules.winner(spies: 2, others: 1, blankIn: false, blankRule: .survive, spyWin: .three), .spies)
        XCTAssertEqual(Rules.winner(spies: 1, others: 2, blankIn: true, blankRule: .survive, spyWin: .three), .spies)
        XCTAssertEqual(Rules.winner(spies: 2, others: 2, blankIn: false, blankRule: .survive, spyWin: .parity), .spies)
        XCTAssertEqual(Rules.winner(spies: 3, others: 3, blankIn: true, blankRule: .guess, spyWin: .parity), .spies)
        XCTAssertNil(Rules.winner(spies: 2, others: 3, blankIn: false, blankRule: .survive, spyWin: .parity))
    }

    func testTheOwnerSetsTheSpyWinRuleBetweenGames() throws {
        var table = Table()
        let ids = table.seat(4)
        let effects = table.ok(.move(ids[0], .settings(SettingsChange(spyWin: .parity))))
        XCTAssertEqual(table.room.settings.spyWin, .parity)
        guard case .room(let view)? = effects.broadcasts.last else { return XCTFail("no room snapshot") }
        XCTAssertEqual(view.settings.spyWin, .parity)
        table.refused(.move(ids[1], .settings(SettingsChange(spyWin: .three))), .notOwner)
    }

    func testSettingsAndStateSavedBeforeTheRuleExistedLoadWithTheSeedsRule() throws {
        var table = Table(settings: GameSettings(spies: 2, spyWin: .parity))
        table.seat(6)
        table.start()
        let encoded = try JSONEncoder().encode(table.room)
        var object = try XCTUnwrap(JSONSerialization.jsonObject(with: encoded) as? [String: Any])
        var settings = try XCTUnwrap(object["settings"] as? [String: Any])
        XCTAssertEqual(settings.removeValue(forKey: "spyWin") as? String, "parity")
        object["settings"] = settings
        let old = try JSONSerialization.data(withJSONObject: object)
        let loaded = try JSONDecoder().decode(Room.self, from: old)
        XCTAssertEqual(loaded.settings.spyWin, .three)
        XCTAssertEqual(loaded.phase, .describing)

        let wire =
            #"{"type":"room","room":"KFRW","phase":"lobby","game":0,"round":0,"seats":[],"pk":[],"clues":[],"#
            + #""settings":{"maxPlayers":6,"spies":1,"blank":false,"clueMode":"spoken","turnSeconds":0,"#
            + #""voteSeconds":0,"tieRule":"pk","revealOut":true,"blankRule":"survive","language":"both","#
            + #""allowParty":false,"categories":[]}}"#
        guard case .room(let view) = try WireCodec.decode(ServerMessage.self, from: Array(wire.utf8)) else {
            return XCTFail("not a room")
        }
        XCTAssertEqual(view.settings.spyWin, .three)
    }

    // MARK: Honest refusals

    func testStartWithTheBlankAndFourPlayersSaysFiveAreNeeded() {
        var table = Table(settings: GameSettings(blank: true))
        let ids = table.seat(4)
        switch table.room.apply(.start(by: ids[0], pairs: [Table.pair]), now: table.now) {
        case .success: XCTFail("started")
        case .failure(let rejection):
            XCTAssertEqual(rejection.code, .tooFewPlayers)
            XCTAssertEqual(rejection.need, 5)
            XCTAssertEqual(rejection.have, 4)
            XCTAssertTrue(rejection.message.contains("5"), rejection.message)
            XCTAssertEqual(rejection.errorMessage.need, 5)
            XCTAssertEqual(rejection.errorMessage.have, 4)
        }
    }

    func testStartWithThreePlayersSaysFourAreNeeded() {
        XCTAssertEqual(Rules.startProblem(GameSettings(), players: 3)?.need, 4)
        XCTAssertEqual(Rules.startProblem(GameSettings(), players: 3)?.have, 3)
        XCTAssertEqual(Rules.startProblem(GameSettings(spies: 2, blank: true), players: 6)?.need, 7)
    }

    // MARK: Replies

    func testSettingsThatChangeNothingAreAnsweredWithTheRoomToTheOwnerOnly() throws {
        var table = Table()
        let ids = table.seat(4)
        let effects = table.ok(.move(ids[0], .settings(SettingsChange(spies: 1, blank: false))))
        XCTAssertEqual(effects.broadcasts, [], "nothing changed for anyone else")
        let sent = effects.sent(to: ids[0])
        XCTAssertEqual(sent, [.room(table.room.view(now: table.now))])
    }

    func testTheTimerKindTellsTheTurnTimerFromTheAbsenceCountdown() throws {
        var timed = Table(seed: 31, settings: GameSettings(turnSeconds: 30))
        timed.seat(5)
        let start = timed.start()
        XCTAssertEqual(start.turns.last?.timerKind, .turn)
        XCTAssertEqual(timed.room.view(now: timed.now).timerKind, .turn)

        var untimed = Table(seed: 31)
        untimed.seat(5)
        XCTAssertNil(untimed.start().turns.last?.timerKind)
        XCTAssertNil(untimed.room.view(now: untimed.now).timerKind)
        let speaker = try XCTUnwrap(untimed.speaker)
        let next = untimed.game.speakers[1]
        untimed.ok(.disconnected(next))
        let turn = try XCTUnwrap(untimed.ok(.move(speaker, .pass)).turns.last)
        XCTAssertEqual(turn.timerMs, Int(Rules.absentTurnMillis))
        XCTAssertEqual(turn.timerKind, .absent)
        XCTAssertEqual(untimed.room.view(now: untimed.now).timerKind, .absent)

        var voting = Table(seed: 31, settings: GameSettings(voteSeconds: 30))
        voting.seat(5)
        voting.start()
        voting.describeAll()
        XCTAssertEqual(voting.room.view(now: voting.now).timerKind, .vote)
    }

    func testResumeSendsRoomDealPromptThenTheRoomEveryoneGets() throws {
        var table = Table(seed: 32)
        let ids = table.seat(5)
        table.start()
        let player = ids[2]
        table.ok(.disconnected(player))
        let effects = table.ok(.connected(player))
        let kinds = effects.compactMap { effect -> String? in
            switch effect {
            case .send(player, let message): return "send " + message.type
            case .broadcast(let message): return "broadcast " + message.type
            default: return nil
            }
        }
        XCTAssertEqual(kinds, ["send room", "send deal", "send turn", "broadcast room"])
    }
}
