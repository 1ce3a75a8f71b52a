import SpyProtocol
import Testing

@testable import SpyClient

/// The host's messages about owners, claimed seats and seats sitting out, on the screen and in line mode.
@Suite struct PartyMessagesTests {
    let now = Fixtures.now
    let question = ServerMessage.claim(.init(player: "p4", name: "美玲"))

    @Test func aNewOwnerIsSaid() {
        var state = Fixtures.joined(language: .en)
        state.apply(.owner(.init(player: "p2", previous: "p1")), now: now)
        #expect(state.log.last == .ownerChanged(name: "Amy", isMe: false))
        state.apply(.owner(.init(player: "p3", previous: "p2")), now: now)
        #expect(
            PlainMode.lines(for: state.log.suffix(2), state: state) == [
                "· Amy owns the room now", "· You own the room now",
            ])
    }

    @Test func theApproverAnswersTheClaimWithYOnTheScreen() {
        var state = Fixtures.joined(me: "p1", language: .en)
        state.apply(question, now: now)
        let screen = Screen.render(state, columns: 80, rows: 24, language: .en, color: false, now: now).lines.joined()
        #expect(screen.contains("\"美玲\" asks for 陳美玲's seat back: allow? (y/n)"))
        #expect(state.handle(.character("y"), now: now).messages == [.claimAnswer(.init(player: "p4", allow: true))])
        #expect(state.claimQuestion == nil)
        #expect(state.handle(.character("y"), now: now).messages.isEmpty, "answered once")
    }

    @Test func theApproverDeniesWithNAndTheQuestionClosesWhenTheClaimEnds() {
        var state = Fixtures.joined(me: "p1", language: .zhTW)
        state.apply(question, now: now)
        #expect(state.handle(.character("n"), now: now).messages == [.claimAnswer(.init(player: "p4", allow: false))])
        state.apply(question, now: now)
        state.apply(.claimDone(.init(player: "p4")), now: now)
        #expect(state.claimQuestion == nil)
        let screen = Screen.render(state, columns: 80, rows: 24, language: .zhTW, color: false, now: now).lines.joined()
        #expect(!screen.contains("允許嗎"))
    }

    @Test func lineModeAsksAndAnswers() {
        var state = Fixtures.joined(me: "p1", language: .en)
        state.apply(question, now: now)
        #expect(
            PlainMode.lines(for: state.log.suffix(1), state: state) == [
                "» \"美玲\" asks for 陳美玲's seat back (type y to allow, n to deny)"
            ])
        #expect(PlainMode.parse("y") == .success(.answerClaim(allow: true)))
        #expect(PlainMode.parse("deny") == .success(.answerClaim(allow: false)))
        let (reaction, _) = state.perform(.answerClaim(allow: true), now: now)
        #expect(reaction.messages == [.claimAnswer(.init(player: "p4", allow: true))])
        let (nothing, lines) = state.perform(.answerClaim(allow: false), now: now)
        #expect(nothing.messages.isEmpty)
        #expect(lines == ["Not possible now"])
    }

    @Test func aSeatSittingOutIsMarked() {
        var state = Fixtures.joined(language: .en)
        var seats = Fixtures.seats
        seats[4].connected = false
        seats[4].sittingOut = true
        state.apply(.room(Fixtures.room(.describing, turn: "p1", seats: seats)), now: now)
        let screen = Screen.render(state, columns: 80, rows: 24, language: .en, color: false, now: now).lines
        #expect(screen.contains { $0.contains("Bob the Builder") && $0.contains("sitting out") })
        #expect(PlainMode.seatLines(state).contains { $0.contains("Bob the Builder") && $0.contains("sitting out") })
        #expect(!PlainMode.seatLines(state).contains { $0.contains("Amy") && $0.contains("sitting out") })
    }

    @Test func aClaimPendingChangesNothingShown() {
        var state = Fixtures.joined(language: .en)
        let before = state
        state.apply(.claimPending(.init(player: "p3")), now: now)
        #expect(state == before)
        #expect(HostMessages.outOfRange(.claimPending(.init(player: "p3"))) == nil)
    }
}
