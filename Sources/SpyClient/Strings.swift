import SpyProtocol

/// Every sentence the client shows, in Traditional Chinese, Simplified Chinese and English side by side: each
/// `pick` names all three, so a sentence cannot exist in one language only.
struct Strings: Sendable {
    let language: Language

    private func pick(_ zhTW: String, _ zhHans: String, _ en: String) -> String { language.pick(zhTW, zhHans, en) }

    // MARK: Header and table

    var title: String { pick("誰是臥底", "谁是卧底", "Who Is the Spy") }
    func room(_ code: String) -> String { pick("房間 \(code)", "房间 \(code)", "Room \(code)") }
    func game(_ number: Int) -> String { pick("第\(number)局", "第\(number)局", "Game \(number)") }
    func round(_ number: Int) -> String { pick("第\(number)輪", "第\(number)轮", "Round \(number)") }
    /// Game and round in few columns, for a crowded header.
    func shortGameRound(game: Int, round: Int?) -> String {
        guard let round else { return pick("第\(game)局", "第\(game)局", "G\(game)") }
        return pick("\(game)局\(round)輪", "\(game)局\(round)轮", "G\(game) R\(round)")
    }
    func phase(_ phase: Phase, pk: Bool) -> String {
        let name: String
        switch phase {
        case .lobby: name = pick("大廳", "大厅", "Lobby")
        case .describing: name = pick("描述中", "描述中", "Describing")
        case .voting: name = pick("投票中", "投票中", "Voting")
        case .guessing: name = pick("白板猜詞", "白板猜词", "Blank guesses")
        case .gameOver: name = pick("遊戲結束", "游戏结束", "Game over")
        }
        return pk && (phase == .describing || phase == .voting) ? "\(name) · PK" : name
    }
    func seconds(_ value: Int) -> String { pick("\(value)秒", "\(value)秒", "\(value)s") }
    var you: String { pick("你", "你", "you") }
    var away: String { pick("離線", "离线", "away") }
    var out: String { pick("出局", "出局", "out") }
    var sittingOut: String { pick("本局休息", "本局休息", "sitting out") }
    var bot: String { pick("電腦", "电脑", "bot") }
    var voted: String { pick("已投", "已投", "voted") }
    func points(_ score: Int) -> String { pick("\(score)分", "\(score)分", "\(score) pt") }
    func role(_ role: Role) -> String {
        switch role {
        case .civilian: return pick("平民", "平民", "civilian")
        case .spy: return pick("臥底", "卧底", "spy")
        case .blank: return pick("白板", "白板", "blank")
        }
    }
    func link(_ status: LinkStatus) -> String {
        switch status {
        case .connecting: return pick("連線中…", "连接中…", "connecting…")
        case .connected: return pick("已連線", "已连接", "connected")
        case .reconnecting(let attempt):
            return pick("斷線，重連中(\(attempt))…", "断线，重连中(\(attempt))…", "reconnecting (\(attempt))…")
        case .closed: return pick("已斷線", "已断线", "disconnected")
        }
    }

    // MARK: Word panel

