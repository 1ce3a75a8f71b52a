import SpyProtocol
import Testing

@testable import SpyClient

@Suite struct ReducerTests {
    let now = Fixtures.now

    @Test func theWordComesOnlyFromTheDealAddressedToThisClient() {
        var state = Fixtures.joined(language: .en)
        #expect(state.dealt == nil)
        state.apply(
            .room(Fixtures.room(.describing, turn: "p1", clues: [ClueView(player: "p1", round: 1, text: "水梨")])),
            now: now)
        state.apply(.clue(ClueView(player: "p1", round: 1, text: "水梨")), now: now)
        #expect(state.dealt == nil)
        state.apply(.deal(.init(game: 1, word: "蘋果")), now: now)
        #expect(state.dealt == DealtWord(game: 1, word: "蘋果"))
        #expect(state.wordVisibility == .justDealt)
        // Game over reveals every word; the dealt word stays this player's own.
        state.apply(
            .gameOver(
                .init(
                    game: 1, winner: .spies, civilianWord: "蘋果", spyWord: "水梨",
                    reveal: [RevealEntry(player: "p1", role: .spy, word: "水梨")], scores: [])), now: now)
        #expect(state.dealt == DealtWord(game: 1, word: "蘋果"))
        state.apply(.deal(.init(game: 2, word: nil)), now: now)
        #expect(state.dealt == DealtWord(game: 2, word: nil))
        #expect(state.gameOver == nil)
    }

    @Test func aRepeatedDealOnResumeDoesNotShowTheWordAgain() {
        var state = Fixtures.state(.othersTurn, language: .en)
        #expect(state.wordVisibility == .hidden)
        state.apply(.deal(.init(game: 1, word: Fixtures.myWord)), now: now)
        #expect(state.wordVisibility == .hidden)
    }

    @Test func anyKeyHidesTheDealtWordAndDoesNothingElse() {
        var state = Fixtures.joined(language: .en)
        state.apply(.room(Fixtures.room(.describing, turn: "p3", mode: .spoken)), now: now)
        state.apply(.deal(.init(game: 1, word: "蘋果")), now: now)
        #expect(state.wordShown(at: now))
        #expect(state.handle(.enter, now: now) == Reaction())
        #expect(!state.wordShown(at: now))
        #expect(state.handle(.enter, now: now).messages == [.pass])
    }

    @Test func forgotWordShowsFromMemoryForAFewSeconds() {
        var state = Fixtures.state(.othersTurn, language: .zhTW)
        #expect(state.handle(.character("f"), now: now) == Reaction())
        #expect(state.wordShown(at: now + ClientState.recallMillis - 1))
        #expect(state.nextWake(after: now) == now + ClientState.recallMillis)
        state.tick(now: now + ClientState.recallMillis)
        #expect(!state.wordShown(at: now + ClientState.recallMillis))
        _ = state.handle(.character("f"), now: now)
        #expect(state.handle(.character("x"), now: now + 10) == Reaction())
        #expect(!state.wordShown(at: now + 10))
    }

    @Test func typedClueFlowKeepsTheTextWhenRefused() {
        var state = Fixtures.state(.othersTurn, language: .zhTW)
        state.apply(.room(Fixtures.room(.describing, turn: "p3")), now: now)
        #expect(state.handle(.character("x"), now: now).messages.isEmpty)
        #expect(state.handle(.enter, now: now).messages.isEmpty)
        guard case .clue = state.prompt else {
            Issue.record("no editor")
            return
        }
        for character in "紅色蘋" { _ = state.handle(.character(character), now: now) }
        _ = state.handle(.backspace, now: now)
        _ = state.handle(.character("的"), now: now)
        #expect(state.handle(.enter, now: now).messages == [.clue(.init(text: "紅色的"))])
        state.apply(.error(.init(.clueHasWord)), now: now)
        #expect(state.prompt == .clue(LineEditor(text: "紅色的")))
        let screen = Screen.render(state, columns: 80, rows: 20, language: .zhTW, color: false, now: now)
        #expect(screen.lines.joined().contains("描述裡不能有你的詞"))
        // The turn moves on: the editor closes.
        state.apply(.room(Fixtures.room(.describing, turn: "p4")), now: now)
        #expect(state.prompt == .none)
    }

