import Foundation
import Glibc
import SpyGame
import SpyNet
import SpyProtocol

/// What a finished run measured.
struct BenchReport: Codable, Equatable {
    var rooms: Int
    var playersPerRoom: Int
    var gamesPerRoom: Int
    var connectionsHeld: Int
    var gamesCompleted: Int
    var errors: Int
    var firstErrors: [String]
    var wallSeconds: Double
    var framesIn: Int
    var framesOut: Int
    var framesPerSecond: Double
    var pingP50Ms: Double
    var pingP99Ms: Double
    var pingMaxMs: Double
    var resultFanoutP50Ms: Double
    var resultFanoutP99Ms: Double
    var resultFanoutMaxMs: Double
    var resultSamples: Int
    var daemonCPUSeconds: Double?
    var daemonPeakRSSMB: Double?
    var benchCPUSeconds: Double
}

/// One bot player's connection.
private final class BenchClient {
    let room: Int
    var player: BenchPlayer
    var connection: LoopConnection?
    var welcomed = false
    var pingSentAt: UInt64?
    /// Set once, by `LoadRun.markDone`, which also counts it.
    var done = false

    init(room: Int, player: BenchPlayer) {
        self.room = room
        self.player = player
    }
}

/// Per-room bookkeeping for the last-ballot → result fan-out latency.
private struct RoomTiming {
    var code: String?
    var votersExpected = 0
    var ballotsSent = 0
    var lastBallotAt: UInt64?
    var resultsReceived = 0
}

/// Plays `rooms × players` bot clients against a host over real TCP in one event loop.
final class LoadRun {
    private let options: BenchOptions
    private let host: String
    private let port: UInt16
    private var clients: [BenchClient] = []
    private var rooms: [RoomTiming]
    private var connectQueue: [Int] = []
    private var connectionIDs = ConnectionIDGenerator()
    private let loop: EventLoop
    private var finishedCount = 0
    private var pingLatency = LatencySamples()
    private var fanoutLatency = LatencySamples()
    private var errors: [String] = []
    private var framesIn = 0
    private var framesOut = 0
    private var held = 0
    private var peakHeld = 0
    private var handshaking = 0
    private var nextPingID = 1
    private var jitter: SplitMix64
    /// Paced games start once every connection is held: owners' starts wait here until the last player is seated,
    /// so the paced figures measure tables playing beside held connections, not the burst of connecting.
    private var heldStarts: [(client: BenchClient, message: ClientMessage)] = []
    /// When the current wake began: frames count as received when the loop saw them, not when it got round to
    /// decoding them, so the latencies are the host's, not the time the bench spends on the other sockets of the wake.
    private var wokeAt: UInt64 { loop.wokeAtNanos }

    init(options: BenchOptions, host: String, port: UInt16) throws {
        self.options = options
        self.host = host
        self.port = port
        // Short wakes: a frame counts as received when the wake that sees it begins, so a long wake would delay
        // the clock of every frame that arrived during it.
        self.loop = try EventLoop(readBudget: 256 * 1024, maxEventsPerWait: 128)
        self.rooms = Array(repeating: RoomTiming(), count: options.rooms)
        self.jitter = SplitMix64(seed: options.seed ^ 0x5DEE_CE66)
        for room in 0..<options.rooms {
            for seat in 0..<options.players {
                let player = BenchPlayer(
                    name: "b\(room)-\(seat)", isOwner: seat == 0, tableSize: options.players,
                    gamesWanted: options.games, seed: options.seed &+ UInt64(room * 64 + seat))
                clients.append(BenchClient(room: room, player: player))
            }
        }
    }

    /// Runs until every game is played, the timeout passes, or nothing is left open.
    func run() -> (wallSeconds: Double, framesIn: Int, framesOut: Int) {
        let start = SystemClock.monotonicNanos()
        var timedOut = false
        loop.arm(afterMs: Int64(options.timeoutSeconds) * 1000) { timedOut = true }
        // Owners first: each opens its room, and its players follow once the room code is known.
        connectQueue = stride(from: 0, to: clients.count, by: options.players).reversed()
        while !timedOut {
            startConnects()
            if !heldStarts.isEmpty && connectQueue.isEmpty && handshaking == 0 { releaseStarts() }
            if finishedCount == clients.count { break }
            if connectQueue.isEmpty && held == 0 && handshaking == 0 { break }
            guard (try? loop.runOnce()) != nil else { break }
        }
        let wall = Double(SystemClock.monotonicNanos() - start) / 1e9
        for client in clients where !client.done {
            fail("room \(client.room) player \(client.player.name) did not finish")
        }
        for client in clients { client.connection?.close() }
        return (wall, framesIn, framesOut)
    }