    func yourWord(_ word: String) -> String { pick("你的詞：\(word)", "你的词：\(word)", "Your word: \(word)") }
    var youAreBlank: String { pick("你是白板", "你是白板", "You are the blank") }
    var pressAnyKeyToHide: String { pick("（按任意鍵隱藏）", "（按任意键隐藏）", "(press any key to hide)") }
    var pressFToSee: String { pick("按 f 看你的詞", "按 f 看你的词", "press f to see your word") }
    var plainWordHint: String {
        pick(
            "（輸入 word 可再看一次；清除畫面即可藏起來）", "（输入 word 可再看一次；清除画面即可藏起来）",
            "(type word to see it again; clear your screen to hide it)")
    }
    func absentTimer(_ seconds: Int) -> String { pick("離線 \(seconds)秒", "离线 \(seconds)秒", "away \(seconds)s") }
    func spyWin(_ rule: SpyWin) -> String {
        rule == .three ? pick("剩3人", "剩3人", "at 3 left") : pick("人數相當", "人数相当", "at parity")
    }
    var waitingForGame: String {
        pick(
            "遊戲進行中：這局結束時自動幫你入座（Ctrl-C 離開）…",
            "游戏进行中：这局结束时自动帮你入座（Ctrl-C 离开）…",
            "A game is running: you will be seated when it ends (Ctrl-C to stop)…")
    }
    var seatGivenUp: String {
        pick("你離開了房間，座位已放棄。", "你离开了房间，座位已放弃。", "You left the room: your seat is given up.")
    }
    func tooSmall(columns: Int, rows: Int, language: Language) -> String {
        let need = "\(Screen.minimumColumns)×\(Screen.minimumRows)"
        return language.pick(
            "終端機太小：需要 \(need)，目前 \(columns)×\(rows)", "终端窗口太小：需要 \(need)，现在 \(columns)×\(rows)",
            "Terminal too small: need \(need), now \(columns)×\(rows)")
    }
    var detailsTitle: String {
        pick("詳情（↑/↓ 捲動，d 或 Esc 返回）", "详情（↑/↓ 滚动，d 或 Esc 返回）", "Details (↑/↓ scroll, d or Esc back)")
    }
    var helpDetails: String { pick("↑/↓ 捲動  d/Esc 返回", "↑/↓ 滚动  d/Esc 返回", "↑/↓ scroll  d/Esc back") }
    var waitingForStart: String { pick("等房主開始遊戲", "等房主开始游戏", "Waiting for the owner to start") }
    func settingsLine(_ settings: GameSettings) -> String {
        let timers =
            settings.turnSeconds == 0 && settings.voteSeconds == 0
            ? pick("無計時", "无计时", "no timers")
            : pick(
                "發言\(settings.turnSeconds)秒 投票\(settings.voteSeconds)秒",
                "发言\(settings.turnSeconds)秒 投票\(settings.voteSeconds)秒",
                "turn \(settings.turnSeconds)s vote \(settings.voteSeconds)s")
        return [
            bankLanguage(settings.language),
            pick("臥底\(settings.spies)", "卧底\(settings.spies)", "spies \(settings.spies)"),
            settings.blank
                ? pick(
                    "白板(\(blankRule(settings.blankRule)))", "白板(\(blankRule(settings.blankRule)))",
                    "blank (\(blankRule(settings.blankRule)))")
                : pick("無白板", "无白板", "no blank"),
            clueMode(settings.clueMode), timers, pick("平票：", "平票：", "tie: ") + tieRule(settings.tieRule),
            pick("臥底勝：", "卧底胜：", "spies win ") + spyWin(settings.spyWin),
        ].joined(separator: " · ") + (settings.spyLastChance ? " · " + lastChanceName : "")
            + (settings.wordSource == .bank ? "" : " · " + wordSourceName(settings.wordSource))
    }
    /// The settings with the owner's key for each, over two lines.
    func keyedSettings(_ settings: GameSettings) -> (first: String, second: String) {
        let first =
            [
                pick("[+-]臥底\(settings.spies)", "[+-]卧底\(settings.spies)", "[+-]spies \(settings.spies)"),
                "[b]" + (settings.blank ? pick("有白板", "有白板", "blank on") : pick("無白板", "无白板", "blank off")),
                "[g]" + pick("白板", "白板", "blank ") + blankRule(settings.blankRule),
                "[m]" + clueMode(settings.clueMode),
            ] + (settings.spyLastChance ? ["[l]" + lastChanceName] : [])
            + (settings.wordSource == .bank ? [] : ["[o]" + wordSourceName(settings.wordSource)])
        let second = [
            "[t]" + pick("發言", "发言", "turn ")
                + (settings.turnSeconds == 0 ? pick("不計時", "不计时", "untimed") : seconds(settings.turnSeconds)),
            "[v]" + pick("投票", "投票", "vote ")
                + (settings.voteSeconds == 0 ? pick("不計時", "不计时", "untimed") : seconds(settings.voteSeconds)),
            "[r]" + pick("平票", "平票", "tie ") + tieRule(settings.tieRule),
            "[w]" + pick("臥底勝", "卧底胜", "spies win ") + spyWin(settings.spyWin),
            "[c]" + bankChoice(settings),
        ]
        return (first.joined(separator: " · "), second.joined(separator: " · "))
    }
    func clueMode(_ mode: ClueMode) -> String {
        mode == .spoken ? pick("口述", "口述", "spoken") : pick("打字", "打字", "typed")
    }
    func tieRule(_ rule: TieRule) -> String {
        switch rule {
        case .pk: return "PK"
        case .nobody: return pick("無人出局", "无人出局", "nobody out")
        case .random: return pick("隨機", "随机", "random")
        }
    }
    func blankRule(_ rule: BlankRule) -> String {
        switch rule {
        case .survive: return pick("存活", "存活", "survive")
        case .guess: return pick("猜詞", "猜词", "guess")
        case .guessEachRound: return guessEachRoundName
        }
    }
    func winner(_ winner: Winner) -> String {
        switch winner {
        case .civilians: return pick("平民獲勝！", "平民获胜！", "The civilians win!")
        case .spies: return pick("臥底獲勝！", "卧底获胜！", "The spies win!")
        case .blank: return pick("白板獲勝！", "白板获胜！", "The blank wins!")
        }
    }
    func words(civilian: String, spy: String) -> String {
        pick(
            "平民詞：\(civilian)  臥底詞：\(spy)", "平民词：\(civilian)  卧底词：\(spy)", "Civilian word: \(civilian)  Spy word: \(spy)"
        )
    }

