import Foundation
import SpyProtocol
import XCTest

@testable import SpyGame

/// A move that breaks several rules at once is refused with the first of them in the order docs/PROTOCOL.md's
/// phase table lists for it: each case below names every rule its move breaks, and the document decides which
/// code comes back.
final class RefusalOrderTests: XCTestCase {
    private var documented: [String: [ErrorCode]] = [:]

    override func setUpWithError() throws {
        documented = try ProtocolDocument.refusals()
    }

    /// Expects `event` (a `message` move) refused with the first of `broken` in the document's order.
    private func expectFirst(
        of broken: Set<ErrorCode>, _ message: String, _ event: RoomEvent, in table: inout Table,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        guard let order = documented[message] else {
            XCTFail("the phase table has no row for \(message)", file: file, line: line)
            return
        }
        XCTAssertTrue(broken.isSubset(of: Set(order)), "\(message) lists \(order)", file: file, line: line)
        guard let first = order.first(where: broken.contains) else { return }
        table.refused(event, first, file: file, line: line)
    }

    private static func clue(_ text: String) -> ClientMessage { .clue(.init(text: text)) }
    private static func vote(_ target: PlayerID) -> ClientMessage { .vote(.init(target: target)) }

    func testTheTableListsTheRefusalsOfEveryMove() throws {
        for message in ["settings", "start", "clue", "pass", "vote", "guess", "kick"] {
            XCTAssertFalse(documented[message, default: []].isEmpty, message)
        }
        for (message, cells) in try ProtocolDocument.refusalCells() {
            XCTAssertEqual(cells.compactMap(ErrorCode.init(rawValue:)).count, cells.count, "\(message): \(cells)")
        }
    }

    func testClueInASpokenRoomIsTheWrongPhaseWhoeverSpeaks() throws {
        var table = Table(seed: 51)
        let ids = table.seat(5)
        table.start()
        let speaker = try XCTUnwrap(table.speaker)
        let listener = try XCTUnwrap(ids.first { $0 != speaker })
        expectFirst(of: [.wrongPhase, .notYourTurn], "clue", .move(listener, Self.clue("hi")), in: &table)
        expectFirst(of: [.wrongPhase], "clue", .move(speaker, Self.clue("hi")), in: &table)
        let out = try XCTUnwrap(table.players(.civilian).first { $0 != table.room.ownerID })
        table.voteOut(out)
        XCTAssertEqual(table.phase, .describing)
        expectFirst(of: [.wrongPhase, .notPlaying, .notYourTurn], "clue", .move(out, Self.clue("hi")), in: &table)
        expectFirst(of: [.notPlaying, .notYourTurn], "pass", .move(out, .pass), in: &table)
    }

    func testTypedCluesAreCheckedForTheSpeakerBeforeTheirText() throws {
        var table = Table(seed: 51, settings: GameSettings(clueMode: .typed))
        let ids = table.seat(5)
        table.start()
        let speaker = try XCTUnwrap(table.speaker)
        let listener = try XCTUnwrap(ids.first { $0 != speaker && table.role($0) != .blank })
        let listenerWord = try XCTUnwrap(table.game.word(for: listener))
        let speakerWord = try XCTUnwrap(table.game.word(for: speaker))
        let tooLong = { (word: String) in word + String(repeating: "x", count: 101) }
        expectFirst(of: [.notYourTurn, .badClue], "clue", .move(listener, Self.clue("  ")), in: &table)
        expectFirst(
            of: [.notYourTurn, .badClue, .clueHasWord], "clue", .move(listener, Self.clue(tooLong(listenerWord))),
            in: &table)
        expectFirst(of: [.badClue, .clueHasWord], "clue", .move(speaker, Self.clue(tooLong(speakerWord))), in: &table)
        while table.phase == .describing, let next = table.speaker { table.ok(.move(next, Self.clue("clue"))) }
        expectFirst(of: [.wrongPhase, .badClue], "clue", .move(listener, Self.clue("")), in: &table)
    }