    func report(wall: Double, daemon: ProcessUsage?) -> BenchReport {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let benchCPU =
            Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
            + Double(usage.ru_stime.tv_usec) / 1e6
        let completed = clients.filter { $0.player.isOwner }.reduce(0) { $0 + $1.player.gamesFinished }
        return BenchReport(
            rooms: options.rooms, playersPerRoom: options.players, gamesPerRoom: options.games,
            connectionsHeld: peakHeld, gamesCompleted: completed, errors: errors.count,
            firstErrors: Array(errors.prefix(5)), wallSeconds: wall, framesIn: framesIn, framesOut: framesOut,
            framesPerSecond: wall > 0 ? Double(framesIn + framesOut) / wall : 0,
            pingP50Ms: pingLatency.percentileMs(0.5), pingP99Ms: pingLatency.percentileMs(0.99),
            pingMaxMs: pingLatency.maxMs, resultFanoutP50Ms: fanoutLatency.percentileMs(0.5),
            resultFanoutP99Ms: fanoutLatency.percentileMs(0.99), resultFanoutMaxMs: fanoutLatency.maxMs,
            resultSamples: fanoutLatency.count, daemonCPUSeconds: daemon?.cpuSeconds,
            daemonPeakRSSMB: daemon.map { Double($0.peakRSSBytes) / 1_048_576 }, benchCPUSeconds: benchCPU)
    }

    // MARK: Connecting

    /// Starts queued connects, a bounded number at a time so the host's accept backlog never overflows.
    private func startConnects() {
        var started = 0
        while let index = connectQueue.last, handshaking < 512, started < 256 {
            let client = clients[index]
            let code = rooms[client.room].code
            connectQueue.removeLast()
            started += 1
            do {
                let connection = try LoopConnection.connect(
                    host: host, port: port, loop: loop, ids: &connectionIDs, maxPayload: 1 << 20, outboxCap: 1 << 20)
                connection.onEvent = { [unowned self, unowned client] event in self.service(client, event) }
                client.connection = connection
                handshaking += 1
                held += 1
                peakHeld = max(peakHeld, held)
                send(client, client.player.hello(room: code))
            } catch {
                fail("connect: \(error)")
                markDone(client)
            }
        }
    }

    // MARK: Serving one ready connection

    private func service(_ client: BenchClient, _ event: LoopConnection.Event) {
        guard let connection = client.connection, !connection.isClosed else { return }
        switch event {
        case .connected:
            return
        case .failed(let error):
            drop(client, reason: connection.isConnecting ? "connect failed: \(error.reason)" : "write failed: \(error)")
            return
        case .readable:
            break
        }
        let outcome: Connection.ReadOutcome
        do {
            outcome = try connection.read()
        } catch {
            drop(client, reason: "read: \(error)")
            return
        }
        while true {
            let payload: [UInt8]?
            do {
                payload = try connection.connection.inbox.next()
            } catch {
                drop(client, reason: "framing: \(error)")
                return
            }
            guard let payload else { break }
            framesIn += 1
            // Decoding every broadcast in full would make the bench, not the host, the bottleneck: skip the
            // frames this player does not act on.
            if let type = FrameSniffer.type(of: payload), !client.player.needsDecoding(type, payload: payload) {
                // The fan-out clock stops on the result's arrival, which needs no decoding at all.
                if type == "vote_result" { resultArrived(in: client.room) }
                continue
            }
            do throws(MessageError) {
                handle(client, try WireCodec.decode(ServerMessage.self, from: payload))
            } catch {
                fail("undecodable frame: \(error.detail)")
            }
        }
        if case .endOfStream = outcome {
            drop(client, reason: client.done ? nil : "host closed the connection")
        }
    }