    // MARK: What to do now

    var yourTurnSpoken: String {
        pick("輪到你了：說出你的描述，說完按 Enter", "轮到你了：说出你的描述，说完按 Enter", "Your turn: say your clue, then press Enter")
    }
    var yourTurnTyped: String {
        pick("輪到你了：按 Enter 輸入描述，p 跳過", "轮到你了：按 Enter 输入描述，p 跳过", "Your turn: press Enter to type your clue, p to pass")
    }
    var plainTurnSpoken: String {
        pick("輪到你了：說出你的描述，說完輸入 pass", "轮到你了：说出你的描述，说完输入 pass", "Your turn: say your clue, then type pass")
    }
    var plainTurnTyped: String {
        pick("輪到你了：輸入 clue 你的描述（或 pass）", "轮到你了：输入 clue 你的描述（或 pass）", "Your turn: type clue YOUR CLUE (or pass)")
    }
    var plainGuess: String {
        pick("你被投出局了：輸入 guess 你猜的平民詞", "你被投出局了：输入 guess 你猜的平民词", "You are out: type guess WORD for the civilians' word")
    }
    func turnOf(_ name: String) -> String { pick("輪到 \(name) 描述", "轮到 \(name) 描述", "\(name) is describing") }
    var pickVote: String {
        pick("選一位投出局：數字或方向鍵，Enter 確認", "选一位投出局：数字或方向键，Enter 确认", "Pick who goes out: number or arrows, Enter")
    }
    func ballot(_ name: String) -> String {
        pick("你投了 \(name)（可改票）", "你投了 \(name)（可改票）", "You voted for \(name) (you may change it)")
    }
    var waitVote: String { pick("等待其他人投票", "等待其他人投票", "Waiting for the others to vote") }
    var youAreOut: String { pick("你已出局，看大家玩吧", "你已出局，看大家玩吧", "You are out: watch the rest") }
    var yourGuess: String {
        pick("你被投出局了：按 Enter 猜平民的詞", "你被投出局了：按 Enter 猜平民的词", "You are out: press Enter to guess the civilians' word")
    }
    func guessOf(_ name: String) -> String {
        pick("\(name) 正在猜平民的詞", "\(name) 正在猜平民的词", "\(name) is guessing the civilians' word")
    }
    func confirmVote(_ name: String) -> String {
        pick(
            "確定要讓\(name)出局嗎? (y 滾吧！/ n 先放過他)", "确定要让\(name)出局吗? (y 滚吧！/ n 先放过他)",
            "Vote \(name) out? (y out / n spare them)")
    }
    var confirmLeave: String {
        pick("遊戲進行中，確定離開並放棄座位嗎? (y/n)", "游戏进行中，确定离开并放弃座位吗? (y/n)", "A game is on: leave and give up your seat? (y/n)")
    }
    var clueLabel: String { pick("描述> ", "描述> ", "clue> ") }
    var guessLabel: String { pick("猜詞> ", "猜词> ", "guess> ") }
    var kickLabel: String { pick("踢出座位號碼> ", "踢出座位号码> ", "kick seat number> ") }

