import SpyProtocol

/// At least one value of every message, with optional fields both present and absent.
enum MessageSamples {
    static let client: [ClientMessage] = [
        .hello(.init(name: "Amy")),
        .hello(.init(protocol: 2, name: "小明", room: "QXWZ", token: String(repeating: "a1", count: 16), password: "pw")),
        .hello(.init(name: "", create: true)),
        .hello(.init(name: "小明", room: "QXWZ", claim: "p3")),
        .ping(.init(id: 7)),
        .ping(.init(id: -1)),
        .pong(.init(id: 3)),
        .settings(SettingsChange()),
        .settings(SettingsChange(spies: 2, clueMode: .typed, categories: ["食物", "animals"])),
        .settings(
            SettingsChange(
                maxPlayers: 8, spies: 1, blank: true, clueMode: .spoken, turnSeconds: 30, voteSeconds: 60,
                tieRule: .random, revealOut: false, blankRule: .guess, language: .zhTW, allowParty: true,
                categories: [])),
        .settings(SettingsChange(blankRule: .guessEachRound, spyLastChance: true)),
        .start,
        .clue(.init(text: "紅色的水果 \"quoted\" \\ /")),
        .pass,
        .vote(.init(target: "p3")),
        .guess(.init(word: "蘋果")),
        .kick(.init(player: "p4")),
        .leave,
        .claimAnswer(.init(player: "p3", allow: true)),
        .claimAnswer(.init(player: "p2", allow: false)),
        .words(.init(text: "婚紗,禮服\n伴郎——伴娘\n\"a, b\",c")),
        .words(.init(text: "", replace: true)),
        .wordsClear,
        .wordsExport,
        .settings(SettingsChange(wordSource: .oursAndBank)),
        .moderator(.init(player: "p6")),
        .moderator(.init(player: nil)),
        .moderatorAnswer(.init(accept: true)),
        .moderatorAnswer(.init(accept: false)),
        .moderatorPair(.init(civilian: "婚紗", spy: "禮服")),
        .pause,
        .resume,
        .passTurn,
    ]

    static let seats = [
        SeatView(id: "p1", seat: 1, name: "Amy", owner: true),
        SeatView(id: "p2", seat: 2, name: "小明", connected: false, alive: false, voted: true, revealed: .spy, score: 3),
        SeatView(id: "p3", seat: 3, name: "Bot 3", bot: true),
        SeatView(id: "p4", seat: 4, name: "Bea", connected: false, score: 2, sittingOut: true),
        SeatView(id: "p6", seat: 5, name: "法官", moderator: true),
        SeatView(id: "p5", seat: 5, name: "Cy", connected: false, alive: false, revealed: .civilian, left: true),
    ]

