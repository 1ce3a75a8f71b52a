import Glibc
import SpyProtocol

/// The controlling terminal: raw mode, the alternate screen and the window size. Everything it changes is put back
/// by `restore()`, which the session calls on every way out.
final class Terminal {
    private var original = termios()
    private(set) var isRaw = false

    /// Whether both standard input and standard output are terminals.
    static var isInteractive: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 }

    /// Columns and rows of the terminal, or 80×24 when the size cannot be read.
    static func size() -> (columns: Int, rows: Int) {
        var window = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 else {
            return (80, 24)
        }
        return (Int(window.ws_col), Int(window.ws_row))
    }

    /// Raw input (no echo, no line buffering, Ctrl-C as a key), the alternate screen, cursor hidden.
    func enterRawMode() {
        guard !isRaw, tcgetattr(STDIN_FILENO, &original) == 0 else { return }
        var raw = original
        raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
        raw.c_cflag |= tcflag_t(CS8)
        withUnsafeMutableBytes(of: &raw.c_cc) { bytes in
            bytes[Int(VMIN)] = 1
            bytes[Int(VTIME)] = 0
        }
        guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) == 0 else { return }
        isRaw = true
        // Autowrap off: should a terminal draw an ambiguous-width symbol two columns wide, the line is clipped at the
        // right edge instead of wrapping and scrolling the whole screen.
        Output.write("\u{1B}[?1049h\u{1B}[?7l\u{1B}[?25l\u{1B}[H\u{1B}[2J")
    }

    /// Puts the terminal back as it was. Safe to call more than once.
    func restore() {
        guard isRaw else { return }
        isRaw = false
        Output.write("\u{1B}[0m\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l")
        _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
    }

    /// Draws a frame over the previous one.
    func draw(_ frame: ScreenFrame) {
        var output = "\u{1B}[?25l\u{1B}[H"
        output += frame.lines.joined(separator: "\r\n")
        if let cursor = frame.cursor {
            output += "\u{1B}[\(cursor.row + 1);\(cursor.column + 1)H\u{1B}[?25h"
        }
        Output.write(output)
    }
}

/// Blocking writes to standard output and standard error that survive partial writes and EINTR.
enum Output {
    static func write(_ text: String, to descriptor: Int32 = STDOUT_FILENO) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN {
                    var descriptorPoll = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&descriptorPoll, 1, 1000)
                    continue
                }
                return
            }
            offset += written
        }
        bytes.removeAll()
    }

    static func line(_ text: String) { write(TerminalText.printable(text, keepingLayout: true) + "\n") }

    static func error(_ text: String) {
        write(TerminalText.printable(text, keepingLayout: true) + "\n", to: STDERR_FILENO)
    }
}

/// Text as it may reach the terminal. Every control character (C0, DEL, C1) becomes U+FFFD, so a name or a clue
/// from the host cannot move the cursor, clear the screen, retitle the window or forge a line. The client's own
/// escape sequences are written apart from text (`Terminal`, `StyledLine.rendered`).
enum TerminalText {
    /// `keepingLayout` keeps line breaks and tabs, for the client's own text (usage, the tab-separated host list).
    static func printable(_ text: String, keepingLayout: Bool = false) -> String {
        // Most text has no control character at all, and this is every line of every redraw.
        guard ControlScan.mayHoldControls(text) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let control = scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
            let layout = scalar == "\n" || scalar == "\t"
            result.append(control && !(keepingLayout && layout) ? "\u{FFFD}" : scalar)
        }
        return String(result)
    }
}

/// Signals turned into bytes on a pipe, so the event loop wakes for them like for any other input.
enum SignalPipe {
    nonisolated(unsafe) private static var writeEnd: Int32 = -1
    nonisolated(unsafe) private(set) static var readEnd: Int32 = -1

    /// Routes SIGINT, SIGTERM, SIGHUP and SIGWINCH to the pipe; ignores SIGPIPE.
    static func install() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        readEnd = ends[0]
        writeEnd = ends[1]
        signal(SIGPIPE, SIG_IGN)
        // A launcher may hand down a mask that blocks these; the client must still hear them to restore the terminal.
        var handled = sigset_t()
        sigemptyset(&handled)
        for number in [SIGINT, SIGTERM, SIGHUP, SIGWINCH] { sigaddset(&handled, number) }
        sigprocmask(SIG_UNBLOCK, &handled, nil)
        for number in [SIGINT, SIGTERM, SIGHUP, SIGWINCH] {
            signal(number) { received in
                var byte = UInt8(truncatingIfNeeded: received)
                _ = Glibc.write(SignalPipe.writeEnd, &byte, 1)
            }
        }
    }

    /// The signals received since the last call.
    static func drain() -> [Int32] {
        var buffer = [UInt8](repeating: 0, count: 64)
        var received: [Int32] = []
        while true {
            let count = read(readEnd, &buffer, buffer.count)
            guard count > 0 else { break }
            received += buffer[0..<count].map { Int32($0) }
        }
        return received
    }
}