    // MARK: Key help

    var helpLobbyOwner: String {
        pick(
            "s 開始  [鍵] 改設定  k 踢人  f 看詞  d 詳情  q 離開",
            "s 开始  [键] 改设置  k 踢人  f 看词  d 详情  q 离开",
            "s start  [key] setting  k kick  f word  d details  q leave")
    }
    var helpLobby: String {
        pick(
            "f 看詞  d 詳情  q 離開  Ctrl-C 暫離(保留座位)", "f 看词  d 详情  q 离开  Ctrl-C 暂离(保留座位)",
            "f word  d details  q leave  Ctrl-C step away")
    }
    var helpGameOverOwner: String {
        pick(
            "a 再來一局  [鍵] 改設定  k 踢人  d 詳情  q 離開", "a 再来一局  [键] 改设置  k 踢人  d 详情  q 离开",
            "a again  [key] setting  k kick  d details  q leave")
    }
    var helpTurnSpoken: String {
        pick(
            "Enter 說完了  f 看詞  d 詳情  q 離開", "Enter 说完了  f 看词  d 详情  q 离开",
            "Enter done speaking  f word  d details  q leave")
    }
    var helpTurnTyped: String {
        pick(
            "Enter 輸入描述  p 跳過  f 看詞  d 詳情  q 離開", "Enter 输入描述  p 跳过  f 看词  d 详情  q 离开",
            "Enter type clue  p pass  f word  d details  q leave")
    }
    var helpGuess: String {
        pick("Enter 猜平民的詞  f 看詞  d 詳情", "Enter 猜平民的词  f 看词  d 详情", "Enter guess the civilians' word  f word  d details")
    }
    var helpEditing: String {
        pick("Enter 送出  Esc 取消  ←/→ 移動", "Enter 发送  Esc 取消  ←/→ 移动", "Enter send  Esc cancel  ←/→ move")
    }
    var helpVoting: String {
        pick(
            "數字/方向鍵 選人  Enter 投票  f 看詞  d 詳情  q 離開", "数字/方向键 选人  Enter 投票  f 看词  d 详情  q 离开",
            "digits/arrows pick  Enter vote  f word  d details")
    }
    func claimAsked(seat: String, name: String) -> String {
        pick("「\(name)」想拿回 \(seat) 的座位", "“\(name)”想拿回 \(seat) 的座位", "\"\(name)\" asks for \(seat)'s seat back")
    }
    func claimQuestion(seat: String, name: String) -> String {
        claimAsked(seat: seat, name: name) + pick("，允許嗎? (y/n)", "，允许吗? (y/n)", ": allow? (y/n)")
    }
    var helpClaim: String { pick("y 允許  n 拒絕", "y 允许  n 拒绝", "y allow  n deny") }
    var plainClaimHint: String { pick("（輸入 y 允許，n 拒絕）", "（输入 y 允许，n 拒绝）", "(type y to allow, n to deny)") }
    var claimWaiting: String {
        pick(
            "這個名字的座位離線中：等房間裡的人同意還給你…", "这个名字的座位离线中：等房间里的人同意还给你…",
            "That name's seat is away: waiting for the table to give it back to you…")
    }
    var helpConfirm: String { pick("y 確定  n 取消  f 看詞", "y 确定  n 取消  f 看词", "y yes  n no  f word") }
    var helpWatching: String {
        pick(
            "f 看詞  d 詳情  q 離開  Ctrl-C 暫離", "f 看词  d 详情  q 离开  Ctrl-C 暂离", "f word  d details  q leave  Ctrl-C step away"
        )
    }

    // MARK: Log lines