    @Test func escapeClosesTheEditorAndPassIsP() {
        var state = Fixtures.state(.othersTurn, language: .en)
        state.apply(.room(Fixtures.room(.describing, turn: "p3")), now: now)
        _ = state.handle(.character("c"), now: now)
        _ = state.handle(.character("p"), now: now)
        _ = state.handle(.escape, now: now)
        #expect(state.prompt == .none)
        #expect(state.handle(.character("p"), now: now).messages == [.pass])
    }

    @Test func notMyTurnSendsNothing() {
        var state = Fixtures.state(.othersTurn, language: .en)
        for key: Key in [.enter, .character("p"), .character("c"), .character("s"), .character("3")] {
            #expect(state.handle(key, now: now).messages.isEmpty)
        }
    }

    @Test func votingPicksConfirmsAndChangesTheBallot() {
        var state = Fixtures.state(.voting, language: .zhTW)
        #expect(state.cursor == "p2")
        _ = state.handle(.down, now: now)
        #expect(state.cursor == "p4", "skips my own seat")
        _ = state.handle(.up, now: now)
        _ = state.handle(.up, now: now)
        #expect(state.cursor == "p1")
        _ = state.handle(.character("5"), now: now)
        #expect(state.cursor == "p5")
        #expect(state.handle(.enter, now: now).messages.isEmpty)
        #expect(state.prompt == .confirmVote("p5"))
        #expect(state.handle(.character("n"), now: now).messages.isEmpty)
        #expect(state.prompt == .none)
        _ = state.handle(.enter, now: now)
        #expect(state.handle(.character("y"), now: now).messages == [.vote(.init(target: "p5"))])
        #expect(state.ballot == "p5")
        _ = state.handle(.character("1"), now: now)
        _ = state.handle(.enter, now: now)
        #expect(state.handle(.character("y"), now: now).messages == [.vote(.init(target: "p1"))])
        let screen = Screen.render(state, columns: 60, rows: 16, language: .zhTW, color: false, now: now)
        #expect(screen.lines.joined().contains("你投了 王小明（可改票）"))
    }

    @Test func twoDigitSeatNumbers() {
        var state = Fixtures.joined(language: .en)
        let seats = (1...12).map { SeatView(id: "p\($0)", seat: $0, name: "P\($0)") }
        state.apply(.room(Fixtures.room(.voting, seats: seats)), now: now)
        state.apply(.voting(.init(round: 1, candidates: seats.map(\.id), voters: seats.map(\.id))), now: now)
        _ = state.handle(.character("1"), now: now)
        _ = state.handle(.character("2"), now: now)
        #expect(state.cursor == "p12")
        _ = state.handle(.character("4"), now: now)
        #expect(state.cursor == "p4")
    }

    @Test func resumingMidVoteRebuildsTheBallotFromTheRoom() {
        var state = Fixtures.joined(language: .en)
        state.apply(.room(Fixtures.room(.voting, pk: ["p1", "p5"])), now: now)
        #expect(state.voting?.candidates == ["p1", "p5"])
        #expect(state.canVote)
        #expect(state.voteCandidates.map(\.id) == ["p1", "p5"])
    }

    @Test func aRefusedNameSaysWhichRuleItBrokeInBothLanguages() {
        let invisible = PlayerText.NameProblem.invisibleCharacters.message
        #expect(Strings(language: .en).problem(.badName, message: invisible) == invisible)
        #expect(Strings(language: .zhTW).problem(.badName, message: invisible) == "名字不能有看不見的字元")
        let zh = Set(
            PlayerText.NameProblem.allCases.map { Strings(language: .zhTW).problem(.badName, message: $0.message) })
        #expect(zh.count == PlayerText.NameProblem.allCases.count, "one zh text per reason")
        #expect(Strings(language: .zhTW).problem(.badName, message: "new rule") == "名字不能用：new rule")
    }

    @Test func aResumedVotingWithTheOwnBallotShowsIt() {
        var state = Fixtures.joined(language: .en)
        state.apply(.room(Fixtures.room(.voting)), now: now)
        state.apply(
            .voting(.init(round: 1, candidates: ["p1", "p2", "p3", "p4", "p5"], voters: ["p3"], ballot: "p4")),
            now: now)
        #expect(state.ballot == "p4")
        #expect(state.cursor == "p4")
    }

