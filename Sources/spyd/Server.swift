import Foundation
import Glibc
import SpyBank
import SpyGame
import SpyNet
import SpyProtocol
import SpyWeb

/// The daemon's event loop: one thread, non-blocking sockets, `epoll(7)`.
///
/// Each iteration waits for readiness or the next deadline, reads a bounded amount from each ready peer, turns
/// frames into room events, carries out the rooms' effects into outboxes, saves the rooms that changed, flushes
/// every outbox it touched, and only then closes the connections that ended — so nothing is closed under code
/// that still holds its id, and nothing is acknowledged before it is on disk.
final class Server {
    let options: HostOptions
    let limits: ServerLimits
    let log: Log
    private let poller: Epoll
    /// Whether the listener is in the interest list (it leaves while accepting is paused).
    private var listenerWatched = false
    private let listener: Socket
    /// The port listened on.
    let port: UInt16
    private let store: StateStore?
    private let bank: [WordPair]
    private let botKnowledge: BotKnowledge
    private let pairsFor: (GameSettings) -> [WordPair]
    private let status: StatusScreen?
    private var discovery: DiscoveryResponder?
    /// The names the web routes answer to, and what they keep between requests.
    let webSite: WebSite
    /// The bank's categories, sent in every `welcome`.
    let categories: [BankCategory]
    /// Why a choice of language, categories and party pairs leaves too few pairs of the bank, if it does.
    private let choiceProblem: (GameSettings) -> String?

    private var connectionIDs = ConnectionIDGenerator()
    private(set) var peers: [UInt64: Peer] = [:]
    private var connectionsPerAddress: [String: Int] = [:]
    private(set) var rooms: [String: RoomHost] = [:]
    /// Room codes in the order the rooms opened.
    private(set) var roomOrder: [String] = []
    private var random: SplitMix64
    private let maxConnections: Int

    private var toFlush: [UInt64] = []
    private var toClose: [UInt64] = []
    private var dirtyRooms: Set<String> = []
    /// Wall ms of the earliest room deadline or bot move.
    var nextRoomWake: Int64 = .max
    /// Monotonic ms of the next sweep over connections and rooms.
    var nextSweep: Int64 = 0
    private var acceptPausedUntil: Int64 = 0
    /// Wrong passwords per address, for the backoff.
    private var passwordThrottle = PasswordThrottle()
    /// Rooms opened per address in the last minute.
    private var roomOpenings: RoomOpeningRate
    /// Bytes held in unfinished frames across every connection (kept under `limits.partialFrameBudget`).
    private var partialFrameBytes = 0
    /// Connections cut for the budget since the last warning, and when that warning was logged (monotonic ms).
    private var budgetCuts = 0
    private var lastBudgetWarning: Int64 = .min / 2
    private let scratch: UnsafeMutableRawBufferPointer
    private let readBudget = 64 * 1024

    init(
        options: HostOptions, bank: [WordPair], pairsFor: @escaping (GameSettings) -> [WordPair], log: Log,
        status: StatusScreen?, categories: [BankCategory] = [],
        choiceProblem: @escaping (GameSettings) -> String? = { _ in nil }
    ) throws {
        self.categories = categories
        self.choiceProblem = choiceProblem
        self.options = options
        self.limits = options.limits
        self.log = log
        self.bank = bank
        self.botKnowledge = BotVocabulary(pairs: bank).knowledge
        self.pairsFor = pairsFor
        self.status = status
        self.webSite = WebSite(
            hostNames: HostNames(machineName: DiscoveryAnswer.systemHostName(), publicNames: options.publicNames))
        self.random = SplitMix64(seed: options.seed ?? SecureRandom.seed())
        self.roomOpenings = RoomOpeningRate(perMinute: options.limits.roomsPerMinute)
        let descriptorLimit = ProcessSetup.raiseDescriptorLimit()
        self.maxConnections = max(1, min(limits.maxConnections, descriptorLimit - 64))
        poller = try Epoll()
        ProcessSetup.installSignalHandlers(wakeDescriptor: poller.wakeWriteFD)
        if let directory = options.stateDirectory {
            store = try StateStore(directory: directory)
        } else {
            store = nil
        }
        (listener, port) = try Server.listen(options)
        try poller.add(fd: listener.fd, token: 0)
        listenerWatched = true
        if options.discovery {
            discovery = DiscoveryResponder(bind: options.bind, port: port, poller: poller, log: log)
        }
        scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        try resumeRooms()
        while roomOrder.filter({ rooms[$0]?.permanent == true }).count < options.rooms {
            _ = openRoom(permanent: true)
        }
        if options.bots > 0, let first = roomOrder.first.flatMap({ rooms[$0] }), !first.hasBots {
            first.botsToAdd = options.bots
            if first.room.playerIDs.contains(where: { !first.room.isBot($0) }) { seatBots(in: first) }
        }
        finishIteration()
    }

