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
    /// Position in the run's client list.
    let index: Int
    var player: BenchPlayer
    var connection: Connection?
    var connecting = false
    var welcomed = false
    var pingSentAt: UInt64?
    /// Set once, by `LoadRun.markDone`, which also counts it.
    var done = false
    /// Whether the poller watches for writability (while connecting or while output waits).
    var watchingWrite = false
    /// Whether the client is on the list of outboxes to flush at the end of this wake.
    var queuedForFlush = false

    init(room: Int, index: Int, player: BenchPlayer) {
        self.room = room
        self.index = index
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

/// Plays `rooms × players` bot clients against a host over real TCP in one poll loop.
final class LoadRun {
    private let options: BenchOptions
    private let host: String
    private let port: UInt16
    private var clients: [BenchClient] = []
    private var rooms: [RoomTiming]
    private var connectQueue: [Int] = []
    private var connectionIDs = ConnectionIDGenerator()
    private let poller: Epoll
    private var finishedCount = 0
    /// Clients whose outbox got bytes in this wake.
    private var toFlush: [BenchClient] = []
    private var pingLatency = LatencySamples()
    private var fanoutLatency = LatencySamples()
    private var errors: [String] = []
    private var framesIn = 0
    private var framesOut = 0
    private var held = 0
    private var peakHeld = 0
    private var handshaking = 0
    private var nextPingID = 1
    /// Moves waiting out the players' thinking time, in the order they fall due.
    private var thinking: [(due: UInt64, client: Int, message: ClientMessage)] = []
    private var thinkingStart = 0
    private var jitter: SplitMix64
    /// When the current poll wake began.
    private var wokeAt: UInt64 = 0

    init(options: BenchOptions, host: String, port: UInt16) throws {
        self.options = options
        self.host = host
        self.port = port
        self.poller = try Epoll()
        self.rooms = Array(repeating: RoomTiming(), count: options.rooms)
        self.jitter = SplitMix64(seed: options.seed ^ 0x5DEE_CE66)
        for room in 0..<options.rooms {
            for seat in 0..<options.players {
                let player = BenchPlayer(
                    name: "b\(room)-\(seat)", isOwner: seat == 0, tableSize: options.players,
                    gamesWanted: options.games, seed: options.seed &+ UInt64(room * 64 + seat))
                clients.append(BenchClient(room: room, index: clients.count, player: player))
            }
        }
    }

    /// Runs until every game is played, the timeout passes, or nothing is left open.
    func run() -> (wallSeconds: Double, framesIn: Int, framesOut: Int) {
        let start = MonotonicClock.nowNanos()
        let deadline = start + UInt64(options.timeoutSeconds) * 1_000_000_000
        // Owners first: each opens its room, and its players follow once the room code is known.
        connectQueue = stride(from: 0, to: clients.count, by: options.players).reversed()
        var scratch = [UInt8](repeating: 0, count: 64 * 1024)
        while MonotonicClock.nowNanos() < deadline {
            startConnects()
            flushQueued()
            if finishedCount == clients.count { break }
            if connectQueue.isEmpty && held == 0 && handshaking == 0 { break }
            guard let (ready, _) = try? poller.wait(timeoutMs: pollTimeout()) else { break }
            // Frames count as received when the poll saw them, not when this loop got round to decoding them:
            // the latencies are the host's, not the time the bench spends on the other sockets of the wake.
            wokeAt = MonotonicClock.nowNanos()
            sendMovesDue()
            scratch.withUnsafeMutableBytes { buffer in
                for readiness in ready { service(Int(readiness.token), readiness, scratch: buffer) }
            }
        }
        let wall = Double(MonotonicClock.nowNanos() - start) / 1e9
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
                let (socket, inProgress) = try Socket.connectNonBlocking(host: host, port: port)
                do {
                    try poller.add(fd: socket.fd, token: UInt64(index), read: !inProgress, write: inProgress)
                } catch {
                    socket.close()
                    throw error
                }
                socket.setNoDelay()
                client.connection = Connection(
                    id: connectionIDs.next(), socket: socket, remoteAddress: host, maxPayload: 1 << 20,
                    outboxCap: 1 << 20)
                client.connecting = inProgress
                client.watchingWrite = inProgress
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

    private func service(_ index: Int, _ readiness: PollReadiness, scratch: UnsafeMutableRawBufferPointer) {
        let client = clients[index]
        guard let connection = client.connection, !connection.isClosed else { return }
        if client.connecting {
            guard readiness.writable || readiness.failed else { return }
            let error = connection.socket.pendingError()
            guard error == 0 else {
                drop(client, reason: "connect failed: \(String(cString: strerror(error)))")
                return
            }
            client.connecting = false
            flush(client)
            return
        }
        if readiness.writable { flush(client) }
        guard readiness.readable || readiness.failed else { return }
        let outcome: Connection.ReadOutcome
        do {
            outcome = try connection.readAvailable(budget: 256 * 1024, scratch: scratch)
        } catch {
            drop(client, reason: "read: \(error)")
            return
        }
        while true {
            let payload: [UInt8]?
            do {
                payload = try connection.inbox.next()
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
            pingSentAt(client, MonotonicClock.nowNanos())
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
            if options.thinkMs > 0, message.isGameMove {
                // People do not all answer at once: each move waits between half and one and a half times the
                // thinking time.
                let delayMs = options.thinkMs / 2 + jitter.next(below: options.thinkMs + 1)
                insertThinking((now + UInt64(delayMs) * 1_000_000, client.index, message))
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

    /// Counts a `vote_result` arriving; once every player of the room has it, the fan-out time is a sample.
    private func resultArrived(in room: Int) {
        rooms[room].resultsReceived += 1
        guard rooms[room].resultsReceived == options.players else { return }
        if let sent = rooms[room].lastBallotAt { fanoutLatency.add(wokeAt - sent) }
        rooms[room].lastBallotAt = nil
        rooms[room].ballotsSent = 0
        rooms[room].resultsReceived = 0
    }

    private func pingSentAt(_ client: BenchClient, _ now: UInt64) {
        guard client.pingSentAt == nil else { return }
        client.pingSentAt = now
        send(client, .ping(ClientMessage.Ping(id: nextPingID)))
        nextPingID += 1
    }

    private func send(_ client: BenchClient, _ message: ClientMessage) {
        guard let connection = client.connection, !connection.isClosed else { return }
        guard let frame = try? WireCodec.encodeFrame(message), connection.enqueue(frame) == .queued else {
            fail("\(client.player.name): cannot queue \(message.type)")
            return
        }
        framesOut += 1
        if !client.queuedForFlush {
            client.queuedForFlush = true
            toFlush.append(client)
        }
        if case .vote = message {
            rooms[client.room].ballotsSent += 1
            if rooms[client.room].ballotsSent == rooms[client.room].votersExpected {
                rooms[client.room].lastBallotAt = MonotonicClock.nowNanos()
            }
        }
    }

    private func flushQueued() {
        let queued = toFlush
        toFlush.removeAll(keepingCapacity: true)
        for client in queued {
            client.queuedForFlush = false
            flush(client)
        }
    }

    /// Writes what the client's outbox holds and watches for writability only while some of it is left.
    private func flush(_ client: BenchClient) {
        guard let connection = client.connection, !connection.isClosed, !client.connecting else { return }
        do {
            let drained = try connection.flush()
            if drained == client.watchingWrite {
                try poller.modify(fd: connection.socket.fd, token: UInt64(client.index), read: true, write: !drained)
                client.watchingWrite = !drained
            }
        } catch {
            drop(client, reason: "write failed: \(error)")
        }
    }

    /// Milliseconds until the next thinking player moves (at most 200).
    private func pollTimeout() -> Int32 {
        guard thinkingStart < thinking.count else { return 200 }
        let now = MonotonicClock.nowNanos()
        let due = thinking[thinkingStart].due
        return due <= now ? 0 : Int32(min(200, (due - now) / 1_000_000 + 1))
    }

    /// Keeps `thinking` ordered by due time (moves mostly arrive in order, so the scan from the end is short).
    private func insertThinking(_ move: (due: UInt64, client: Int, message: ClientMessage)) {
        var position = thinking.count
        while position > thinkingStart, thinking[position - 1].due > move.due { position -= 1 }
        thinking.insert(move, at: position)
    }

    private func sendMovesDue() {
        let now = MonotonicClock.nowNanos()
        while thinkingStart < thinking.count, thinking[thinkingStart].due <= now {
            let move = thinking[thinkingStart]
            thinkingStart += 1
            send(clients[move.client], move.message)
        }
        if thinkingStart == thinking.count {
            thinking.removeAll(keepingCapacity: true)
            thinkingStart = 0
        }
    }

    private func drop(_ client: BenchClient, reason: String?) {
        if let reason { fail("\(client.player.name): \(reason)") }
        if let connection = client.connection, !connection.isClosed {
            poller.remove(fd: connection.socket.fd)
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
