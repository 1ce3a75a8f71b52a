import SpyNet

/// The terminal face of the daemon: a banner at start, then one status line rewritten in place.
///
/// Only used when standard output is a terminal; the status never names a word or a role.
final class StatusScreen {
    private var shown = ""
    private var lastDrawn: Int64 = 0
    /// Whether the status line is being kept up to date.
    private(set) var isActive = true

    /// Prints the banner lines.
    func banner(_ lines: [String]) {
        Log.writeStandardOutput(lines.joined(separator: "\n") + "\n\n")
    }

    /// Redraws the status line when it changed, at most four times a second.
    func refresh(summary: String) {
        guard isActive, summary != shown else { return }
        let now = SystemClock.monotonicMs()
        guard now - lastDrawn >= 250 else { return }
        lastDrawn = now
        shown = summary
        Log.writeStandardOutput("\r\u{1B}[2K" + summary)
    }

    /// Ends the status line so the shell prompt starts on a fresh line.
    func finish() {
        guard isActive else { return }
        isActive = false
        Log.writeStandardOutput("\n")
    }
}

@available(*, unavailable)
extension StatusScreen: Sendable {}
