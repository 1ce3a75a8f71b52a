import SpyProtocol

/// What a piece of text means, which decides its colour.
enum Style: Sendable, Equatable {
    /// Ordinary text.
    case plain
    /// This player's own seat and headings.
    case bold
    /// Secondary text: settings, key help, the hidden-word hint.
    case dim
    /// The header bar.
    case header
    /// Whose turn it is.
    case turn
    /// A player who is out.
    case out
    /// Revealed spy.
    case spy
    /// Revealed civilian.
    case civilian
    /// Revealed blank.
    case blank
    /// A refusal or a lost connection.
    case error
    /// The player's own word while shown.
    case word
    /// The highlighted choice.
    case selected

    var sgr: String {
        switch self {
        case .plain: return "0"
        case .bold: return "0;1"
        case .dim: return "0;2"
        case .header: return "0;7"
        case .turn: return "0;1;33"
        case .out: return "0;2"
        case .spy: return "0;1;31"
        case .civilian: return "0;1;32"
        case .blank: return "0;1;36"
        case .error: return "0;1;31"
        case .word: return "0;1;30;43"
        case .selected: return "0;7"
        }
    }

    static func of(_ role: Role) -> Style {
        switch role {
        case .spy: return .spy
        case .civilian: return .civilian
        case .blank: return .blank
        }
    }
}

/// A line of styled pieces. Its text is printable by construction (`TerminalText`): the only escape sequences on
/// the screen are the ones `rendered` adds.
struct StyledLine: Sendable, Equatable {
    var pieces: [(text: String, style: Style)] = []

    init(_ text: String = "", _ style: Style = .plain) {
        if !text.isEmpty { pieces = [(TerminalText.printable(text), style)] }
    }

    static func == (lhs: StyledLine, rhs: StyledLine) -> Bool {
        lhs.pieces.map(\.text) == rhs.pieces.map(\.text) && lhs.pieces.map(\.style) == rhs.pieces.map(\.style)
    }

    mutating func append(_ text: String, _ style: Style = .plain) {
        if !text.isEmpty { pieces.append((TerminalText.printable(text), style)) }
    }

    var width: Int { pieces.reduce(0) { $0 + DisplayWidth.of($1.text) } }

    /// The line without the spaces that pad its end.
    func trimmed() -> StyledLine {
        var result = self
        while let last = result.pieces.last {
            let kept = String(last.text.reversed().drop { $0 == " " }.reversed())
            if kept.isEmpty {
                result.pieces.removeLast()
            } else {
                result.pieces[result.pieces.count - 1].text = kept
                break
            }
        }
        return result
    }

    /// Exactly `columns` columns: cut (never inside a wide character) or padded with spaces in `fill` style.
    func fitted(to columns: Int, fill: Style = .plain) -> StyledLine {
        var result = StyledLine()
        var used = 0
        // The pieces are printable already, and so are their cuts and the padding: no second pass over them.
        for piece in pieces where used < columns {
            // Most pieces fit whole: measured once, not cut.
            let width = DisplayWidth.of(piece.text)
            if used + width <= columns {
                result.pieces.append(piece)
                used += width
            } else {
                let cut = DisplayWidth.truncate(piece.text, toColumns: columns - used)
                if !cut.isEmpty { result.pieces.append((cut, piece.style)) }
                used += DisplayWidth.of(cut)
            }
        }
        if used < columns { result.pieces.append((DisplayWidth.spaces(columns - used), fill)) }
        return result
    }

    /// The line broken into lines of at most `columns` columns. Pieces are the units of meaning (a setting, a word):
    /// a piece that does not fit goes whole to the next line, which starts with one space, and only a piece wider
    /// than a line is cut inside.
    func wrapped(to columns: Int) -> [StyledLine] {
        guard width > columns, columns > 4 else { return [self] }
        var lines: [StyledLine] = []
        var current = StyledLine()
        var used = 0
        for piece in pieces {
            var text = piece.text
            if used + DisplayWidth.of(text) > columns && used > 1 {
                lines.append(current)
                current = StyledLine(" ")
                used = 1
                text = String(text.drop { $0 == " " || $0 == "·" })
            }
            for part in Screen.wrap(text, columns: columns - used).enumerated() {
                if part.offset > 0 {
                    lines.append(current)
                    current = StyledLine(" ")
                    used = 1
                }
                current.append(part.element, piece.style)
                used += DisplayWidth.of(part.element)
            }
        }
        lines.append(current)
        return lines
    }

