import SpyProtocol
import Testing

@testable import SpyClient

/// The rule variants in the terminal client: the blank's guess while the vote is open, the spy's last chance.
@Suite struct RuleVariantClientTests {
    let now: Millis = 1_000

    /// This player (p3) is the blank at a table playing `guessEachRound`, and the vote of round 1 is open.
    func blankVoting(rule: BlankRule = .guessEachRound) -> ClientState {
        var state = Fixtures.joined(language: .en)
        var view = Fixtures.room(.describing, turn: "p1")
        view.settings.blankRule = rule
        state.apply(.room(view), now: now)
        state.apply(.deal(.init(game: 1, word: nil)), now: now)
        _ = state.handle(.character("z"), now: now)
        view.phase = .voting
        view.turn = nil
        state.apply(.room(view), now: now)
        let voters = Fixtures.seats.map(\.id)
        state.apply(.voting(.init(round: 1, candidates: voters, voters: voters)), now: now)
        return state
    }

    @Test func theBlankMayOpenTheGuessWhileTheVoteIsOpen() {
        var state = blankVoting()
        #expect(state.mayGuessWhileVoting)
        #expect(state.log.contains(.evening(.mayGuess)))
        let screen = Screen.render(state, columns: 80, rows: 20, language: .en, color: false, now: now)
        #expect(screen.lines.joined().contains("g guess the word"))
        _ = state.handle(.character("g"), now: now)
        guard case .guess = state.prompt else {
            Issue.record("g opens the guess")
            return
        }
        for character in "Apple" { _ = state.handle(.character(character), now: now) }
        // A vote update keeps the line being typed.
        state.apply(.voteProgress(.init(voted: ["p1"], waiting: ["p2", "p3", "p4", "p5"])), now: now)
        state.apply(.room(state.room!), now: now)
        let reaction = state.handle(.enter, now: now)
        #expect(reaction.messages == [.guess(.init(word: "Apple"))])
    }

    @Test func underTheOtherRulesGDoesNotGuessWhileVoting() {
        var state = blankVoting(rule: .guess)
        #expect(!state.mayGuessWhileVoting)
        _ = state.handle(.character("g"), now: now)
        #expect(state.prompt == .none)
    }

    @Test func guessResultsAndTheLastChanceAreSaid() {
        var state = blankVoting()
        state.apply(.guessResult(.init(player: "p4", role: .blank, correct: false, out: true)), now: now)
        state.apply(.guessing(.init(player: "p2", role: .spy)), now: now)
        let english = Strings(language: .en)
        let lines = state.log.suffix(2).map(english.event)
        #expect(lines[0] == "陳美玲 was the blank and guessed wrong: out")
        #expect(lines[1] == "Amy is a spy and gets a last chance: guessing the civilians' word")
        #expect(Strings(language: .zhTW).event(state.log.last!).contains("臥底"))
    }

    @Test func theOwnerCyclesTheBlankRuleAndTurnsTheLastChanceOn() {
        var state = Fixtures.state(.lobby, language: .en)
        #expect(state.handle(.character("g"), now: now).messages == [.settings(.init(blankRule: .guess))])
        #expect(state.handle(.character("l"), now: now).messages == [.settings(.init(spyLastChance: true))])
        var view = state.room!
        view.settings.blankRule = .guessEachRound
        view.settings.spyLastChance = true
        state.apply(.room(view), now: now)
        #expect(state.handle(.character("g"), now: now).messages == [.settings(.init(blankRule: .survive))])
        #expect(Strings(language: .en).settingsLine(view.settings).contains("guess each round"))
        #expect(Strings(language: .en).settingsLine(view.settings).hasSuffix("spy's last chance"))
        #expect(PlainMode.parse("set lastchance on") == .success(.settings(.init(spyLastChance: true))))
        #expect(
            PlainMode.parse("set blankrule guessEachRound") == .success(.settings(.init(blankRule: .guessEachRound))))
    }
}
