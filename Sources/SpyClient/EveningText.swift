import SpyProtocol

/// The sentences of the evening's history: the records of the finished games, and their export.
extension Strings {
    /// Traditional Chinese, Simplified Chinese and English side by side; the interface's Chinese is Traditional,
    /// so `zhHans` waits for a Simplified interface.
    func say(_ zhTW: String, _ zhHans: String, _ en: String) -> String {
        switch language {
        case .zh: return zhTW
        case .en: return en
        }
    }

    var exportKey: String { say("x 存戰績", "x 存战绩", "x save history") }
    var historyTitle: String { say("本晚戰績", "本晚战绩", "The evening so far") }
    var noHistoryYet: String { say("還沒有打完的局", "还没有打完的局", "No game has ended yet") }

    func exported(_ paths: [String]) -> String {
        say(
            "戰績已存到 \(paths.joined(separator: "、"))", "战绩已存到 \(paths.joined(separator: "、"))",
            "History saved to \(paths.joined(separator: ", "))")
    }

    func exportFailed(_ path: String, _ reason: String) -> String {
        say("存不了 \(path)：\(reason)", "存不了 \(path)：\(reason)", "Could not save \(path): \(reason)")
    }

    private func outReason(_ out: GameRecord.Out, name: String) -> String {
        switch out.reason {
        case .voted:
            let votes = out.votes ?? 0
            let pk = out.pk == true
            return say(
                "\(name)（\(votes)票\(pk ? "，PK" : "")）", "\(name)（\(votes)票\(pk ? "，PK" : "")）",
                "\(name) (\(votes) vote\(votes == 1 ? "" : "s")\(pk ? ", PK" : ""))")
        case .left: return say("\(name) 離開", "\(name) 离开", "\(name) left")
        case .kicked: return say("\(name) 被請出", "\(name) 被请出", "\(name) removed")
        case .guessed: return say("\(name) 猜錯", "\(name) 猜错", "\(name) guessed wrong")
        }
    }

    /// One finished game as a few lines: result and pair, who held which role, who went out when, the guesses and
    /// the points.
    func recordLines(_ record: GameRecord) -> [String] {
        let names = Dictionary(record.players.map { ($0.player, $0.name) }, uniquingKeysWith: { first, _ in first })
        func name(_ id: PlayerID) -> String { names[id] ?? id }
        var lines = [
            game(record.game) + " · " + winner(record.winner) + " · "
                + words(civilian: record.civilianWord, spy: record.spyWord)
        ]
        let spies = record.players.filter { $0.role == .spy }.map(\.name).joined(separator: "、")
        var roles = say("臥底：", "卧底：", "spies: ") + spies
        if let blank = record.players.first(where: { $0.role == .blank }) {
            roles += say("  白板：", "  白板：", "  blank: ") + blank.name
        }
        lines.append("  " + roles)
        if !record.outs.isEmpty {
            let outs = record.outs.map { round($0.round) + " " + outReason($0, name: name($0.player)) }
            lines.append("  " + say("出局：", "出局：", "out: ") + outs.joined(separator: " · "))
        }
        for guess in record.guesses {
            let word = guess.word ?? say("（沒猜）", "（没猜）", "(no guess)")
            let verdict = guess.correct ? say("猜中", "猜中", "right") : say("猜錯", "猜错", "wrong")
            lines.append(
                "  " + say("\(name(guess.player)) 猜：", "\(name(guess.player)) 猜：", "\(name(guess.player)) guessed ")
                    + word + " (\(verdict))")
        }
        let points = record.players.filter { $0.points != 0 }.map { "\($0.name) +\($0.points)" }
        lines.append(
            "  " + say("得分：", "得分：", "points: ")
                + (points.isEmpty ? say("無", "无", "none") : points.joined(separator: " · ")))
        return lines
    }

    /// Every finished game, oldest first, under a title.
    func historyLines(_ records: [GameRecord]) -> [String] {
        guard !records.isEmpty else { return [historyTitle + ": " + noHistoryYet] }
        return [historyTitle] + records.flatMap(recordLines)
    }
}

/// What the client says about the evening's features on its own.
enum EveningNote: Equatable, Sendable {
    /// The history was saved to these files.
    case exported([String])
    /// A file could not be written.
    case exportFailed(path: String, reason: String)
    /// There is nothing to save or show yet.
    case noHistoryYet
    /// This player is the blank and may guess while the vote is open.
    case mayGuess
}

extension Strings {
    func eveningNote(_ note: EveningNote) -> String {
        switch note {
        case .exported(let paths): return exported(paths)
        case .exportFailed(let path, let reason): return exportFailed(path, reason)
        case .noHistoryYet: return noHistoryYet
        case .mayGuess: return mayGuessNow
        }
    }

    /// The player's sentence for the refusals of the evening's features; `nil` for any other code.
    func eveningProblem(_ code: ErrorCode) -> String? {
        nil
    }
}

/// The rule variants: the blank's guess once a round, and the spy's last chance.
extension Strings {
    var guessEachRoundName: String { say("每輪可猜", "每轮可猜", "guess each round") }
    var lastChanceName: String { say("臥底翻盤", "卧底翻盘", "spy's last chance") }
    var guessKey: String { say("g 猜平民詞", "g 猜平民词", "g guess the word") }
    var mayGuessNow: String {
        say(
            "你是白板：投票結束前按 g 猜平民的詞（猜錯就出局）", "你是白板：投票结束前按 g 猜平民的词（猜错就出局）",
            "You are the blank: press g to guess the civilians' word before the vote closes (wrong puts you out)")
    }
    var plainMayGuess: String {
        say(
            "你是白板：投票結束前可以輸入 guess 你猜的平民詞（猜錯就出局）",
            "你是白板：投票结束前可以输入 guess 你猜的平民词（猜错就出局）",
            "You are the blank: before the vote closes you may type guess WORD for the civilians' word (wrong puts you out)"
        )
    }
    func lastChanceOf(_ name: String) -> String {
        say(
            "\(name) 是臥底，最後一搏：猜平民的詞", "\(name) 是卧底，最后一搏：猜平民的词",
            "\(name) is a spy and gets a last chance: guessing the civilians' word")
    }
    func guessResult(name: String, role: Role, correct: Bool, out: Bool) -> String {
        switch (correct, out) {
        case (true, _): return say("\(name) 猜中了平民的詞！", "\(name) 猜中了平民的词！", "\(name) guessed the civilians' word!")
        case (false, true):
            return say("\(name) 是白板，猜錯出局", "\(name) 是白板，猜错出局", "\(name) was the blank and guessed wrong: out")
        case (false, false): return say("\(name) 沒猜中", "\(name) 没猜中", "\(name) did not guess it")
        }
    }
}

extension ClientState {
    /// Whether this player, the blank still in, may guess while this vote is open (`guessEachRound`).
    var mayGuessWhileVoting: Bool {
        guard room?.phase == .voting, room?.settings.blankRule == .guessEachRound, mySeat?.alive == true,
            let dealt, dealt.word == nil, dealt.game == room?.game
        else { return false }
        return true
    }
}
