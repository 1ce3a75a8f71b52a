import Foundation
import SpyProtocol
import Testing

@testable import SpyClient

/// Honest messages: refusals with the host's numbers, keys that say why they do nothing, people coming back, and a
/// log that survives a restart of the client.
@Suite struct TableMessagesTests {
    let now = Fixtures.now

    @Test func theStartRefusalShowsTheNumbersTheHostGave() {
        for (language, expected) in [
            (Language.en, "5 players are needed to start, 4 are here (with the blank, civilians must be the majority)"),
            (.zhTW, "要 5 個人才能開始，現在 4 人（有白板時平民要過半）"),
        ] {
            var state = Fixtures.joined(me: "p1", language: language)
            state.apply(
                .error(.init(code: .tooFewPlayers, message: "1 spy and the blank need 5.", need: 5, have: 4)), now: now)
            guard let notice = state.notice else {
                Issue.record("no notice")
                continue
            }
            #expect(Strings(language: language).event(notice) == expected)
        }
        let plain = Strings(language: .en).problem(.tooFewPlayers, message: "m", need: 4, have: 3)
        #expect(plain == "4 players are needed to start, 3 are here")
    }

    @Test func theHostsReasonForBadSettingsIsShown() {
        let reason = "The categories 派對 hold only party pairs, and party pairs are off."
        #expect(Strings(language: .en).problem(.badSettings, message: reason) == reason)
        #expect(Strings(language: .zhTW).problem(.badSettings, message: reason).hasSuffix(reason))
    }

    @Test func englishUsesAnASCIIColon() {
        let text = Strings(language: .en)
        #expect(text.event(.reveal(name: "Amy", role: .civilian, word: "tea")) == "Amy: civilian (tea)")
        #expect(text.event(.clue(name: "Amy", text: "hot")) == "Amy: hot")
        #expect(Strings(language: .zhTW).event(.clue(name: "Amy", text: "熱")) == "Amy：熱")
    }

    @Test func votingKeysThatPickNobodySayWhy() {
        var state = Fixtures.state(.voting, language: .en)
        _ = state.handle(.character("3"), now: now)
        #expect(state.notice == .hint(.cannotVoteForYourself))
        var seats = Fixtures.seats
        seats[3].alive = false
        state.apply(.room(Fixtures.room(.voting, seats: seats)), now: now)
        state.apply(
            .voting(.init(round: 2, candidates: ["p1", "p2", "p3", "p5"], voters: ["p1", "p2", "p3", "p5"])), now: now)
        _ = state.handle(.character("4"), now: now)
        #expect(state.notice == .hint(.cannotChoose(name: "陳美玲")))
        _ = state.handle(.character("9"), now: now)
        #expect(state.notice == .hint(.noSuchSeat("9")))
        _ = state.handle(.character("1"), now: now)
        #expect(state.notice == nil)
        #expect(state.cursor == "p1")
    }

    @Test func pressingEnterOnSomeoneElsesTurnSaysWhoseTurnItIs() {
        var state = Fixtures.state(.othersTurn, language: .en)
        #expect(state.handle(.enter, now: now).messages.isEmpty)
        #expect(state.notice == .hint(.turnOf(name: "Amy")))
    }

    @Test func fShowsTheWordDuringTheVoteConfirmation() {
        var state = Fixtures.state(.confirmVote, language: .en)
        #expect(state.handle(.character("f"), now: now) == Reaction())
        #expect(state.wordShown(at: now))
        #expect(state.prompt == .confirmVote("p4"), "the question stays open")
    }

    @Test func theOwnerTogglesTheSpyWinRule() {
        var state = Fixtures.state(.lobby, language: .en)
        #expect(state.handle(.character("w"), now: now).messages == [.settings(.init(spyWin: .parity))])
        let screen = Screen.render(state, columns: 60, rows: 16, language: .en, color: false, now: now)
        #expect(screen.lines.joined().contains("[w]spies win at 3 left"))
    }

    @Test func aPlayerWhoComesBackIsAnnouncedAsBackNotJoined() {
        var state = Fixtures.state(.othersTurn, language: .en)
        var seats = Fixtures.seats
        seats[1].connected = false
        state.apply(.room(Fixtures.room(.describing, turn: "p2", seats: seats)), now: now)
        #expect(state.log.last == .away(name: "Amy"))
        state.apply(.room(Fixtures.room(.describing, turn: "p2")), now: now)
        #expect(state.log.last == .back(name: "Amy"))
        #expect(!state.log.contains(.joined(name: "Amy")))
    }

