import SpyProtocol

/// A command typed in line mode.
enum PlainCommand: Equatable, Sendable {
    /// Nothing typed.
    case empty
    /// Vote for a seat ("3", "p3" or a name).
    case vote(String)
    /// Give a typed clue.
    case clue(String)
    /// Done speaking (spoken mode) or pass (typed mode).
    case pass
    /// Show the own word from memory.
    case word
    /// Owner: start a game (also "again" after a game).
    case start
    /// Owner: change a setting.
    case settings(SettingsChange)
    /// Owner: remove a seat.
    case kick(String)
    /// The blank's guess.
    case guess(String)
    /// List the seats.
    case who
    /// Leave the room for good.
    case quit
    /// List the commands.
    case help
    /// List the categories of the host's bank.
    case categories
    /// Answer the question about a claimed seat.
    case answerClaim(allow: Bool)
    /// Show the finished games of the evening.
    case history
    /// Save the evening's history: to this file, or to both default files.
    case export(String?)
    /// Owner: send this file as the room's own word list.
    case words(String)
    /// Owner: empty the room's own word list.
    case wordsClear
    /// Owner: save the room's own word list as CSV (to this file, or the default one).
    case wordsExport(String?)
    /// Owner: name the moderator ("me", a seat), or give the seat up ("off").
    case judge(String)
    /// Moderator: the next game's pair, `civilian/spy`.
    case pair(String)
    /// Moderator: stop or start the timers again.
    case pause
    case resume
    /// Moderator: pass the absent player's turn.
    case skip
}

/// Why a line is not a command.
enum PlainParseError: Error, Equatable, Sendable {
    /// The first word is not a command.
    case unknown(String)
    /// The command needs an argument or got a bad one.
    case badArgument(String)
}

