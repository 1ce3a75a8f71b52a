import SpyProtocol

/// The body of the `client` fuzz target: whatever a host sends, and whatever the player types meanwhile, the client
/// neither traps nor draws outside its terminal, and nothing a host sends reaches the terminal as a control
/// character. It lives here rather than in SpyFuzzing because the client's state and screen are internal to this
/// module.
///
/// The input is a terminal size and a language, then steps: a message from the host (decoded as `HostLink` decodes
/// it), a key press, a line-mode command, the clock moving, the link dropping or coming back.
public enum HostInputCheck {
    public static func run(_ bytes: [UInt8]) {
        var input = Bytes(bytes)
        let columns = Int(input.byte()) + 1
        let rows = Int(input.byte() % 48) + 1
        let language: Language = input.byte() & 1 == 0 ? .zh : .en
        var state = ClientState(language: language)
        state.viewport = TerminalSize(columns: columns, rows: rows)
        var keys = KeyDecoder()
        var now: Millis = 1_000_000
        var printed = state.recorded
        var steps = 0
        while !input.isExhausted, steps < 300 {
            steps += 1
            var lines: [String] = []
            switch input.byte() % 8 {
            case 0, 1, 2:
                let length = Int(input.byte()) << 8 | Int(input.byte())
                if let message = HostMessages.decode(input.take(length)) {
                    state.apply(message, now: now)
                }
            case 3:
                for key in keys.feed(input.take(Int(input.byte() % 8))) { _ = state.handle(key, now: now) }
            case 4:
                let line = String(decoding: input.take(Int(input.byte() % 64)), as: UTF8.self)
                if case .success(let command) = PlainMode.parse(line) { lines += state.perform(command, now: now).1 }
            case 5:
                // Seconds, or a long sleep of the laptop.
                now += Millis(input.byte()) * (input.byte() & 1 == 0 ? 1_000 : 3_600_000)
                state.tick(now: now)
            case 6:
                let links: [LinkStatus] = [.connecting, .connected, .reconnecting(attempt: Int(input.byte())), .closed]
                state.linkChanged(links[Int(input.byte() % 4)])
            default:
                state.recallWord(now: now)
            }
            _ = state.nextWake(after: now)
            let fresh = min(state.recorded - printed, state.log.count)
            lines += PlainMode.lines(for: state.log.suffix(fresh), state: state) + PlainMode.seatLines(state)
            printed = state.recorded
            for line in lines { requireClean(line, "a line-mode line") }
            let frame = Screen.render(state, columns: columns, rows: rows, language: language, color: false, now: now)
            require(frame.lines.count == rows, "\(frame.lines.count) lines drawn on \(rows) rows")
            for line in frame.lines {
                require(DisplayWidth.of(line) <= columns, "a line of \(DisplayWidth.of(line)) columns on \(columns)")
                requireClean(line, "a screen line")
            }
        }
    }

    /// No C0 or C1 control character, no DEL: a host's text must not move the cursor or recolour the terminal.
    private static func requireClean(_ line: String, _ what: String) {
        let control = line.unicodeScalars.first { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
        require(control == nil, "\(what) carries U+\(String(control?.value ?? 0, radix: 16, uppercase: true))")
    }

    private static func require(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fatalError("fuzz invariant: \(message())") }
    }

    /// A cursor over the input that yields zeros past its end.
    private struct Bytes {
        private let bytes: [UInt8]
        private var index = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var isExhausted: Bool { index >= bytes.count }

        mutating func byte() -> UInt8 {
            guard index < bytes.count else { return 0 }
            defer { index += 1 }
            return bytes[index]
        }

        mutating func take(_ count: Int) -> [UInt8] {
            let end = min(bytes.count, index + count)
            defer { index = max(index, end) }
            return index < end ? Array(bytes[index..<end]) : []
        }
    }
}
