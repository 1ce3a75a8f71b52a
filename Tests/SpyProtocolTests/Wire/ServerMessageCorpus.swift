import SpyProtocol

/// Seeded random server messages of every type, optional fields present or absent, strings that need every kind of
/// escape, and integers at the edges of `Int`.
struct ServerMessageCorpus {
    private var generator: SplitMix64

    init(seed: UInt64) {
        generator = SplitMix64(seed: seed)
    }

    /// Pieces strings are made of: plain ASCII, what JSON must escape (quote, backslash, every control character,
    /// DEL), `/` (which Foundation escapes and this host does not), CJK, characters outside the BMP (a surrogate
    /// pair in UTF-16), combining marks, line and paragraph separators, a byte-order mark, full-width forms.
    private static let pieces: [String] =
        [
            "p1", "Amy", " ", "a", "Z9", "\"", "\\", "/", "\\\"", "\u{7F}", "小明", "蘋果", "誰是臥底", "🍵", "👨‍👩‍👧", "𠀋",
            "e\u{301}",
            "\u{2028}", "\u{2029}", "\u{FEFF}", "Ａ", "ｶ", "{}", "[]", ":", ",",
        ]
        + (0..<0x20).map { String(UnicodeScalar(UInt8($0))) }

    private static let edgeNumbers = [0, 1, 9, 10, -1, -9, -10, 99, 100, 65_536, Int.max, Int.min, Int.min + 1]

    mutating func number() -> Int {
        switch generator.next() % 4 {
        case 0: return Self.edgeNumbers[Int(generator.next() % UInt64(Self.edgeNumbers.count))]
        case 1: return Int(truncatingIfNeeded: generator.next())
        default: return Int(generator.next() % 100_000)
        }
    }

    mutating func flag() -> Bool { generator.next() % 2 == 0 }

    mutating func text() -> String {
        let count = Int(generator.next() % 6)
        return (0..<count).map { _ in Self.pieces[Int(generator.next() % UInt64(Self.pieces.count))] }.joined()
    }

    mutating func maybe<Value>(_ make: (inout Self) -> Value) -> Value? {
        flag() ? make(&self) : nil
    }

    mutating func list<Value>(upTo limit: Int, _ make: (inout Self) -> Value) -> [Value] {
        (0..<Int(generator.next() % UInt64(limit + 1))).map { _ in make(&self) }
    }

    mutating func pick<Value: CaseIterable>(_ type: Value.Type) -> Value {
        let all = Array(type.allCases)
        return all[Int(generator.next() % UInt64(all.count))]
    }

    mutating func settings() -> GameSettings {
        GameSettings(
            maxPlayers: number(), spies: number(), blank: flag(), clueMode: pick(ClueMode.self),
            turnSeconds: number(), voteSeconds: number(), tieRule: pick(TieRule.self), revealOut: flag(),
            blankRule: pick(BlankRule.self), language: pick(BankLanguage.self), allowParty: flag(),
            categories: list(upTo: 3) { $0.text() }, spyWin: pick(SpyWin.self))
    }

    mutating func seat() -> SeatView {
        SeatView(
            id: text(), seat: number(), name: text(), owner: flag(), connected: flag(), bot: flag(), alive: flag(),
            voted: flag(), revealed: maybe { $0.pick(Role.self) }, score: number())
    }

    mutating func clue() -> ClueView {
        ClueView(player: text(), round: number(), text: maybe { $0.text() })
    }

    mutating func room() -> RoomView {
        RoomView(
            room: text(), phase: [Phase.lobby, .describing, .voting, .guessing, .gameOver][Int(generator.next() % 5)],
            game: number(), round: number(), settings: settings(), seats: list(upTo: 12) { $0.seat() },
            turn: maybe { $0.text() }, pk: list(upTo: 3) { $0.text() }, clues: list(upTo: 12) { $0.clue() },
            timerMs: maybe { $0.number() },
            winner: maybe { [Winner.civilians, .spies, .blank][Int($0.generator.next() % 3)] },
            timerKind: maybe { $0.pick(TimerKind.self) })
    }

    mutating func message() -> ServerMessage {
        switch generator.next() % 14 {
        case 0:
            return .welcome(
                .init(
                    protocol: number(), you: text(), token: text(), room: text(), resumed: flag(),
                    categories: maybe {
                        $0.list(upTo: 4) {
                            BankCategory(
                                name: $0.text(), language: $0.pick(BankLanguage.self), pairs: $0.number(),
                                partyPairs: $0.number())
                        }
                    }, watch: maybe { $0.flag() }))
        case 1: return .room(room())
        case 2: return .deal(.init(game: number(), word: maybe { $0.text() }))
        case 3:
            return .turn(
                .init(
                    round: number(), player: text(), pk: flag(), timerMs: maybe { $0.number() },
                    timerKind: maybe { $0.pick(TimerKind.self) }))
        case 4: return .clue(clue())
        case 5:
            return .voting(
                .init(
                    round: number(), candidates: list(upTo: 10) { $0.text() }, voters: list(upTo: 10) { $0.text() },
                    pk: flag(), timerMs: maybe { $0.number() }, ballot: maybe { $0.text() }))
        case 6:
            return .voteProgress(
                .init(
                    voted: list(upTo: 10) { $0.text() }, waiting: list(upTo: 10) { $0.text() },
                    abstaining: maybe { $0.list(upTo: 3) { $0.text() } }))
        case 7:
            return .voteResult(
                .init(
                    round: number(),
                    tally: list(upTo: 5) { TallyEntry(player: $0.text(), voters: $0.list(upTo: 4) { $0.text() }) },
                    abstained: list(upTo: 3) { $0.text() },
                    outcome: [VoteOutcome.out, .pk, .nobody][Int(generator.next() % 3)],
                    out: maybe { $0.text() }, identity: maybe { $0.pick(Role.self) }, tied: list(upTo: 3) { $0.text() })
            )
        case 8:
            return .guessing(
                .init(player: text(), timerMs: maybe { $0.number() }, timerKind: maybe { $0.pick(TimerKind.self) }))
        case 9:
            return .gameOver(
                .init(
                    game: number(), winner: [Winner.civilians, .spies, .blank][Int(generator.next() % 3)],
                    civilianWord: text(),
                    spyWord: text(),
                    reveal: list(upTo: 10) {
                        RevealEntry(player: $0.text(), role: $0.pick(Role.self), word: $0.maybe { $0.text() })
                    },
                    blankGuess: maybe { $0.text() },
                    scores: list(upTo: 10) { ScoreEntry(player: $0.text(), score: $0.number()) }))
        case 10: return .pong(.init(id: number()))
        case 11: return .ping(.init(id: number()))
        case 12:
            return .error(
                .init(
                    code: pick(ErrorCode.self), message: text(), need: maybe { $0.number() },
                    have: maybe { $0.number() }))
        default: return .bye(.init(reason: text()))
        }
    }
}
