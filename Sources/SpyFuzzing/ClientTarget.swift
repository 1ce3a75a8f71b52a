import SpyClient
import SpyProtocol

/// What a host sends the terminal client, with the player's keys and commands between: whatever arrives, the
/// client neither traps nor draws outside its terminal, and no control character reaches the terminal.
///
/// The input is a terminal size and a language, then steps: a payload from the host, key bytes, a line-mode
/// command, the clock moving (seconds, or hours of a sleeping laptop), the link changing, the word recalled.
enum ClientTarget {
    static func run(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        let columns = Int(input.byte()) + 1
        let rows = Int(input.byte() % 48) + 1
        var client = HeadlessClient(columns: columns, rows: rows, english: input.byte() & 1 == 1)
        var steps = 0
        while !input.isExhausted, steps < 300 {
            steps += 1
            switch input.byte() % 8 {
            case 0, 1, 2: client.receive(input.take(Int(input.byte()) << 8 | Int(input.byte())))
            case 3: client.press(input.take(Int(input.byte() % 8)))
            case 4: client.command(input.text(maxBytes: 63))
            case 5: client.wait(milliseconds: Int64(input.byte()) * (input.byte() & 1 == 0 ? 1_000 : 3_600_000))
            case 6: client.link(Int(input.byte()), attempt: Int(input.byte()))
            default: client.recallWord()
            }
            for line in client.newLines() { requireClean(line, "a line-mode line") }
            let screen = client.screen()
            require(screen.count == rows, "\(screen.count) lines drawn on \(rows) rows")
            for line in screen {
                require(DisplayWidth.of(line) <= columns, "a line of \(DisplayWidth.of(line)) columns on \(columns)")
                requireClean(line, "a screen line")
            }
        }
    }

    /// No C0 or C1 control character, no DEL: a host's text must not move the cursor or recolour the terminal.
    private static func requireClean(_ line: String, _ what: String) {
        // The exact look below runs only where the fast one is unsure; the suite checks the fast one never misses.
        guard ControlScan.mayHoldControls(line) else { return }
        let control = line.unicodeScalars.first { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
        require(control == nil, "\(what) carries U+\(String(control?.value ?? 0, radix: 16, uppercase: true))")
    }
}
