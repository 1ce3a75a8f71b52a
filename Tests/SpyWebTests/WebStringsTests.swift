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
    func everyLanguageHasEverySentenceInItsOwnScript() throws {
        let node = try #require(Self.node, "CI=true and node is missing: the page's sentence tables go untested")
        let tests = try FileManager.default.contentsOfDirectory(atPath: Self.testsDirectory.path)
            .filter { $0.hasSuffix(".test.mjs") }.sorted()
            .map { Self.testsDirectory.appendingPathComponent($0).path }
        #expect(!tests.isEmpty, "no test files in \(Self.testsDirectory.path)")
        let result = try Self.run(node, ["--test", "--test-reporter=spec"] + tests, seconds: 120)
        #expect(result.status == 0, "node --test exited \(result.status):\n\(result.output)")
    }

    /// Runs a program to its end, within `seconds`; its standard output and error together.
    static func run(_ program: URL, _ arguments: [String], seconds: Double) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        let output = OutputReader(pipe.fileHandleForReading)
        guard exited.wait(timeout: .now() + seconds) == .success else {
            process.terminate()
            return (-1, "timed out after \(Int(seconds)) s\n" + output.text())
        }
        return (process.terminationStatus, output.text())
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
