import Foundation
import SpyProtocol
import XCTest

@testable import SpyGame

/// The room's own word list in the rules: who may change it and when, its caps, and the deals it makes.
final class RoomWordsTests: XCTestCase {
    static func pairs(_ count: Int, prefix: String = "w") -> [WordPair] {
        (1...count).map { WordPair(civilian: "\(prefix)civ\($0)", spy: "\(prefix)spy\($0)", language: .en) }
    }

    static func upload(_ pairs: [WordPair], refused: [WordRefusal] = [], replace: Bool = false) -> WordUpload {
        WordUpload(pairs: pairs, lines: pairs.indices.map { $0 + 1 }, refused: refused, replace: replace)
    }

    func report(_ effects: [RoomEffect], to player: PlayerID) -> ServerMessage.WordsReport? {
        effects.sent(to: player).lazy.compactMap { if case .wordsReport(let r) = $0 { r } else { nil } }.first
    }

    func testTheOwnerAddsReplacesAndClearsAndEveryoneSeesOnlyTheCount() throws {
        var table = Table(seed: 81)
        let ids = table.seat(4)
        let owner = ids[0]
        let effects = table.ok(
            .words(by: owner, Self.upload(Self.pairs(3), refused: [WordRefusal(line: 9, reason: .noSeparator)])))
        XCTAssertEqual(
            report(effects, to: owner), .init(added: 3, total: 3, refused: [.init(line: 9, reason: .noSeparator)]))
        XCTAssertEqual(table.room.view(now: table.now).wordCount, 3)
        // Nothing but the count reaches anyone: no word in any broadcast, and nothing sent to another player.
        for effect in effects {
            if case .send(let player, _) = effect { XCTAssertEqual(player, owner) }
            if case .broadcast(let message) = effect {
                XCTAssertFalse(String(decoding: WireCodec.encodePayload(message), as: UTF8.self).contains("wciv"))
            }
        }
        let again = table.ok(.words(by: owner, Self.upload(Self.pairs(4))))
        XCTAssertEqual(
            report(again, to: owner),
            .init(added: 1, total: 4, refused: [.init(line: 1, through: 3, reason: .alreadyListed)]))
        table.ok(.words(by: owner, Self.upload(Self.pairs(2, prefix: "x"), replace: true)))
        XCTAssertEqual(table.room.ownPairs.map(\.civilian), ["xciv1", "xciv2"])
        table.ok(.move(owner, .wordsClear))
        XCTAssertNil(table.room.view(now: table.now).wordCount)
        XCTAssertEqual(table.room.ownPairs, [])
    }

    func testOnlyTheOwnerChangesOrExportsTheListAndOnlyBetweenGames() throws {
        var table = Table(seed: 82)
        let ids = table.seat(4)
        table.refused(.words(by: ids[1], Self.upload(Self.pairs(1))), .notOwner)
        table.refused(.move(ids[1], .wordsClear), .notOwner)
        XCTAssertEqual(table.room.wordListExport(for: ids[1]), .failure(Rejection(.notOwner)))
        table.ok(.words(by: ids[0], Self.upload(Self.pairs(5))))
        XCTAssertEqual(try table.room.wordListExport(for: ids[0]).get().pairs.count, 5)
        table.start()
        table.refused(.words(by: ids[0], Self.upload(Self.pairs(1))), .wrongPhase)
        table.refused(.move(ids[0], .wordsClear), .wrongPhase)
        guard case .failure(let rejection) = table.room.wordListExport(for: ids[0]) else {
            return XCTFail("exported during a game")
        }
        XCTAssertEqual(rejection.code, .wrongPhase)
        table.refused(.move(ids[0], .words(.init(text: "a,b"))), .badMessage)
    }