    /// The text, with SGR colour codes when `color` is on.
    func rendered(color: Bool) -> String {
        guard color else { return pieces.map(\.text).joined() }
        var output = ""
        var current = Style.plain
        for piece in pieces {
            if piece.style != current {
                output += "\u{1B}[\(piece.style.sgr)m"
                current = piece.style
            }
            output += piece.text
        }
        if current != .plain { output += "\u{1B}[0m" }
        return output
    }
}

/// One drawn screen: the lines, each exactly the terminal's width, and where the text cursor belongs.
struct ScreenFrame: Sendable, Equatable {
    var lines: [String]
    /// Row and column (0-based) of the cursor while a line is being typed; nil hides it.
    var cursor: (row: Int, column: Int)?

    static func == (lhs: ScreenFrame, rhs: ScreenFrame) -> Bool {
        lhs.lines == rhs.lines && lhs.cursor?.row == rhs.cursor?.row && lhs.cursor?.column == rhs.cursor?.column
    }
}

/// The whole terminal screen as a pure function of the client state, the terminal size and the language.
enum Screen {
    /// Smallest size the layout is designed for; a smaller terminal gets a screen that says so.
    static let minimumColumns = 60
    static let minimumRows = 16

    static func render(
        _ state: ClientState, columns: Int, rows: Int, language: Language, color: Bool, now: Millis
    ) -> ScreenFrame {
        guard columns >= minimumColumns, rows >= minimumRows else {
            return tooSmall(columns: max(1, columns), rows: max(1, rows), language: language, color: color)
        }
        if case .categories(let picker) = state.prompt {
            return CategoryPickerView.render(
                picker, categories: state.bankCategories, columns: columns, rows: rows, language: language,
                color: color)
        }
        let text = Strings(language: language)
        if let offset = state.details {
            return details(state, offset: offset, columns: columns, rows: rows, text: text, color: color, now: now)
        }
        // Order: header, (space), table, rule, log, rule, word panel (2 lines or more), prompt, help.
        let roomy = rows >= 24
        var top: [StyledLine] = [header(state, columns: columns, text: text, now: now)]
        if roomy { top.append(StyledLine()) }
        let (promptLine, cursorColumn) = prompt(state, columns: columns, text: text)
        let panel = wordPanel(state, text: text, now: now).flatMap { $0.wrapped(to: columns) }
        let bottom =
            [rule(columns)] + panel + [promptLine, StyledLine(" " + help(state, text: text), .dim)]
        let free = rows - top.count - bottom.count - 1
        let seats = table(state, columns: columns, maxRows: max(0, free - 1), text: text)
        let logLines = log(state, columns: columns, rows: max(0, free - seats.count), text: text)
        // The log sits just above the word panel, like a chat: the newest line is nearest the player's eyes.
        let filler = max(0, rows - top.count - seats.count - 1 - logLines.count - bottom.count)
        var all = top + seats + [rule(columns)] + Array(repeating: StyledLine(), count: filler) + logLines + bottom
        if all.count > rows { all = [all[0]] + all.suffix(rows - 1) }
        let lines = all.map { $0.fitted(to: columns).rendered(color: color) }
        return ScreenFrame(lines: lines, cursor: cursorColumn.map { (rows - 2, min($0, columns - 1)) })
    }

    // MARK: Sections

    private static func rule(_ columns: Int) -> StyledLine {
        StyledLine(String(repeating: "─", count: columns), .dim)
    }

