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

/// A line of styled pieces.
struct StyledLine: Sendable, Equatable {
    var pieces: [(text: String, style: Style)] = []

    init(_ text: String = "", _ style: Style = .plain) {
        if !text.isEmpty { pieces = [(text, style)] }
    }

    static func == (lhs: StyledLine, rhs: StyledLine) -> Bool {
        lhs.pieces.map(\.text) == rhs.pieces.map(\.text) && lhs.pieces.map(\.style) == rhs.pieces.map(\.style)
    }

    mutating func append(_ text: String, _ style: Style = .plain) {
        if !text.isEmpty { pieces.append((text, style)) }
    }

    var width: Int { pieces.reduce(0) { $0 + DisplayWidth.of($1.text) } }

    /// Exactly `columns` columns: cut (never inside a wide character) or padded with spaces in `fill` style.
    func fitted(to columns: Int, fill: Style = .plain) -> StyledLine {
        var result = StyledLine()
        var used = 0
        for piece in pieces where used < columns {
            let cut = DisplayWidth.truncate(piece.text, toColumns: columns - used)
            result.append(cut, piece.style)
            used += DisplayWidth.of(cut)
        }
        if used < columns { result.append(String(repeating: " ", count: columns - used), fill) }
        return result
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
    /// Smallest size the layout is designed for; smaller terminals get a cut-down version of the same.
    static let minimumColumns = 60
    static let minimumRows = 16

    static func render(
        _ state: ClientState, columns: Int, rows: Int, language: Language, color: Bool, now: Millis
    ) -> ScreenFrame {
        if case .categories(let picker) = state.prompt {
            return CategoryPickerView.render(
                picker, categories: state.bankCategories, columns: columns, rows: rows, language: language,
                color: color)
        }
        let columns = max(columns, 20)
        let rows = max(rows, 6)
        let text = Strings(language: language)
        // Order: header, (space), table, rule, log, rule, word panel (2 lines), prompt, help.
        let roomy = rows >= 24
        var top: [StyledLine] = [header(state, columns: columns, text: text, now: now)]
        if roomy { top.append(StyledLine()) }
        let (promptLine, cursorColumn) = prompt(state, columns: columns, text: text)
        let bottom =
            [rule(columns)] + wordPanel(state, text: text, now: now)
            + [promptLine, StyledLine(" " + help(state, text: text), .dim)]
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
        // The title gives way first on a narrow terminal; the connection state on the right always shows.
        var left = columns >= 80 ? [text.title] : []
        if let room = state.room {
            left.append(text.room(room.room))
            if room.game > 0 { left.append(text.game(room.game)) }
            if room.round > 0 && room.phase != .lobby && room.phase != .gameOver { left.append(text.round(room.round)) }
            left.append(text.phase(room.phase, pk: !room.pk.isEmpty))
        }
        var right: [String] = []
        if let ends = state.timerEnds, ends > now {
            right.append("⌛ " + text.seconds(Int((ends - now + 999) / 1000)))
        }
        right.append(text.link(state.link))
        let rightText = right.joined(separator: " · ") + " "
        let leftRoom = max(0, columns - DisplayWidth.of(rightText) - 1)
        let leftText = DisplayWidth.truncate(" " + left.joined(separator: " · "), toColumns: leftRoom)
        var line = StyledLine(leftText, .header)
        line.append(
            String(repeating: " ", count: max(0, columns - DisplayWidth.of(leftText) - DisplayWidth.of(rightText))),
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
        var lines: [StyledLine] = []
        for row in 0..<min(perColumn, maxRows) {
            var line = StyledLine()
            for column in 0..<columnCount {
                let index = column * perColumn + row
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
        if !seat.alive && room.phase != .lobby { tags.append((text.out, .out)) }
        if let role = seat.revealed { tags.append((text.role(role), Style.of(role))) }
        if room.phase == .voting && seat.voted { tags.append(("✓" + text.voted, .civilian)) }
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
            line.append(String(repeating: " ", count: column - used))
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
            first.append("  ")
            first.append(text.words(civilian: over.civilianWord, spy: over.spyWord))
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
            first.append(keyed.first)
            second.append(keyed.second)
            return [first, second]
        } else {
            first.append(text.waitingForStart)
        }
        switch room.phase {
        case .lobby, .gameOver:
            if state.isOwner {
                // At game over the owner may change settings before playing again: both lines of them.
                let keyed = text.keyedSettings(room.settings)
                second.append(keyed.first, .dim)
                if room.phase == .gameOver { return [first, second, StyledLine(" " + keyed.second, .dim)] }
                second.append(" · " + keyed.second, .dim)
            } else {
                second.append(text.settingsLine(room.settings), .dim)
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

    private static func log(_ state: ClientState, columns: Int, rows: Int, text: Strings) -> [StyledLine] {
        guard rows > 0 else { return [] }
        var lines: [StyledLine] = []
        for event in state.log.reversed() {
            let style: Style
            switch event {
            case .turn, .ownWord, .hint: continue
            case .problem, .bye: style = .error
            case .link(let status): style = status == .connected ? .civilian : .error
            case .votedOut(_, let identity?): style = Style.of(identity)
            case .reveal(_, let role, _): style = Style.of(role)
            case .gameOver: style = .bold
            case .pk, .votingOpened: style = .turn
            default: style = .plain
            }
            let wrapped = wrap(text.event(event), columns: columns - 2)
            for line in wrapped.reversed() { lines.append(StyledLine(" " + line, style)) }
            if lines.count >= rows { break }
        }
        return Array(lines.prefix(rows).reversed())
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
        case .confirmVote(let target): return (StyledLine(" " + text.confirmVote(state.name(target)), .turn), nil)
        case .confirmLeave: return (StyledLine(" " + text.confirmLeave, .turn), nil)
        case .categories: return (StyledLine(), nil)
        case .none:
            if let notice = state.notice { return (StyledLine(" " + text.event(notice), .error), nil) }
            if state.link != .connected { return (StyledLine(" " + text.link(state.link), .error), nil) }
            return (StyledLine(), nil)
        }
    }

    private static func help(_ state: ClientState, text: Strings) -> String {
        switch state.prompt {
        case .clue, .guess, .kick: return text.helpEditing
        case .confirmVote, .confirmLeave: return text.helpConfirm
        case .categories: return text.pickerHelp
        case .none: break
        }
        guard let room = state.room else { return text.helpLobby }
        switch room.phase {
        case .lobby: return state.isOwner ? text.helpLobbyOwner : text.helpLobby
        case .gameOver: return state.isOwner ? text.helpGameOverOwner : text.helpLobby
        case .describing:
            guard state.isMyTurn else { return text.helpWatching }
            return room.settings.clueMode == .spoken ? text.helpTurnSpoken : text.helpTurnTyped
        case .voting: return state.canVote ? text.helpVoting : text.helpWatching
        case .guessing: return state.guessing?.player == state.me ? text.helpGuess : text.helpWatching
        }
    }
}
