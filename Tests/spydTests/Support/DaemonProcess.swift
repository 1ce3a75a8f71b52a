import Foundation
import Glibc
import SpyNet
import SpyProtocol
import SpyTestSupport

/// Why a daemon could not be used in a test.
struct DaemonError: Error, CustomStringConvertible {
    var description: String
}

/// A real `spyd` started for one test on 127.0.0.1 with an ephemeral port.
///
/// Standard error is collected on a reader thread so the test can wait for a line with a deadline.
final class DaemonProcess {
    let process = Process()
    let stateDirectory: URL?
    private(set) var port: UInt16 = 0
    private let output = OutputCollector()
    private let exited = DispatchSemaphore(value: 0)

    /// The `spyd` binary built next to the test bundle.
    static var binary: URL { BuiltProducts.url(of: "spyd") }

    /// A fresh private directory for state.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("spyd-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Starts `spyd --host` with `arguments` (and `environment` over the test's own), and waits until it listens.
    /// A `launcher` (a command and its arguments) runs first and is given the `spyd` command line to exec.
    init(
        _ arguments: [String] = [], stateDirectory: URL? = nil, timeout: Double = 20,
        environment extra: [String: String] = [:], launcher: [String] = []
    ) throws {
        self.stateDirectory = stateDirectory
        let scratch = try DaemonProcess.temporaryDirectory()
        let portFile = scratch.appendingPathComponent("port")
        var all = ["--host", "--bind", "127.0.0.1", "--port", "0", "--port-file", portFile.path]
        if let stateDirectory {
            all += ["--state-dir", stateDirectory.path]
        } else {
            all += ["--no-state"]
        }
        if let command = launcher.first {
            process.executableURL = URL(fileURLWithPath: command)
            process.arguments = launcher.dropFirst() + [DaemonProcess.binary.path] + all + arguments
        } else {
            process.executableURL = DaemonProcess.binary
            process.arguments = all + arguments
        }
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        environment.merge(extra) { _, new in new }
        process.environment = environment
        let pipe = Pipe()
        let exited = self.exited
        process.terminationHandler = { _ in exited.signal() }
        process.standardError = pipe
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let handle = pipe.fileHandleForReading
        let output = self.output
        Thread.detachNewThread {
            while true {
                let data = handle.availableData
                output.append(data)
                if data.isEmpty { return }
            }
        }
        guard waitForLine(containing: "listening on", timeout: timeout) != nil else {
            stop()
            throw DaemonError(description: "spyd did not start:\n\(log)")
        }
        let text = try String(contentsOf: portFile, encoding: .utf8)
        guard let port = UInt16(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw DaemonError(description: "bad port file: \(text)")
        }
        self.port = port
        try? FileManager.default.removeItem(at: scratch)
    }

    deinit {
        stop()
    }

    /// Everything written to standard error so far.
    var log: String { output.text }

    /// The first line containing `text`, waiting up to `timeout` seconds for it.
    @discardableResult
    func waitForLine(containing text: String, timeout: Double = 10) -> String? {
        output.waitForLine(containing: text, timeout: timeout)
    }

    /// A client connected to this daemon.
    func connect() throws -> FrameClient {
        try FrameClient(host: "127.0.0.1", port: port)
    }

    /// Sends `signal` and waits for the process to end; returns its status (nil if it did not end in time).
    @discardableResult
    func stop(signal: Int32 = SIGTERM, timeout: Double = 10) -> Int32? {
        if process.isRunning { kill(process.processIdentifier, signal) }
        guard exited.wait(timeout: .now() + timeout) == .success else { return nil }
        exited.signal()
        return process.terminationStatus
    }
}

/// Standard error of a daemon, appended by a reader thread and waited on by the test.
final class OutputCollector: @unchecked Sendable {
    private let condition = NSCondition()
    // Bytes, not text: a read may end inside a character (a CJK log line), so decoding each read on its own would
    // turn both halves into replacement characters.
    private var collected: [UInt8] = []
    private var ended = false

    var text: String {
        condition.lock()
        defer { condition.unlock() }
        return String(decoding: collected, as: UTF8.self)
    }

    /// Adds what a read returned; empty data means the pipe ended.
    func append(_ data: Data) {
        condition.lock()
        if data.isEmpty {
            ended = true
        } else {
            collected += data
        }
        condition.broadcast()
        condition.unlock()
    }

    func waitForLine(containing text: String, timeout: Double) -> String? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            let lines = String(decoding: collected, as: UTF8.self).split(separator: "\n")
            if let line = lines.first(where: { $0.contains(text) }) {
                return String(line)
            }
            if ended || !condition.wait(until: deadline) { return nil }
        }
    }
}
