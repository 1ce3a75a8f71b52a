@preconcurrency import Glibc

/// Levelled one-line logger writing to standard error.
///
/// This is the one file that touches the C `stderr` stream, which Swift 6 only allows under a preconcurrency
/// import; everything else logs through here.
public struct Log: Sendable {
    /// How important a line is. Lines below the logger's level are dropped.
    public enum Level: Int, Sendable, Comparable, CaseIterable {
        /// Detail useful only while investigating a problem.
        case debug
        /// Normal events: connections, joins, games.
        case info
        /// Something unexpected that the program recovered from.
        case warning
        /// Something failed.
        case error

        /// The level's name as given on the command line and printed in each line.
        public var name: String {
            switch self {
            case .debug: return "debug"
            case .info: return "info"
            case .warning: return "warning"
            case .error: return "error"
            }
        }

        /// The level named `name` (`debug`, `info`, `warning`/`warn`, `error`).
        public init?(name: String) {
            switch name.lowercased() {
            case "debug": self = .debug
            case "info": self = .info
            case "warning", "warn": self = .warning
            case "error": self = .error
            default: return nil
            }
        }

        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
    }

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

    public func debug(_ message: @autoclosure () -> String) { write(.debug, message) }
    public func info(_ message: @autoclosure () -> String) { write(.info, message) }
    public func warning(_ message: @autoclosure () -> String) { write(.warning, message) }
    public func error(_ message: @autoclosure () -> String) { write(.error, message) }

    private func write(_ level: Level, _ message: () -> String) {
        guard enabled(level) else { return }
        let text = line(level, message()) + "\n"
        if let sink { sink(text) } else { Log.writeStandardError(text) }
    }

    /// One log line as `write` would print it, without the newline, for output that must pass through another
    /// writer (the bank's loading spinner keeps its line below the log).
    public func line(_ level: Level, _ message: String) -> String {
        let text = message.map { $0 == "\n" || $0 == "\r" ? " " : $0 }
        let prefix = label.isEmpty ? "" : "\(label): "
        return "\(Log.timestamp()) \(level.name.uppercased()) \(prefix)\(String(text))"
    }

    /// Writes `text` as is to standard error (banners, usage errors).
    public static func writeStandardError(_ text: String) {
        fputs(text, stderr)
    }

    /// Writes `text` as is to standard output and flushes it.
    public static func writeStandardOutput(_ text: String) {
        fputs(text, stdout)
        fflush(stdout)
    }

    /// UTC time with milliseconds, ISO 8601.
    static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var seconds = now.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let millis = Int(now.tv_nsec / 1_000_000)
        let millisText = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):"
            + "\(two(parts.tm_min)):\(two(parts.tm_sec)).\(millisText)Z"
    }
}
