import Foundation
import SpyProtocol
import XCTest

@testable import SpyGame

/// The moderator (法官) in the rules: who becomes one and how, what they may do and what they may not, and what
/// they alone see.
final class ModeratorTests: XCTestCase {
    func moderatorViews(_ effects: [RoomEffect], to player: PlayerID) -> [ModeratorView] {
        effects.sent(to: player).compactMap { if case .moderatorView(let view) = $0 { view } else { nil } }
    }

    /// Every effect that carries a moderator view goes to `moderator`, and nothing anyone else is sent or told
    /// holds a word of the running game other than their own deal.
    func assertOnlyTheModeratorSees(
        _ effects: [RoomEffect], moderator: PlayerID, game: Game, file: StaticString = #filePath, line: UInt = #line
    ) {
        for effect in effects {
            switch effect {
            case .send(let player, .moderatorView):
                XCTAssertEqual(player, moderator, "a moderator view went to \(player)", file: file, line: line)
            case .send(_, .deal), .send(_, .gameOver), .broadcast(.gameOver), .broadcast(.history):
                break
            case .send(let player, let message) where player != moderator:
                let text = String(decoding: WireCodec.encodePayload(message), as: UTF8.self)
                XCTAssertFalse(
                    text.contains(game.civilianWord) || text.contains(game.spyWord), text, file: file, line: line)
            case .broadcast(let message):
                let text = String(decoding: WireCodec.encodePayload(message), as: UTF8.self)
                XCTAssertFalse(
                    text.contains(game.civilianWord) || text.contains(game.spyWord), text, file: file, line: line)
                XCTAssertFalse(text.contains(#""role""#), text, file: file, line: line)
            default:
                break
            }
        }
    }

    func testTheOwnerModeratesAtOnceAndIsNotCountedInTheTable() throws {
        var table = Table(seed: 91, settings: GameSettings(maxPlayers: 4))
        let owner = table.seat(1)[0]
        let effects = table.ok(.move(owner, .moderator(.init(player: owner))))
        XCTAssertTrue(effects.broadcasts.contains(.moderator(.init(player: owner))))
        XCTAssertEqual(table.room.moderatorID, owner)
        XCTAssertEqual(table.room.view(now: table.now).seats.first?.moderator, true)
        XCTAssertEqual(moderatorViews(effects, to: owner), [ModeratorView(game: 0)])
        // Four players besides the moderator.
        for name in ["B", "C", "D", "E"] { table.ok(.join(name: name, bot: false)) }
        table.refused(.join(name: "F", bot: false), .roomFull)
        // Giving the seat up would make five players at a table of four.
        table.refused(.move(owner, .moderator(.init(player: nil))), .roomFull)
    }

    func testAnotherPersonIsAskedAndMustSayYes() throws {
        var table = Table(seed: 92)
        let ids = table.seat(5)
        let (owner, asked) = (ids[0], ids[2])
        table.refused(.move(ids[1], .moderator(.init(player: asked))), .notOwner)
        let offer = table.ok(.move(owner, .moderator(.init(player: asked))))
        XCTAssertEqual(offer.sent(to: asked), [.moderatorOffer(.init(player: asked))])
        XCTAssertTrue(offer.broadcasts.isEmpty, "nobody hears of an offer before it is taken")
        XCTAssertNil(table.room.moderatorID)
        table.refused(.move(ids[3], .moderatorAnswer(.init(accept: true))), .notAllowed)
        XCTAssertEqual(
            table.room.catchUp(for: asked, now: table.now).last, .moderatorOffer(.init(player: asked)),
            "an offer is asked again on resume")
        let declined = table.ok(.move(asked, .moderatorAnswer(.init(accept: false))))
        XCTAssertEqual(declined.sent(to: owner), [.moderatorDeclined(.init(player: asked))])
        XCTAssertNil(table.room.moderatorID)
        table.ok(.move(owner, .moderator(.init(player: asked))))
        let taken = table.ok(.move(asked, .moderatorAnswer(.init(accept: true))))
        XCTAssertTrue(taken.broadcasts.contains(.moderator(.init(player: asked))))
        XCTAssertEqual(table.room.moderatorID, asked)
        table.ok(.join(name: "Botty", bot: true))
        let bot = try XCTUnwrap(table.room.playerIDs.last)
        table.refused(.move(owner, .moderator(.init(player: bot))), .badTarget)
    }

    func testTheModeratorRunsAGameTheyDoNotPlay() throws {
        var table = Table(seed: 93, settings: GameSettings(turnSeconds: 30))
        let ids = table.seat(6)
        let (owner, judge) = (ids[0], ids[5])
        table.ok(.move(owner, .moderator(.init(player: judge))))
        table.ok(.move(judge, .moderatorAnswer(.init(accept: true))))
        table.refused(.move(ids[1], .pause), .notAllowed)
        let start = table.ok(.start(by: judge, pairs: [Table.pair]))
        XCTAssertNil(table.game.roles[judge], "no word, no role")
        XCTAssertEqual(table.game.dealt, Array(ids.prefix(5)))
        XCTAssertTrue(start.sent(to: judge).allSatisfy { if case .deal = $0 { false } else { true } })
        let seen = try XCTUnwrap(moderatorViews(start, to: judge).last)
        XCTAssertEqual(seen.players.map(\.player), table.game.dealt)
        XCTAssertEqual(Set(seen.players.map(\.word)), [table.game.civilianWord, table.game.spyWord])
        XCTAssertEqual(seen.civilianWord, table.game.civilianWord)
        assertOnlyTheModeratorSees(start, moderator: judge, game: table.game)
        table.refused(.move(judge, .moderator(.init(player: nil))), .wrongPhase)
        table.refused(.move(owner, .moderator(.init(player: ids[1]))), .wrongPhase)

        // Pause: the turn timer stops; nothing runs out however long the table waits.
        let speaker = try XCTUnwrap(table.speaker)
        table.advance(by: 10_000)
        let paused = table.ok(.move(judge, .pause))
        XCTAssertNil(table.room.nextDeadline)
        XCTAssertEqual(table.room.view(now: table.now).paused, true)
        XCTAssertEqual(table.room.view(now: table.now).timerMs, 20_000)
        XCTAssertEqual(moderatorViews(paused, to: judge).last?.paused, true)
        table.advance(by: 600_000)
        XCTAssertEqual(table.ok(.tick).turns, [])
        XCTAssertEqual(table.speaker, speaker)
        // A turn that ends while paused: the next one waits with the timers.
        table.ok(.move(speaker, .pass))
        XCTAssertNil(table.room.nextDeadline)
        XCTAssertEqual(table.room.view(now: table.now).timerMs, 30_000)
        table.ok(.move(judge, .resume))
        XCTAssertEqual(table.room.nextDeadline, table.now + 30_000)
        XCTAssertNil(table.room.view(now: table.now).paused)

        // Passing a turn: only an absent speaker's.
        let next = try XCTUnwrap(table.speaker)
        table.refused(.move(judge, .passTurn), .notAllowed)
        table.ok(.disconnected(next))
        table.ok(.move(judge, .passTurn))
        XCTAssertNotEqual(table.speaker, next)
        table.ok(.connected(next))
        table.refused(.move(ids[1], .passTurn), .notAllowed)

        // Each ballot reaches the moderator as it comes in, and nobody else.
        table.describeAll()
        XCTAssertEqual(table.phase, .voting)
        let voter = table.game.voters[0]
        let target = table.game.voters[1]
        XCTAssertFalse(table.game.voters.contains(judge), "no ballot")
        let ballot = table.ok(.move(voter, .vote(.init(target: target))))
        XCTAssertEqual(moderatorViews(ballot, to: judge).last?.ballots, [TallyEntry(player: target, voters: [voter])])
        assertOnlyTheModeratorSees(ballot, moderator: judge, game: table.game)
        table.refused(.move(judge, .vote(.init(target: target))), .notPlaying)
        // The moderator kicks.
        table.ok(.move(judge, .kick(.init(player: ids[4]))))
        XCTAssertFalse(table.room.playerIDs.contains(ids[4]))
        // Catching up, the moderator follows the game as the board does, then sees it all.
        let back = table.room.catchUp(for: judge, now: table.now)
        XCTAssertFalse(back.contains { if case .deal = $0 { true } else { false } })
        XCTAssertEqual(back.last, .moderatorView(table.room.moderatorView()))
    }

    func testTheModeratorsPairIsDealtOnceAndKeptNowhereElse() throws {
        var table = Table(seed: 94)
        let ids = table.seat(5)
        let judge = ids[0]
        table.ok(.move(judge, .moderator(.init(player: judge))))
        let pair = WordPair(civilian: "婚紗", spy: "禮服")
        table.refused(.moderatorPair(by: ids[1], pair), .notAllowed)
        let typed = table.ok(.moderatorPair(by: judge, pair))
        XCTAssertEqual(moderatorViews(typed, to: judge).last?.nextPair, ListedPair(civilian: "婚紗", spy: "禮服"))
        XCTAssertTrue(typed.broadcasts.isEmpty, "nobody hears of the typed pair")
        XCTAssertTrue(typed.allSatisfy { if case .send(let player, _) = $0 { player == judge } else { true } })
        XCTAssertEqual(table.room.ownPairs, [])
        table.start(pairs: [Table.pair])
        XCTAssertEqual(Set([table.game.civilianWord, table.game.spyWord]), ["婚紗", "禮服"])
        XCTAssertFalse(table.room.hasModeratorPair)
        table.voteOut(table.players(.spy)[0])
        table.start(pairs: [Table.pair])
        XCTAssertEqual(Set([table.game.civilianWord, table.game.spyWord]), ["蘋果", "香蕉"])
    }

    func testTheModeratorLeavingLeavesNobodyModeratingAndTheRoomTravels() throws {
        var table = Table(seed: 95)
        let ids = table.seat(5)
        table.ok(.move(ids[0], .moderator(.init(player: ids[0]))))
        table.ok(.moderatorPair(by: ids[0], WordPair(civilian: "a", spy: "b")))
        let data = try JSONEncoder().encode(table.room)
        XCTAssertEqual(try JSONDecoder().decode(Room.self, from: data), table.room)
        XCTAssertNil(table.room.integrityProblem)
        table.refused(.move(ids[1], .moderator(.init(player: nil))), .notOwner)
        let left = table.ok(.leave(ids[0]))
        XCTAssertTrue(left.broadcasts.contains(.moderator(.init(player: nil, previous: ids[0]))))
        XCTAssertNil(table.room.moderatorID)
        XCTAssertFalse(table.room.hasModeratorPair)
    }

    /// The refusals the moderator's actions meet, each where the rules put it.
    func testEveryModeratorActionIsRefusedWhereItMustBe() throws {
        var table = Table(seed: 96, settings: GameSettings(clueMode: .typed))
        let ids = table.seat(6)
        let (owner, judge) = (ids[0], ids[5])
        table.ok(.move(owner, .moderator(.init(player: judge))))
        table.ok(.move(judge, .moderatorAnswer(.init(accept: true))))
        table.refused(.move(judge, .pause), .wrongPhase)
        table.refused(.move(judge, .resume), .wrongPhase)
        table.refused(.move(judge, .passTurn), .wrongPhase)
        table.refused(.move(judge, .moderatorAnswer(.init(accept: true))), .notAllowed)
        // The moderator manages the room's own list, as the owner does.
        table.ok(.words(by: judge, WordUpload(pairs: [WordPair(civilian: "a", spy: "b")], lines: [1])))
        XCTAssertNoThrow(try table.room.wordListExport(for: judge).get())
        table.ok(.start(by: judge, pairs: [Table.pair]))
        table.refused(.moderatorPair(by: judge, WordPair(civilian: "c", spy: "d")), .wrongPhase)
        table.refused(.move(judge, .clue(.init(text: "a clue"))), .notPlaying)
        table.refused(.move(judge, .pass), .notPlaying)
        table.refused(.move(judge, .resume), .wrongPhase)
        table.refused(.move(ids[1], .kick(.init(player: ids[2]))), .notOwner)
        table.refused(.move(ids[1], .resume), .notAllowed)
        table.ok(.move(judge, .pause))
        table.ok(.move(judge, .pause))
        table.refused(.move(ids[1], .moderator(.init(player: nil))), .wrongPhase)
    }
}
