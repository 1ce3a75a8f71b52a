@preconcurrency import Glibc
import SpyProtocol

/// Levelled one-line logger writing to standard error.
///
/// This is the one file that touches the C `stderr` stream, which Swift 6 only allows under a preconcurrency
/// import; everything else logs through here.
public struct Log: Sendable {
    /// How important a line is. Lines below the logger's level are dropped.
    public typealias Level = LogLevel

    /// Lowest level written.
    public var level: Level
    /// Word put after the level in each line, such as the program name.
    public var label: String
    /// Takes each line (with its newline) instead of standard error, when set: for a program run inside another
    /// one's process, whose lines that process reads.
    public var sink: (@Sendable (String) -> Void)?

    public init(level: Level = .info, label: String = "", sink: (@Sendable (String) -> Void)? = nil) {
        self.level = level
        self.label = label
        self.sink = sink
    }

    /// Whether a line at `level` would be written (lets callers skip building expensive messages).
    public func enabled(_ level: Level) -> Bool { level >= self.level }

    public func debug(_ message: @autoclosure () -> String) { write(.debug, message()) }
    public func info(_ message: @autoclosure () -> String) { write(.info, message()) }
    public func warning(_ message: @autoclosure () -> String) { write(.warning, message()) }
    public func error(_ message: @autoclosure () -> String) { write(.error, message()) }

    /// Writes a line at `level`, if the log's level lets it through; the message is built only then.
    public func write(_ level: Level, _ message: @autoclosure () -> String) {
        guard enabled(level) else { return }
        var bytes = lineBytes(level, message())
        bytes.append(0x0A)
        if let sink { sink(String(decoding: bytes, as: UTF8.self)) } else { Log.writeStandardError(bytes) }
    }

    /// One log line as `write` would print it, without the newline, for output that must pass through another
    /// writer (the bank's loading spinner keeps its line below the log).
    public func line(_ level: Level, _ message: String) -> String {
        String(decoding: lineBytes(level, message), as: UTF8.self)
    }

    /// The line in UTF-8, built from bytes: the host logs a line for each settings change, and walking the message
    /// as `Character`s and the time through string interpolation took about 33,000 instructions a line, against
    /// about 5,000 this way (callgrind).
    private func lineBytes(_ level: Level, _ message: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(34 + label.utf8.count + message.utf8.count)
        Log.appendTimestamp(to: &bytes)
        bytes.append(0x20)
        bytes.append(contentsOf: level.tag.utf8)
        bytes.append(0x20)
        if !label.isEmpty {
            bytes.append(contentsOf: label.utf8)
            bytes.append(contentsOf: ": ".utf8)
        }
        // Each line break becomes a space, so that a message is one line whatever it quotes. Both are ASCII and
        // never part of another character's UTF-8, so the bytes stay valid UTF-8; a "\r\n" is two spaces.
        for byte in message.utf8 {
            bytes.append(byte == 0x0A || byte == 0x0D ? 0x20 : byte)
        }
        return bytes
    }

    /// Writes `text` as is to standard error (banners, usage errors).
    public static func writeStandardError(_ text: String) {
        fputs(text, stderr)
    }

    /// Writes UTF-8 `bytes` as they are to standard error (log lines, built as bytes).
    static func writeStandardError(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { _ = fwrite($0.baseAddress, 1, $0.count, stderr) }
    }

    /// Writes `text` as is to standard output and flushes it.
    public static func writeStandardOutput(_ text: String) {
        fputs(text, stdout)
        fflush(stdout)
    }

    /// UTC time with milliseconds, ISO 8601: `2026-12-03T08:44:30.843Z`.
    static func appendTimestamp(to bytes: inout [UInt8]) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var seconds = now.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func digits(_ value: Int, _ count: Int) {
            var divisor = 1
            for _ in 1..<count { divisor *= 10 }
            while divisor > 0 {
                bytes.append(UInt8(truncatingIfNeeded: 0x30 + value / divisor % 10))
                divisor /= 10
            }
        }
        digits(Int(parts.tm_year) + 1900, 4)
        bytes.append(UInt8(ascii: "-"))
        digits(Int(parts.tm_mon) + 1, 2)
        bytes.append(UInt8(ascii: "-"))
        digits(Int(parts.tm_mday), 2)
        bytes.append(UInt8(ascii: "T"))
        digits(Int(parts.tm_hour), 2)
        bytes.append(UInt8(ascii: ":"))
        digits(Int(parts.tm_min), 2)
        bytes.append(UInt8(ascii: ":"))
        digits(Int(parts.tm_sec), 2)
        bytes.append(UInt8(ascii: "."))
        digits(Int(now.tv_nsec) / 1_000_000, 3)
        bytes.append(UInt8(ascii: "Z"))
    }
}

extension LogLevel {
    /// The level's name as each line prints it.
    var tag: String {
        switch self {
        case .debug: return "DEBUG"
        case .info: return "INFO"
        case .warning: return "WARNING"
        case .error: return "ERROR"
        }
    }
}
