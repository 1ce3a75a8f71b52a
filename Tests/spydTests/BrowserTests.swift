import Foundation
import Testing

/// The browser page and board played in a real headless Chromium, driven by the Selenium scripts in
/// `Tests/Browser/`, against a real `spyd` on 127.0.0.1 with an ephemeral port.
///
/// Needs `chromium`, `chromedriver` and Python's `selenium` (`scripts/install-test-deps.sh` installs them). Without
/// them the tests are skipped with a message, except under `CI=true`, where a missing browser is a failure.
///
/// Each script starts its own `spyd` and its own browsers, so the scripts share no state, and they spend most of
/// their time waiting for the page, the host or the bots rather than computing: they run in three lanes side by
/// side, one script at a time in each, the lanes about equally long.
@Suite struct BrowserTests {
    /// The owner hand-over waits 30 real seconds: a lane of its own, with the short game in Simplified Chinese, the
    /// moderator's game and the board's reveal.
    @Suite(.serialized) struct OwnerLane {
        @Test(.tags(.endToEnd), .enabled(if: BrowserRun.shouldRun, BrowserRun.skipMessage), .timeLimit(.minutes(4)))
        func aSeatIsTakenBackOnAnotherPhoneAndAnAwayOwnerHandsTheRoomOver() async throws {
            try await BrowserRun.script("party.py", spyd: ["--bots", "1"])
        }

        @Test(.tags(.endToEnd), .enabled(if: BrowserRun.shouldRun, BrowserRun.skipMessage), .timeLimit(.minutes(4)))
        func aMainlandPhoneAndTheBoardPlayAWholeGameInSimplifiedChinese() async throws {
            // English words, so that every text on the page can be held to Simplified forms; the owner asks for
            // Simplified words in the lobby, which a host with Simplified pairs then deals.
            try await BrowserRun.script(
                "simplified_game.py",
                spyd: ["--bots", "3", "--clues", "typed", "--language", "en", "--bot-delay-ms", "120"])
        }

        @Test(.tags(.endToEnd), .enabled(if: BrowserRun.shouldRun, BrowserRun.skipMessage), .timeLimit(.minutes(4)))
        func aModeratorRunsAWholeGameForThreePhonesAndTwoBotsAndSeesEveryWordNoPlayerDoes() async throws {
            try await BrowserRun.script(
                "moderator.py", spyd: ["--bots", "2", "--clues", "typed", "--bot-delay-ms", "120"])
        }

        @Test(.tags(.endToEnd), .enabled(if: BrowserRun.shouldRun, BrowserRun.skipMessage), .timeLimit(.minutes(4)))
        func theBoardShowsTheVoteTheRoomWaitsForThePKAndTheDecidingVoteAtTVSize() async throws {
            // Five people played over the host's own protocol by the script, so the votes tie and fall as it says.
            try await BrowserRun.script("board_reveal.py", spyd: [])
        }
    }

    /// The games bots play with one browser.
    @Suite(.serialized) struct BotLane {
        @Test(.tags(.endToEnd), .enabled(if: BrowserRun.shouldRun, BrowserRun.skipMessage), .timeLimit(.minutes(4)))
        func onePhonePlayerPlaysAWholeTypedGameAgainstThreeBots() async throws {
            try await BrowserRun.script(
                "bots_game.py", spyd: ["--bots", "3", "--clues", "typed", "--bot-delay-ms", "120"])
        }

        @Test(.tags(.endToEnd), .enabled(if: BrowserRun.shouldRun, BrowserRun.skipMessage), .timeLimit(.minutes(4)))
        func aHostKilledMidVoteIsFoundWithinTwoSecondsAndTheWaitingBallotGoes() async throws {
            // The script starts, kills and restarts a host of its own.
            try await BrowserRun.script(
                "recovery.py",
                ownHost: ["--bots", "3", "--clues", "typed", "--bot-delay-ms", "120", "--language", "zh-TW"])
        }

        @Test(.tags(.endToEnd), .enabled(if: BrowserRun.shouldRun, BrowserRun.skipMessage), .timeLimit(.minutes(4)))
        func theBoardReadsFromTheSofaWithTenPlayersAndFiveRoundsAtTVSizes() async throws {
            try await BrowserRun.script(
                "board_tv.py",
                spyd: [
                    "--bots", "9", "--clues", "typed", "--spies", "3", "--bot-level", "easy", "--bot-delay-ms", "150",
                ])
        }