    @Test func turnsAndVotesAreAnnouncedOnceWhicheverMessageComesFirst() {
        var live = Fixtures.joined(language: .en)
        live.apply(.deal(.init(game: 1, word: "蘋果")), now: now)
        live.apply(.turn(.init(round: 1, player: "p3")), now: now)
        live.apply(.room(Fixtures.room(.describing, turn: "p3")), now: now)
        #expect(live.log.filter { if case .turn = $0 { return true } else { return false } }.count == 1)

        var resumed = Fixtures.joined(language: .en)
        resumed.apply(.room(Fixtures.room(.voting)), now: now)
        resumed.apply(.deal(.init(game: 1, word: "蘋果")), now: now)
        _ = resumed.handle(.character("x"), now: now)
        _ = resumed.handle(.character("4"), now: now)
        _ = resumed.handle(.enter, now: now)
        _ = resumed.handle(.character("y"), now: now)
        resumed.apply(.voting(.init(round: 1, candidates: ["p1", "p2", "p3", "p4", "p5"], voters: ["p3"])), now: now)
        #expect(resumed.log.filter { if case .votingOpened = $0 { return true } else { return false } }.count == 1)
        #expect(resumed.ballot == "p4", "the same vote again keeps the ballot")
        resumed.apply(.voting(.init(round: 1, candidates: ["p1", "p4"], voters: ["p3"], pk: true)), now: now)
        #expect(resumed.ballot == nil, "a PK vote is a new vote")
    }

    @Test func afterAReconnectTheTurnIsAnnouncedAgain() {
        var state = Fixtures.joined(language: .en)
        state.apply(.deal(.init(game: 1, word: "蘋果")), now: now)
        state.apply(.room(Fixtures.room(.describing, turn: "p3")), now: now)
        state.linkChanged(.reconnecting(attempt: 1))
        state.apply(.welcome(.init(you: "p3", token: "t", room: "KXPT", resumed: true)), now: now)
        state.apply(.room(Fixtures.room(.describing, turn: "p3")), now: now)
        state.apply(.turn(.init(round: 1, player: "p3")), now: now)
        #expect(state.log.filter { $0 == .turn(name: "李大華", isMe: true, pk: false) }.count == 2)
    }

    @Test func leavingAsksFirstDuringAGame() {
        var state = Fixtures.state(.othersTurn, language: .en)
        #expect(state.handle(.character("q"), now: now) == Reaction())
        #expect(state.prompt == .confirmLeave)
        #expect(state.handle(.character("n"), now: now) == Reaction())
        _ = state.handle(.character("q"), now: now)
        #expect(state.handle(.character("y"), now: now) == Reaction(messages: [.leave], action: .quit(leave: true)))
        var lobby = Fixtures.joined(language: .en)
        #expect(lobby.handle(.character("q"), now: now) == Reaction(messages: [.leave], action: .quit(leave: true)))
        #expect(lobby.handle(.interrupt, now: now) == Reaction(action: .quit(leave: false)))
    }

