import Foundation
import Testing

/// The browser page's reducer, model and strings, tested without a browser: `node --test Tests/Web/`, fed games a
/// real spyd played (`Tests/Web/transcripts`). Needs Node.js (`scripts/install-test-deps.sh` installs Debian's
/// `nodejs`); without it the test is skipped with a message, except under `CI=true`, where that is a failure.
@Suite struct PageScriptTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static var onCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    static let node: URL? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return (path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin"])
            .map { URL(fileURLWithPath: $0).appendingPathComponent("node") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    @Test(
        .enabled(if: onCI || node != nil, "Node.js is missing: run scripts/install-test-deps.sh"),
        .timeLimit(.minutes(1)))
    func theReducerTestsPassUnderNode() throws {
        let node = try #require(Self.node, "CI=true and Node.js is missing (scripts/install-test-deps.sh)")
        let process = Process()
        process.executableURL = node
        process.arguments = ["--test", "--test-reporter=spec", "Tests/Web/"]
        process.currentDirectoryURL = Self.root
        process.standardInput = FileHandle.nullDevice
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        // Read to the end before waiting, so a long report cannot fill the pipe and stall the run.
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "node --test Tests/Web/ failed:\n\(text)")
        #expect(text.contains("# pass") || text.contains("ℹ pass"), "node ran no test:\n\(text)")
    }
}