    static let server: [ServerMessage] = [
        .welcome(.init(you: "p1", token: "00112233445566778899aabbccddeeff", room: "QXWZ")),
        .welcome(.init(protocol: 1, you: "p2", token: "ffeeddccbbaa99887766554433221100", room: "ABCD", resumed: true)),
        .room(RoomView(room: "QXWZ", phase: .lobby)),
        .room(
            RoomView(
                room: "QXWZ", phase: .describing, game: 2, round: 1,
                settings: GameSettings(spies: 1, blank: true, clueMode: .typed, spyLastChance: true, wordSource: .ours),
                seats: seats, turn: "p1",
                pk: ["p1", "p3"],
                clues: [ClueView(player: "p3", round: 1, text: "紅色"), ClueView(player: "p1", round: 1)],
                timerMs: 29_500, wordCount: 37, paused: true)),
        .room(RoomView(room: "QXWZ", phase: .gameOver, game: 1, round: 3, seats: seats, winner: .blank)),
        .deal(.init(game: 1, word: "蘋果")),
        .deal(.init(game: 2, word: nil)),
        .turn(.init(round: 1, player: "p2")),
        .turn(.init(round: 2, player: "p3", pk: true, timerMs: 30_000)),
        .clue(ClueView(player: "p2", round: 1)),
        .clue(ClueView(player: "p2", round: 1, text: "It grows on trees")),
        .voting(.init(round: 1, candidates: ["p1", "p2", "p3"], voters: ["p1", "p2", "p3"])),
        .voting(.init(round: 2, candidates: ["p1", "p3"], voters: ["p2"], pk: true, timerMs: 60_000)),
        .voteProgress(.init(voted: ["p1"], waiting: ["p2", "p3"])),
        .voteResult(
            .init(
                round: 1, tally: [TallyEntry(player: "p2", voters: ["p1", "p3"])], abstained: ["p2"], outcome: .out,
                out: "p2", identity: .civilian)),
        .voteResult(
            .init(
                round: 1, tally: [TallyEntry(player: "p1", voters: ["p3"]), TallyEntry(player: "p3", voters: ["p1"])],
                outcome: .pk, tied: ["p1", "p3"])),
        .voteResult(.init(round: 2, tally: [], abstained: ["p1", "p2"], outcome: .nobody)),
        .guessing(.init(player: "p3")),
        .guessing(.init(player: "p3", timerMs: 20_000)),
        .guessing(.init(player: "p4", timerMs: 20_000, timerKind: .turn, role: .spy)),
        .guessResult(.init(player: "p3", role: .blank, correct: false, out: true)),
        .guessResult(.init(player: "p4", role: .spy, correct: true)),
        .gameOver(
            .init(
                game: 1, winner: .civilians, civilianWord: "蘋果", spyWord: "梨",
                reveal: [
                    RevealEntry(player: "p1", role: .civilian, word: "蘋果"),
                    RevealEntry(player: "p2", role: .spy, word: "梨"),
                    RevealEntry(player: "p3", role: .blank, word: nil),
                ], blankGuess: "香蕉",
                scores: [ScoreEntry(player: "p1", score: 1), ScoreEntry(player: "p2", score: 0)])),
        .pong(.init(id: 7)),
        .ping(.init(id: 3)),
        .error(.init(.wrongPhase)),
        .error(.init(code: .badMessage, message: "missing field \"target\"")),
        .bye(.init(reason: "host_closing")),
        .claimPending(.init(player: "p3")),
        .claim(.init(player: "p3", name: "小明")),
        .claimDone(.init(player: "p3")),
        .owner(.init(player: "p2", previous: "p1")),
        .history(.init(games: [])),
        .wordsReport(.init(added: 0, total: 0)),
        .wordsReport(
            .init(
                added: 3, total: 40,
                refused: [
                    WordRefusal(line: 2, reason: .noSeparator), WordRefusal(line: 4, reason: .duplicate, other: 1),
                    WordRefusal(line: 6, through: 9, reason: .listFull),
                ], moreRefused: 12)),
        .wordList(.init(pairs: [])),
        .moderator(.init(player: "p6")),
        .moderator(.init(player: nil, previous: "p6")),
        .moderatorOffer(.init(player: "p6")),
        .moderatorDeclined(.init(player: "p6")),
        .moderatorView(.init(game: 0)),
        .moderatorView(
            .init(
                game: 2, civilianWord: "婚紗", spyWord: "禮服",
                players: [
                    RevealEntry(player: "p1", role: .civilian, word: "婚紗"),
                    RevealEntry(player: "p5", role: .blank, word: nil),
                ], ballots: [TallyEntry(player: "p5", voters: ["p1"])],
                guesses: [.init(player: "p5", round: 1, word: "紗", correct: false)],
                nextPair: ListedPair(civilian: "a", spy: "b"), paused: true)),
        .wordList(.init(pairs: [ListedPair(civilian: "婚紗", spy: "禮服"), ListedPair(civilian: "\"q\"", spy: "b\\")])),
        .history(
            .init(games: [
                GameRecord(
                    game: 3, civilianWord: "蘋果", spyWord: "梨", winner: .spies,
                    players: [
                        .init(player: "p1", name: "Amy", role: .civilian, points: 0, survived: false),
                        .init(player: "p2", name: "小明 \"q\"", role: .spy, points: 3, survived: true),
                        .init(player: "p3", name: "Bea", role: .blank, points: 0, survived: false),
                    ],
                    outs: [
                        .init(player: "p1", round: 1, reason: .voted, votes: 2, pk: true),
                        .init(player: "p3", round: 2, reason: .left),
                    ],
                    guesses: [.init(player: "p3", round: 1, word: nil, correct: false)])
            ])),
    ]
}
