import SpyProtocol

/// The client without a terminal or a socket: what it makes of a host's payloads, the player's keys and commands
/// and the passing time, and the screen and line-mode lines it would show. The `client` fuzz target drives it
/// (Sources/SpyFuzzing); the shell (`Session`, the interfaces) does the same with a real socket and terminal.
public struct HeadlessClient {
    private var state: ClientState
    private var keys = KeyDecoder()
    private var now: Int64 = 1_000_000
    private var printed: Int
    private var pending: [String] = []
    public let columns: Int
    public let rows: Int

    /// `languageIndex` picks one of the client's languages (taken modulo their count).
    public init(columns: Int, rows: Int, languageIndex: Int) {
        let languages = Language.allCases
        state = ClientState(
            language: languages[((languageIndex % languages.count) + languages.count) % languages.count])
        state.viewport = TerminalSize(columns: columns, rows: rows)
        printed = state.recorded
        self.columns = columns
        self.rows = rows
    }

    /// One frame's payload from the host, taken as the link takes it (`HostMessages`).
    public mutating func receive(_ payload: [UInt8]) {
        if let message = HostMessages.decode(payload) { state.apply(message, now: now) }
    }

    /// Bytes from the keyboard, decoded into keys as a raw terminal sends them.
    public mutating func press(_ bytes: [UInt8]) {
        for key in keys.feed(bytes) { _ = state.handle(key, now: now) }
    }

    /// A line typed in line mode.
    public mutating func command(_ line: String) {
        if case .success(let command) = PlainMode.parse(line) { pending += state.perform(command, now: now).1 }
    }

    /// Time passing.
    public mutating func wait(milliseconds: Int64) {
        now += milliseconds
        state.tick(now: now)
    }

    /// The link to the host changing: connecting, connected, reconnecting (`attempt`), closed, by `index % 4`.
    public mutating func link(_ index: Int, attempt: Int) {
        let statuses: [LinkStatus] = [.connecting, .connected, .reconnecting(attempt: attempt), .closed]
        state.linkChanged(statuses[index % statuses.count])
    }

    /// The "forgot my word" key's local recall.
    public mutating func recallWord() {
        state.recallWord(now: now)
    }

    /// The full screen now, without colour.
    public func screen() -> [String] {
        // The shell asks when to wake next before every wait; a host's numbers reach that arithmetic too.
        _ = state.nextWake(after: now)
        return Screen.render(state, columns: columns, rows: rows, language: state.language, color: false, now: now)
            .lines
    }

    /// The line-mode lines since the last call: the log's new events, command answers, and the seats (`who`).
    public mutating func newLines() -> [String] {
        let fresh = min(state.recorded - printed, state.log.count)
        printed = state.recorded
        defer { pending = [] }
        return pending + PlainMode.lines(for: state.log.suffix(fresh), state: state) + PlainMode.seatLines(state)
    }
}