/// Line mode for screen readers, logs and scripts: commands in, readable lines out.
enum PlainMode {
    /// Reads one typed line. Chinese command words are accepted too, in either script.
    static func parse(_ line: String) -> Result<PlainCommand, PlainParseError> {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return .success(.empty) }
        let parts = trimmed.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        let verb = parts[0].lowercased()
        let rest = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
        func needing(_ make: (String) -> PlainCommand) -> Result<PlainCommand, PlainParseError> {
            rest.isEmpty ? .failure(.badArgument(trimmed)) : .success(make(rest))
        }
        switch verb {
        case "vote", "v", "投", "投票": return needing(PlainCommand.vote)
        case "clue", "c", "say", "描述": return needing(PlainCommand.clue)
        case "pass", "done", "p", "過", "說完", "过", "说完": return .success(.pass)
        case "word", "w", "forgot", "f", "忘詞", "詞", "忘词", "词": return .success(.word)
        case "start", "again", "開始", "再來", "开始", "再来": return .success(.start)
        case "kick", "踢": return needing(PlainCommand.kick)
        case "guess", "g", "猜": return needing(PlainCommand.guess)
        case "who", "seats", "座位": return .success(.who)
        case "quit", "leave", "exit", "q", "離開", "离开": return .success(.quit)
        case "help", "h", "?", "說明", "说明", "帮助": return .success(.help)
        case "set", "設定", "设置": return parseSetting(rest).map(PlainCommand.settings)
        case "categories", "類別", "类别": return .success(.categories)
        case "history", "戰績", "战绩": return .success(.history)
        case "words", "我們的詞", "我们的词":
            let argument = rest.split(separator: " ", maxSplits: 1).map(String.init)
            switch argument.first?.lowercased() {
            case nil: return .failure(.badArgument(trimmed))
            case "clear", "清除": return .success(.wordsClear)
            case "export", "匯出", "导出": return .success(.wordsExport(argument.count > 1 ? argument[1] : nil))
            default: return .success(.words(rest))
            }
        case "export", "匯出", "导出": return .success(.export(rest.isEmpty ? nil : rest))
        case "judge", "moderator", "法官": return needing(PlainCommand.judge)
        case "pair", "出題", "出题": return needing(PlainCommand.pair)
        case "pause", "暫停", "暂停": return .success(.pause)
        case "resume", "繼續", "继续": return .success(.resume)
        case "skip", "跳過", "跳过": return .success(.skip)
        case "y", "yes", "allow", "允許", "允许": return .success(.answerClaim(allow: true))
        case "n", "no", "deny", "拒絕", "拒绝": return .success(.answerClaim(allow: false))
        default: return .failure(.unknown(String(parts[0])))
        }
    }

    private static func parseSetting(_ text: String) -> Result<SettingsChange, PlainParseError> {
        // Category names keep their case and may hold spaces ("Games and Hobbies"): commas separate them.
        let head = text.split(separator: " ", maxSplits: 1).map(String.init)
        if let name = head.first?.lowercased(), ["categories", "category", "cat", "類別", "类别"].contains(name) {
            let list = head.count > 1 ? head[1] : ""
            let names = list.split(whereSeparator: { $0 == "," || $0 == "，" })
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            guard !names.isEmpty else { return .failure(.badArgument("set " + text)) }
            let all = names.count == 1 && ["all", "全部", "*"].contains(names[0].lowercased())
            return .success(SettingsChange(categories: all ? [] : names))
        }
        let words = text.lowercased().split(separator: " ").map(String.init)
        guard words.count == 2 else { return .failure(.badArgument("set " + text)) }
        let (name, value) = (words[0], words[1])
        let flag: Bool? =
            ["on", "yes", "true", "1", "開", "开"].contains(value)
            ? true
            : ["off", "no", "false", "0", "關", "关"].contains(value) ? false : nil
        var change = SettingsChange()
        switch name {
        case "spies", "spy": change.spies = Int(value)
        case "players", "seats": change.maxPlayers = Int(value)
        case "blank": change.blank = flag
        case "clues", "clue", "mode": change.clueMode = ClueMode(rawValue: value)
        case "turn": change.turnSeconds = Int(value)
        case "vote": change.voteSeconds = Int(value)
        case "tie": change.tieRule = TieRule(rawValue: value)
        case "blankrule": change.blankRule = BlankRule.allCases.first { $0.rawValue.lowercased() == value }
        case "lastchance", "翻盤", "翻盘": change.spyLastChance = flag
        case "words", "source", "出題", "出题":
            change.wordSource =
                ["both", "oursandbank", "ours+bank"].contains(value)
                ? .oursAndBank : WordSource.allCases.first { $0.rawValue.lowercased() == value }
        case "win", "spywin": change.spyWin = SpyWin(rawValue: value)
        case "reveal": change.revealOut = flag
        case "party": change.allowParty = flag
        case "lang", "language", "bank", "語言", "语言":
            // "zh-tw" once lowercased: the language names compare without case.
            change.language = BankLanguage.allCases.first { $0.rawValue.lowercased() == value }
        default: return .failure(.badArgument("set " + text))
        }
        return change == SettingsChange() ? .failure(.badArgument("set " + text)) : .success(change)
    }

    /// The readable lines for log events, one each (turn lines included: in line mode nothing else shows them).
    static func lines(for events: ArraySlice<LogEvent>, state: ClientState) -> [String] {
        let text = Strings(language: state.language)
        return events.map { event in
            TerminalText.printable(line(for: event, state: state, text: text))
        }
    }

    private static func line(for event: LogEvent, state: ClientState, text: Strings) -> String {
        switch event {
        case .turn(_, true, _):
            let clueMode = state.room?.settings.clueMode ?? .spoken
            return "» " + (clueMode == .spoken ? text.plainTurnSpoken : text.plainTurnTyped)
        case .votingOpened(_, let choices) where !choices.isEmpty:
            return "» " + text.event(event) + " — vote N: " + choices.joined(separator: ", ")
        case .guessing(_, true), .lastChance(_, true):
            return "» " + text.plainGuess
        case .evening(.mayGuess):
            return "» " + text.plainMayGuess
        case .evening(.moderatorAsked):
            return "» " + text.event(event)
        case .evening(.moderatorPair), .evening(.moderatorRole), .evening(.moderatorBallot), .evening(.moderatorGuess),
            .evening(.nextPair):
            // Only the moderator's own terminal: what the table does not see.
            return "⚖ " + text.event(event)
        case .ownWord:
            // A screen reader cannot glance at a panel: the word is said once, with how to hear it again.
            return "» " + text.event(event) + " " + text.plainWordHint
        case .problem, .bye:
            return "! " + text.event(event)
        case .claimAsked:
            return "» " + text.event(event) + " " + text.plainClaimHint
        default:
            return "· " + text.event(event)
        }
    }

    /// The seats as lines, for `who` and the greeting, printable: the room code and the names are the host's text.
    static func seatLines(_ state: ClientState) -> [String] {
        guard let room = state.room else { return [] }
        let text = Strings(language: state.language)
        var lines = [
            "# " + [text.room(room.room), text.phase(room.phase, pk: !room.pk.isEmpty)].joined(separator: " · ")
        ]
        for seat in room.seats {
            var tags: [String] = []
            if seat.owner { tags.append("★") }
            if seat.id == state.me { tags.append(text.you) }
            if !seat.connected { tags.append(text.away) }
            if seat.sittingOut == true { tags.append(text.sittingOut) }
            if !seat.alive && room.phase != .lobby { tags.append(text.out) }
            if let role = seat.revealed { tags.append(text.role(role)) }
            if room.turn == seat.id && room.phase == .describing { tags.append("▶") }
            if room.phase == .voting && seat.voted { tags.append(text.voted) }
            tags.append(text.points(seat.score))
            lines.append("  \(seat.seat) \(seat.name) " + tags.joined(separator: " "))
        }
        lines.append("  " + text.settingsLine(room.settings))
        if let count = room.wordCount { lines.append("  " + text.ourWordsCount(count)) }
        return lines.map { TerminalText.printable($0) }
    }
}

