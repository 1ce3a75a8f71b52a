import SpyProtocol

@testable import SpyClient

/// A table of five with Chinese and English names, and the states a player sees through one game, built by
/// feeding the reducer the messages the host would send.
enum Fixtures {
    static let myWord = "蘋果"
    /// Words the client must never show before game over: the spies' word. (The civilians' word is this player's.)
    static let otherWord = "水梨"
    static let now: Millis = 1_000_000

    static let seats: [SeatView] = [
        SeatView(id: "p1", seat: 1, name: "王小明", owner: true),
        SeatView(id: "p2", seat: 2, name: "Amy"),
        SeatView(id: "p3", seat: 3, name: "李大華"),
        SeatView(id: "p4", seat: 4, name: "陳美玲"),
        SeatView(id: "p5", seat: 5, name: "Bob the Builder"),
    ]

    static func room(
        _ phase: Phase, game: Int = 1, round: Int = 1, turn: PlayerID? = nil, pk: [PlayerID] = [],
        clues: [ClueView] = [], mode: ClueMode = .typed, seats: [SeatView] = Fixtures.seats, timerMs: Int? = nil,
        winner: Winner? = nil
    ) -> RoomView {
        RoomView(
            room: "KXPT", phase: phase, game: game, round: round,
            settings: GameSettings(maxPlayers: 8, spies: 1, blank: true, clueMode: mode, turnSeconds: 60),
            seats: seats, turn: turn, pk: pk, clues: clues, timerMs: timerMs, winner: winner)
    }

    /// Phases a snapshot is taken of.
    enum Scene: String, CaseIterable {
        case lobby, dealt, myTurn, othersTurn, voting, confirmVote, result, pk, guessing, gameOver
        /// A full table of twenty voting, two of them away and one out.
        case voting20
        /// The details page (`d`) at game over: every seat, the settings and the whole log.
        case gameOverDetails

        /// Whether the scene shows a finished game, where every word may be seen.
        var isGameOver: Bool { self == .gameOver || self == .gameOverDetails }
    }

    /// Twenty seats: this player is seat 3; bots and people with long names.
    static let twentySeats: [SeatView] = (1...20).map { number in
        let names = [1: "王小明", 2: "Amy", 3: "李大華", 4: "陳美玲", 5: "Bob the Builder", 12: "歐陽美美子"]
        return SeatView(
            id: "p\(number)", seat: number, name: names[number] ?? "Bot \(number)", owner: number == 1,
            connected: number != 7 && number != 15, bot: names[number] == nil)
    }

    /// This player (seat 3) in the lobby as seen by the owner `me`.
    static func joined(me: PlayerID = "p3", language: Language) -> ClientState {
        var state = ClientState(language: language)
        state.apply(.welcome(.init(you: me, token: "secret-token", room: "KXPT")), now: now)
        state.apply(.room(room(.lobby, game: 0, round: 0)), now: now)
        return state
    }

