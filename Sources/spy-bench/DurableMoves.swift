import Foundation
import Glibc
import SpyNet
import SpyProtocol

/// What a stream of durable moves measured.
struct DurableMovesReport: Codable, Equatable {
    var connections: Int
    var movesPerConnection: Int
    var movesAcknowledged: Int
    var errors: Int
    var firstErrors: [String]
    var wallSeconds: Double
    var movesPerSecond: Double
    var ackP50Ms: Double
    var ackP99Ms: Double
    var ackMaxMs: Double
    var daemonCPUSeconds: Double?
    var benchCPUSeconds: Double
}

/// Streams state-changing moves at a host: each connection opens a room of its own and changes its settings (the
/// turn timer) again and again, one change at a time, each sent once the room's view has acknowledged the one
/// before. Every acknowledged change is one the host has made durable first, so with a state directory the rate is
/// durable writes per second, as `redis-benchmark -t set` measures them with the same number of clients.
final class DurableMovesRun {
    private final class Streamer {
        let index: Int
        var connection: LoopConnection?
        var sent = 0
        var acknowledged = 0
        var sentAt: UInt64 = 0
        var expected = 0
        var done = false

        init(index: Int) {
            self.index = index
        }
    }

    private let options: BenchOptions
    private let host: String
    private let port: UInt16
    private let loop: EventLoop
    private var streamers: [Streamer] = []
    private var connectionIDs = ConnectionIDGenerator()
    private var latency = LatencySamples()
    private var errors: [String] = []
    private var finished = 0

    init(options: BenchOptions, host: String, port: UInt16) throws {
        self.options = options
        self.host = host
        self.port = port
        self.loop = try EventLoop(readBudget: 256 * 1024)
        streamers = (0..<options.rooms).map(Streamer.init)
    }

    /// The turn timer of a room's `n`th change: 10…600 s, never the same twice in a row.
    static func turnSeconds(_ n: Int) -> Int { 10 + n % 591 }

    func run(daemon: () -> ProcessUsage?) -> DurableMovesReport {
        var timedOut = false
        loop.arm(afterMs: Int64(options.timeoutSeconds) * 1000) { timedOut = true }
        for streamer in streamers {
            do {
                let connection = try LoopConnection.connect(
                    host: host, port: port, loop: loop, ids: &connectionIDs, maxPayload: 1 << 20, outboxCap: 1 << 20)
                connection.onEvent = { [unowned self, unowned streamer] event in self.service(streamer, event) }
                streamer.connection = connection
                send(streamer, .hello(.init(name: "d\(streamer.index)", create: true)))
            } catch {
                fail(streamer, "connect: \(error)")
            }
        }
        // The clock starts once every room is open, so the figure is the moves' alone.
        var start: UInt64?
        while !timedOut, finished < streamers.count {
            if start == nil, streamers.allSatisfy({ $0.sent > 0 || $0.done }) { start = SystemClock.monotonicNanos() }
            guard (try? loop.runOnce()) != nil else { break }
        }
        let wall = Double(SystemClock.monotonicNanos() - (start ?? SystemClock.monotonicNanos())) / 1e9
        for streamer in streamers where !streamer.done { fail(streamer, "did not finish") }
        let daemonUsage = daemon()
        for streamer in streamers { streamer.connection?.close() }
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let benchCPU =
            Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
            + Double(usage.ru_stime.tv_usec) / 1e6
        let acknowledged = streamers.reduce(0) { $0 + $1.acknowledged }
        return DurableMovesReport(
            connections: streamers.count, movesPerConnection: options.durableMoves, movesAcknowledged: acknowledged,
            errors: errors.count, firstErrors: Array(errors.prefix(5)), wallSeconds: wall,
            movesPerSecond: wall > 0 ? Double(acknowledged) / wall : 0, ackP50Ms: latency.percentileMs(0.5),
            ackP99Ms: latency.percentileMs(0.99), ackMaxMs: latency.maxMs, daemonCPUSeconds: daemonUsage?.cpuSeconds,
            benchCPUSeconds: benchCPU)
    }

