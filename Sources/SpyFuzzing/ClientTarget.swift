import SpyClient
import SpyProtocol

#if canImport(Glibc)
    import Glibc
#endif

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
        var client = HeadlessClient(columns: columns, rows: rows, languageIndex: Int(input.byte()))
        var steps = 0
        // Most steps change few rows; a row byte for byte as it was on the previous screen was checked then.
        var checkedScreen: [String] = []
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
            for (row, line) in screen.enumerated()
            where row >= checkedScreen.count || !sameBytes(line, checkedScreen[row]) {
                require(DisplayWidth.of(line) <= columns, "a line of \(DisplayWidth.of(line)) columns on \(columns)")
                requireClean(line, "a screen line")
            }
            checkedScreen = screen
        }
    }

    /// Byte equality, not `==`: a canonically equivalent line may measure differently.
    private static func sameBytes(_ line: String, _ other: String) -> Bool {
        guard line.utf8.count == other.utf8.count else { return false }
        #if canImport(Glibc)
            let same = line.utf8.withContiguousStorageIfAvailable { lineBytes in
                other.utf8.withContiguousStorageIfAvailable { otherBytes in
                    guard let lineStart = lineBytes.baseAddress, let otherStart = otherBytes.baseAddress else {
                        return true  // both empty: the counts are equal
                    }
                    return memcmp(lineStart, otherStart, lineBytes.count) == 0
                }
            }
            if case let same?? = same { return same }
        #endif
        return Array(line.utf8) == Array(other.utf8)
    }

    /// No C0 or C1 control character, no DEL: a host's text must not move the cursor or recolour the terminal.
    private static func requireClean(_ line: String, _ what: String) {
        // The exact look below runs only where the fast one is unsure; the suite checks the fast one never misses.
        guard ControlScan.mayHoldControls(line) else { return }
        let control = line.unicodeScalars.first { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
        require(control == nil, "\(what) carries U+\(String(control?.value ?? 0, radix: 16, uppercase: true))")
    }
}