    static func state(_ scene: Scene, language: Language) -> ClientState {
        let clue1 = ClueView(player: "p1", round: 1, text: "很常見的水果")
        let clue2 = ClueView(player: "p2", round: 1, text: "red or green, crunchy")
        switch scene {
        case .lobby:
            var state = joined(me: "p1", language: language)
            state.apply(.room(room(.lobby, game: 0, round: 0)), now: now)
            return state
        case .dealt:
            var state = joined(language: language)
            state.apply(.room(room(.describing, turn: "p1", mode: .spoken, timerMs: 42_000)), now: now)
            state.apply(.deal(.init(game: 1, word: myWord)), now: now)
            state.apply(.turn(.init(round: 1, player: "p1", timerMs: 42_000)), now: now)
            return state
        case .myTurn:
            var state = self.state(.othersTurn, language: language)
            state.apply(.clue(clue2), now: now)
            state.apply(.room(room(.describing, turn: "p3", clues: [clue1, clue2])), now: now)
            state.apply(.turn(.init(round: 1, player: "p3")), now: now)
            _ = state.handle(.enter, now: now)
            for character in "一天一個" { _ = state.handle(.character(character), now: now) }
            return state
        case .othersTurn:
            var state = joined(language: language)
            state.apply(.room(room(.describing, turn: "p1")), now: now)
            state.apply(.deal(.init(game: 1, word: myWord)), now: now)
            _ = state.handle(.character(" "), now: now)
            state.apply(.turn(.init(round: 1, player: "p1")), now: now)
            state.apply(.clue(clue1), now: now)
            state.apply(.room(room(.describing, turn: "p2", clues: [clue1])), now: now)
            state.apply(.turn(.init(round: 1, player: "p2")), now: now)
            return state
        case .voting:
            var state = self.state(.myTurn, language: language)
            _ = state.handle(.enter, now: now)
            let clues = [
                clue1, clue2, ClueView(player: "p3", round: 1, text: "一天一個"), ClueView(player: "p4", round: 1),
                ClueView(player: "p5", round: 1, text: "grows on trees"),
            ]
            for clue in clues.dropFirst(2) { state.apply(.clue(clue), now: now) }
            var seats = Self.seats
            seats[0].voted = true
            seats[4].voted = true
            seats[3].connected = false
            state.apply(.room(room(.voting, clues: clues, seats: seats)), now: now)
            state.apply(
                .voting(
                    .init(
                        round: 1, candidates: ["p1", "p2", "p3", "p4", "p5"], voters: ["p1", "p2", "p3", "p4", "p5"])),
                now: now)
            state.apply(.voteProgress(.init(voted: ["p1", "p5"], waiting: ["p2", "p3", "p4"])), now: now)
            _ = state.handle(.down, now: now)
            return state
        case .confirmVote:
            var state = self.state(.voting, language: language)
            _ = state.handle(.character("4"), now: now)
            _ = state.handle(.enter, now: now)
            return state
        case .result:
            var state = self.state(.confirmVote, language: language)
            _ = state.handle(.character("y"), now: now)
            state.apply(
                .voteResult(
                    .init(
                        round: 1,
                        tally: [
                            TallyEntry(player: "p4", voters: ["p1", "p3", "p5"]),
                            TallyEntry(player: "p5", voters: ["p2"]),
                        ], outcome: .out, out: "p4", identity: .civilian)), now: now)
            var seats = Self.seats
            seats[3].alive = false
            seats[3].revealed = .civilian
            state.apply(.room(room(.describing, round: 2, turn: "p5", seats: seats)), now: now)
            state.apply(.turn(.init(round: 2, player: "p5")), now: now)
            return state
        case .pk:
            var state = self.state(.result, language: language)
            var seats = Self.seats
            seats[3].alive = false
            seats[3].revealed = .civilian
            state.apply(
                .voteResult(
                    .init(
                        round: 2,
                        tally: [
                            TallyEntry(player: "p1", voters: ["p2", "p5"]),
                            TallyEntry(player: "p5", voters: ["p1", "p3"]),
                        ], outcome: .pk, tied: ["p1", "p5"])), now: now)
            state.apply(.room(room(.voting, round: 2, pk: ["p1", "p5"], seats: seats)), now: now)
            state.apply(.voting(.init(round: 2, candidates: ["p1", "p5"], voters: ["p2", "p3"], pk: true)), now: now)
            return state
        case .guessing:
            var state = self.state(.result, language: language)
            var seats = Self.seats
            seats[3].alive = false
            seats[3].revealed = .civilian
            seats[1].alive = false
            state.apply(
                .voteResult(
                    .init(
                        round: 2, tally: [TallyEntry(player: "p2", voters: ["p1", "p3", "p5"])], outcome: .out,
                        out: "p2",
                        identity: .blank)), now: now)
            state.apply(.room(room(.guessing, round: 2, seats: seats, timerMs: 30_000)), now: now)
            state.apply(.guessing(.init(player: "p2", timerMs: 30_000)), now: now)
            return state
        case .voting20:
            var state = joined(language: language)
            var seats = twentySeats
            seats[9].alive = false
            seats[9].revealed = .civilian
            for index in [0, 4, 11, 16] { seats[index].voted = true }
            state.apply(.room(room(.voting, round: 2, seats: seats)), now: now)
            state.apply(.deal(.init(game: 1, word: myWord)), now: now)
            _ = state.handle(.character(" "), now: now)
            let alive = seats.filter(\.alive).map(\.id)
            state.apply(.voting(.init(round: 2, candidates: alive, voters: alive)), now: now)
            state.apply(.voteProgress(.init(voted: ["p1", "p5", "p12", "p17"], waiting: [])), now: now)
            _ = state.handle(.character("1"), now: now)
            _ = state.handle(.character("2"), now: now)
            return state
        case .gameOverDetails:
            var state = self.state(.gameOver, language: language)
            _ = state.handle(.character("d"), now: now)
            return state
        case .gameOver:
            var state = self.state(.guessing, language: language)
            var seats = Self.seats
            for index in seats.indices { seats[index].revealed = .civilian }
            seats[1].revealed = .blank
            seats[4].revealed = .spy
            seats[1].alive = false
            seats[3].alive = false
            seats[0].score = 2
            seats[2].score = 2
            state.apply(
                .gameOver(
                    .init(
                        game: 1, winner: .civilians, civilianWord: myWord, spyWord: otherWord,
                        reveal: [
                            RevealEntry(player: "p1", role: .civilian, word: myWord),
                            RevealEntry(player: "p2", role: .blank, word: nil),
                            RevealEntry(player: "p3", role: .civilian, word: myWord),
                            RevealEntry(player: "p4", role: .civilian, word: myWord),
                            RevealEntry(player: "p5", role: .spy, word: otherWord),
                        ], blankGuess: "橘子", scores: [])), now: now)
            state.apply(.room(room(.gameOver, round: 2, seats: seats, winner: .civilians)), now: now)
            return state
        }
    }
}