extension ClientState {
    /// Carries out a line-mode command: messages to send, what the shell does, and lines to print at once.
    mutating func perform(_ command: PlainCommand, now: Millis) -> (Reaction, [String]) {
        let (reaction, lines) = performing(command)
        return (reaction, lines.map { TerminalText.printable($0) })
    }

    private mutating func performing(_ command: PlainCommand) -> (Reaction, [String]) {
        let text = Strings(language: language)
        switch command {
        case .empty:
            return (Reaction(), [])
        case .help:
            return (Reaction(), [text.hint(.help)])
        case .categories:
            return (Reaction(), text.categoryLines(bankCategories))
        case .answerClaim(let allow):
            if moderatorAsked { return (answerModeratorOffer(accept: allow), []) }
            guard claimQuestion != nil else { return (Reaction(), [text.hint(.notNow)]) }
            return (answerClaim(allow: allow), [])
        case .who:
            return (Reaction(), PlainMode.seatLines(self))
        case .history:
            return (Reaction(), text.historyLines(history))
        case .export(let path):
            return (exportHistory(to: path), [])
        case .words(let path):
            return (Reaction(action: .uploadWords(path)), [])
        case .wordsClear:
            return (Reaction(messages: [.wordsClear]), [])
        case .wordsExport(let path):
            return (exportWords(to: path), [])
        case .judge(let typed):
            switch typed.lowercased() {
            case "off", "none", "no", "關", "关": return (Reaction(messages: [.moderator(.init(player: nil))]), [])
            case "me", "我": return (Reaction(messages: [.moderator(.init(player: me))]), [])
            default:
                guard let choice = seatNamed(typed) else { return (Reaction(), [text.hint(.noSuchSeat(typed))]) }
                return (Reaction(messages: [.moderator(.init(player: choice.id))]), [])
            }
        case .pair(let typed):
            let reaction = typedPair(typed)
            return (reaction, reaction.messages.isEmpty ? [text.pairHowTo] : [])
        case .pause:
            return (Reaction(messages: [.pause]), [])
        case .resume:
            return (Reaction(messages: [.resume]), [])
        case .skip:
            return (Reaction(messages: [.passTurn]), [])
        case .word:
            guard let dealt else { return (Reaction(), [text.hint(.noWordYet)]) }
            return (Reaction(), [dealt.word.map(text.yourWord) ?? text.youAreBlank])
        case .quit:
            return (Reaction(messages: [.leave], action: .quit(leave: true)), [])
        case .pass:
            return (Reaction(messages: [.pass]), [])
        case .clue(let clue):
            return (Reaction(messages: [.clue(.init(text: clue))]), [])
        case .guess(let word):
            return (Reaction(messages: [.guess(.init(word: word))]), [])
        case .start:
            return (Reaction(messages: [.start]), [])
        case .settings(let change):
            return (Reaction(messages: [.settings(change)]), [])
        case .vote(let typed):
            let choice = seatNamed(typed.hasPrefix("#") ? String(typed.dropFirst()) : typed)
            guard let choice, voteCandidates.contains(where: { $0.id == choice.id }) else {
                return (Reaction(), [text.hint(.noSuchSeat(typed))])
            }
            ballot = choice.id
            return (Reaction(messages: [.vote(.init(target: choice.id))]), [text.ballot(choice.name)])
        case .kick(let typed):
            guard let choice = seatNamed(typed) else { return (Reaction(), [text.hint(.noSuchSeat(typed))]) }
            return (Reaction(messages: [.kick(.init(player: choice.id))]), [])
        }
    }
}