    func event(_ event: LogEvent) -> String {
        switch event {
        case .joined(let name): return pick("\(name) 加入了", "\(name) 加入了", "\(name) joined")
        case .left(let name): return pick("\(name) 離開了", "\(name) 离开了", "\(name) left")
        case .back(let name): return pick("\(name) 回來了", "\(name) 回来了", "\(name) is back")
        case .away(let name): return pick("\(name) 離線了（座位保留）", "\(name) 离线了（座位保留）", "\(name) is away (seat kept)")
        case .settingsChanged(let settings): return pick("設定：", "设置：", "Settings: ") + settingsLine(settings)
        case .gameStarted(let game):
            return pick("第\(game)局開始，詞已發出", "第\(game)局开始，词已发出", "Game \(game) starts: words are dealt")
        case .turn(let name, let isMe, let pk):
            let who = isMe ? pick("你", "你", "you") : name
            return pk
                ? pick("PK：輪到 \(who) 再描述", "PK：轮到 \(who) 再描述", "PK: \(who) to describe again")
                : pick("輪到 \(who)", "轮到 \(who)", "Turn: \(who)")
        case .clue(let name, let text?): return name + colon + text
        case .clue(let name, nil): return pick("\(name) 說完了", "\(name) 说完了", "\(name) is done")
        case .votingOpened(let pk, let choices):
            return pk && !choices.isEmpty
                ? pick("PK 投票開始：\(list(choices))", "PK 投票开始：\(list(choices))", "PK vote opens: \(list(choices))")
                : pk ? pick("PK 投票開始", "PK 投票开始", "PK vote opens") : pick("投票開始", "投票开始", "Voting opens")
        case .voted(let name): return pick("\(name) 投票了", "\(name) 投票了", "\(name) has voted")
        case .abstained(let names): return pick("棄權：\(list(names))", "弃权：\(list(names))", "Abstained: \(list(names))")
        case .tally(let name, let voters):
            return pick("\(name) ← \(list(voters))", "\(name) ← \(list(voters))", "\(name) ← \(list(voters))")
        case .votedOut(let name, let identity?):
            return pick(
                "\(name) 出局，身分是\(role(identity))", "\(name) 出局，身份是\(role(identity))",
                "\(name) is out: a \(role(identity))")
        case .votedOut(let name, nil): return pick("\(name) 出局", "\(name) 出局", "\(name) is out")
        case .pk(let names):
            return pick("平票！\(list(names)) 進入 PK", "平票！\(list(names)) 进入 PK", "Tie! PK between \(list(names))")
        case .nobodyOut: return pick("這輪沒有人出局", "这轮没有人出局", "Nobody is out this round")
        case .guessing(let name, let isMe):
            return isMe ? yourGuess : guessOf(name)
        case .lastChance(let name, let isMe):
            return isMe ? yourGuess : lastChanceOf(name)
        case .guessResult(let name, let role, let correct, let out):
            return guessResult(name: name, role: role, correct: correct, out: out)
        case .gameOver(let winner, let civilian, let spy):
            return "\(self.winner(winner)) \(words(civilian: civilian, spy: spy))"
        case .blankGuess(let name, let guess):
            return pick("\(name) 猜：\(guess)", "\(name) 猜：\(guess)", "\(name) guessed: \(guess)")
        case .reveal(let name, let role, let word):
            return name + colon + self.role(role) + (word.map { pick("（\($0)）", "（\($0)）", " (\($0))") } ?? "")
        case .problem(let code, let message, let need, let have):
            return problem(code, message: message, need: need, have: have)
        case .link(let status):
            switch status {
            case .connected: return pick("已重新連線", "已重新连接", "Reconnected")
            case .reconnecting: return pick("和主機的連線斷了，重連中…", "和主机的连接断了，重连中…", "Lost the host; reconnecting…")
            case .closed: return pick("連線已結束", "连接已结束", "Connection closed")
            case .connecting: return pick("連線中…", "连接中…", "Connecting…")
            }
        case .bye(let reason): return bye(reason)
        case .ownWord(let word?): return yourWord(word)
        case .ownWord(nil): return youAreBlank
        case .hint(let hint): return self.hint(hint)
        case .ownerChanged(_, true): return pick("你現在是房主", "你现在是房主", "You own the room now")
        case .ownerChanged(let name, false): return pick("\(name) 現在是房主", "\(name) 现在是房主", "\(name) owns the room now")
        case .claimAsked(let seat, let name): return claimAsked(seat: seat, name: name)
        case .evening(let note): return eveningNote(note)
        }
    }