    @Test func aRestartedClientResumesWithTheGameSoFarInItsLog() {
        var state = ClientState(language: .en)
        state.apply(.welcome(.init(you: "p3", token: "t", room: "KXPT", resumed: true)), now: now)
        var seats = Fixtures.seats
        seats[3].alive = false
        seats[3].revealed = .civilian
        let clues = [
            ClueView(player: "p1", round: 1, text: "很常見的水果"), ClueView(player: "p2", round: 1),
            ClueView(player: "p1", round: 2, text: "round two"),
        ]
        state.apply(.room(Fixtures.room(.describing, round: 2, turn: "p2", clues: clues, seats: seats)), now: now)
        state.apply(.deal(.init(game: 1, word: Fixtures.myWord)), now: now)
        #expect(
            Array(state.log.prefix(6)) == [
                .back(name: "李大華"), .gameStarted(game: 1), .clue(name: "王小明", text: "很常見的水果"),
                .clue(name: "Amy", text: nil), .clue(name: "王小明", text: "round two"),
                .votedOut(name: "陳美玲", identity: .civilian),
            ])
        #expect(state.log.filter { $0 == .gameStarted(game: 1) }.count == 1)
        #expect(!state.log.contains(.joined(name: "李大華")))
    }

    @Test func aReconnectKeepsTheLog() {
        var state = Fixtures.state(.voting, language: .en)
        let before = state.log
        state.linkChanged(.reconnecting(attempt: 1))
        state.apply(.welcome(.init(you: "p3", token: "t", room: "KXPT", resumed: true)), now: now)
        state.apply(.room(Fixtures.room(.voting)), now: now)
        #expect(Array(state.log.prefix(before.count)) == before)
    }

    @Test func lineModeSaysTheWordAgainAfterAReconnectAndSetsTheSpyWinRule() {
        var state = Fixtures.state(.othersTurn, language: .en)
        #expect(state.log.filter { $0 == .ownWord(Fixtures.myWord) }.count == 1)
        state.apply(.deal(.init(game: 1, word: Fixtures.myWord)), now: now)
        #expect(state.log.filter { $0 == .ownWord(Fixtures.myWord) }.count == 1, "a repeated deal alone says nothing")
        state.linkChanged(.reconnecting(attempt: 1))
        state.apply(.welcome(.init(you: "p3", token: "t", room: "KXPT", resumed: true)), now: now)
        state.apply(.room(Fixtures.room(.describing, turn: "p2")), now: now)
        state.apply(.deal(.init(game: 1, word: Fixtures.myWord)), now: now)
        #expect(state.log.filter { $0 == .ownWord(Fixtures.myWord) }.count == 2)
        #expect(PlainMode.parse("set win parity") == .success(.settings(.init(spyWin: .parity))))
        #expect(PlainMode.parse("set win three") == .success(.settings(.init(spyWin: .three))))
    }

    @Test func theHeaderTellsTheAbsenceCountdownFromATurnTimer() {
        var state = Fixtures.state(.othersTurn, language: .en)
        state.apply(.turn(.init(round: 1, player: "p2", timerMs: 20_000, timerKind: .absent)), now: now)
        let absent = Screen.render(state, columns: 60, rows: 16, language: .en, color: false, now: now).lines[0]
        #expect(absent.contains("⌛ away 20s"))
        state.apply(.turn(.init(round: 1, player: "p2", timerMs: 30_000, timerKind: .turn)), now: now)
        let timed = Screen.render(state, columns: 60, rows: 16, language: .en, color: false, now: now).lines[0]
        #expect(timed.contains("⌛ 30s"))
    }

    @Test func leavingForgetsTheTokenButKeepsTheName() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("spy-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = TokenStore(file: directory.appendingPathComponent("tokens.json"))
        store.set("h/", .init(token: "secret", name: "Amy", room: "KXPT"))
        store.forgetToken("h/")
        #expect(store.entry("h/") == .init(token: nil, name: "Amy", room: "KXPT"))
    }

    /// The token file is the client's own, but it is read within a bound: a file grown past it is not loaded.
    @Test func aTokenFileOverTheLimitIsNotLoaded() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("spy-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = TokenStore(file: directory.appendingPathComponent("tokens.json"))
        store.set("h/", .init(token: "secret", name: "Amy", room: "KXPT"))
        #expect(store.entry("h/")?.token == "secret")
        let padded = try Data(contentsOf: store.file) + Data(repeating: 0x20, count: TokenStore.maxFileBytes)
        try padded.write(to: store.file)
        #expect(store.entry("h/") == nil)
    }
}