    private func service(_ streamer: Streamer, _ event: LoopConnection.Event) {
        guard let connection = streamer.connection, !connection.isClosed else { return }
        switch event {
        case .connected: return
        case .failed(let error):
            fail(streamer, "connection failed: \(error)")
            return
        case .readable: break
        }
        let outcome: Connection.ReadOutcome
        do {
            outcome = try connection.read()
        } catch {
            fail(streamer, "read: \(error)")
            return
        }
        while !streamer.done, let payload = try? connection.connection.inbox.next() {
            // A room view is the acknowledgement: its turn timer is read where it stands, so the bench spends its
            // time on the host's answers, not on decoding the whole view (as redis-benchmark reads one reply line).
            if streamer.sent > 0, FrameSniffer.type(of: payload) == "room" {
                acknowledge(streamer, turnSeconds: FrameSniffer.integer("turnSeconds", in: payload))
                continue
            }
            guard let message = try? WireCodec.decode(ServerMessage.self, from: payload) else {
                fail(streamer, "undecodable frame")
                return
            }
            receive(message, for: streamer)
        }
        if case .endOfStream = outcome, !streamer.done { fail(streamer, "host closed the connection") }
    }

    private func receive(_ message: ServerMessage, for streamer: Streamer) {
        switch message {
        case .welcome:
            sendNext(streamer)
        case .room(let view) where streamer.sent > 0:
            acknowledge(streamer, turnSeconds: view.settings.turnSeconds)
        case .error(let error):
            fail(streamer, "error \(error.code.rawValue): \(error.message)")
        default:
            break
        }
    }

    /// A room view came: it acknowledges the last change once it shows the timer that change set.
    private func acknowledge(_ streamer: Streamer, turnSeconds: Int?) {
        guard turnSeconds == streamer.expected else { return }
        latency.add(loop.wokeAtNanos - streamer.sentAt)
        streamer.acknowledged += 1
        if streamer.acknowledged == options.durableMoves {
            streamer.done = true
            finished += 1
            streamer.connection?.close()
        } else {
            sendNext(streamer)
        }
    }

    private func sendNext(_ streamer: Streamer) {
        streamer.expected = Self.turnSeconds(streamer.sent + 1)
        streamer.sent += 1
        streamer.sentAt = SystemClock.monotonicNanos()
        send(streamer, .settings(.init(turnSeconds: streamer.expected)))
    }

    private func send(_ streamer: Streamer, _ message: ClientMessage) {
        guard let connection = streamer.connection, let frame = try? WireCodec.encodeFrame(message),
            connection.send(frame) == .queued
        else {
            fail(streamer, "cannot queue \(message.type)")
            return
        }
    }

    private func fail(_ streamer: Streamer, _ text: String) {
        errors.append("connection \(streamer.index): \(text)")
        if !streamer.done {
            streamer.done = true
            finished += 1
        }
        streamer.connection?.close()
    }
}

func printDurableMoves(_ report: DurableMovesReport) {
    func ms(_ value: Double) -> String { String(format: "%.3f ms", value) }
    let lines = [
        "connections × moves       \(report.connections) × \(report.movesPerConnection)",
        "moves acknowledged        \(report.movesAcknowledged)",
        "errors                    \(report.errors)",
        "wall time                 \(String(format: "%.2f s", report.wallSeconds))",
        "moves per second          \(String(format: "%.0f", report.movesPerSecond))",
        "move→ack p50/p99/max      \(ms(report.ackP50Ms)) / \(ms(report.ackP99Ms)) / \(ms(report.ackMaxMs))",
        "daemon CPU                \(report.daemonCPUSeconds.map { String(format: "%.2f s", $0) } ?? "n/a")",
        "bench CPU                 \(String(format: "%.2f s", report.benchCPUSeconds))",
    ]
    print(lines.joined(separator: "\n"))
    for error in report.firstErrors { print("  error: \(error)") }
}