    private static func header(_ state: ClientState, columns: Int, text: Strings, now: Millis) -> StyledLine {
        var right: [String] = []
        if let ends = state.timerEnds, ends > now {
            let seconds = Int((ends - now + 999) / 1000)
            right.append("⌛ " + (state.timerIsAbsence ? text.absentTimer(seconds) : text.seconds(seconds)))
        }
        right.append(text.link(state.link))
        let rightText = right.joined(separator: " · ") + " "
        let leftRoom = max(0, columns - DisplayWidth.of(rightText) - 1)
        // The connection state on the right always shows. On the left the title gives way first, then the words
        // around the numbers, so the phase itself is never cut at the minimum size.
        var forms: [[String]] = []
        if let room = state.room {
            let playing = room.round > 0 && room.phase != .lobby && room.phase != .gameOver
            let phase = text.phase(room.phase, pk: !room.pk.isEmpty)
            let long =
                [text.room(room.room)] + (room.game > 0 ? [text.game(room.game)] : [])
                + (playing ? [text.round(room.round)] : []) + [phase]
            var short = [room.room]
            if room.game > 0 { short.append(text.shortGameRound(game: room.game, round: playing ? room.round : nil)) }
            forms = (columns >= 80 ? [[text.title] + long] : []) + [long, short + [phase], [room.room, phase]]
        } else {
            forms = columns >= 80 ? [[text.title]] : [[]]
        }
        let fitting = forms.first { DisplayWidth.of(" " + $0.joined(separator: " · ")) <= leftRoom } ?? forms.last!
        let leftText = DisplayWidth.truncate(" " + fitting.joined(separator: " · "), toColumns: leftRoom)
        var line = StyledLine(leftText, .header)
        line.append(
            DisplayWidth.spaces(columns - DisplayWidth.of(leftText) - DisplayWidth.of(rightText)),
            .header)
        line.append(rightText, state.link == .connected ? .header : .error)
        return line.fitted(to: columns, fill: .header)
    }

    private static func table(_ state: ClientState, columns: Int, maxRows: Int, text: Strings) -> [StyledLine] {
        guard let room = state.room, !room.seats.isEmpty, maxRows > 0 else { return [] }
        let seats = room.seats
        let most = max(1, columns / 20)
        var perColumn = seats.count
        var columnCount = 1
        while perColumn > maxRows && columnCount < most {
            columnCount += 1
            perColumn = (seats.count + columnCount - 1) / columnCount
        }
        let cellWidth = columns / columnCount
        // When even the widest layout has too few rows, the last place says how many seats `d` shows.
        let fits = perColumn <= maxRows
        if !fits { perColumn = maxRows }
        let capacity = perColumn * columnCount
        var lines: [StyledLine] = []
        for row in 0..<perColumn {
            var line = StyledLine()
            for column in 0..<columnCount {
                let index = column * perColumn + row
                if !fits && index == capacity - 1 {
                    line.pieces += StyledLine("  … +\(seats.count - index) (d)", .dim).fitted(to: cellWidth).pieces
                    break
                }
                guard index < seats.count else { break }
                line.pieces += cell(seats[index], state: state, room: room, width: cellWidth, text: text).pieces
            }
            lines.append(line)
        }
        return lines
    }

    private static func cell(_ seat: SeatView, state: ClientState, room: RoomView, width: Int, text: Strings)
        -> StyledLine
    {
        let isTurn = room.phase == .describing && room.turn == seat.id
        let isCursor = room.phase == .voting && state.cursor == seat.id && state.canVote
        let base: Style = !seat.alive ? .out : isTurn ? .turn : seat.id == state.me ? .bold : .plain
        var line = StyledLine(isTurn ? "▶" : isCursor ? "›" : " ", isTurn ? .turn : .plain)
        let number = seat.seat < 10 ? " \(seat.seat)" : "\(seat.seat)"
        line.append(number + " ", isCursor ? .selected : base)
        var tags: [(String, Style)] = []
        if seat.owner { tags.append(("★", .turn)) }
        if seat.id == state.me { tags.append(("(\(text.you))", .bold)) }
        if seat.bot { tags.append((text.bot, .dim)) }
        if !seat.connected { tags.append((text.away, .error)) }
        if seat.sittingOut == true { tags.append((text.sittingOut, .dim)) }
        if !seat.alive && room.phase != .lobby { tags.append((text.out, .out)) }
        if let role = seat.revealed { tags.append((text.role(role), Style.of(role))) }
        if seat.moderator == true { tags.append((text.moderatorTag, .turn)) }
        if let seen = state.moderatorView, room.game == seen.game,
            let entry = seen.players.first(where: { $0.player == seat.id }),
            room.phase != .gameOver
        {
            // Only on the moderator's own screen: each player's role and word, as the game dealt them.
            tags.append((text.role(entry.role) + (entry.word.map { " " + $0 } ?? ""), Style.of(entry.role)))
        }
        if room.phase == .voting && seat.voted { tags.append(("✓" + text.voted, .civilian)) }
        if room.phase == .voting, let seen = state.moderatorView,
            let target = seen.ballots.first(where: { $0.voters.contains(seat.id) })?.player,
            let targetSeat = room.seats.first(where: { $0.id == target })
        {
            tags.append(("→\(targetSeat.seat)", .turn))
        }
        if room.phase == .voting && state.ballot == seat.id { tags.append(("◀", .turn)) }
        if room.phase == .lobby || room.phase == .gameOver, room.game > 0 || seat.score > 0 {
            tags.append((text.points(seat.score), .dim))
        }
        let tagsWidth = tags.reduce(0) { $0 + 1 + DisplayWidth.of($1.0) }
        // Names line up at 16 columns when there is room; a narrow cell shortens the name before the tags.
        let nameWidth = min(16, max(2, width - 5 - tagsWidth))
        line.append(DisplayWidth.pad(seat.name, toColumns: nameWidth), isCursor ? .selected : base)
        for (tag, style) in tags {
            line.append(" ")
            line.append(tag, style)
        }
        // A wide cell also shows what the player said this round, so the table reads like the round so far.
        if width >= 90, room.phase == .describing || room.phase == .voting,
            let clue = room.clues.last(where: { $0.player == seat.id && $0.round == room.round })?.text
        {
            let used = line.width
            let column = max(used + 2, 44)
            line.append(DisplayWidth.spaces(column - used))
            line.append(text.quoted(clue))
        }
        return line.fitted(to: width)
    }