    func testVotesAndGuesses() throws {
        var table = Table(seed: 5, settings: GameSettings(blank: true, blankRule: .guess))
        let ids = table.seat(6)
        table.start(pairs: [WordPair(civilian: "Apple Pie", spy: "Cherry Tart", language: .en)])
        let someone = try XCTUnwrap(table.speaker)
        expectFirst(of: [.wrongPhase, .selfVote], "vote", .move(someone, Self.vote(someone)), in: &table)
        expectFirst(of: [.wrongPhase, .notYourTurn], "guess", .move(someone, .guess(.init(word: "x"))), in: &table)
        let civilian = table.players(.civilian)[0]
        table.voteOut(civilian)
        table.describeAll()
        XCTAssertEqual(table.phase, .voting)
        expectFirst(of: [.notPlaying, .selfVote], "vote", .move(civilian, Self.vote(civilian)), in: &table)
        expectFirst(of: [.notPlaying, .badTarget], "vote", .move(civilian, Self.vote("p42")), in: &table)
        expectFirst(of: [.wrongPhase, .notPlaying], "pass", .move(civilian, .pass), in: &table)
        let blank = table.players(.blank)[0]
        _ = table.everyoneVotes(for: blank)
        XCTAssertEqual(table.phase, .guessing)
        let other = try XCTUnwrap(ids.first { $0 != blank && table.game.isIn($0) })
        expectFirst(of: [.notYourTurn, .badClue], "guess", .move(other, .guess(.init(word: " "))), in: &table)
    }

    func testSettingsAndStart() throws {
        var table = Table(seed: 3, settings: GameSettings(maxPlayers: 6))
        let ids = table.seat(4)
        let (owner, other) = (ids[0], ids[1])
        let crowded = SettingsChange(maxPlayers: 5, spies: 2, turnSeconds: 5)
        expectFirst(of: [.badSettings, .tooManySpies], "settings", .move(owner, .settings(crowded)), in: &table)
        expectFirst(of: [.notOwner, .badSettings], "settings", .move(other, .settings(crowded)), in: &table)
        table.ok(.move(owner, .settings(SettingsChange(spies: 2, blank: true))))
        // Four players cannot hold two spies, nor two spies and the blank.
        expectFirst(
            of: [.tooFewPlayers, .tooManySpies], "start", .start(by: owner, pairs: [Table.pair]), in: &table)
        expectFirst(of: [.notOwner, .tooFewPlayers], "start", .start(by: other, pairs: [Table.pair]), in: &table)
        expectFirst(of: [.tooFewPlayers, .badSettings], "start", .start(by: owner, pairs: []), in: &table)
        table.ok(.move(owner, .settings(SettingsChange(spies: 1, blank: false))))
        table.start()
        expectFirst(of: [.notOwner, .wrongPhase], "settings", .move(other, .settings(crowded)), in: &table)
        expectFirst(of: [.wrongPhase, .badSettings], "settings", .move(owner, .settings(crowded)), in: &table)
        expectFirst(of: [.notOwner, .wrongPhase], "start", .start(by: other, pairs: [Table.pair]), in: &table)
        expectFirst(of: [.notOwner, .badTarget], "kick", .move(other, .kick(.init(player: "p42"))), in: &table)
    }

    /// Fewer than one spy is out of range (`bad_settings`); more than the table allows, however many, is
    /// `too_many_spies`, as the Settings table says; the message counts spies in good English.
    func testSpyCountsOutOfRange() throws {
        let document = try ProtocolDocument.text()
        XCTAssertTrue(
            document.contains(
                "Fewer than 1 is a `bad_settings`; more than the table allows (4 or more always) is a `too_many_spies`."
            ))
        var table = Table(settings: GameSettings(maxPlayers: 5))
        let owner = table.seat(5)[0]
        table.refused(.move(owner, .settings(SettingsChange(spies: 0))), .badSettings)
        for spies in [2, 4] {
            let refusal = Rules.validate(GameSettings(maxPlayers: 5, spies: spies), seated: 5)
            XCTAssertEqual(refusal?.code, .tooManySpies)
            XCTAssertEqual(refusal?.message, "Up to 5 players allow at most 1 spy.")
        }
        XCTAssertEqual(Rules.validate(GameSettings(maxPlayers: 20, spies: 4), seated: 0)?.code, .tooManySpies)
        XCTAssertEqual(
            Rules.startProblem(GameSettings(spies: 2), players: 5)?.message, "5 players allow at most 1 spy.")
        XCTAssertEqual(
            Rules.startProblem(GameSettings(spies: 3), players: 8)?.message, "8 players allow at most 2 spies.")
    }
}