    func testTheListHoldsFiveHundredPairsAndTwentyFourKilobytesOfWords() throws {
        var table = Table(seed: 83)
        let owner = table.seat(4)[0]
        let effects = table.ok(.words(by: owner, Self.upload(Self.pairs(Rules.maxRoomPairs + 7))))
        let full = try XCTUnwrap(report(effects, to: owner))
        XCTAssertEqual(full.total, Rules.maxRoomPairs)
        XCTAssertEqual(
            full.refused, [.init(line: Rules.maxRoomPairs + 1, through: Rules.maxRoomPairs + 7, reason: .listFull)])

        let long = String(repeating: "字", count: 40)
        let heavy = (1...300).map { WordPair(civilian: long + "\($0)", spy: "\($0)" + long) }
        let bytes = table.ok(.words(by: owner, Self.upload(heavy, replace: true)))
        let byBytes = try XCTUnwrap(report(bytes, to: owner))
        XCTAssertLessThan(byBytes.total, 300)
        XCTAssertLessThanOrEqual(table.room.ownPairs.reduce(0) { $0 + Room.wordBytes($1) }, Rules.maxRoomWordBytes)
        XCTAssertEqual(byBytes.refused.first?.line, byBytes.total + 1)
    }

    func testARunOfRefusalsIsOneEntryAndTheReportIsBounded() {
        let alternating = (1...1_000).map { WordRefusal(line: $0 * 2, reason: $0 % 2 == 0 ? .tooLong : .missingWord) }
        let report = Room.report(added: 0, total: 0, refused: alternating)
        XCTAssertEqual(report.refused.count, Rules.maxReportedRefusals)
        XCTAssertEqual(report.moreRefused, 1_000 - Rules.maxReportedRefusals)
        let run = Room.report(added: 0, total: 0, refused: (3...9).map { WordRefusal(line: $0, reason: .tooLong) })
        XCTAssertEqual(run.refused, [.init(line: 3, through: 9, reason: .tooLong)])
        XCTAssertNil(run.moreRefused)
        let duplicates = Room.report(
            added: 0, total: 0,
            refused: [.init(line: 2, reason: .duplicate, other: 1), .init(line: 3, reason: .duplicate, other: 1)])
        XCTAssertEqual(duplicates.refused.count, 2, "each duplicate names its own earlier line")
    }

    func testOursOnlyDealsEveryPairOnceBeforeAnyAgain() throws {
        var table = Table(seed: 84, settings: GameSettings(wordSource: .ours))
        let owner = table.seat(4)[0]
        table.refused(.start(by: owner, pairs: [Table.pair]), .badSettings)
        let own = Self.pairs(5)
        table.ok(.words(by: owner, Self.upload(own)))
        var dealt: [String] = []
        for _ in 0..<10 {
            table.start(pairs: [])
            dealt.append(WordPair(civilian: table.game.civilianWord, spy: table.game.spyWord).key)
            table.voteOut(table.players(.spy)[0])
        }
        let keys = Set(own.map(\.key))
        XCTAssertEqual(Set(dealt.prefix(5)), keys, "every pair of the list before any again")
        XCTAssertEqual(Set(dealt.suffix(5)), keys)
    }

    func testOursAndTheBankDealFromBoth() throws {
        var table = Table(seed: 85, settings: GameSettings(wordSource: .oursAndBank))
        let owner = table.seat(4)[0]
        table.ok(.words(by: owner, Self.upload(Self.pairs(3))))
        let bank = Self.pairs(3, prefix: "bank")
        var dealt: Set<String> = []
        for _ in 0..<6 {
            table.start(pairs: bank)
            dealt.insert(WordPair(civilian: table.game.civilianWord, spy: table.game.spyWord).key)
            table.voteOut(table.players(.spy)[0])
        }
        XCTAssertEqual(dealt, Set((Self.pairs(3) + bank).map(\.key)))
        // With the list empty, the bank alone.
        table.ok(.move(owner, .wordsClear))
        table.start(pairs: bank)
        XCTAssertTrue(table.game.civilianWord.hasPrefix("bank"))
    }

    func testTheListTravelsWithTheRoomAndAnOldRoomHasNone() throws {
        var table = Table(seed: 86)
        let owner = table.seat(4)[0]
        table.ok(.words(by: owner, Self.upload(Self.pairs(2))))
        let data = try JSONEncoder().encode(table.room)
        XCTAssertEqual(try JSONDecoder().decode(Room.self, from: data), table.room)
        XCTAssertNil(table.room.integrityProblem)
        var object = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        object["wordList"] = nil
        var settings = try XCTUnwrap(object["settings"] as? [String: Any])
        settings["wordSource"] = nil
        object["settings"] = settings
        let old = try JSONDecoder().decode(Room.self, from: JSONSerialization.data(withJSONObject: object))
        XCTAssertEqual(old.ownPairs, [])
        XCTAssertEqual(old.settings.wordSource, .bank)
    }
}