    private static func wordPanel(_ state: ClientState, text: Strings, now: Millis) -> [StyledLine] {
        var first = StyledLine(" ")
        var second = StyledLine(" ")
        guard let room = state.room else {
            return [first, second]
        }
        if room.phase == .gameOver, let over = state.gameOver {
            first.append(text.winner(over.winner), .bold)
            let words = text.words(civilian: over.civilianWord, spy: over.spyWord).components(separatedBy: "  ")
            for part in words { first.append("  " + part) }
        } else if state.isModerator, room.phase != .lobby, let seen = state.moderatorView, seen.game == room.game,
            let civilian = seen.civilianWord, let spy = seen.spyWord
        {
            // The moderator's panel: the pair, which nobody else's screen shows.
            first.append(text.moderatorTag + " ", .turn)
            first.append(text.words(civilian: civilian, spy: spy), .word)
            if room.paused == true { first.append("  " + text.pausedTag, .error) }
        } else if let dealt = state.dealt, room.phase != .lobby {
            if state.wordShown(at: now) {
                first.append(" " + (dealt.word.map(text.yourWord) ?? text.youAreBlank) + " ", .word)
                first.append(" " + text.pressAnyKeyToHide, .dim)
            } else {
                first.append(text.pressFToSee, .dim)
            }
        } else if state.isOwner {
            // The owner's lobby panel is the settings, each with the key that changes it.
            let keyed = text.keyedSettings(room.settings)
            return [settingsLine(keyed.first), settingsLine(keyed.second)]
        } else {
            first.append(text.waitingForStart)
        }
        switch room.phase {
        case .lobby, .gameOver:
            if state.isOwner {
                // At game over the owner may change settings before playing again: both lines of them.
                let keyed = text.keyedSettings(room.settings)
                return [first, settingsLine(keyed.first, .dim), settingsLine(keyed.second, .dim)]
            } else {
                return [first, settingsLine(text.settingsLine(room.settings), .dim)]
            }
        case .describing:
            if state.isMyTurn {
                second.append(room.settings.clueMode == .spoken ? text.yourTurnSpoken : text.yourTurnTyped, .turn)
            } else {
                second.append(text.turnOf(state.name(room.turn)))
                if state.mySeat?.alive == false { second.append(" · " + text.youAreOut, .dim) }
            }
        case .voting:
            if !state.canVote {
                second.append(state.mySeat?.alive == false ? text.youAreOut : text.waitVote, .dim)
            } else if let ballot = state.ballot {
                second.append(text.ballot(state.name(ballot)))
            } else {
                second.append(text.pickVote, .turn)
            }
        case .guessing:
            if state.guessing?.player == state.me {
                second.append(text.yourGuess, .turn)
            } else {
                second.append(text.guessOf(state.name(state.guessing?.player)))
            }
        }
        return [first, second]
    }

