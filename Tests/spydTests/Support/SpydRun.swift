import Foundation
import Glibc

/// A `spyd` run that is expected to end by itself (a refusal to start), with its status and standard error.
struct SpydRun {
    var status: Int32
    var standardError: String

    /// Runs `spyd` with `arguments` and waits up to `timeout` seconds for it to exit.
    static func run(_ arguments: [String], timeout: Double = 30) throws -> SpydRun {
        let process = Process()
        process.executableURL = DaemonProcess.binary
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        let pipe = Pipe()
        process.standardError = pipe
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        let output = OutputCollector()
        let handle = pipe.fileHandleForReading
        Thread.detachNewThread {
            while true {
                let data = handle.availableData
                output.append(data)
                if data.isEmpty { return }
            }
        }
        guard exited.wait(timeout: .now() + timeout) == .success else {
            kill(process.processIdentifier, SIGKILL)
            throw DaemonError(description: "spyd did not exit:\n\(output.text)")
        }
        // Waits for the pipe to end (no line holds a NUL), so the whole of standard error is in.
        _ = output.waitForLine(containing: "\u{0}", timeout: 5)
        return SpydRun(status: process.terminationStatus, standardError: output.text)
    }
}
