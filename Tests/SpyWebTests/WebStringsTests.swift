import Foundation
import Testing

/// The pages' sentence tables and the choice of their language, tested by `Tests/Web/*.test.mjs` under Node's own
/// test runner (`node --test`): the scripts are the browser's, so a JavaScript engine runs them.
///
/// Without `node` the test is skipped with a message, except under `CI=true`, where a missing Node is a failure.
@Suite struct WebStringsTests {
    static let node: URL? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return (path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin"])
            .map { URL(fileURLWithPath: $0).appendingPathComponent("node") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    static var onCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Web")

    static let skipMessage: Comment = "node is missing (Debian: apt-get install nodejs; scripts/install-test-deps.sh)"

    @Test(.enabled(if: node != nil || onCI, skipMessage))
    func everyLanguageHasEverySentenceInItsOwnScript() async throws {
        let node = try #require(Self.node, "CI=true and node is missing: the page's sentence tables go untested")
        let tests = try FileManager.default.contentsOfDirectory(atPath: Self.testsDirectory.path)
            .filter { $0.hasSuffix(".test.mjs") }.sorted()
            .map { Self.testsDirectory.appendingPathComponent($0).path }
        #expect(!tests.isEmpty, "no test files in \(Self.testsDirectory.path)")
        let result = try await Self.run(node, ["--test", "--test-reporter=spec"] + tests, seconds: 120)
        #expect(result.status == 0, "node --test exited \(result.status.map(String.init) ?? "late"):\n\(result.output)")
    }

    /// Runs a program to its end, within `seconds` (a `nil` status after that); its standard output and error
    /// together. Waits without holding a thread, so the test pool's few threads go on with other tests.
    static func run(_ program: URL, _ arguments: [String], seconds: Double) async throws -> (
        status: Int32?, output: String
    ) {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        let exit = ExitWaiter()
        process.terminationHandler = { exit.finish($0.terminationStatus) }
        try process.run()
        let output = OutputReader(pipe.fileHandleForReading)
        let status = await exit.wait(seconds: seconds)
        if status == nil { process.terminate() }
        return (status, output.text())
    }
}

/// A process's exit status, awaited with a deadline: whichever comes first answers, once.
private final class ExitWaiter: @unchecked Sendable {
    private let lock = NSLock()
    private var status: Int32?
    private var exited = false
    private var waiter: CheckedContinuation<Int32?, Never>?

    func finish(_ code: Int32) {
        lock.withLock { () -> CheckedContinuation<Int32?, Never>? in
            status = code
            exited = true
            defer { waiter = nil }
            return waiter
        }?.resume(returning: code)
    }

    func wait(seconds: Double) async -> Int32? {
        await withCheckedContinuation { continuation in
            let done = lock.withLock { () -> Bool in
                if !exited { waiter = continuation }
                return exited
            }
            if done {
                continuation.resume(returning: lock.withLock { status })
                return
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in
                lock.withLock { () -> CheckedContinuation<Int32?, Never>? in
                    defer { waiter = nil }
                    return waiter
                }?.resume(returning: nil)
            }
        }
    }
}

/// Reads a pipe to its end on a thread of its own, so a full pipe never blocks the process being waited for.
private final class OutputReader: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    // Written once by the reading thread before `done` is signalled, read only after waiting on it.
    private var data = Data()

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    /// Everything the pipe carried; nothing when it is still open after 10 s (a child process holding it).
    func text() -> String {
        guard done.wait(timeout: .now() + 10) == .success else { return "" }
        return String(decoding: data, as: UTF8.self)
    }
}