    /// A " · "-separated list as one line whose items wrap whole.
    private static func settingsLine(_ joined: String, _ style: Style = .plain) -> StyledLine {
        var line = StyledLine(" ")
        for (index, item) in joined.components(separatedBy: " · ").enumerated() {
            line.append(index == 0 ? item : " · " + item, style)
        }
        return line
    }

    /// How a log event is coloured; nil for events the log does not show (turns, the own word, local hints).
    private static func logStyle(_ event: LogEvent) -> Style? {
        switch event {
        case .turn, .ownWord, .hint, .voted: return nil
        case .problem, .bye: return .error
        case .link(let status): return status == .connected ? .civilian : .error
        case .votedOut(_, let identity?): return Style.of(identity)
        case .reveal(_, let role, _): return Style.of(role)
        case .gameOver: return .bold
        case .pk, .votingOpened: return .turn
        default: return .plain
        }
    }

    private static func log(_ state: ClientState, columns: Int, rows: Int, text: Strings) -> [StyledLine] {
        guard rows > 0 else { return [] }
        var lines: [StyledLine] = []
        for event in state.log.reversed() {
            guard let style = logStyle(event) else { continue }
            let wrapped = wrap(text.event(event), columns: columns - 2)
            for line in wrapped.reversed() { lines.append(StyledLine(" " + line, style)) }
            if lines.count >= rows { break }
        }
        return Array(lines.prefix(rows).reversed())
    }

    // MARK: Details and the too-small screen

    /// Rows of the details page that scroll (all but the header and the help line).
    static func detailsRows(_ rows: Int) -> Int { max(1, rows - 2) }

    /// Every seat with all its tags, the settings, and the whole log: what a small screen cannot show at once.
    static func detailsLines(_ state: ClientState, columns: Int) -> [StyledLine] {
        let text = Strings(language: state.language)
        var lines: [StyledLine] = []
        if let room = state.room {
            for seat in room.seats {
                lines += cell(seat, state: state, room: room, width: 500, text: text).trimmed().wrapped(to: columns)
            }
            lines += settingsLine(text.settingsLine(room.settings), .dim).wrapped(to: columns)
            if let count = room.wordCount {
                lines += StyledLine(" " + text.ourWordsCount(count), .dim).wrapped(to: columns)
            }
        }
        if let over = state.gameOver {
            var result = StyledLine(" " + text.winner(over.winner), .bold)
            for part in text.words(civilian: over.civilianWord, spy: over.spyWord).components(separatedBy: "  ") {
                result.append("  " + part)
            }
            lines += result.wrapped(to: columns)
        }
        if !state.history.isEmpty {
            lines.append(rule(columns))
            for line in text.historyLines(state.history) { lines += StyledLine(line).wrapped(to: columns) }
        }
        lines.append(rule(columns))
        for event in state.log {
            guard let style = logStyle(event) else { continue }
            lines += wrap(text.event(event), columns: columns - 2).map { StyledLine(" " + $0, style) }
        }
        return lines
    }

    static func detailsLineCount(_ state: ClientState, columns: Int) -> Int {
        detailsLines(state, columns: columns).count
    }

    private static func details(
        _ state: ClientState, offset: Int, columns: Int, rows: Int, text: Strings, color: Bool, now: Millis
    ) -> ScreenFrame {
        let all = detailsLines(state, columns: columns)
        let visible = detailsRows(rows)
        let start = max(0, min(offset, all.count - visible))
        var body = Array(all.dropFirst(start).prefix(visible))
        body += Array(repeating: StyledLine(), count: visible - body.count)
        let more = start + visible < all.count ? " ↓" : ""
        let lines =
            [header(state, columns: columns, text: text, now: now)] + body
            + [
                StyledLine(
                    " " + text.helpDetails + (state.history.isEmpty ? "" : "  " + text.exportKey)
                        + (start > 0 ? " ↑" : "") + more, .dim)
            ]
        return ScreenFrame(lines: lines.map { $0.fitted(to: columns).rendered(color: color) }, cursor: nil)
    }

    private static func tooSmall(columns: Int, rows: Int, language: Language, color: Bool) -> ScreenFrame {
        // Said in the player's language, then in the other script's Chinese or in English, for whoever reads it.
        let other: Language = language == .en ? .zhTW : .en
        let text = Strings(language: language)
        let message = [language, other].flatMap {
            wrapWords(text.tooSmall(columns: columns, rows: rows, language: $0), columns: max(1, columns - 1))
        }
        let shown = Array(message.prefix(rows))
        let above = (rows - shown.count) / 2
        var lines = Array(repeating: StyledLine(), count: above)
        lines += shown.map { StyledLine(" " + $0, .error) }
        lines += Array(repeating: StyledLine(), count: rows - lines.count)
        return ScreenFrame(lines: lines.map { $0.fitted(to: columns).rendered(color: color) }, cursor: nil)
    }

