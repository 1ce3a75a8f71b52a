import Foundation
import Glibc
import SpyNet
import SpyProtocol

let benchVersion = "0.1.0"

/// Starts `spyd` on 127.0.0.1 with a free port; returns the process and the port it listens on.
func startDaemon(_ options: BenchOptions) throws -> (Process, UInt16) {
    let path =
        options.spydPath
        ?? URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        .deletingLastPathComponent().appendingPathComponent("spyd").path
    guard FileManager.default.isExecutableFile(atPath: path) else {
        throw BenchFailure("no spyd at \(path); build it (swift build -c release) or pass --spyd PATH")
    }
    let portFile = FileManager.default.temporaryDirectory.appendingPathComponent("spy-bench-\(getpid()).port")
    try? FileManager.default.removeItem(at: portFile)
    let connections = options.rooms * options.players + 64
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    var arguments = ["--host", "--bind", "127.0.0.1", "--port", "0", "--port-file", portFile.path]
    arguments += options.stateDir.map { ["--state-dir", $0] } ?? ["--no-state"]
    arguments += [
        "--max-connections", "\(connections)", "--max-per-address", "0", "--max-rooms", "\(options.rooms + 8)",
        "--log-level", "warning", "--seed", "\(options.seed)",
        "--max-rooms-per-address", "0", "--rooms-per-minute", "0",
    ]
    process.arguments = arguments
    process.standardInput = FileHandle.nullDevice
    try process.run()
    // The port file is written atomically once the daemon listens; nothing else says it is ready.
    let deadline = SystemClock.monotonicMs() + 20_000
    while SystemClock.monotonicMs() < deadline && process.isRunning {
        if let text = try? String(contentsOf: portFile, encoding: .utf8),
            let port = UInt16(text.trimmingCharacters(in: .whitespacesAndNewlines))
        {
            try? FileManager.default.removeItem(at: portFile)
            return (process, port)
        }
        var pause = timespec(tv_sec: 0, tv_nsec: 2_000_000)
        nanosleep(&pause, nil)
    }
    process.terminate()
    throw BenchFailure("spyd did not start listening within 20 s")
}

/// Asks the daemon to stop and kills it if it has not within 5 s (with a state directory every change is already on
/// disk, so a kill loses nothing).
func stopDaemon(_ process: Process) {
    process.terminate()
    let deadline = SystemClock.monotonicMs() + 5_000
    while process.isRunning && SystemClock.monotonicMs() < deadline {
        var pause = timespec(tv_sec: 0, tv_nsec: 10_000_000)
        nanosleep(&pause, nil)
    }
    if process.isRunning {
        kill(process.processIdentifier, SIGKILL)
    }
    process.waitUntilExit()
}

struct BenchFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

func printTable(_ report: BenchReport) {
    func ms(_ value: Double) -> String { String(format: "%.3f ms", value) }
    let lines = [
        "rooms × players × games   \(report.rooms) × \(report.playersPerRoom) × \(report.gamesPerRoom)",
        "connections held          \(report.connectionsHeld)",
        "games completed           \(report.gamesCompleted) of \(report.rooms * report.gamesPerRoom)",
        "errors                    \(report.errors)",
        "wall time                 \(String(format: "%.2f s", report.wallSeconds))",
        "frames (in + out)         \(report.framesIn) + \(report.framesOut)",
        "frames per second         \(String(format: "%.0f", report.framesPerSecond))",
        "ping→pong p50/p99/max     \(ms(report.pingP50Ms)) / \(ms(report.pingP99Ms)) / \(ms(report.pingMaxMs))",
        "ballot→result p50/p99/max \(ms(report.resultFanoutP50Ms)) / \(ms(report.resultFanoutP99Ms)) / "
            + "\(ms(report.resultFanoutMaxMs)) (\(report.resultSamples) votes)",
        "daemon CPU                \(report.daemonCPUSeconds.map { String(format: "%.2f s", $0) } ?? "n/a")",
        "daemon peak RSS           \(report.daemonPeakRSSMB.map { String(format: "%.1f MB", $0) } ?? "n/a")",
        "bench CPU                 \(String(format: "%.2f s", report.benchCPUSeconds))",
    ]
    print(lines.joined(separator: "\n"))
    for error in report.firstErrors { print("  error: \(error)") }
}

signal(SIGPIPE, SIG_IGN)
let spec = BenchOptions.command
let options: BenchOptions
switch spec.resolve(Array(CommandLine.arguments.dropFirst()), version: benchVersion) {
case .exit(let code, let out, let err):
    Log.writeStandardOutput(out)
    Log.writeStandardError(err)
    exit(code)
case .run(let parsed):
    do {
        options = try BenchOptions.parse(parsed)
    } catch {
        Log.writeStandardError(spec.usageErrorText(error))
        exit(UsageError.exitCode)
    }
}

if options.botsOnly {
    exit(runBotsOnly(options))
}

var limit = rlimit()
getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
limit.rlim_cur = limit.rlim_max
setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)

do {
    var daemon: Process?
    var host = options.host ?? "127.0.0.1"
    var port = options.port
    if options.host == nil {
        let (process, listening) = try startDaemon(options)
        daemon = process
        port = listening
    }
    if host == "localhost" { host = "127.0.0.1" }
    if options.durableMoves > 0 {
        let stream = try DurableMovesRun(options: options, host: host, port: port)
        let report = stream.run { daemon.flatMap { ProcessUsage.read(pid: $0.processIdentifier) } }
        if let daemon { stopDaemon(daemon) }
        if options.json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            printDurableMoves(report)
        }
        exit(report.errors == 0 ? 0 : 1)
    }
    let run = try LoadRun(options: options, host: host, port: port)
    let outcome = run.run()
    let usage = daemon.flatMap { ProcessUsage.read(pid: $0.processIdentifier) }
    if let daemon { stopDaemon(daemon) }
    let report = run.report(wall: outcome.wallSeconds, daemon: usage)
    if options.json {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        print(String(decoding: try encoder.encode(report), as: UTF8.self))
    } else {
        printTable(report)
    }
    exit(report.errors == 0 && report.gamesCompleted == options.rooms * options.games ? 0 : 1)
} catch {
    Log.writeStandardError("spy-bench: \(error)\n")
    exit(1)
}
