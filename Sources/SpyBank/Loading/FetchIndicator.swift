import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The loading indicator: on a terminal, a spinner line with the source and the bytes received, redrawn in
/// place; otherwise only plain log lines. All of the bank's terminal output goes through here.
public final class FetchIndicator: @unchecked Sendable {
    private static let frames: [String] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
    private static let sourceColumns = 48

    private let animated: Bool
    private let write: @Sendable (String) -> Void
    private let queue = DispatchQueue(label: "spyd.bank.indicator")
    // Touched only on `queue`. Transfers in progress, by source, in the order they started.
    private var transfers: [TransferStatus] = []
    private var done: Set<String> = []
    private var frame = 0
    private var timer: DispatchSourceTimer?
    private var finished = false

    /// `animated` draws the spinner (only sensible on a terminal); `write` receives raw output text.
    public init(animated: Bool, write: @escaping @Sendable (String) -> Void) {
        self.animated = animated
        self.write = write
    }

    /// An indicator on standard error, animated when standard error is a terminal and `TERM` is not "dumb".
    public static func standardError(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> FetchIndicator {
        let terminal = isatty(STDERR_FILENO) == 1 && environment["TERM"] != "dumb"
        return FetchIndicator(animated: terminal) { text in
            FileHandle.standardError.write(Data(text.utf8))
        }
    }

    /// Prints a log line, above the spinner when one is showing.
    @Sendable public func line(_ text: String) {
        queue.sync {
            // The next progress report of a transfer still running draws the spinner again, below the line.
            stopSpinner()
            write(text + "\n")
        }
    }

    /// Removes the spinner line before something else is written to the terminal (standard output).
    @Sendable public func clear() {
        queue.sync { stopSpinner() }
    }

    /// Updates the spinner with a transfer's progress; does nothing when not animated.
    @Sendable public func transfer(_ update: TransferStatus) {
        guard animated else { return }
        queue.async { [self] in
            // A late update from a transfer given up on must not bring the spinner back after `finish`.
            guard !finished, !done.contains(update.source) else { return }
            if update.finished {
                // A late progress report of this source must not bring it back.
                done.insert(update.source)
                transfers.removeAll { $0.source == update.source }
                if transfers.isEmpty { stopSpinner() }
                return
            }
            if let index = transfers.firstIndex(where: { $0.source == update.source }) {
                transfers[index] = update
            } else {
                transfers.append(update)
            }
            if timer == nil { startSpinner() }
        }
    }

    /// Removes the spinner line, if any, and ignores later transfer updates; call once the load is over.
    public func finish() {
        queue.sync {
            finished = true
            stopSpinner()
        }
    }

    private func startSpinner() {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now(), repeating: .milliseconds(100))
        timer.setEventHandler { [weak self] in self?.draw() }
        self.timer = timer
        timer.resume()
    }

    private func stopSpinner() {
        guard let timer else { return }
        timer.cancel()
        self.timer = nil
        write("\r\u{1B}[2K")
    }

    private func draw() {
        guard let status = transfers.first else { return }
        frame = (frame + 1) % Self.frames.count
        var source = status.source
        if source.count > Self.sourceColumns { source = "…" + source.suffix(Self.sourceColumns - 1) }
        var amount = ByteCountText.bytes(status.received)
        if let expected = status.expected { amount += " of \(ByteCountText.bytes(expected))" }
        let others = transfers.count > 1 ? "  (+\(transfers.count - 1) more)" : ""
        write("\r\u{1B}[2K\(Self.frames[frame]) loading \(source)  \(amount)\(others)")
    }
}
