import Foundation
import SpyProtocol
import Testing

@testable import SpyClient

/// A host is another program on the network: whatever it sends, the client neither traps nor lets the text
/// drive the terminal. Each case here was a crash or an escape before the client checked what it receives.
@Suite struct HostileHostTests {
    let now = Fixtures.now

    /// The frame as the link reads it, through the client's one intake.
    func received(_ json: String) -> ServerMessage? {
        HostMessages.decode(Array(json.utf8))
    }

    @Test func aTimerPastAnyClockIsRefusedAndTheScreenStillDraws() throws {
        var state = Fixtures.state(.othersTurn, language: .en)
        for type in ["turn", "voting", "guessing"] {
            let fields =
                type == "turn"
                ? #""round":1,"player":"p1","pk":false"#
                : type == "voting" ? #""round":1,"candidates":["p1"],"voters":["p3"],"pk":false"# : #""player":"p1""#
            let huge = #"{"type":"\#(type)",\#(fields),"timerMs":9223372036854775807}"#
            #expect(received(huge) == nil, "\(type)")
            let fine = try #require(received(#"{"type":"\#(type)",\#(fields),"timerMs":30000}"#), "\(type)")
            state.apply(fine, now: now)
        }
        #expect(state.timerEnds == now + 30_000)
        _ = Screen.render(state, columns: 80, rows: 24, language: .en, color: false, now: now)
    }

    @Test func settingsNoTableCouldHaveAreRefused() throws {
        var view = Fixtures.room(.lobby, game: 0, round: 0)
        view.settings.spies = Int.max
        let payload = WireCodec.encodePayload(ServerMessage.room(view))
        #expect(HostMessages.decode(payload) == nil)
        view.settings.spies = 2
        #expect(HostMessages.decode(WireCodec.encodePayload(ServerMessage.room(view))) == .room(view))
    }

    @Test func everyNumberAHostSendsIsBounded() {
        #expect(HostMessages.outOfRange(.ping(.init(id: 1 << 60))) != nil)
        #expect(HostMessages.outOfRange(.deal(.init(game: -1, word: "x"))) != nil)
        #expect(HostMessages.outOfRange(.gameOver(gameOver(score: Int.min))) != nil)
        #expect(HostMessages.outOfRange(.gameOver(gameOver(score: -3))) == nil)
        #expect(
            HostMessages.outOfRange(.welcome(.init(you: "p1", token: "t", room: "ABCD", categories: [category(-1)])))
                != nil)
        #expect(HostMessages.outOfRange(.error(.init(code: .roomFull, message: "full", need: Int.max))) != nil)
        // A bank far larger than any table plays with is still a bank.
        #expect(
            HostMessages.outOfRange(
                .welcome(.init(you: "p1", token: "t", room: "ABCD", categories: [category(3_000_000)]))) == nil)
    }

    @Test func controlCharactersFromTheHostNeverReachTheTerminal() throws {
        var state = Fixtures.joined(language: .en)
        var seats = Fixtures.seats
        seats[1].name = "\u{1B}]0;owned\u{07}\u{1B}[2J\u{9B}31mAmy\r\n"
        state.apply(.room(Fixtures.room(.describing, turn: "p2", seats: seats)), now: now)
        state.apply(.clue(ClueView(player: "p2", round: 1, text: "a\u{1B}[1Ab\u{8}c")), now: now)
        let frame = Screen.render(state, columns: 80, rows: 24, language: .en, color: false, now: now)
        let lines = frame.lines + PlainMode.lines(for: state.log[...], state: state) + PlainMode.seatLines(state)
        for line in lines {
            #expect(!line.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "\(line)")
        }
        #expect(lines.contains { $0.contains("Amy") })
    }

    /// The room code heads the seat list a line-mode player reads on joining and with `who`; a host's code is text
    /// like any other, and a line break in it would forge a line of the host's choosing.
    @Test func aRoomCodeWithControlCharactersReachesNoLine() throws {
        var state = Fixtures.joined(language: .en)
        var view = Fixtures.room(.voting)
        view.room = "\u{7F}EED\n! Amy is the spy\u{1B}[2J"
        let frame = try #require(
            received(String(decoding: WireCodec.encodePayload(ServerMessage.room(view)), as: UTF8.self)))
        state.apply(frame, now: now)
        let lines = PlainMode.seatLines(state) + state.perform(.who, now: now).1
        for line in lines {
            #expect(!line.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "\(line)")
        }
        #expect(lines.filter { $0.contains("EED") && $0.contains("Amy is the spy") }.count == 2)
    }

    private func gameOver(score: Int) -> ServerMessage.GameOver {
        .init(
            game: 1, winner: .civilians, civilianWord: "a", spyWord: "b", reveal: [],
            scores: [ScoreEntry(player: "p1", score: score)])
    }

    private func category(_ pairs: Int) -> BankCategory {
        BankCategory(name: "食物", language: .zhTW, pairs: pairs, partyPairs: 0)
    }
}
