/// How important a log line is; a log drops the lines below its level. The one level of every log in the package:
/// the shell's `Log` and the lines the host's core hands it.
public enum LogLevel: Int, Sendable, Comparable, CaseIterable {
    /// Detail useful only while investigating a problem.
    case debug
    /// Normal events: connections, joins, games.
    case info
    /// Something unexpected that the program recovered from.
    case warning
    /// Something failed.
    case error

    /// The level's name as given on the command line.
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

    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}