        @Test(.tags(.endToEnd), .enabled(if: BrowserRun.shouldRun, BrowserRun.skipMessage), .timeLimit(.minutes(4)))
        func theOwnerPastesOurWordsAndTheEveningsHistoryOutlivesAKillNine() async throws {
            // The script starts its own host on a fixed port, so that the pages find it again after the kill.
            try await BrowserRun.script("own_words.py", ownHost: ["--bots", "2", "--bot-delay-ms", "120"])
        }
    }

    /// Tables of people: several browsers, or one page passed around.
    @Suite(.serialized) struct PeopleLane {
        @Test(.tags(.endToEnd), .enabled(if: BrowserRun.shouldRun, BrowserRun.skipMessage), .timeLimit(.minutes(4)))
        func fourBrowsersPlayEachOtherEachSeeingOnlyItsOwnWord() async throws {
            // Words as long as a bank may hold, shown on a phone: 忘詞 must not move when one takes a third line.
            let longWords = BrowserRun.directory.appendingPathComponent("long_words.csv").path
            try await BrowserRun.script("four_players.py", spyd: ["--bank", longWords, "--language", "en"])
        }

        @Test(.tags(.endToEnd), .enabled(if: BrowserRun.shouldRun, BrowserRun.skipMessage), .timeLimit(.minutes(4)))
        func onePageHoldsATableOfFourAndNeverTwoWords() async throws {
            try await BrowserRun.script("one_device_table.py", spyd: [])
        }

        @Test(.tags(.endToEnd), .enabled(if: BrowserRun.shouldRun, BrowserRun.skipMessage), .timeLimit(.minutes(4)))
        func theModeratorHoldsThePhoneForFourPlayersAndOpensTheirScreenOnlyWhenAlone() async throws {
            try await BrowserRun.script("moderator_device.py", spyd: [])
        }

        @Test(.tags(.endToEnd), .enabled(if: BrowserRun.shouldRun, BrowserRun.skipMessage), .timeLimit(.minutes(4)))
        func aSharedPageAPhoneAndTwoBotsPlayATypedGameThroughAReload() async throws {
            try await BrowserRun.script(
                "mixed_table.py", spyd: ["--bots", "2", "--clues", "typed", "--bot-delay-ms", "120"])
        }
    }
}

/// Finding the browser and running one script.
enum BrowserRun {
    /// Exit status of a script that found no browser or no selenium.
    static let missingStatus: Int32 = 77
    /// Longest a script may take, whatever the machine's load.
    static let scriptSeconds = 200.0

    static let skipMessage: Comment =
        "headless Chromium, chromedriver or Python selenium is missing: run scripts/install-test-deps.sh"

    static var onCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    /// Run when everything is installed, and always under CI (where what is missing must fail).
    static var shouldRun: Bool { onCI || missing.isEmpty }

    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Browser")

    /// What the browser tests need and this machine lacks.
    static let missing: [String] = {
        var missing: [String] = []
        if executable("chromium") == nil && executable("chromium-browser") == nil { missing.append("chromium") }
        if executable("chromedriver") == nil { missing.append("chromedriver (Debian: chromium-driver)") }
        if let python = executable("python3") {
            if !succeeds(python, ["-c", "import selenium"], seconds: 60) { missing.append("python3 selenium") }
        } else {
            missing.append("python3")
        }
        return missing
    }()

