import SpyProtocol

/// Choices the owner cycles through with one key each.
enum SettingsCycle {
    static let turnSeconds = [0, 30, 45, 60, 90, 120]
    static let voteSeconds = [0, 30, 60, 90, 120]

    static func next<Value: Equatable>(_ value: Value, in choices: [Value]) -> Value {
        guard let index = choices.firstIndex(of: value) else { return choices[0] }
        return choices[(index + 1) % choices.count]
    }
}

/// What an editing key did to a prompt's line.
enum EditOutcome: Equatable {
    /// The line changed (or not); keep editing.
    case editing
    /// Enter: send the line.
    case submitted
    /// Escape: close the prompt.
    case cancelled
}

extension ClientState {
    /// Reacts to one key of the full-screen interface.
    mutating func handle(_ key: Key, now: Millis) -> Reaction {
        if key == .interrupt { return Reaction(action: .quit(leave: false)) }
        tick(now: now)
        if wordShown(at: now) {
            // The key that hides the word does nothing else, so a glance-and-press never sends a move.
            wordVisibility = .hidden
            return Reaction()
        }
        if let offset = details {
            detailsKey(key, offset: offset)
            return Reaction()
        }
        switch prompt {
        case .none where moderatorAsked && [.character("y"), .character("Y")].contains(key):
            return answerModeratorOffer(accept: true)
        case .none where moderatorAsked && [.character("n"), .character("N")].contains(key):
            return answerModeratorOffer(accept: false)
        case .none where claimQuestion != nil && [.character("y"), .character("Y")].contains(key):
            return answerClaim(allow: true)
        case .none where claimQuestion != nil && [.character("n"), .character("N")].contains(key):
            return answerClaim(allow: false)
        case .none:
            return handleDirect(key, now: now)
        case .categories(let picker):
            return categoryKey(key, picker)
        case .confirmVote(let target):
            switch key {
            case .character("y"), .character("Y"), .enter:
                prompt = .none
                ballot = target
                return Reaction(messages: [.vote(.init(target: target))])
            case .character("n"), .character("N"), .escape:
                prompt = .none
            case .character("f"), .character("F"):
                // "Always": the word may be needed to decide the very ballot being confirmed.
                if dealt != nil { recallWord(now: now) }
            default:
                break
            }
            return Reaction()
        case .confirmLeave:
            switch key {
            case .character("y"), .character("Y"):
                prompt = .none
                return Reaction(messages: [.leave], action: .quit(leave: true))
            case .character("n"), .character("N"), .escape, .enter:
                prompt = .none
            default:
                break
            }
            return Reaction()
        case .clue(var editor):
            let outcome = Self.edit(&editor, with: key)
            prompt = outcome == .cancelled ? .none : .clue(editor)
            guard outcome == .submitted else { return Reaction() }
            let text = editor.text.trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty else { return Reaction() }
            notice = nil
            return Reaction(messages: [.clue(.init(text: text))])
        case .guess(var editor):
            let outcome = Self.edit(&editor, with: key)
            prompt = outcome == .cancelled ? .none : .guess(editor)
            guard outcome == .submitted else { return Reaction() }
            let text = editor.text.trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty else { return Reaction() }
            notice = nil
            return Reaction(messages: [.guess(.init(word: text))])
        case .pair(var editor):
            let outcome = Self.edit(&editor, with: key)
            prompt = outcome == .editing ? .pair(editor) : .none
            guard outcome == .submitted else { return Reaction() }
            return typedPair(editor.text)
        case .kick(var editor):
            let outcome = Self.edit(&editor, with: key)
            prompt = outcome == .editing ? .kick(editor) : .none
            guard outcome == .submitted else { return Reaction() }
            let typed = editor.text.trimmingCharacters(in: .whitespaces)
            guard let target = seatNamed(typed), target.id != me else {
                notice = .hint(.noSuchSeat(typed))
                return Reaction()
            }
            return Reaction(messages: [.kick(.init(player: target.id))])
        }
    }

    /// Applies an editing key to a line editor.
    static func edit(_ editor: inout LineEditor, with key: Key) -> EditOutcome {
        switch key {
        case .character(let character): editor.insert(String(character))
        case .backspace: editor.backspace()
        case .delete: editor.deleteForward()
        case .left: editor.moveLeft()
        case .right: editor.moveRight()
        case .home: editor.moveToStart()
        case .end: editor.moveToEnd()
        case .clearLine: editor.clearToStart()
        case .enter: return .submitted
        case .escape: return .cancelled
        default: break
        }
        return .editing
    }

    private mutating func handleDirect(_ key: Key, now: Millis) -> Reaction {
        notice = nil
        switch key {
        case .character("f"), .character("F"):
            if dealt != nil {
                recallWord(now: now)
            } else {
                notice = .hint(.noWordYet)
            }
            return Reaction()
        case .character("q"), .character("Q"):
            if inGame {
                prompt = .confirmLeave
                return Reaction()
            }
            return Reaction(messages: [.leave], action: .quit(leave: true))
        case .character("d"), .character("D"):
            details = 0
            return Reaction()
        case .character("x"), .character("X"):
            return exportHistory(to: nil)
        default:
            break
        }
        guard let room else { return Reaction() }
        if isModerator, let reaction = moderatorKey(key, room: room) { return reaction }
        switch room.phase {
        case .lobby, .gameOver:
            return isOwner ? ownerKey(key, room: room) : Reaction()
        case .describing:
            guard isMyTurn else {
                if key == .enter || key == .character("p") || key == .character("c"), let turn = room.turn {
                    notice = .hint(.turnOf(name: name(turn)))
                }
                return Reaction()
            }
            switch (room.settings.clueMode, key) {
            case (.spoken, .enter), (.spoken, .character("p")), (.typed, .character("p")):
                return Reaction(messages: [.pass])
            case (.typed, .enter), (.typed, .character("c")):
                prompt = .clue(LineEditor())
            default:
                break
            }
            return Reaction()
        case .voting:
            if mayGuessWhileVoting, key == .character("g") {
                prompt = .guess(LineEditor())
                return Reaction()
            }
            guard canVote else {
                if key == .enter || (key.character?.isNumber ?? false) {
                    notice = .hint(mySeat?.alive == false ? .notNow : .noBallot)
                }
                return Reaction()
            }
            voteKey(key)
            return Reaction()
        case .guessing:
            if guessing?.player == me, key == .enter || key == .character("g") {
                prompt = .guess(LineEditor())
            }
            return Reaction()
        }
    }

