import Foundation

/// The executables a test starts, found where `swift build` put them for this very test run.
///
/// Only the test bundle's own products directory is searched: falling back to another build (say `.build/debug`
/// while the suite runs from `.build/asan`) would test a binary built from other sources or with other flags
/// without a word, so a missing binary stops the test instead.
public enum BuiltProducts {
    /// The directory the test bundle was built into, which holds the package's executables too.
    public static let directory: URL = {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            Bundle.main.bundleURL,
            Bundle.main.bundleURL.deletingLastPathComponent(),
        ]
        let found = candidates.first { candidate in
            FileManager.default.isExecutableFile(atPath: candidate.appendingPathComponent("spyd").path)
        }
        return found ?? candidates[0]
    }()

    /// The executable `name` of this build; stops the run with a clear message when it was not built.
    public static func url(of name: String) -> URL {
        let url = directory.appendingPathComponent(name)
        precondition(
            FileManager.default.isExecutableFile(atPath: url.path),
            "\(name) is not built beside the tests in \(directory.path); run `swift build --build-tests` first")
        return url
    }
}

/// What a finished process wrote and how it ended.
public struct ProcessOutput: Sendable {
    public var status: Int32
    public var standardOutput: Data
    public var standardError: Data

    public var out: String { String(decoding: standardOutput, as: UTF8.self) }
    public var err: String { String(decoding: standardError, as: UTF8.self) }

    /// Runs `executable` to its end, reading its standard output and standard error at the same time, so a
    /// process that fills one pipe while the test waits on the other cannot deadlock.
    public static func run(_ executable: URL, _ arguments: [String]) throws -> ProcessOutput {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let errorsRead = ErrorsReader(errors.fileHandleForReading)
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errorsRead.wait()
        process.waitUntilExit()
        return ProcessOutput(status: process.terminationStatus, standardOutput: out, standardError: err)
    }
}

/// Reads one pipe to its end on a thread of its own.
private final class ErrorsReader: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    // Written once by the reading thread before `done` is signalled, read only after waiting on it.
    private var data = Data()

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    func wait() -> Data {
        done.wait()
        return data
    }
}