    static func executable(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Whether a program exits with status 0 within `seconds`.
    static func succeeds(_ program: URL, _ arguments: [String], seconds: Double) -> Bool {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        guard (try? process.run()) != nil else { return false }
        guard exited.wait(timeout: .now() + seconds) == .success else {
            process.terminate()
            return false
        }
        return process.terminationStatus == 0
    }

    /// Starts `spyd --host` with `spyd` arguments and runs the script against it; fails with its output.
    static func script(_ name: String, spyd: [String]) async throws {
        guard missing.isEmpty else {
            Issue.record("CI=true and the browser tests cannot run: missing \(missing.joined(separator: ", ")).")
            return
        }
        let python = try #require(executable("python3"))
        let daemon = try DaemonProcess(spyd)
        var arguments = [directory.appendingPathComponent(name).path, "--url", "http://127.0.0.1:\(daemon.port)"]
        let screenshots = ProcessInfo.processInfo.environment["SPY_BROWSER_SCREENSHOTS"] ?? ""
        let scratch = try DaemonProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        arguments += ["--screenshots", screenshots.isEmpty ? scratch.path : screenshots]
        let result = await run(python, arguments, seconds: scriptSeconds)
        let report = "\(name) exited \(result.status):\n\(result.output)\n--- spyd log ---\n\(daemon.log)"
        #expect(result.status != missingStatus, "the browser or selenium went missing:\n\(report)")
        #expect(result.status == 0, "\(report)")
        daemon.stop()
    }

    /// Runs the script with the `spyd` binary and `ownHost` as that host's arguments: the script starts the host
    /// itself, and may kill it and start it again on the same port.
    static func script(_ name: String, ownHost: [String]) async throws {
        guard missing.isEmpty else {
            Issue.record("CI=true and the browser tests cannot run: missing \(missing.joined(separator: ", ")).")
            return
        }
        let python = try #require(executable("python3"))
        let encoded = String(decoding: try JSONEncoder().encode(ownHost), as: UTF8.self)
        var arguments = [
            directory.appendingPathComponent(name).path, "--spyd", DaemonProcess.binary.path, "--spyd-args", encoded,
        ]
        let screenshots = ProcessInfo.processInfo.environment["SPY_BROWSER_SCREENSHOTS"] ?? ""
        let scratch = try DaemonProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        arguments += ["--screenshots", screenshots.isEmpty ? scratch.path : screenshots]
        let result = await run(python, arguments, seconds: scriptSeconds)
        #expect(result.status != missingStatus, "the browser or selenium went missing:\n\(result.output)")
        #expect(result.status == 0, "\(name) exited \(result.status):\n\(result.output)")
    }

    /// Runs a program with a deadline; its standard output and error together. Waits without holding a thread, so
    /// a script waiting on its browsers leaves the test pool's few threads to other tests.
    static func run(_ program: URL, _ arguments: [String], seconds: Double) async -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["PYTHONDONTWRITEBYTECODE"] = "1"
        environment["PYTHONUNBUFFERED"] = "1"
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        let output = OutputCollector()
        let exited = Signal()
        let drained = Signal()
        process.terminationHandler = { _ in exited.fire() }
        do {
            try process.run()
        } catch {
            return (-1, "could not start \(program.path): \(error)")
        }
        let handle = pipe.fileHandleForReading
        let reader = Thread {
            while true {
                let data = handle.availableData
                output.append(data)
                if data.isEmpty {
                    drained.fire()
                    return
                }
            }
        }
        reader.start()
        guard await exited.wait(seconds: seconds) else {
            process.terminate()
            _ = await exited.wait(seconds: 10)
            return (-1, "timed out after \(Int(seconds)) s\n" + output.text)
        }
        // The pipe ends when the last process holding it does; the browser may outlive the script briefly.
        _ = await drained.wait(seconds: 10)
        return (process.terminationStatus, output.text)
    }
}

/// Something that happens once (a process exits, a pipe ends), awaited with a deadline.
private final class Signal: @unchecked Sendable {
    private let lock = NSLock()
    private var fired = false
    private var waiter: CheckedContinuation<Bool, Never>?

    func fire() {
        lock.withLock { () -> CheckedContinuation<Bool, Never>? in
            fired = true
            defer { waiter = nil }
            return waiter
        }?.resume(returning: true)
    }

    /// Whether it happened within `seconds` (at once when it already had).
    func wait(seconds: Double) async -> Bool {
        await withCheckedContinuation { continuation in
            let already = lock.withLock { () -> Bool in
                if !fired { waiter = continuation }
                return fired
            }
            if already {
                continuation.resume(returning: true)
                return
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in
                lock.withLock { () -> CheckedContinuation<Bool, Never>? in
                    defer { waiter = nil }
                    return waiter
                }?.resume(returning: false)
            }
        }
    }
}
