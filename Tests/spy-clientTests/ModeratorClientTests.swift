import SpyProtocol
import Testing

@testable import SpyClient

/// The moderator's screen and keys in the terminal client.
@Suite struct ModeratorClientTests {
    let now: Millis = 1_000

    /// This player (p3) moderates a game of the other four, in the vote of round 1.
    func moderating() -> ClientState {
        var state = Fixtures.joined(language: .en)
        var seats = Fixtures.seats
        seats[2].moderator = true
        state.apply(.moderator(.init(player: "p3")), now: now)
        var view = Fixtures.room(.voting, seats: seats)
        view.turn = nil
        state.apply(.room(view), now: now)
        let dealt = ["p1", "p2", "p4", "p5"]
        state.apply(.voting(.init(round: 1, candidates: dealt, voters: dealt)), now: now)
        state.apply(
            .moderatorView(
                .init(
                    game: 1, civilianWord: "蘋果", spyWord: "水梨",
                    players: dealt.map {
                        RevealEntry(player: $0, role: $0 == "p4" ? .spy : .civilian, word: $0 == "p4" ? "水梨" : "蘋果")
                    },
                    ballots: [TallyEntry(player: "p4", voters: ["p1"])])), now: now)
        return state
    }

    @Test func theModeratorSeesEveryWordAndBallotOnTheirOwnScreen() {
        var state = moderating()
        #expect(state.isModerator)
        let english = Strings(language: .en)
        let lines = state.log.map(english.event)
        #expect(lines.contains("Game 1 · Civilian word: 蘋果  Spy word: 水梨"))
        #expect(lines.contains("陳美玲: spy 水梨"))
        #expect(lines.contains("王小明 → 陳美玲"))
        let screen = Screen.render(state, columns: 100, rows: 24, language: .en, color: false, now: now).lines.joined()
        #expect(screen.contains("moderator Civilian word: 蘋果  Spy word: 水梨"))
        #expect(screen.contains("spy 水梨"))
        #expect(screen.contains("→4"))
        #expect(screen.contains("p pause timers"))
        // A later ballot is said once, the earlier not again.
        state.apply(
            .moderatorView(
                .init(
                    game: 1, civilianWord: "蘋果", spyWord: "水梨", players: state.moderatorView!.players,
                    ballots: [TallyEntry(player: "p4", voters: ["p1", "p2"])])), now: now)
        #expect(state.log.filter { if case .evening(.moderatorBallot) = $0 { true } else { false } }.count == 2)
        #expect(PlainMode.lines(for: state.log.suffix(1), state: state) == ["⚖ Amy → 陳美玲"])
    }

    @Test func theModeratorsKeys() {
        var state = moderating()
        #expect(state.handle(.character("p"), now: now).messages == [.pause])
        #expect(state.handle(.character("n"), now: now).messages == [.passTurn])
        var view = state.room!
        view.phase = .gameOver
        state.apply(.room(view), now: now)
        #expect(state.handle(.character("s"), now: now).messages == [.start])
        _ = state.handle(.character("i"), now: now)
        for character in "婚紗/禮服" { _ = state.handle(.character(character), now: now) }
        #expect(state.handle(.enter, now: now).messages == [.moderatorPair(.init(civilian: "婚紗", spy: "禮服"))])
        #expect(state.handle(.character("j"), now: now).messages == [.moderator(.init(player: nil))])
        #expect(PlainMode.parse("judge 3") == .success(.judge("3")))
        #expect(state.perform(.judge("off"), now: now).0.messages == [.moderator(.init(player: nil))])
        #expect(state.perform(.pair("a——b"), now: now).0.messages == [.moderatorPair(.init(civilian: "a", spy: "b"))])
        #expect(state.perform(.pair("nothing"), now: now).1 == ["usage: pair CIVILIAN/SPY"])
    }

    @Test func anOfferIsAnsweredWithYOrN() {
        var state = Fixtures.joined(language: .en)
        state.apply(.moderatorOffer(.init(player: "p3")), now: now)
        #expect(Strings(language: .en).event(state.log.last!).contains("take the seat? (y/n)"))
        #expect(state.handle(.character("y"), now: now).messages == [.moderatorAnswer(.init(accept: true))])
        #expect(!state.moderatorAsked)
        state.apply(.moderatorOffer(.init(player: "p3")), now: now)
        #expect(
            state.perform(.answerClaim(allow: false), now: now).0.messages == [.moderatorAnswer(.init(accept: false))])
        var owner = Fixtures.state(.lobby, language: .en)
        #expect(owner.handle(.character("j"), now: now).messages == [.moderator(.init(player: "p1"))])
        owner.apply(.moderatorDeclined(.init(player: "p2")), now: now)
        #expect(Strings(language: .zhHans).event(owner.log.last!) == "Amy 不当法官")
    }
}