    private func handle(_ client: BenchClient, _ message: ServerMessage) {
        let now = wokeAt
        switch message {
        case .welcome(let welcome):
            handshaking -= 1
            client.welcomed = true
            if client.player.isOwner {
                rooms[client.room].code = welcome.room
                let first = client.room * options.players
                connectQueue.append(contentsOf: (first + 1..<first + options.players).reversed())
            }
        case .deal:
            ping(client)
        case .pong:
            if let sent = client.pingSentAt {
                pingLatency.add(now - sent)
                client.pingSentAt = nil
            }
        default:
            break
        }
        let (messages, notes) = client.player.receive(message)
        for message in messages {
            if options.thinkMs > 0, case .start = message, !connectQueue.isEmpty || handshaking > 0 {
                heldStarts.append((client, message))
            } else if options.thinkMs > 0, message.isGameMove {
                think(client, message, from: now)
            } else {
                send(client, message)
            }
        }
        for note in notes {
            switch note {
            case .votingOpened(let voters):
                if rooms[client.room].votersExpected != voters || rooms[client.room].lastBallotAt != nil {
                    rooms[client.room].votersExpected = voters
                }
            case .sentBallot:
                // Counted when the ballot really leaves, in `send`.
                break
            case .receivedVoteResult:
                resultArrived(in: client.room)
            case .finished:
                drop(client, reason: nil)
            case .failure(let text):
                fail("\(client.player.name): \(text)")
            }
        }
    }

    /// People do not all answer at once: each move waits between half and one and a half times the thinking time.
    private func think(_ client: BenchClient, _ message: ClientMessage, from now: UInt64) {
        let delayMs = options.thinkMs / 2 + jitter.next(below: options.thinkMs + 1)
        let dueMs = Int64((now + UInt64(delayMs) * 1_000_000 + 999_999) / 1_000_000)
        loop.arm(at: dueMs) { [unowned self, unowned client] in self.send(client, message) }
    }

    private func releaseStarts() {
        let now = SystemClock.monotonicNanos()
        for (client, message) in heldStarts { think(client, message, from: now) }
        heldStarts.removeAll()
    }

    /// Counts a `vote_result` arriving; once every player of the room has it, the fan-out time is a sample.
    private func resultArrived(in room: Int) {
        rooms[room].resultsReceived += 1
        guard rooms[room].resultsReceived == options.players else { return }
        if let sent = rooms[room].lastBallotAt { fanoutLatency.add(wokeAt - sent) }
        rooms[room].lastBallotAt = nil
        rooms[room].ballotsSent = 0
        rooms[room].resultsReceived = 0
    }

    /// Pings at once, and the clock starts when the ping is written, not when it was decided on: a player's ping
    /// does not wait for the other connections this bench serves in the same wake.
    private func ping(_ client: BenchClient) {
        guard client.pingSentAt == nil else { return }
        send(client, .ping(ClientMessage.Ping(id: nextPingID)))
        nextPingID += 1
        client.pingSentAt = SystemClock.monotonicNanos()
        client.connection?.flushNow()
    }

    private func send(_ client: BenchClient, _ message: ClientMessage) {
        guard let connection = client.connection, !connection.isClosed else { return }
        guard let frame = try? WireCodec.encodeFrame(message), connection.send(frame) == .queued else {
            fail("\(client.player.name): cannot queue \(message.type)")
            return
        }
        framesOut += 1
        if case .vote = message {
            rooms[client.room].ballotsSent += 1
            if rooms[client.room].ballotsSent == rooms[client.room].votersExpected {
                rooms[client.room].lastBallotAt = SystemClock.monotonicNanos()
            }
        }
    }

    private func drop(_ client: BenchClient, reason: String?) {
        if let reason { fail("\(client.player.name): \(reason)") }
        if let connection = client.connection, !connection.isClosed {
            connection.close()
            held -= 1
        }
        if !client.welcomed {
            handshaking -= 1
            client.welcomed = true
        }
        markDone(client)
    }

    /// Counts a player as done once, so the loop knows when every game is over without scanning them all.
    private func markDone(_ client: BenchClient) {
        guard !client.done else { return }
        client.done = true
        finishedCount += 1
    }

    private func fail(_ text: String) {
        errors.append(text)
    }
}

extension ClientMessage {
    /// A move a player would think about; heartbeat answers are never delayed.
    fileprivate var isGameMove: Bool {
        switch self {
        case .start, .pass, .vote, .guess, .clue: return true
        default: return false
        }
    }
}