    /// Between a name and what they said or were: full width in Chinese, ASCII in English.
    var colon: String { pick("：", "：", ": ") }

    func quoted(_ clue: String) -> String { pick("「\(clue)」", "“\(clue)”", "“\(clue)”") }

    func list(_ names: [String]) -> String { names.isEmpty ? "—" : names.joined(separator: pick("、", "、", ", ")) }

    func bye(_ reason: String) -> String {
        switch reason {
        case "host_closing": return pick("主機關閉了", "主机关闭了", "The host is closing")
        case "room_closed": return pick("房間關閉了", "房间关闭了", "The room closed")
        case "kicked": return pick("房主把你請出房間了", "房主把你请出房间了", "The owner removed you")
        case "left": return pick("你離開了房間", "你离开了房间", "You left the room")
        default: return pick("主機結束連線：\(reason)", "主机结束连接：\(reason)", "The host ended the connection: \(reason)")
        }
    }

    func hint(_ hint: Hint) -> String {
        switch hint {
        case .unknownCommand(let text):
            return pick(
                "看不懂「\(text)」，輸入 help 看指令", "看不懂“\(text)”，输入 help 看指令", "Unknown command \"\(text)\"; type help")
        case .noSuchSeat(let text): return pick("沒有可選的座位「\(text)」", "没有可选的座位“\(text)”", "No seat \"\(text)\" to choose")
        case .noWordYet: return pick("還沒發詞", "还没发词", "No word dealt yet")
        case .ownerOnly: return pick("只有房主能這樣做", "只有房主能这样做", "Only the room owner can do that")
        case .notNow: return pick("現在不能這樣做", "现在不能这样做", "Not possible now")
        case .ballotSent(let name): return ballot(name)
        case .cannotVoteForYourself: return pick("不能投自己", "不能投自己", "You cannot vote for yourself")
        case .cannotChoose(let name):
            return pick("\(name) 不在這次投票的人選中", "\(name) 不在这次投票的人选中", "\(name) cannot be voted for in this vote")
        case .noBallot: return pick("這次投票你沒有票", "这次投票你没有票", "You have no ballot in this vote")
        case .turnOf(let name):
            return pick("現在輪到 \(name)，還沒輪到你", "现在轮到 \(name)，还没轮到你", "It is \(name)'s turn, not yours")
        case .wordHidden: return plainWordHint
        case .help:
            return pick(
                "指令：vote 3 | clue 文字 | pass | word | guess 文字 | start | again | set spies 2 | set blank on|off"
                    + " | set clues spoken|typed | set turn 60 | set vote 30 | set tie pk|nobody|random"
                    + " | set blankrule survive|guess|guessEachRound | set lastchance on|off | set words bank|ours|both | set win three|parity | set language zh-TW|zh-Hans|en|both|zh-Hans+en | set party on|off"
                    + " | set categories 食物,動物|all | categories | kick 3 | who | history | export 檔名 | words 檔名 | judge me|3|off | pair 甲/乙 | pause | resume | skip | quit",
                "指令：vote 3 | clue 文字 | pass | word | guess 文字 | start | again | set spies 2 | set blank on|off"
                    + " | set clues spoken|typed | set turn 60 | set vote 30 | set tie pk|nobody|random"
                    + " | set blankrule survive|guess|guessEachRound | set lastchance on|off | set words bank|ours|both | set win three|parity | set language zh-TW|zh-Hans|en|both|zh-Hans+en | set party on|off"
                    + " | set categories 食物,动物|all | categories | kick 3 | who | history | export 文件名 | words 文件名 | judge me|3|off | pair 甲/乙 | pause | resume | skip | quit",
                "commands: vote 3 | clue TEXT | pass | word | guess TEXT | start | again | set spies 2 | set blank on|off"
                    + " | set clues spoken|typed | set turn 60 | set vote 30 | set tie pk|nobody|random"
                    + " | set blankrule survive|guess|guessEachRound | set lastchance on|off | set words bank|ours|both | set win three|parity | set language zh-TW|zh-Hans|en|both|zh-Hans+en | set party on|off"
                    + " | set categories Food,Animals|all | categories | kick 3 | who | history | export FILE | words FILE | judge me|3|off | pair A/B | pause | resume | skip | quit"
            )
        }
    }