    /// Breaks text into lines at spaces where it can, cutting only a word longer than a line.
    static func wrapWords(_ text: String, columns: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ").map(String.init) {
            let joined = current.isEmpty ? word : current + " " + word
            if DisplayWidth.of(joined) <= columns {
                current = joined
                continue
            }
            if !current.isEmpty { lines.append(current) }
            let pieces = wrap(word, columns: columns)
            lines += pieces.dropLast()
            current = pieces.last ?? ""
        }
        if !current.isEmpty || lines.isEmpty { lines.append(current) }
        return lines
    }

    /// Breaks text into lines of at most `columns` columns, never inside a wide character.
    static func wrap(_ text: String, columns: Int) -> [String] {
        guard columns > 0 else { return [] }
        var lines: [String] = []
        var current = ""
        var used = 0
        for character in text {
            let width = DisplayWidth.of(String(character))
            if used + width > columns {
                lines.append(current)
                current = ""
                used = 0
                if character == " " { continue }
            }
            current.append(character)
            used += width
        }
        if !current.isEmpty || lines.isEmpty { lines.append(current) }
        return lines
    }

    private static func prompt(_ state: ClientState, columns: Int, text: Strings) -> (StyledLine, Int?) {
        func editorLine(_ label: String, _ editor: LineEditor) -> (StyledLine, Int?) {
            let labelText = " " + label
            let window = editor.window(columns: columns - DisplayWidth.of(labelText) - 1)
            var line = StyledLine(labelText, .bold)
            line.append(window.text)
            return (line, DisplayWidth.of(labelText) + window.cursorColumn)
        }
        switch state.prompt {
        case .clue(let editor):
            var (line, cursor) = editorLine(text.clueLabel, editor)
            if let notice = state.notice {
                line.append("  " + text.event(notice), .error)
            }
            return (line, cursor)
        case .guess(let editor): return editorLine(text.guessLabel, editor)
        case .kick(let editor): return editorLine(text.kickLabel, editor)
        case .pair(let editor): return editorLine(text.pairLabel, editor)
        case .confirmVote(let target): return (StyledLine(" " + text.confirmVote(state.name(target)), .turn), nil)
        case .confirmLeave: return (StyledLine(" " + text.confirmLeave, .turn), nil)
        case .categories: return (StyledLine(), nil)
        case .none:
            if let question = state.claimQuestion {
                return (
                    StyledLine(" " + text.claimQuestion(seat: state.name(question.player), name: question.name), .turn),
                    nil
                )
            }
            if let notice = state.notice { return (StyledLine(" " + text.event(notice), .error), nil) }
            if state.link != .connected { return (StyledLine(" " + text.link(state.link), .error), nil) }
            return (StyledLine(), nil)
        }
    }

    private static func help(_ state: ClientState, text: Strings) -> String {
        switch state.prompt {
        case .clue, .guess, .kick, .pair: return text.helpEditing
        case .confirmVote, .confirmLeave: return text.helpConfirm
        case .categories: return text.pickerHelp
        case .none:
            if state.claimQuestion != nil || state.moderatorAsked { return text.helpClaim }
        }
        if state.isModerator, let room = state.room {
            return text.moderatorHelp(room.phase, paused: room.paused == true)
        }
        guard let room = state.room else { return text.helpLobby }
        switch room.phase {
        case .lobby: return state.isOwner ? text.helpLobbyOwner : text.helpLobby
        case .gameOver: return state.isOwner ? text.helpGameOverOwner : text.helpLobby
        case .describing:
            guard state.isMyTurn else { return text.helpWatching }
            return room.settings.clueMode == .spoken ? text.helpTurnSpoken : text.helpTurnTyped
        case .voting:
            let help = state.canVote ? text.helpVoting : text.helpWatching
            return state.mayGuessWhileVoting ? text.guessKey + "  " + help : help
        case .guessing: return state.guessing?.player == state.me ? text.helpGuess : text.helpWatching
        }
    }
}