    deinit {
        scratch.deallocate()
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

    // MARK: Loop

    /// Serves until SIGINT or SIGTERM; returns the exit status.
    func run() -> Int32 {
        while true {
            if ProcessSetup.stopSignal != 0 {
                shutDown()
                return 0
            }
            runTimers()
            finishIteration()
            status?.refresh(summary: statusSummary())
            let timeout = pollTimeout()
            let accepting = MonotonicClock.nowMs() >= acceptPausedUntil
            if accepting != listenerWatched {
                try? poller.modify(fd: listener.fd, token: 0, read: accepting)
                listenerWatched = accepting
            }
            let ready: [PollReadiness]
            do {
                ready = try poller.wait(timeoutMs: timeout).ready
            } catch {
                log.error("epoll_wait failed: \(error)")
                return 70
            }
            serve(ready)
            // Input that arrived while that batch was served is served too before anything is written: a table's
            // ballots land microseconds apart, and each one served alone would cost a write to every seat.
            var extraPolls = 0
            while !ready.isEmpty, extraPolls < Self.extraPollsPerWake {
                extraPolls += 1
                guard let more = try? poller.wait(timeoutMs: 0).ready, !more.isEmpty else { break }
                serve(more)
            }
            finishIteration()
        }
    }

    /// How many times one wake looks again for input before writing what it owes.
    private static let extraPollsPerWake = 2

    private func serve(_ ready: [PollReadiness]) {
        for event in ready {
            if event.token == 0 {
                acceptConnections()
                continue
            }
            if let discovery, discovery.owns(event.token) {
                discovery.readable(token: event.token) { discoveryAnswer() }
                continue
            }
            guard let peer = peers[event.token] else { continue }
            if event.writable { queueFlush(peer) }
            if event.readable || event.failed { read(from: peer) }
        }
    }

    private func pollTimeout() -> Int32 {
        let nowMono = MonotonicClock.nowMs()
        var wait = nextSweep - nowMono
        if nextRoomWake != .max { wait = min(wait, nextRoomWake - WallClock.nowMs()) }
        if acceptPausedUntil > nowMono { wait = min(wait, acceptPausedUntil - nowMono) }
        if let status, status.isActive { wait = min(wait, 1000) }
        return Int32(clamping: max(0, wait))
    }

    /// Saves changed rooms, then flushes every touched outbox, then closes what ended this iteration.
    private func finishIteration() {
        if store != nil, !dirtyRooms.isEmpty {
            for code in dirtyRooms {
                guard let host = rooms[code] else { continue }
                _ = persist(host)
            }
        }
        dirtyRooms.removeAll(keepingCapacity: true)
        let flushing = toFlush
        toFlush.removeAll(keepingCapacity: true)
        for id in flushing {
            guard let peer = peers[id] else { continue }
            peer.queuedForFlush = false
            flush(peer)
        }
        let closing = toClose
        toClose.removeAll(keepingCapacity: true)
        for id in closing {
            guard let peer = peers.removeValue(forKey: id) else { continue }
            releaseInput(peer)
            let address = peer.connection.remoteAddress
            if let count = connectionsPerAddress[address] {
                connectionsPerAddress[address] = count > 1 ? count - 1 : nil
            }
            poller.remove(fd: peer.connection.socket.fd)
            peer.connection.close()
            log.debug("connection \(id) closed")
        }
    }

    func queueFlush(_ peer: Peer) {
        guard !peer.queuedForFlush else { return }
        peer.queuedForFlush = true
        toFlush.append(peer.id)
    }

    private func flush(_ peer: Peer) {
        do {
            let drained = try peer.connection.flush()
            if drained, peer.isLingering, !peer.writeShut {
                peer.writeShut = true
                peer.connection.socket.shutdownWrite()
            }
            // Ask for POLLOUT only while output waits, or every wait would report the idle socket as writable.
            if drained == peer.watchingWrite {
                try poller.modify(fd: peer.connection.socket.fd, token: peer.id, read: true, write: !drained)
                peer.watchingWrite = !drained
            }
        } catch {
            log.debug("connection \(peer.id) write failed: \(error)")
            drop(peer)
        }
    }

    // MARK: Accepting

    private func acceptConnections() {
        for _ in 0..<256 {
            let accepted: (socket: Socket, address: String)?
            do {
                accepted = try listener.accept()
            } catch {
                log.warning("accept failed (\(error)); pausing new connections for 100 ms")
                acceptPausedUntil = MonotonicClock.nowMs() + 100
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
            let now = MonotonicClock.nowMs()
            let connection = Connection(
                id: connectionIDs.next(), socket: socket, remoteAddress: address,
                maxPayload: limits.maxHelloFrameBytes, outboxCap: limits.maxOutputBytes)
            let deadline = now + Int64(limits.helloSeconds) * 1000
            do {
                try poller.add(fd: socket.fd, token: connection.id)
            } catch {
                log.warning("cannot watch a connection from \(address): \(error)")
                connection.close()
                continue
            }
            peers[connection.id] = Peer(connection: connection, stage: .greeting(deadline: deadline), now: now)
            connectionsPerAddress[address] = sameAddress + 1
            nextSweep = min(nextSweep, deadline)
            log.debug("connection \(connection.id) from \(address)")
        }
    }

    // MARK: Reading

    private func read(from peer: Peer) {
        if peer.isLingering {
            drainLingering(peer)
            return
        }
        let outcome: Connection.ReadOutcome
        do {
            outcome = try peer.connection.readAvailable(budget: readBudget, scratch: scratch) { peer.accept($0) }
        } catch {
            log.debug("connection \(peer.id) read failed: \(error)")
            drop(peer)
            return
        }
        while !peer.isLingering, peers[peer.id] != nil, let input = peer.nextInput() {
            switch input {
            case .message(let payload):
                receive(payload, from: peer)
            case .badFrame:
                if case .greeting = peer.stage {
                    fail(peer, .frameTooLarge, "Before hello a frame may be 1 to \(limits.maxHelloFrameBytes) bytes.")
                } else {
                    fail(peer, .frameTooLarge)
                }
                return
            case .request, .refused, .control, .webSocketFailed:
                handleWeb(input, from: peer)
            }
        }
        if case .endOfStream = outcome, !peer.isLingering {
            log.debug("connection \(peer.id) closed by peer")
            drop(peer)
        }
        accountInput(peer)
    }

    /// Keeps the total of bytes held in unfinished frames up to date after `peer`'s input changed, and when it
    /// passes the budget, cuts the connections holding the largest ones until the rest fits.
    private func accountInput(_ peer: Peer) {
        let held = peer.isLingering ? 0 : peer.unfinishedInputBytes
        partialFrameBytes += held - peer.heldInputBytes
        peer.heldInputBytes = held
        guard partialFrameBytes > limits.partialFrameBudget else { return }
        let holders = peers.values.filter { $0.heldInputBytes > 0 }.map { (id: $0.id, bytes: $0.heldInputBytes) }
        let victims = PartialFrameBudget.connectionsToCut(held: holders, budget: limits.partialFrameBudget)
        let now = MonotonicClock.nowMs()
        budgetCuts += victims.count
        if now - lastBudgetWarning >= 10_000 {
            lastBudgetWarning = now
            log.warning(
                "unfinished frames passed the budget of \(limits.partialFrameBudget) bytes; cut \(budgetCuts) "
                    + "connection(s) holding the most (logged at most every 10 s)")
            budgetCuts = 0
        }
        for id in victims {
            guard let victim = peers[id] else { continue }
            if victim.transport == .http {
                answer(victim, .problem(.headersTooLarge, "The host holds too much unfinished input."))
                continue
            }
            fail(victim, .frameTooLarge, "The host holds too many unfinished frames, and yours was among the largest.")
            releaseInput(victim)
        }
    }

    /// Drops the unread input of a finished connection, so its memory is free before the socket closes.
    private func releaseInput(_ peer: Peer) {
        partialFrameBytes -= peer.heldInputBytes
        peer.heldInputBytes = 0
        if peer.connection.inbox.bufferedByteCount > 0 || peer.connection.inbox.capacity > 0 {
            peer.connection.inbox = FrameDecoder(maxPayload: peer.connection.inbox.maxPayload)
        }
        if let webSocket = peer.webSocket, webSocket.bufferedByteCount > 0 {
            peer.webSocket = WebSocketDecoder(maxMessage: webSocket.maxMessage)
        }
        if peer.httpRequest.bufferedByteCount > 0 { peer.httpRequest = HTTPRequestParser() }
    }

    private func drainLingering(_ peer: Peer) {
        // What a closing peer still sends is dropped, within the same budget as any read: a peer that never stops
        // sending would otherwise hold the loop here, and every other connection with it, until it paused.
        switch try? peer.connection.readAvailable(budget: readBudget, scratch: scratch, deliver: { _ in }) {
        case .open: return
        case .endOfStream, nil: closeSoon(peer)
        }
    }

    func receive(_ payload: [UInt8], from peer: Peer) {
        peer.lastHeard = MonotonicClock.nowMs()
        peer.probed = false
        let message: ClientMessage
        do {
            message = try ClientMessage.read(from: payload)
        } catch {
            complain(peer, error.code, error.detail)
            return
        }
        switch peer.stage {
        case .greeting:
            guard case .hello(let hello) = message else {
                fail(peer, .helloRequired)
                return
            }
            greet(peer, hello)
        case .seated(let code, let player):
            guard let host = rooms[code] else {
                fail(peer, .roomNotFound)
                return
            }
            handle(message, from: peer, player: player, in: host)
        case .watching:
            unseatedSent(message, from: peer, refusal: "A watcher has no seat.")
        case .claiming:
            unseatedSent(
                message, from: peer, refusal: "Your claim of a seat has not been answered yet.")
        case .lingering:
            return
        }
    }

    private func handle(_ message: ClientMessage, from peer: Peer, player: PlayerID, in host: RoomHost) {
        switch message {
        case .hello:
            complain(peer, .alreadyJoined, nil)
        case .ping(let ping):
            send(.pong(.init(id: ping.id)), to: peer)
        case .pong:
            break
        case .start:
            if let problem = choiceProblem(host.room.settings), host.room.ownerID == player {
                complain(peer, .badSettings, problem)
                return
            }
            let pairs = pairsFor(host.room.settings)
            guard !pairs.isEmpty else {
                complain(peer, .badSettings, BankFilter.emptyReason(bank, for: host.room.settings))
                return
            }
            apply(.start(by: player, pairs: pairs), to: host, from: peer)
        case .leave:
            apply(.leave(player), to: host, from: peer)
        case .settings(let change)
        where host.room.ownerID == player
            && (change.language != nil || change.categories != nil || change.allowParty != nil):
            // The rules engine does not know the bank; a choice that leaves too few pairs is refused here.
            if let problem = choiceProblem(host.room.settings.merging(change)) {
                complain(peer, .badSettings, problem)
                return
            }
            apply(.move(player, message), to: host, from: peer)
        case .settings, .clue, .pass, .vote, .guess, .kick:
            apply(.move(player, message), to: host, from: peer)
        case .claimAnswer(let answer):
            answerClaim(answer, from: player, in: host, peer: peer)
        }
    }

    // MARK: Handshake

    private func greet(_ peer: Peer, _ hello: ClientMessage.Hello) {
        guard supportedProtocolVersions.contains(hello.protocol) else {
            fail(peer, .protocolVersion)
            return
        }
        if let problem = PlayerText.helloProblem(hello) {
            complain(peer, .badMessage, problem)
            return
        }
        if hello.watch == true {
            watch(peer, hello)
            return
        }
        if let token = hello.token, !token.isEmpty {
            resume(peer, token: token, roomText: hello.room)
            return
        }
        let host: RoomHost
        var opened = false
        if hello.create == true {
            guard rooms.count < limits.maxRooms else {
                fail(peer, .tooManyRooms)
                return
            }
            guard passwordAccepted(hello.password, from: peer), mayOpenRoom(peer) else { return }
            host = openRoom(permanent: false, openedBy: peer.connection.remoteAddress)
            opened = true
        } else if let found = roomAsked(by: hello, from: peer) {
            host = found
        } else {
            return
        }
        if !opened, !passwordAccepted(hello.password, from: peer) { return }
        if !opened, let claimed = hello.claim ?? host.room.awaySeat(matchingName: hello.name) {
            openClaim(of: claimed, by: peer, named: hello.name, in: host)
            return
        }
        let before = host.room
        switch host.room.apply(.join(name: hello.name, bot: false), now: WallClock.nowMs()) {
        case .failure(let rejection):
            fail(peer, rejection.code, rejection.message)
            if opened { closeRoom(host, reason: nil) }
        case .success(let effects):
            guard
                let player = effects.lazy.compactMap({ effect -> PlayerID? in
                    if case .joined(let id) = effect { return id }
                    return nil
                }).first
            else {
                log.error("room \(host.code) accepted a join without naming the seat")
                fail(peer, .internal)
                return
            }
            let token = ResumeToken.make()
            host.tokens[player] = token
            // The seat (and for a new room, the room) exists only once it is on disk.
            guard persist(host) else {
                host.room = before
                host.tokens[player] = nil
                fail(peer, .hostStorage, "The host cannot save right now, so you were not seated; try again shortly.")
                if opened { closeRoom(host, reason: nil) }
                return
            }
            if !opened { host.joinedByOthers = true }
            seat(peer, as: player, in: host)
            send(
                .welcome(.init(you: player, token: token, room: host.code, resumed: false, categories: categories)),
                to: peer)
            log.debug("room \(host.code): \(player) seated from \(peer.connection.remoteAddress)")
            carryOut(effects, in: host)
            if host.botsToAdd > 0 { seatBots(in: host) }
        }
    }

    /// The room a `hello` names by its code, or the host's own room when it names none; `nil` (after failing the
    /// peer) when there is no such room.
    func roomAsked(by hello: ClientMessage.Hello, from peer: Peer) -> RoomHost? {
        guard let text = hello.room, !text.isEmpty else { return hostsOwnRoom(for: peer) }
        guard let code = RoomCode.normalise(text), let found = rooms[code] else {
            fail(peer, .roomNotFound)
            return nil
        }
        return found
    }

    /// The room a `hello` without a code goes to: the one the host opened at start, when it opened exactly one.
    /// Rooms clients opened are reached by their code only, so one of them never hides the host's own room. `nil`
    /// (after failing the peer) when there is no such room.
    func hostsOwnRoom(for peer: Peer) -> RoomHost? {
        let own = roomOrder.compactMap { rooms[$0] }.filter(\.permanent)
        guard own.count == 1 else {
            fail(peer, own.isEmpty ? .roomNotFound : .roomRequired)
            return nil
        }
        return own[0]
    }

    /// Checks the host's password (when it has one), with a growing wait for an address that keeps guessing.
    func passwordAccepted(_ given: String?, from peer: Peer) -> Bool {
        guard let password = options.password else { return true }
        let address = peer.connection.remoteAddress
        let now = MonotonicClock.nowMs()
        if let wait = passwordThrottle.waitMs(for: address, now: now) {
            passwordThrottle.recordRefusal(address)
            let seconds = (wait + 999) / 1000
            fail(peer, .tooManyAttempts, "Too many wrong passwords from your address; try again in \(seconds) s.")
            return false
        }
        if ResumeToken.matches(given ?? "", password) {
            passwordThrottle.recordSuccess(address)
            return true
        }
        if passwordThrottle.recordFailure(address, now: now) {
            log.warning("wrong password from \(address); more from it are slowed down and summed up when they stop")
        }
        fail(peer, .wrongPassword)
        return false
    }

    /// Whether the peer's address may open another room (how many it holds, how many it opened lately).
    private func mayOpenRoom(_ peer: Peer) -> Bool {
        let address = peer.connection.remoteAddress
        if limits.maxRoomsPerAddress > 0,
            rooms.values.count(where: { $0.openedBy == address }) >= limits.maxRoomsPerAddress
        {
            fail(
                peer, .tooManyRooms,
                "Your address already has \(limits.maxRoomsPerAddress) rooms open; join one with its code.")
            return false
        }
        guard roomOpenings.allow(address, now: MonotonicClock.nowMs()) else {
            fail(peer, .tooManyRooms, "Your address opened too many rooms in the last minute; wait a little.")
            return false
        }
        return true
    }

    private func resume(_ peer: Peer, token: String, roomText: String?) {
        // The token names its seat: a wrong or mistyped room code must not cost a player a live seat, so the
        // code is not used to narrow the search.
        let candidates = roomOrder.compactMap { rooms[$0] }
        var match: (RoomHost, PlayerID)?
        for host in candidates {
            for (player, known) in host.tokens where ResumeToken.matches(token, known) {
                match = (host, player)
            }
        }
        guard let (host, player) = match, host.room.playerIDs.contains(player) else {
            log.info("refused a resume with an unknown token from \(peer.connection.remoteAddress)")
            fail(peer, .badToken)
            return
        }
        if let oldID = host.peers[player], let old = peers[oldID] {
            host.peers[player] = nil
            fail(old, .replaced, notifyRoom: false)
        }
        seat(peer, as: player, in: host)
        host.absentSince[player] = nil
        send(
            .welcome(.init(you: player, token: token, room: host.code, resumed: true, categories: categories)), to: peer
        )
        log.info("room \(host.code): \(player) resumed from \(peer.connection.remoteAddress)")
        if let roomText, !roomText.isEmpty, RoomCode.normalise(roomText) != host.code {
            log.debug("room \(host.code): \(player)'s hello named another room; the token decides")
        }
        apply(.connected(player), to: host, from: nil)
    }

    func seat(_ peer: Peer, as player: PlayerID, in host: RoomHost) {
        peer.connection.inbox.maxPayload = FrameLimits.defaultMaxPayload
        peer.stage = .seated(room: host.code, player: player)
        host.peers[player] = peer.id
        host.emptySince = nil
    }

    private func seatBots(in host: RoomHost) {
        let count = host.botsToAdd
        host.botsToAdd = 0
        var number = 1
        var seated = 0
        while seated < count, number <= count + 40 {
            let name = "Bot \(number)"
            number += 1
            let before = host.room
            switch host.room.apply(.join(name: name, bot: true), now: WallClock.nowMs()) {
            case .success(let effects):
                guard persist(host) else {
                    host.room = before
                    host.botsToAdd = count - seated
                    return
                }
                seated += 1
                carryOut(effects, in: host)
            case .failure(let rejection):
                if rejection.code != .nameTaken {
                    log.warning("room \(host.code): cannot seat a bot: \(rejection.message)")
                    return
                }
            }
        }
    }

    // MARK: Rooms

    /// Opens a room in memory. A room a client asked for is saved with its first seat, before anyone hears of it.
    private func openRoom(permanent: Bool, openedBy: String? = nil) -> RoomHost {
        var code = RoomCode.make { random.next(below: $0) }
        while rooms[code] != nil { code = RoomCode.make { random.next(below: $0) } }
        let seed = options.seed == nil ? SecureRandom.seed() : random.next()
        let host = RoomHost(room: Room(code: code, settings: options.settings, seed: seed), permanent: permanent)
        host.openedBy = openedBy
        if !permanent { host.emptySince = WallClock.nowMs() }
        rooms[code] = host
        roomOrder.append(code)
        if permanent { dirtyRooms.insert(code) }
        log.info("room \(code) opened")
        return host
    }

    private func closeRoom(_ host: RoomHost, reason: String?) {
        endClaims(in: host)
        for (_, id) in host.peers {
            guard let peer = peers[id] else { continue }
            if let reason { send(.bye(.init(reason: reason)), to: peer) }
            linger(peer)
        }
        for id in host.watchers {
            guard let peer = peers[id] else { continue }
            if let reason { send(.bye(.init(reason: reason)), to: peer) }
            linger(peer)
        }
        host.peers.removeAll()
        host.watchers.removeAll()
        rooms[host.code] = nil
        roomOrder.removeAll { $0 == host.code }
        dirtyRooms.remove(host.code)
        store?.remove(code: host.code)
        log.info("room \(host.code) closed")
    }

    private func resumeRooms() throws {
        guard let store else { return }
        let now = WallClock.nowMs()
        for snapshot in try store.loadAll(warn: { log.warning($0) }) {
            guard rooms[snapshot.room.code] == nil else { continue }
            let host = RoomHost(
                room: snapshot.room, tokens: snapshot.tokens, permanent: snapshot.permanent, botMemory: snapshot.bots)
            host.joinedByOthers = snapshot.joinedByOthers ?? (snapshot.room.playerIDs.count > 1)
            rooms[host.code] = host
            roomOrder.append(host.code)
            for player in host.room.playerIDs where !host.room.isBot(player) {
                host.absentSince[player] = now
            }
            // Everyone is away until they resume; the room decides nothing on ballots of players reconnecting.
            if case .success(let effects) = host.room.apply(.hostRestarted, now: now) {
                carryOut(effects, in: host)
            }
            if !host.permanent { host.emptySince = now }
            planBots(host)
            nextRoomWake = min(nextRoomWake, host.room.nextDeadline ?? .max)
            dirtyRooms.insert(host.code)
            log.info("room \(host.code) resumed with \(host.room.playerIDs.count) seats, phase \(host.room.phase)")
        }
    }

    /// Applies an event and saves the room before anyone hears of it; a refusal goes back to `origin` as an
    /// `error` frame. When the room cannot be saved it stays exactly as it was (as it is on disk), the event's
    /// effects are dropped, and the origin gets `host_storage`. Returns whether the event was taken.
    @discardableResult
    func apply(_ event: RoomEvent, to host: RoomHost, from origin: Peer?) -> Bool {
        let before = host.room
        switch host.room.apply(event, now: WallClock.nowMs()) {
        case .success(let effects):
            let alreadyFailing = host.saveFailing
            if store != nil, host.room != before, !persist(host) {
                host.room = before
                // A room that just started failing has told everyone already.
                if let origin, alreadyFailing { send(.error(.init(.hostStorage)), to: origin) }
                return false
            }
            carryOut(effects, in: host)
            return true
        case .failure(let rejection):
            if let origin {
                complain(origin, rejection.errorMessage)
            } else {
                log.debug("room \(host.code): \(rejection.code.rawValue) for an event of the host")
            }
            return false
        }
    }

    /// Saves a room now; `false` (after telling the room, once per outage) when it cannot be saved.
    func persist(_ host: RoomHost) -> Bool {
        guard let store else { return true }
        do {
            try store.save(host.snapshot())
        } catch {
            if !host.saveFailing {
                host.saveFailing = true
                log.error("cannot save room \(host.code): \(error); its moves are refused until saving works again")
                for id in host.peers.values {
                    if let peer = peers[id] { send(.error(.init(.hostStorage)), to: peer) }
                }
            }
            nextSweep = min(nextSweep, MonotonicClock.nowMs() + 1000)
            return false
        }
        dirtyRooms.remove(host.code)
        if host.saveFailing {
            host.saveFailing = false
            host.needsReconcile = true
            nextSweep = MonotonicClock.nowMs()
            log.info("room \(host.code): saving works again")
        }
        return true
    }

    /// After an outage of the disk: tells the room what happened to connections meanwhile, and lets timers and
    /// bots act again on what they could not save.
    private func reconcile(_ host: RoomHost) {
        host.needsReconcile = false
        for player in host.room.playerIDs where !host.room.isBot(player) {
            let here = host.peers[player] != nil
            if here != host.room.isConnected(player) {
                apply(here ? .connected(player) : .disconnected(player), to: host, from: nil)
            }
        }
        host.tickedDeadline = nil
        nextRoomWake = min(nextRoomWake, host.room.nextDeadline ?? .max)
        host.bots.forgetPlans()
        planBots(host)
    }

    /// Carries out a room's effects in order. A message to many is encoded once.
    private func carryOut(_ effects: [RoomEffect], in host: RoomHost) {
        for effect in effects {
            switch effect {
            case .send(let player, let message):
                if host.room.isBot(player) {
                    host.bots.observe(message, recipient: player)
                } else if let id = host.peers[player], let peer = peers[id], let frame = encode(message) {
                    enqueue(frame, to: peer)
                }
            case .broadcast(let message):
                if !host.peers.isEmpty || !host.watchers.isEmpty, let frame = encode(message) {
                    for id in host.peers.values {
                        if let peer = peers[id] { enqueue(frame, to: peer) }
                    }
                    // Watchers get exactly `effect.watcherMessage`: the broadcasts, already encoded once.
                    for id in host.watchers {
                        if let peer = peers[id] { enqueue(frame, to: peer) }
                    }
                }
                host.bots.observe(message, recipient: nil)
            case .joined:
                break
            case .removed(let player, let reason):
                host.tokens[player] = nil
                host.absentSince[player] = nil
                host.bots.forget(player)
                if let id = host.peers.removeValue(forKey: player), let peer = peers[id] {
                    if let reason {
                        send(.error(.init(reason)), to: peer)
                    } else {
                        send(.bye(.init(reason: "left")), to: peer)
                    }
                    linger(peer)
                }
            case .deadline(let deadline):
                if let deadline { nextRoomWake = min(nextRoomWake, deadline) }
            case .log(let line):
                log.info("room \(host.code): \(line)")
            }
        }
        // What the bots learnt from these effects is saved at the end of the iteration.
        if host.hasBots { dirtyRooms.insert(host.code) }
        planBots(host)
        reviewClaims(in: host)
    }

    private func planBots(_ host: RoomHost) {
        guard host.hasBots else { return }
        host.bots.plan(
            room: host.room, now: WallClock.nowMs(), delayMs: limits.botDelayMs, level: options.botLevel,
            knowledge: botKnowledge, random: &random)
        if let due = host.bots.nextDue { nextRoomWake = min(nextRoomWake, due) }
    }

    // MARK: Timers

    private func runTimers() {
        let nowWall = WallClock.nowMs()
        if nowWall >= nextRoomWake {
            nextRoomWake = .max
            for code in roomOrder {
                guard let host = rooms[code] else { continue }
                if let deadline = host.room.nextDeadline, deadline <= nowWall, deadline != host.tickedDeadline {
                    host.tickedDeadline = deadline
                    apply(.tick, to: host, from: nil)
                }
                for move in host.bots.takeDue(now: nowWall) {
                    apply(.move(move.bot, move.message), to: host, from: nil)
                }
                // A deadline the room left in place after its tick would otherwise wake the loop at once, forever.
                if let deadline = host.room.nextDeadline, deadline != host.tickedDeadline {
                    nextRoomWake = min(nextRoomWake, deadline)
                }
                if let due = host.bots.nextDue { nextRoomWake = min(nextRoomWake, due) }
                reviewClaims(in: host)
            }
        }
        let nowMono = MonotonicClock.nowMs()
        guard nowMono >= nextSweep else { return }
        nextSweep = nowMono + 1000
        sweepPeers(nowMono)
        sweepRooms(nowWall)
    }

    private func sweepPeers(_ now: Int64) {
        let pingAfter = Int64(limits.pingSeconds) * 1000
        let closeAfter = Int64(limits.idleSeconds) * 1000
        for peer in peers.values {
            switch peer.stage {
            case .greeting(let deadline):
                if now >= deadline, peer.transport == .http {
                    answer(peer, .problem(.requestTimeout, "The request did not arrive in time."))
                } else if now >= deadline {
                    fail(peer, .helloTimeout)
                } else {
                    nextSweep = min(nextSweep, deadline)
                }
            case .lingering(let until):
                if now >= until { closeSoon(peer) } else { nextSweep = min(nextSweep, until) }
            case .seated, .watching, .claiming:
                let silent = now - peer.lastHeard
                if silent >= closeAfter {
                    log.info("connection \(peer.id) silent for \(silent / 1000) s; closing")
                    fail(peer, .idleTimeout)
                } else if silent >= pingAfter {
                    if !peer.probed {
                        peer.probed = true
                        send(.ping(.init(id: Int(truncatingIfNeeded: peer.lastHeard))), to: peer)
                    }
                    nextSweep = min(nextSweep, peer.lastHeard + closeAfter)
                } else {
                    nextSweep = min(nextSweep, peer.lastHeard + pingAfter)
                }
            }
        }
    }

    private func sweepRooms(_ now: Int64) {
        let grace = Int64(limits.graceSeconds) * 1000
        let emptyLife = Int64(limits.emptyRoomSeconds) * 1000
        let unusedLife = Int64(min(limits.unusedRoomSeconds, limits.emptyRoomSeconds)) * 1000
        roomOpenings.sweep(now: MonotonicClock.nowMs())
        for (address, burst) in passwordThrottle.sweep(now: MonotonicClock.nowMs()) {
            log.info(
                "wrong passwords from \(address) stopped: \(burst.failures) wrong, \(burst.refused) refused while waiting"
            )
        }
        for code in roomOrder {
            guard let host = rooms[code] else { continue }
            if host.saveFailing { _ = persist(host) }
            if host.needsReconcile, !host.saveFailing { reconcile(host) }
            for (player, since) in host.absentSince where now - since >= grace {
                host.absentSince[player] = nil
                if apply(.leave(player), to: host, from: nil) {
                    log.info("room \(code): \(player) did not come back within the grace period")
                } else if host.saveFailing {
                    host.absentSince[player] = since
                }
            }
            if host.permanent { continue }
            // A room nobody but its opener ever joined was most likely opened and forgotten (or opened by a
            // flood): it closes soon after it empties.
            let life = host.joinedByOthers ? emptyLife : unusedLife
            if !host.peers.isEmpty {
                host.emptySince = nil
            } else if let since = host.emptySince {
                if now - since >= life { closeRoom(host, reason: "room_closed") }
            } else {
                host.emptySince = now
            }
        }
    }

    // MARK: Output and closing

    private func encode(_ message: ServerMessage) -> OutgoingMessage? {
        // Player text is bounded so every message fits by construction; should one not, a snapshot is sent
        // without its oldest clues rather than not at all.
        guard let encoded = OutgoingMessage(message) else {
            log.error("a \(message.type) message does not fit in a frame")
            return nil
        }
        if encoded.trimmedClues > 0 {
            log.warning("a room snapshot was sent without its \(encoded.trimmedClues) oldest clues to fit a frame")
        }
        return encoded
    }

    func send(_ message: ServerMessage, to peer: Peer) {
        if let frame = encode(message) { enqueue(frame, to: peer) }
    }

    private func enqueue(_ message: OutgoingMessage, to peer: Peer) {
        guard peers[peer.id] != nil, !peer.connection.isClosed, let frame = peer.wire(message) else { return }
        if peer.connection.enqueue(frame) == .overCap {
            if !peer.isLingering {
                log.info("connection \(peer.id) cut off: \(peer.connection.pendingOutputCount) bytes unread")
                if let last = encode(.error(.init(.slowConsumer))).flatMap(peer.wire) {
                    peer.connection.enqueue(last, overCap: true)
                }
                queueWebSocketClose(peer, .policyViolation, ErrorCode.slowConsumer.rawValue)
                queueFlush(peer)
                retire(peer, notifyRoom: true)
            }
            closeSoon(peer)
            return
        }
        queueFlush(peer)
    }

    /// A non-fatal error for a bad frame or a refused move; too many of them in a minute close the connection.
    func complain(_ peer: Peer, _ code: ErrorCode, _ detail: String?) {
        complain(peer, ServerMessage.ErrorMessage(code: code, message: detail ?? code.defaultMessage))
    }

    private func complain(_ peer: Peer, _ error: ServerMessage.ErrorMessage) {
        if error.code.isFatal {
            fail(peer, error.code, error.message)
            return
        }
        send(.error(error), to: peer)
        let now = MonotonicClock.nowMs()
        peer.recentErrors.append(now)
        peer.recentErrors.removeAll { now - $0 > 60_000 }
        if peer.recentErrors.count > limits.errorsPerMinute {
            fail(peer, .tooManyErrors)
        }
    }

    /// Sends a fatal error and ends the connection.
    func fail(_ peer: Peer, _ code: ErrorCode, _ detail: String? = nil, notifyRoom: Bool = true) {
        guard !peer.isLingering else { return }
        if ![.replaced, .helloTimeout, .wrongPassword, .tooManyAttempts].contains(code) {
            log.info("connection \(peer.id) from \(peer.connection.remoteAddress) ended: \(code.rawValue)")
        }
        send(.error(.init(code: code, message: detail ?? code.defaultMessage)), to: peer)
        queueWebSocketClose(peer, .policyViolation, code.rawValue)
        retire(peer, notifyRoom: notifyRoom)
        linger(peer)
    }

    /// Ends a connection whose peer went away (read error, end of stream, write error).
    private func drop(_ peer: Peer) {
        retire(peer, notifyRoom: true)
        closeSoon(peer)
    }

    /// Takes the peer off its seat; the room learns the player is away unless the seat was taken over or ended.
    func retire(_ peer: Peer, notifyRoom: Bool) {
        if case .watching(let code) = peer.stage {
            peer.stage = .lingering(until: MonotonicClock.nowMs())
            rooms[code]?.watchers.remove(peer.id)
            return
        }
        if case .claiming(let code, _) = peer.stage {
            peer.stage = .lingering(until: MonotonicClock.nowMs())
            if let host = rooms[code] { claimerLeft(peer, host) }
            return
        }
        guard let (code, player) = peer.seat else { return }
        peer.stage = .lingering(until: MonotonicClock.nowMs())
        guard let host = rooms[code], host.peers[player] == peer.id else { return }
        host.peers[player] = nil
        if notifyRoom {
            host.absentSince[player] = WallClock.nowMs()
            apply(.disconnected(player), to: host, from: nil)
        }
    }

    /// Ends the connection gracefully: queued output goes out (a WebSocket peer gets a close frame after it), then
    /// the write side shuts, and the socket closes once the peer closes or at the latest in two seconds.
    func linger(_ peer: Peer) {
        releaseInput(peer)
        queueWebSocketClose(peer, .normal, "")
        let until = MonotonicClock.nowMs() + 2000
        peer.stage = .lingering(until: until)
        nextSweep = min(nextSweep, until)
        queueFlush(peer)
    }

    func closeSoon(_ peer: Peer) {
        releaseInput(peer)
        if !peer.isLingering { peer.stage = .lingering(until: 0) }
        toClose.append(peer.id)
    }

    // MARK: Shutdown

    private func shutDown() {
        log.info("shutting down: telling \(peers.count) connections, saving \(rooms.count) rooms")
        for peer in peers.values where !peer.isLingering {
            send(.bye(.init(reason: "host_closing")), to: peer)
            queueWebSocketClose(peer, .goingAway, "host_closing")
            peer.stage = .lingering(until: 0)
        }
        for code in roomOrder { dirtyRooms.insert(code) }
        finishIteration()
        let deadline = MonotonicClock.nowMs() + 1000
        while MonotonicClock.nowMs() < deadline {
            let pending = peers.values.filter { $0.connection.hasPendingOutput }
            if pending.isEmpty { break }
            for peer in pending where !peer.watchingWrite {
                try? poller.modify(fd: peer.connection.socket.fd, token: peer.id, read: false, write: true)
                peer.watchingWrite = true
            }
            guard let ready = try? poller.wait(timeoutMs: 100).ready else { break }
            for event in ready { if let peer = peers[event.token] { _ = try? peer.connection.flush() } }
        }
        for peer in peers.values { peer.connection.close() }
        peers.removeAll()
        listener.close()
        discovery?.close()
        status?.finish()
        log.info("stopped")
    }

    // MARK: Status

    /// A word-free summary of the rooms for the live status line.
    func statusSummary() -> String {
        if rooms.count == 1, let host = rooms.values.first {
            let view = host.room.view(now: WallClock.nowMs())
            var parts = ["room \(host.code)", "\(view.seats.filter(\.connected).count)/\(view.seats.count) here"]
            parts.append(view.phase.rawValue)
            if view.phase != .lobby && view.game > 0 { parts.append("game \(view.game) round \(view.round)") }
            if let turn = view.turn, let seat = view.seats.first(where: { $0.id == turn }) {
                parts.append("turn: \(seat.name)")
            }
            if view.phase == .voting {
                parts.append("votes \(view.seats.filter(\.voted).count)/\(view.seats.filter(\.alive).count)")
            }
            return parts.joined(separator: " · ")
        }
        let playing = rooms.values.filter {
            $0.room.phase != .lobby && $0.room.phase != .gameOver
        }.count
        let seated = rooms.values.reduce(0) { $0 + $1.peers.count }
        return "\(rooms.count) rooms · \(seated) players connected · \(playing) games running"
    }
}

@available(*, unavailable)
extension Server: Sendable {}