    /// The rule a name broke, from the host's English message.
    private func nameProblem(_ problem: PlayerText.NameProblem) -> String {
        switch problem {
        case .onlySpaces: return pick("名字不能只有空白（留空會自動取名）", "名字不能只有空格（留空会自动取名）", problem.message)
        case .controlCharacters: return pick("名字不能有控制字元或換行", "名字不能有控制字符或换行", problem.message)
        case .tooManyBytes:
            return pick(
                "名字太長（最多 \(PlayerText.maxNameBytes) 位元組）", "名字太长（最多 \(PlayerText.maxNameBytes) 字节）", problem.message)
        case .directionControls: return pick("名字不能有文字方向控制字元", "名字不能有文字方向控制字符", problem.message)
        case .invisibleCharacters: return pick("名字不能有看不見的字元", "名字不能有看不见的字符", problem.message)
        case .tooManyMarks:
            return pick(
                "每個字最多帶 \(PlayerText.maxMarksPerCharacter) 個重音符號，也不能以重音符號開頭",
                "每个字最多带 \(PlayerText.maxMarksPerCharacter) 个重音符号，也不能以重音符号开头", problem.message)
        case .nothingVisible: return pick("名字至少要有一個看得見的字", "名字至少要有一个看得见的字", problem.message)
        case .tooWide:
            return pick(
                "名字最多 \(PlayerText.maxNameColumns) 格寬（中文字一字 2 格）", "名字最多 \(PlayerText.maxNameColumns) 格宽（中文字一字 2 格）",
                problem.message)
        case .mixedScripts: return pick("名字不能混用拉丁、希臘、西里爾字母", "名字不能混用拉丁、希腊、西里尔字母", problem.message)
        }
    }

