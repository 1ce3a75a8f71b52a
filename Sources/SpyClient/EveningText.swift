import SpyProtocol

/// The sentences of the evening's history: the records of the finished games, and their export.
extension Strings {
    /// Traditional Chinese, Simplified Chinese and English side by side, as every sentence of the client.
    private func say(_ zhTW: String, _ zhHans: String, _ en: String) -> String { language.pick(zhTW, zhHans, en) }

    func wordSourceName(_ source: WordSource) -> String {
        switch source {
        case .bank: return say("出題：題庫", "出题：词库", "words: the bank")
        case .ours: return say("出題：我們的詞", "出题：我们的词", "words: ours")
        case .oursAndBank: return say("出題：我們的詞＋題庫", "出题：我们的词＋词库", "words: ours and the bank")
        }
    }
    func ourWordsCount(_ count: Int) -> String {
        say("我們的詞：\(count) 組", "我们的词：\(count) 组", "our words: \(count) pair\(count == 1 ? "" : "s")")
    }
    func wordFileProblem(_ problem: WordFile.Problem) -> String {
        switch problem {
        case .unreadable(let reason): return say("讀不了：\(reason)", "读不了：\(reason)", "cannot read it: \(reason)")
        case .tooLarge:
            return say(
                "超過 48 KiB，主機一次收不下；分成幾個檔", "超过 48 KiB，主机一次收不下；分成几个文件",
                "over 48 KiB, more than the host takes at once; split it")
        case .notText: return wordFileNotText
        }
    }
    var pairHowTo: String {
        say("用法：pair 平民詞/臥底詞", "用法：pair 平民词/卧底词", "usage: pair CIVILIAN/SPY")
    }
    var moderatorTag: String { say("法官", "法官", "moderator") }
    var pausedTag: String { say("暫停中", "暂停中", "paused") }
    var pairLabel: String { say("下一局的詞（平民/臥底）> ", "下一局的词（平民/卧底）> ", "next pair (civilian/spy)> ") }
    func moderatorHelp(_ phase: Phase, paused: Bool) -> String {
        switch phase {
        case .lobby, .gameOver:
            return say(
                "s 開始  i 打下一局的詞  j 不當法官  d 詳情  q 離開", "s 开始  i 打下一局的词  j 不当法官  d 详情  q 离开",
                "s start  i type the next pair  j stop moderating  d details  q leave")
        case .describing, .voting, .guessing:
            return paused
                ? say(
                    "p 繼續計時  n 跳過離線者  k 踢人  d 詳情", "p 继续计时  n 跳过离线者  k 踢人  d 详情",
                    "p resume timers  n pass an absent turn  k kick  d details")
                : say(
                    "p 暫停計時  n 跳過離線者  k 踢人  d 詳情", "p 暂停计时  n 跳过离线者  k 踢人  d 详情",
                    "p pause timers  n pass an absent turn  k kick  d details")
        }
    }
    var wordFileNotText: String { say("不是 UTF-8 文字檔", "不是 UTF-8 文本文件", "not UTF-8 text") }
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
    /// The host's answer to a word list: how many pairs were kept, how many the list holds.
    case wordsReport(ServerMessage.WordsReport)
    /// A line (or run of lines) of the list that was not kept.
    case wordRefused(WordRefusal)
    /// Refused lines the host only counted.
    case moreRefused(Int)
    /// `u` without `--words`.
    case noWordsFile
    /// The room's own list was saved.
    case wordsSaved(path: String, count: Int)
    /// Who moderates now.
    case moderatorIs(name: String, isMe: Bool)
    case noModerator
    /// The owner asked this player to moderate (y/n).
    case moderatorAsked
    /// The person the owner named did not take the seat.
    case moderatorDeclined(name: String)
    /// Only on the moderator's screen: the game's pair, each player's role and word, each ballot, each guess, and the
    /// pair typed for the next game.
    case moderatorPair(game: Int, civilian: String, spy: String)
    case moderatorRole(name: String, role: Role, word: String?)
    case moderatorBallot(voter: String, target: String)
    case moderatorGuess(name: String, word: String?, correct: Bool)
    case nextPair(civilian: String, spy: String)
}

