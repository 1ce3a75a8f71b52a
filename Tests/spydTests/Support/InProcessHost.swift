import Foundation
import Glibc
import SpyBank
import SpyNet
import SpyProtocol
import SpyTestSupport

@testable import SpyStorage
@testable import spyd

/// What a test needs of a host, wherever it runs: its port, its log, connections to it, and its end.
protocol TestHost: AnyObject {
    /// The port it listens on at 127.0.0.1.
    var port: UInt16 { get }
    /// Every log line so far.
    var log: String { get }
    /// The first log line containing `text`, waiting up to `timeout` seconds for it.
    @discardableResult
    func waitForLine(containing text: String, timeout: Double) -> String?
}

extension TestHost {
    /// A client connected to this host.
    func connect() throws -> FrameClient {
        try FrameClient(host: "127.0.0.1", port: port)
    }

    @discardableResult
    func waitForLine(containing text: String) -> String? {
        waitForLine(containing: text, timeout: 10)
    }
}

extension DaemonProcess: TestHost {}

/// The host built in the test's own process, listening on 127.0.0.1 with an ephemeral port, its event loop on a
/// thread of its own, and every time it reads taken from a manual clock that only `advance` moves: a rule that
/// waits (a grace period, the 20 s absence, a turn timer, the hello deadline) costs the test no real second, and
/// no process is started. Clients talk to it over real loopback sockets, as to `DaemonProcess`.
final class InProcessHost: TestHost, @unchecked Sendable {
    let port: UInt16
    let stateDirectory: URL?
    private let clock = ManualClock(wallMs: SystemClock.wallClockMs())
    private let output = OutputCollector()
    private let state = LoopState()
    private let finished = DispatchSemaphore(value: 0)

    /// Builds the host as `spyd --host` would with `arguments`, and starts its loop.
    init(_ arguments: [String] = [], stateDirectory: URL? = nil) throws {
        self.stateDirectory = stateDirectory
        var all = ["--host", "--bind", "127.0.0.1", "--port", "0", "--no-discovery"]
        all += stateDirectory.map { ["--state-dir", $0.path] } ?? ["--no-state"]
        guard case .run(let parsed) = HostCommand.spec.resolve(all + arguments, version: HostCommand.version) else {
            throw DaemonError(description: "spyd refuses the arguments \(arguments)")
        }
        var options = try HostCommand.options(from: parsed, environment: ProcessInfo.processInfo.environment)
        let output = self.output
        let log = Log(level: options.logLevel, label: "spyd") { output.append(Data($0.utf8)) }
        guard let bank = Spyd.loadBank(options, log: log)?.pairs else {
            throw DaemonError(description: "no bank:\n\(output.text)")
        }
        if case .failure(let error) = Spyd.settle(&options, bank: bank) { throw error }
        let (clock, state, finished) = (self.clock, self.state, self.finished)
        let settled = options
        Thread.detachNewThread {
            defer { finished.signal() }
            let server: Server
            let loop: EventLoop
            do {
                loop = try EventLoop(clock: clock)
                let store = try settled.stateDirectory.map {
                    try DurableRooms(directory: $0, now: clock.wallMs()) { log.warning($0) }
                }
                server = try Server(
                    options: settled, bank: bank, log: log, loop: loop, clock: clock, store: store)
            } catch {
                state.started(.failure(DaemonError(description: "the host did not start: \(error)")))
                return
            }
            log.info("listening on 127.0.0.1:\(server.port)")
            state.started(.success((server.port, loop.wakeWriteFD)))
            var served = 0
            while !state.stopRequested {
                // After a move of the clock the wake does not wait: the timers it made due fire at once.
                let moves = state.movesMade
                do {
                    try loop.runOnce(maxWaitMs: moves > served ? 0 : nil, morePolls: 2)
                } catch {
                    log.error("the loop failed: \(error)")
                    break
                }
                served = moves
                state.served(moves)
            }
            server.shutDown()
            state.stopped()
        }
        port = try state.waitUntilStarted().get()
    }

    deinit {
        stop()
    }

    var log: String { output.text }

    @discardableResult
    func waitForLine(containing text: String, timeout: Double) -> String? {
        output.waitForLine(containing: text, timeout: timeout)
    }

    /// Moves the host's clock forward and returns once a whole wake of its loop has run after the move: every
    /// timer due by then has fired, and what it said has been written. What reached the host's sockets before the
    /// call (a connection, a message) is served first, at the time before the move.
    func advance(seconds: Double) {
        state.catchUp()
        clock.advance(ms: Int64(seconds * 1000))
        state.catchUp()
    }

    /// Stops the loop and shuts the host down as SIGTERM would.
    func stop() {
        guard state.requestStop() else { return }
        finished.wait()
    }
}

/// What the test's thread and the host's thread share: how the start went, how far the clock was moved and how
/// far the loop has caught up with it, the wish to stop, and the descriptor that wakes the loop.
private final class LoopState: @unchecked Sendable {
    private let condition = NSCondition()
    private var start: Result<(port: UInt16, wakeFD: Int32), DaemonError>?
    private var running = false
    private var stopping = false
    /// How many times the test asked the loop to catch up, and how many of those a whole wake has followed.
    private var moves = 0
    private var movesServed = 0

    private func locked<T>(_ body: () -> T) -> T {
        condition.lock()
        defer { condition.unlock() }
        return body()
    }

    func started(_ outcome: Result<(port: UInt16, wakeFD: Int32), DaemonError>) {
        locked {
            start = outcome
            if case .success = outcome { running = true }
            condition.broadcast()
        }
    }

    func waitUntilStarted() -> Result<UInt16, DaemonError> {
        locked {
            while start == nil { condition.wait() }
            return start!.map(\.port)
        }
    }

    var stopRequested: Bool { locked { stopping } }

    /// The requests to catch up so far; a wake that starts after reading it sees the clock as those requests left it.
    var movesMade: Int { locked { moves } }

    /// A wake that started after `count` requests has finished.
    func served(_ count: Int) {
        locked {
            movesServed = max(movesServed, count)
            condition.broadcast()
        }
    }

    /// Wakes the loop and waits (at most ten real seconds) until a whole wake that started after this call has
    /// finished: after a move of the clock, one that fired every timer the move made due.
    func catchUp() {
        let deadline = Date(timeIntervalSinceNow: 10)
        locked {
            moves += 1
            let move = moves
            writeWakeByte()
            while running, movesServed < move, condition.wait(until: deadline) {}
        }
    }

    /// Ends the loop's wait; called under the lock, so the descriptor is still the loop's.
    private func writeWakeByte() {
        guard running, case .success(let started)? = start else { return }
        var byte: UInt8 = 1
        _ = Glibc.write(started.wakeFD, &byte, 1)
    }

    /// Asks the loop to stop; false when it is not running.
    func requestStop() -> Bool {
        locked {
            guard running, !stopping else { return false }
            stopping = true
            writeWakeByte()
            return true
        }
    }

    func stopped() {
        locked {
            running = false
            condition.broadcast()
        }
    }
}