    private mutating func voteKey(_ key: Key) {
        let candidates = voteCandidates
        guard !candidates.isEmpty else { return }
        let index = candidates.firstIndex { $0.id == cursor }
        switch key {
        case .up, .left:
            seatDigits = ""
            cursor = candidates[((index ?? 0) + candidates.count - 1) % candidates.count].id
        case .down, .right, .tab:
            seatDigits = ""
            cursor = candidates[index.map { ($0 + 1) % candidates.count } ?? 0].id
        case .character(let character) where character.isASCII && character.isNumber:
            // Two digits make a seat number above 9 when such a seat exists; otherwise the last digit alone.
            let joined = seatDigits + String(character)
            if let seat = candidates.first(where: { String($0.seat) == joined }) {
                cursor = seat.id
                seatDigits = joined
            } else if let seat = candidates.first(where: { String($0.seat) == String(character) }) {
                cursor = seat.id
                seatDigits = String(character)
            } else {
                seatDigits = String(character)
                explainUnchoosable(seatDigits)
            }
            if seatDigits.count >= 2 { seatDigits = "" }
        case .enter, .character("v"):
            seatDigits = ""
            if let cursor { prompt = .confirmVote(cursor) }
        default:
            break
        }
    }

    private mutating func ownerKey(_ key: Key, room: RoomView) -> Reaction {
        let settings = room.settings
        let present = room.seats.count
        var change: SettingsChange?
        switch key {
        case .character("s"), .character("S"), .character("a"), .character("A"):
            return Reaction(messages: [.start])
        case .character("+"), .character("="):
            let most = max(1, GameSettings.maxSpies(forPlayers: max(present, 4)))
            change = SettingsChange(spies: min(most, settings.spies + 1))
        case .character("-"), .character("_"):
            change = SettingsChange(spies: max(1, settings.spies - 1))
        case .character("b"):
            change = SettingsChange(blank: !settings.blank)
        case .character("m"):
            change = SettingsChange(clueMode: settings.clueMode == .spoken ? .typed : .spoken)
        case .character("t"):
            change = SettingsChange(
                turnSeconds: SettingsCycle.next(settings.turnSeconds, in: SettingsCycle.turnSeconds))
        case .character("v"):
            change = SettingsChange(
                voteSeconds: SettingsCycle.next(settings.voteSeconds, in: SettingsCycle.voteSeconds))
        case .character("r"):
            change = SettingsChange(tieRule: SettingsCycle.next(settings.tieRule, in: TieRule.allCases))
        case .character("g"):
            change = SettingsChange(blankRule: SettingsCycle.next(settings.blankRule, in: BlankRule.allCases))
        case .character("l"):
            change = SettingsChange(spyLastChance: !settings.spyLastChance)
        case .character("o"):
            change = SettingsChange(wordSource: SettingsCycle.next(settings.wordSource, in: WordSource.allCases))
        case .character("u"):
            return uploadWordsFile()
        case .character("e"):
            return exportWords(to: nil)
        case .character("j"):
            // The owner takes the moderator's seat, or gives it up; naming another person is `judge N`.
            return Reaction(messages: [.moderator(.init(player: isModerator ? nil : me))])
        case .character("w"):
            change = SettingsChange(spyWin: settings.spyWin == .three ? .parity : .three)
        case .character("k"):
            prompt = .kick(LineEditor(limit: 3))
        case .character("c"):
            openCategoryPicker()
        default:
            break
        }
        return Reaction(messages: change.map { [.settings($0)] } ?? [])
    }

    /// Says why a typed seat number picks nobody: this player, a player out or not in the PK, or no such seat.
    private mutating func explainUnchoosable(_ typed: String) {
        guard let seat = room?.seats.first(where: { String($0.seat) == typed }) else {
            notice = .hint(.noSuchSeat(typed))
            return
        }
        notice = .hint(seat.id == me ? .cannotVoteForYourself : .cannotChoose(name: seat.name))
    }

    /// Scrolls or closes the details page.
    private mutating func detailsKey(_ key: Key, offset: Int) {
        let most = max(0, Screen.detailsLineCount(self, columns: viewport.columns) - Screen.detailsRows(viewport.rows))
        switch key {
        case .up, .left: details = max(0, min(offset, most) - 1)
        case .down, .right, .character(" "): details = min(most, offset + 1)
        case .home: details = 0
        case .end: details = most
        default: details = nil
        }
    }

    /// The seat a player typed: a seat number ("3"), a player id ("p3") or a name.
    func seatNamed(_ typed: String) -> SeatView? {
        guard let room, !typed.isEmpty else { return nil }
        if let number = Int(typed) { return room.seats.first { $0.seat == number } }
        let key = TextFold.key(typed)
        return room.seats.first { $0.id == typed } ?? room.seats.first { TextFold.key($0.name) == key }
    }
}