    @Test func ownerKeysChangeSettingsAndStart() {
        var owner = Fixtures.state(.lobby, language: .en)
        #expect(owner.handle(.character("b"), now: now).messages == [.settings(SettingsChange(blank: false))])
        #expect(owner.handle(.character("m"), now: now).messages == [.settings(SettingsChange(clueMode: .spoken))])
        #expect(owner.handle(.character("t"), now: now).messages == [.settings(SettingsChange(turnSeconds: 90))])
        #expect(owner.handle(.character("v"), now: now).messages == [.settings(SettingsChange(voteSeconds: 30))])
        #expect(owner.handle(.character("r"), now: now).messages == [.settings(SettingsChange(tieRule: .nobody))])
        #expect(owner.handle(.character("g"), now: now).messages == [.settings(SettingsChange(blankRule: .guess))])
        #expect(owner.handle(.character("+"), now: now).messages == [.settings(SettingsChange(spies: 1))], "5 seats: 1")
        #expect(owner.handle(.character("s"), now: now).messages == [.start])
        _ = owner.handle(.character("k"), now: now)
        _ = owner.handle(.character("4"), now: now)
        #expect(owner.handle(.enter, now: now).messages == [.kick(.init(player: "p4"))])
        _ = owner.handle(.character("k"), now: now)
        _ = owner.handle(.character("1"), now: now)
        #expect(owner.handle(.enter, now: now).messages.isEmpty, "not yourself")
        var guest = Fixtures.joined(language: .en)
        for key in "bmtvrgsk+" { #expect(guest.handle(.character(key), now: now).messages.isEmpty) }
    }

    @Test func theBlankGuesses() {
        var state = Fixtures.joined(me: "p2", language: .en)
        state.apply(.room(Fixtures.room(.guessing)), now: now)
        state.apply(.guessing(.init(player: "p2")), now: now)
        _ = state.handle(.enter, now: now)
        for character in "apple" { _ = state.handle(.character(character), now: now) }
        #expect(state.handle(.enter, now: now).messages == [.guess(.init(word: "apple"))])
        let screen = Screen.render(state, columns: 60, rows: 16, language: .en, color: false, now: now)
        #expect(screen.lines.joined().contains("guess> apple"))
    }

    @Test func progressMarksVotersWithoutSayingForWhom() {
        var state = Fixtures.state(.voting, language: .en)
        state.apply(.voteProgress(.init(voted: ["p2"], waiting: ["p1", "p3", "p4", "p5"])), now: now)
        #expect(state.room?.seats.filter(\.voted).map(\.id) == ["p2"])
    }

    @Test func fatalErrorsAndByeCloseTheLink() {
        var state = Fixtures.joined(language: .en)
        state.apply(.error(.init(.notYourTurn)), now: now)
        #expect(state.link == .connected)
        #expect(state.notice == .problem(code: .notYourTurn, message: ErrorCode.notYourTurn.defaultMessage))
        _ = state.handle(.character("z"), now: now)
        #expect(state.notice == nil)
        state.apply(.error(.init(.kicked)), now: now)
        #expect(state.link == .closed)
        var other = Fixtures.joined(language: .en)
        other.apply(.bye(.init(reason: "host_closing")), now: now)
        #expect(other.link == .closed)
    }

    @Test func aDroppedLinkIsLoggedOnceWhateverTheAttempts() {
        var state = Fixtures.joined(language: .en)
        state.link = .connected
        for attempt in 1...4 { state.linkChanged(.reconnecting(attempt: attempt)) }
        #expect(state.link == .reconnecting(attempt: 4))
        #expect(state.log.filter { $0 == .link(.reconnecting(attempt: 1)) }.count == 1)
        #expect(state.log.filter { if case .link = $0 { return true } else { return false } }.count == 1)
        state.apply(.welcome(.init(you: "p3", token: "t", room: "KXPT", resumed: true)), now: now)
        #expect(state.log.last == .link(.connected))
    }

    @Test func settingChangesAreLogged() {
        var state = Fixtures.joined(language: .en)
        var room = Fixtures.room(.lobby, game: 0, round: 0)
        room.settings.spies = 2
        state.apply(.room(room), now: now)
        guard case .settingsChanged(let settings) = state.log.last else {
            Issue.record("no settings line")
            return
        }
        #expect(settings.spies == 2)
        #expect(
            Strings(language: .en).event(state.log.last!).hasPrefix(
                "Settings: Traditional Chinese and English · spies 2"))
    }

    /// The pairs' language leads every settings summary, so a change of it alone is a different line.
    @Test func theSettingsSummaryNamesThePairsLanguage() {
        var settings = Fixtures.room(.lobby, game: 0, round: 0).settings
        settings.language = .en
        let english = Strings(language: .zhTW).settingsLine(settings)
        settings.language = .zhHans
        let simplified = Strings(language: .zhTW).settingsLine(settings)
        #expect(english.hasPrefix("英文題 · "))
        #expect(simplified.hasPrefix("簡體中文題 · "))
        #expect(Strings(language: .en).settingsLine(settings).hasPrefix("Simplified Chinese pairs · "))
    }

    @Test func joinsAndLeavesAreLogged() {
        var state = Fixtures.joined(language: .en)
        var seats = Fixtures.seats
        seats.remove(at: 1)
        seats.append(SeatView(id: "p6", seat: 6, name: "新來的"))
        state.apply(.room(Fixtures.room(.lobby, game: 0, round: 0, seats: seats)), now: now)
        #expect(state.log.suffix(2) == [.joined(name: "新來的"), .left(name: "Amy")])
    }

    @Test func theTimerCountsDown() {
        var state = Fixtures.joined(language: .en)
        state.apply(.room(Fixtures.room(.describing, turn: "p1", timerMs: 2_500)), now: now)
        #expect(state.timerEnds == now + 2_500)
        #expect(state.nextWake(after: now) == now + 500)
        let header = Screen.render(state, columns: 80, rows: 20, language: .en, color: false, now: now).lines[0]
        #expect(header.contains("⌛ 3s"))
    }
}