    /// A refusal from the host, in the player's language, with what to do about it.
    func problem(_ code: ErrorCode, message: String, need: Int? = nil, have: Int? = nil) -> String {
        switch code {
        case .clueHasWord:
            return pick("描述裡不能有你的詞，換個說法", "描述里不能有你的词，换个说法", "Your clue contains your word: say it another way")
        case .badClue:
            return pick(
                "描述要 1 到 100 字（400 位元組內），每字最多 2 個重音符號，不能有控制字元",
                "描述要 1 到 100 字（400 字节内），每字最多 2 个重音符号，不能有控制字符",
                "A clue is 1 to 100 characters (400 bytes), at most 2 accents a letter, no control characters")
        case .notYourTurn: return pick("還沒輪到你", "还没轮到你", "It is not your turn")
        case .selfVote: return pick("不能投自己", "不能投自己", "You cannot vote for yourself")
        case .badTarget: return pick("不能選這個人", "不能选这个人", "That player cannot be chosen")
        case .notOwner: return pick("只有房主能這樣做", "只有房主能这样做", "Only the room owner can do that")
        case .wrongPhase: return pick("現在不能這樣做", "现在不能这样做", "Not possible in this phase")
        case .notPlaying: return pick("你不在這局遊戲中", "你不在这局游戏中", "You are not playing in this game")
        case .tooFewPlayers:
            guard let need, let have else { return pick("人數不夠，還不能開始：\(message)", "人数不够，还不能开始：\(message)", message) }
            // More than the 4 every game needs means the blank's rule: civilians must outnumber spies and blank.
            let why =
                need > 4 ? pick("（有白板時平民要過半）", "（有白板时平民要过半）", " (with the blank, civilians must be the majority)") : ""
            return pick(
                "要 \(need) 個人才能開始，現在 \(have) 人\(why)",
                "要 \(need) 个人才能开始，现在 \(have) 人\(why)", "\(need) players are needed to start, \(have) are here\(why)")
        case .tooManySpies: return pick("臥底太多了，這桌人數放不下", "卧底太多了，这桌人数放不下", "Too many spies for this table")
        case .badSettings: return pick("設定不行：\(message)", "设置不行：\(message)", message)
        case .roomFull: return pick("房間滿了", "房间满了", "The room is full")
        case .gameInProgress: return pick("遊戲進行中，等這局結束再加入", "游戏进行中，等这局结束再加入", "A game is running: join when it ends")
        case .nameTaken: return pick("這個名字已經有人用了", "这个名字已经有人用了", "That name is taken")
        case .badName:
            // The host's message says which rule the name broke; it is one of the shared texts, so say it in Chinese too.
            let reason = PlayerText.NameProblem.allCases.first { $0.message == message }
            return reason.map(nameProblem) ?? pick("名字不能用：\(message)", "名字不能用：\(message)", message)
        case .wrongPassword:
            return pick("房間密碼不對（用 --password）", "房间密码不对（用 --password）", "Wrong room password (use --password)")
        case .roomNotFound: return pick("沒有這個房間代碼", "没有这个房间代码", "No room with that code")
        case .roomRequired:
            return pick(
                "主機有好幾個房間，用 --room 指定", "主机有好几个房间，用 --room 指定", "The host has several rooms: give one with --room")
        case .protocolVersion:
            return pick(
                "主機的版本和這個程式不合：\(message)", "主机的版本和这个程序不合：\(message)",
                "The host speaks another protocol version: \(message)")
        case .kicked: return pick("房主把你請出房間了", "房主把你请出房间了", "The owner removed you")
        case .replaced: return pick("你的座位在別處重新連上了", "你的座位在别处重新连上了", "Your seat was resumed from another terminal")
        case .hostClosing: return pick("主機關閉了", "主机关闭了", "The host is closing")
        case .badToken: return pick("舊座位已失效，重新加入", "旧座位已失效，重新加入", "Your old seat expired; joining afresh")
        case .hostStorage:
            return pick(
                "主機現在存不了檔，剛才那步沒算；稍後再試", "主机现在存不了档，刚才那步没算；稍后再试",
                "The host cannot save right now; that was not taken, try again soon")
        case .claimRefused:
            return pick("座位沒有還給你（對方拒絕或沒回應）", "座位没有还给你（对方拒绝或没回应）", "The seat was not given back (denied or no answer)")
        case .claimBusy: return pick("已經有人在要這個座位了", "已经有人在要这个座位了", "Someone is already asking for that seat")
        case .claimUnavailable:
            return pick("現在沒有人能同意把座位還給你", "现在没有人能同意把座位还给你", "Nobody connected can give that seat back right now")
        case .claimInvalid: return pick("這個座位不能要回", "这个座位不能要回", "That seat cannot be claimed")
        case .notAllowed: return pick("沒有問你這件事", "没有问你这件事", "You were not asked that")
        case .tooManyAttempts:
            return pick("密碼錯太多次了，等一下再試", "密码错太多次了，等一下再试", "Too many wrong passwords: wait a little and try again")
        default: return eveningProblem(code) ?? message
        }
    }

    // MARK: Start-up

    func askName(default name: String) -> String {
        pick("你的名字 [\(name)]: ", "你的名字 [\(name)]: ", "Your name [\(name)]: ")
    }
    func nameTaken(_ name: String, suggestion: String) -> String {
        pick(
            "「\(name)」已經有人用了；換一個 [\(suggestion)]: ", "“\(name)”已经有人用了；换一个 [\(suggestion)]: ",
            "\"\(name)\" is taken; another name [\(suggestion)]: ")
    }
    var seatKept: String {
        pick(
            "你的座位保留著：再執行一次 spy-client 就能回來。", "你的座位保留着：再运行一次 spy-client 就能回来。",
            "Your seat is kept: run spy-client again to come back.")
    }
    func noHost(_ address: String) -> String {
        pick(
            "在 \(address) 找不到誰是臥底主機 — 那台電腦有執行 `spyd --host` 嗎？連接埠有開嗎？",
            "在 \(address) 找不到谁是卧底主机 — 那台电脑有运行 `spyd --host` 吗？端口开了吗？",
            "no WhoIsSpy host at \(address) — is `spyd --host` running there, and is the port open?")
    }
    func gaveUp(_ address: String) -> String {
        pick(
            "五分鐘內都連不回 \(address)，放棄了。", "五分钟内都连不回 \(address)，放弃了。",
            "Could not reach \(address) again within 5 minutes; giving up.")
    }
}
