import SpyProtocol

/// How the player sees and drives the game: the full screen or plain lines.
protocol PlayerInterface: AnyObject {
    /// The seat is taken: take over the terminal if needed.
    func begin()
    /// Bytes the player typed, turned into reactions.
    func input(_ bytes: [UInt8], state: inout ClientState, now: Millis) -> [Reaction]
    /// Shows the state (draws the screen or prints what is new).
    func show(_ state: ClientState, now: Millis)
    /// The terminal changed size.
    func resized()
    /// Gives the terminal back.
    func end()
}

/// The full-screen interface: raw keys in, a redrawn screen out.
final class FullScreenInterface: PlayerInterface {
    private let terminal = Terminal()
    private let color: Bool
    private var decoder = KeyDecoder()
    private var size = (columns: 80, rows: 24)
    private var lastFrame: ScreenFrame?
    private var started = false

    init(color: Bool) { self.color = color }

    func begin() {
        terminal.enterRawMode()
        size = Terminal.size()
        started = true
    }

    func input(_ bytes: [UInt8], state: inout ClientState, now: Millis) -> [Reaction] {
        state.viewport = TerminalSize(columns: size.columns, rows: size.rows)
        return decoder.feed(bytes).map { key in
            if key == .redraw { lastFrame = nil }
            return state.handle(key, now: now)
        }
    }

    func show(_ state: ClientState, now: Millis) {
        guard started else { return }
        let frame = Screen.render(
            state, columns: size.columns, rows: size.rows, language: state.language, color: color, now: now)
        guard frame != lastFrame else { return }
        lastFrame = frame
        terminal.draw(frame)
    }

    func resized() {
        size = Terminal.size()
        lastFrame = nil
        if started { Output.write("\u{1B}[2J") }
    }

    func end() {
        started = false
        terminal.restore()
    }
}

/// Line mode: typed commands in, one readable line per event out.
final class LineInterface: PlayerInterface {
    private var pending: [UInt8] = []
    private var printed = 0
    private var greeted = false

    func begin() {}

    func input(_ bytes: [UInt8], state: inout ClientState, now: Millis) -> [Reaction] {
        pending += bytes
        var reactions: [Reaction] = []
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            let line = String(decoding: pending[..<newline], as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            pending.removeFirst(newline + 1)
            switch PlainMode.parse(line) {
            case .success(let command):
                let (reaction, lines) = state.perform(command, now: now)
                lines.forEach { Output.line($0) }
                reactions.append(reaction)
            case .failure(let error):
                let text = Strings(language: state.language)
                switch error {
                case .unknown(let word): Output.line("! " + text.hint(.unknownCommand(word)))
                case .badArgument(let line): Output.line("! " + text.hint(.unknownCommand(line)))
                }
            }
        }
        return reactions
    }

    func show(_ state: ClientState, now: Millis) {
        if !greeted, state.me != nil, state.room != nil {
            greeted = true
            PlainMode.seatLines(state).forEach { Output.line($0) }
        }
        let fresh = min(state.recorded - printed, state.log.count)
        printed = state.recorded
        guard fresh > 0 else { return }
        PlainMode.lines(for: state.log.suffix(fresh), state: state).forEach { Output.line($0) }
    }

    func resized() {}
    func end() {}
}