extension Strings {
    func eveningNote(_ note: EveningNote) -> String {
        switch note {
        case .exported(let paths): return exported(paths)
        case .exportFailed(let path, let reason): return exportFailed(path, reason)
        case .noHistoryYet: return noHistoryYet
        case .mayGuess: return mayGuessNow
        case .wordsReport(let report): return wordsReport(report)
        case .wordRefused(let refusal): return wordRefused(refusal)
        case .moreRefused(let count): return moreRefused(count)
        case .noWordsFile:
            return say(
                "沒有詞檔：用 spy-client --words 檔案 啟動", "没有词文件：用 spy-client --words 文件 启动",
                "No word file: start with spy-client --words FILE")
        case .moderatorIs(let name, let isMe):
            return isMe
                ? say(
                    "你現在是法官：不拿詞、不發言、不投票，只有你看得到每個人的詞", "你现在是法官：不拿词、不发言、不投票，只有你看得到每个人的词",
                    "You are the moderator now: no word, no turn, no ballot; you alone see every word")
                : say("\(name) 現在是法官", "\(name) 现在是法官", "\(name) is the moderator now")
        case .noModerator: return say("現在沒有法官", "现在没有法官", "Nobody moderates now")
        case .moderatorAsked:
            return say(
                "房主請你當法官，要嗎? (y/n)", "房主请你当法官，要吗? (y/n)", "The owner asks you to be the moderator: take the seat? (y/n)"
            )
        case .moderatorDeclined(let name): return say("\(name) 不當法官", "\(name) 不当法官", "\(name) will not moderate")
        case .moderatorPair(let game, let civilian, let spy):
            return game == 0 ? "" : self.game(game) + " · " + words(civilian: civilian, spy: spy)
        case .moderatorRole(let name, let role, let word):
            return name + say("：", "：", ": ") + self.role(role) + (word.map { " " + $0 } ?? "")
        case .moderatorBallot(let voter, let target): return "\(voter) → \(target)"
        case .moderatorGuess(let name, let word, let correct):
            return say("\(name) 猜：", "\(name) 猜：", "\(name) guessed ") + (word ?? "—")
                + (correct ? say("（猜中）", "（猜中）", " (right)") : say("（沒猜中）", "（没猜中）", " (wrong)"))
        case .nextPair(let civilian, let spy):
            return say("下一局的詞：", "下一局的词：", "Next game's pair: ") + words(civilian: civilian, spy: spy)
        case .wordsSaved(let path, let count):
            return say(
                "我們的詞（\(count) 組）已存到 \(path)", "我们的词（\(count) 组）已存到 \(path)",
                "Our words (\(count) pairs) saved to \(path)")
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

/// The room's own word list.
extension Strings {
    func wordsReport(_ report: ServerMessage.WordsReport) -> String {
        let lines = report.refused.reduce(0) { $0 + ($1.through ?? $1.line) - $1.line + 1 } + (report.moreRefused ?? 0)
        let refused =
            lines == 0 ? "" : say("，\(lines) 行沒收", "，\(lines) 行没收", "; \(lines) line\(lines == 1 ? "" : "s") refused")
        return say(
            "我們的詞：加了 \(report.added) 組，共 \(report.total) 組\(refused)",
            "我们的词：加了 \(report.added) 组，共 \(report.total) 组\(refused)",
            "Our words: \(report.added) pair\(report.added == 1 ? "" : "s") added, \(report.total) in all\(refused)")
    }

    func wordRefused(_ refusal: WordRefusal) -> String {
        let place: String
        if let through = refusal.through {
            place = say(
                "第 \(refusal.line)–\(through) 行", "第 \(refusal.line)–\(through) 行", "lines \(refusal.line)–\(through)")
        } else {
            place = say("第 \(refusal.line) 行", "第 \(refusal.line) 行", "line \(refusal.line)")
        }
        return place + say("：", "：", ": ") + refusalReason(refusal.reason, other: refusal.other)
    }

    func moreRefused(_ count: Int) -> String {
        say("還有 \(count) 行沒收（沒有一一列出）", "还有 \(count) 行没收（没有一一列出）", "\(count) more lines refused (not listed)")
    }

    func refusalReason(_ reason: WordRefusalReason, other: Int?) -> String {
        switch reason {
        case .noSeparator:
            return say(
                "只有一個詞（兩個詞之間用 , / —— 或 Tab 隔開）", "只有一个词（两个词之间用 , / —— 或 Tab 隔开）",
                "one word only (separate the two with , / —— or a tab)")
        case .tooManyWords: return say("超過兩個詞", "超过两个词", "more than two words")
        case .missingWord: return say("少了一個詞", "少了一个词", "a word is missing")
        case .tooLong: return say("詞太長（最多 40 字）", "词太长（最多 40 字）", "a word is too long (40 characters at most)")
        case .controlCharacter: return say("有控制字元", "有控制字符", "a control character")
        case .invisibleCharacter: return say("有看不見的字元", "有看不见的字符", "an invisible character")
        case .noVisibleLetter: return say("詞裡沒有看得見的字", "词里没有看得见的字", "a word with no visible letter")
        case .sameWords: return say("兩個詞一樣", "两个词一样", "both words are the same")
        case .containsOther: return say("一個詞包含另一個詞", "一个词包含另一个词", "one word contains the other")
        case .duplicate:
            let line = other.map(String.init) ?? "?"
            return say("和第 \(line) 行重複（只留一組）", "和第 \(line) 行重复（只留一组）", "same pair as line \(line) (kept once)")
        case .alreadyListed: return say("已經在清單裡", "已经在清单里", "already in the list")
        case .listFull: return say("清單滿了（最多 500 組）", "清单满了（最多 500 组）", "the list is full (500 pairs at most)")
        case .unclosedQuote:
            return say("引號沒有關上，之後都沒讀", "引号没有关上，之后都没读", "a quote is never closed; the rest was not read")
        }
    }
}
