import Foundation
import Glibc
import SpyBank
import SpyGame
import SpyHost
import SpyNet
import SpyProtocol
import SpyWeb

/// The host: rooms, seats and connections on one thread's `EventLoop`.
///
/// Each wake of the loop reads a bounded amount from each ready peer, turns frames into room events and carries
/// out the rooms' effects into outboxes; at the end of the wake the rooms that changed are saved (`endOfWake`),
/// and only then does the loop flush every outbox written to and close the connections that ended, so nothing is
/// closed under code that still holds its id, and nothing is acknowledged before it is on disk. Every deadline is
/// a timer on the loop, and every time is read from the injected `HostClock`.
///
/// The host's ideas live in files of their own: accepting (here), input and its budget, the handshake, the room
/// registry, saving, sweeps and timers, bots, output, the web path and seat claims.
final class Server {
    let options: HostOptions
    let limits: ServerLimits
    let log: Log
    let loop: EventLoop
    let clock: HostClock
    private let listener: Socket
    private var stopped = false
    private var listenerRegistration: EventLoop.Registration?
    /// The port listened on.
    let port: UInt16
    /// The rooms' journal, when the host keeps its rooms (`--state-dir`).
    let store: DurableRooms?
    let bank: [WordPair]
    let botKnowledge: BotKnowledge
    let pairsFor: (GameSettings) -> [WordPair]
    private var discovery: DiscoveryResponder?
    /// The names the web routes answer to, and what they keep between requests.
    let webSite: WebSite
    /// The bank's categories, sent in every `welcome`.
    let categories: [BankCategory]
    /// Why a choice of language, categories and party pairs leaves too few pairs of the bank, if it does.
    let choiceProblem: (GameSettings) -> String?

    private var connectionIDs = ConnectionIDGenerator()
    var peers: [UInt64: Peer] = [:]
    private var connectionsPerAddress: [String: Int] = [:]
    var rooms: [String: RoomHost] = [:]
    /// Room codes in the order the rooms opened.
    var roomOrder: [String] = []
    var random: SplitMix64
    private let maxConnections: Int

    /// Connections that asked to close in this wake; their bookkeeping ends at the end of the wake.
    var closing: [Peer] = []
    /// Rooms whose snapshot is written at the end of the wake.
    var dirtyRooms: Set<String> = []
    /// The once-a-second sweep over rooms (grace periods, empty rooms, saving retries, rate limits).
    var sweepTimer: TimerID?
    /// Each room's timer of its next deadline, bot move or claim expiry, by room code.
    var roomTimers: [String: TimerID] = [:]
    /// Wrong passwords per address, for the backoff.
    var passwordThrottle = PasswordThrottle()
    /// Rooms opened per address in the last minute.
    var roomOpenings: RoomOpeningRate
    /// Bytes held in unfinished input across every connection (kept under `limits.partialFrameBudget`).
    var partialFrameBytes = 0
    /// Connections cut for the budget since the last warning, and when that warning was logged (monotonic ms).
    var budgetCuts = 0
    var lastBudgetWarning: Int64 = .min / 2

    /// Listens (on `options`' address and port) and registers with `loop`, whose clock the host's times follow;
    /// resumes the rooms `store` holds and opens the host's own. `descriptorLimit` is the process's limit on open
    /// descriptors, which caps the connections held.
    init(
        options: HostOptions, bank: [WordPair], pairsFor: @escaping (GameSettings) -> [WordPair], log: Log,
        loop: EventLoop, clock: HostClock, store: DurableRooms?, descriptorLimit: Int = 1 << 20,
        categories: [BankCategory] = [], choiceProblem: @escaping (GameSettings) -> String? = { _ in nil }
    ) throws {
        self.categories = categories
        self.choiceProblem = choiceProblem
        self.options = options
        self.limits = options.limits
        self.log = log
        self.loop = loop
        self.clock = clock
        self.store = store
        self.bank = bank
        self.botKnowledge = BotVocabulary(pairs: bank).knowledge
        self.pairsFor = pairsFor
        self.webSite = WebSite(
            hostNames: HostNames(machineName: DiscoveryAnswer.systemHostName(), publicNames: options.publicNames))
        self.random = SplitMix64(seed: options.seed ?? SecureRandom.seed())
        self.roomOpenings = RoomOpeningRate(perMinute: options.limits.roomsPerMinute)
        self.maxConnections = max(1, min(limits.maxConnections, descriptorLimit - 64))
        (listener, port) = try Server.listen(options)
        listenerRegistration = try loop.register(fd: listener.fd) { [weak self] _ in self?.acceptConnections() }
        if options.discovery {
            discovery = DiscoveryResponder(bind: options.bind, port: port, loop: loop, log: log) { [weak self] in
                self?.discoveryAnswer()
            }
        }
        loop.beforeFlush = { [weak self] in self?.endOfWake() }
        try resumeRooms()
        while roomOrder.filter({ rooms[$0]?.permanent == true }).count < options.rooms {
            _ = openRoom(permanent: true)
        }
        if options.bots > 0, let first = roomOrder.first.flatMap({ rooms[$0] }), !first.hasBots {
            first.botsToAdd = options.bots
            if first.room.playerIDs.contains(where: { !first.room.isBot($0) }) { seatBots(in: first) }
        }
        armSweep(at: clock.monoMs())
        loop.finishIteration()
    }

    deinit {
        if !stopped {
            listener.close()
            discovery?.close()
        }
    }

    /// The listening socket; a port already taken is said in words a host can act on.
    private static func listen(_ options: HostOptions) throws -> (Socket, UInt16) {
        let result = Result { () throws(SocketError) in try Socket.listen(host: options.bind, port: options.port) }
        if case .failure(let error) = result, error.code == EADDRINUSE {
            let address = options.bind.map { $0.contains(":") ? "[\($0)]" : $0 } ?? "every interface"
            throw StartupError("port \(options.port) on \(address) is already in use; choose another with --port")
        }
        return try result.get()
    }

    // MARK: Accepting

    private func acceptConnections() {
        for _ in 0..<256 {
            let accepted: (socket: Socket, address: String)?
            do {
                accepted = try listener.accept()
            } catch {
                log.warning("accept failed (\(error)); pausing new connections for 100 ms")
                pauseAccepting(forMs: 100)
                return
            }
            guard let (socket, address) = accepted else { return }
            let sameAddress = connectionsPerAddress[address, default: 0]
            if peers.count >= maxConnections || (limits.maxPerAddress > 0 && sameAddress >= limits.maxPerAddress) {
                if let frame = encode(.error(.init(.tooManyConnections)))?.framed {
                    _ = frame.withUnsafeBytes { try? socket.write($0) }
                }
                socket.close()
                log.warning("refused a connection from \(address): too many connections")
                continue
            }
            socket.setNoDelay()
            if limits.socketBufferBytes > 0 {
                var size = Int32(limits.socketBufferBytes)
                setsockopt(socket.fd, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            }
            let connection = Connection(
                id: connectionIDs.next(), socket: socket, remoteAddress: address,
                maxPayload: limits.maxHelloFrameBytes, outboxCap: limits.maxOutputBytes)
            let link: LoopConnection
            do {
                link = try LoopConnection(loop: loop, connection: connection)
            } catch {
                log.warning("cannot watch a connection from \(address): \(error)")
                connection.close()
                continue
            }
            let now = clock.monoMs()
            let peer = Peer(link: link, stage: .greeting(deadline: now + Int64(limits.helloSeconds) * 1000), now: now)
            link.onEvent = { [weak self, weak peer] event in
                guard let self, let peer, self.peers[peer.id] === peer else { return }
                self.connectionEvent(event, on: peer)
            }
            peers[connection.id] = peer
            connectionsPerAddress[address] = sameAddress + 1
            armPeerTimer(peer)
            log.debug("connection \(connection.id) from \(address)")
        }
    }

    /// Leaves the listener out of the wait for a while (the process is out of descriptors, say).
    private func pauseAccepting(forMs delay: Int64) {
        guard let registration = listenerRegistration else { return }
        try? loop.update(registration, read: false, write: false)
        loop.arm(at: clock.monoMs() + delay) { [weak self] in
            guard let self, let registration = self.listenerRegistration else { return }
            try? self.loop.update(registration, read: true, write: false)
        }
    }

    private func connectionEvent(_ event: LoopConnection.Event, on peer: Peer) {
        switch event {
        case .readable:
            read(from: peer)
        case .failed(let error):
            log.debug("connection \(peer.id) write failed: \(error)")
            drop(peer)
        case .connected:
            break
        }
    }

    /// The end of every wake, before the loop flushes: the rooms that changed are saved (see `saveChangedRooms`),
    /// then the connections that ended leave the host's books; the loop writes their last bytes and closes them.
    private func endOfWake() {
        saveChangedRooms()
        let ended = closing
        closing.removeAll(keepingCapacity: true)
        for peer in ended {
            guard peers[peer.id] === peer else { continue }
            peers[peer.id] = nil
            releaseInput(peer)
            loop.cancel(peer.timer)
            peer.timer = nil
            let address = peer.connection.remoteAddress
            if let count = connectionsPerAddress[address] {
                connectionsPerAddress[address] = count > 1 ? count - 1 : nil
            }
            log.debug("connection \(peer.id) closed")
        }
    }

    // MARK: Shutdown

    /// Says goodbye to every connection, saves every room, and gives the goodbyes a second to leave.
    func shutDown() {
        guard !stopped else { return }
        stopped = true
        log.info("shutting down: telling \(peers.count) connections, saving \(rooms.count) rooms")
        for peer in peers.values where !peer.isLingering {
            send(.bye(.init(reason: "host_closing")), to: peer)
            queueWebSocketClose(peer, .goingAway, "host_closing")
            peer.stage = .lingering(until: 0)
        }
        for code in roomOrder { dirtyRooms.insert(code) }
        loop.finishIteration()
        // The kernel takes the last bytes in real time, whatever clock the rules run on.
        let deadline = MonotonicClock.nowMs() + 1000
        for peer in peers.values where peer.connection.hasPendingOutput {
            let left = deadline - MonotonicClock.nowMs()
            guard left > 0 else { break }
            peer.link.drain(timeoutMs: Int(left))
        }
        for peer in peers.values {
            loop.cancel(peer.timer)
            peer.link.close()
        }
        peers.removeAll()
        loop.cancel(sweepTimer)
        for timer in roomTimers.values { loop.cancel(timer) }
        roomTimers.removeAll()
        if let listenerRegistration { loop.unregister(listenerRegistration) }
        listenerRegistration = nil
        listener.close()
        discovery?.close()
        loop.beforeFlush = nil
        log.info("stopped")
    }
}

@available(*, unavailable)
extension Server: Sendable {}
