import SpyBank
import SpyGame
import SpyProtocol
import SpyWeb

/// The host's decisions: rooms, seats and connections, fed what happened at the time the shell read, answering with
/// what the shell must do (`HostAction`).
///
/// There is one way in, `handle`: a wake of the shell's loop brings any number of inputs (bytes, ends of
/// connections, due timers) and what the shell still holds unwritten per connection, and the wake's end answers.
/// When the host keeps its rooms, that answer asks the shell to commit what the wake recorded
/// (`HostAction.persist`, one commit for the whole wake), and the wake's bytes wait for the outcome
/// (`HostInput.committed`): only then are they handed out, each connection's before its close, so nothing is
/// acknowledged before it is on disk; when the commit failed, the wake is taken back first and its messages are
/// never handed out. Nothing here reads a clock, a socket or a file: the time comes with each wake, the journal's
/// records and rewrites leave as actions and their outcomes come back as inputs.
///
/// The core's ideas live in files of their own: input and its budget, the handshake, the room registry, saving,
/// sweeps and timers, bots, output, the web path and seat claims.
package final class HostCore {
    let config: HostConfiguration
    let limits: ServerLimits
    let log: HostLog
    /// The time of the input being handled.
    @exclusivity(unchecked) var clock: HostTime
    /// Whether the host keeps its rooms in a journal, which the shell writes as the core's actions say.
    let keepsRooms: Bool
    /// The rooms the journal held at start, until they are resumed.
    var kept: [RoomSnapshot]
    /// The journal's state as the core knows it: what this wake records, what it changed, what is asked of the shell.
    var journal = JournalBooks()
    let bank: [WordPair]
    let botVocabulary: BotVocabulary
    let pairsFor: (GameSettings) -> [WordPair]
    /// The names the web routes answer to, and what they keep between requests.
    let webSite: WebSite
    /// The bank's categories, sent in every `welcome`.
    let categories: [BankCategory]
    /// Why a choice of language, categories and party pairs leaves too few pairs of the bank, if it does.
    let choiceProblem: (GameSettings) -> String?
    let randomness: HostRandomness

    // Looked up for every input and every message; without run-time exclusivity checks (a fifth of the host's
    // instructions per ping with them), as no access to it outlives its statement.
    @exclusivity(unchecked) var peers: [UInt64: Peer] = [:]
    package internal(set) var rooms: [String: RoomHost] = [:]
    /// Room codes in the order the rooms opened.
    package internal(set) var roomOrder: [String] = []
    var random: SplitMix64
    /// Bytes the shell holds for each connection and has not written yet, as the wake being handled says: with the
    /// wake's own, what the output cap counts.
    @exclusivity(unchecked) var unsentByShell: [UInt64: Int] = [:]

    /// Actions decided in this wake that do not wait for its save, handed out first: timers and journal rewrites.
    @exclusivity(unchecked) var leadingActions: [HostAction] = []
    /// Connections with bytes, a shutdown or a close to hand out at the end of the wake, in the order first touched.
    @exclusivity(unchecked) var flushList: [Peer] = []
    /// Connections that asked to close in this wake; their bookkeeping ends at the end of the wake.
    @exclusivity(unchecked) var closing: [Peer] = []
    /// Rooms whose snapshot is written at the end of the wake.
    @exclusivity(unchecked) var dirtyRooms: Set<String> = []
    /// Whether the once-a-second sweep over rooms is armed.
    var sweepArmed = false
    /// Wrong passwords per address, for the backoff.
    var passwordThrottle = PasswordThrottle()
    /// Rooms opened per address in the last minute.
    var roomOpenings: RoomOpeningRate
    /// Bytes held in unfinished input across every connection (kept under `limits.partialFrameBudget`).
    var partialFrameBytes = 0
    /// Connections cut for the budget since the last warning, and when that warning was logged (monotonic ms).
    var budgetCuts = 0
    var lastBudgetWarning: Int64 = .min / 2
    private var stopped = false

    /// Resumes the rooms the journal `kept` (`nil`: the host keeps no rooms) and opens the host's own, at `time`;
    /// the first wake saves them.
    package init(
        config: HostConfiguration, bank: [WordPair], pairsFor: @escaping (GameSettings) -> [WordPair], log: HostLog,
        kept: KeptRooms?, webSite: WebSite, randomness: HostRandomness,
        at time: HostTime, categories: [BankCategory] = [],
        choiceProblem: @escaping (GameSettings) -> String? = { _ in nil }
    ) {
        self.config = config
        self.limits = config.limits
        self.log = log
        self.clock = time
        self.keepsRooms = kept != nil
        self.kept = kept?.rooms ?? []
        self.bank = bank
        self.botVocabulary = BotVocabulary(pairs: bank)
        self.pairsFor = pairsFor
        self.webSite = webSite
        self.categories = categories
        self.choiceProblem = choiceProblem
        self.randomness = randomness
        self.random = SplitMix64(seed: config.seed ?? randomness.seed())
        self.roomOpenings = RoomOpeningRate(perMinute: config.limits.roomsPerMinute)
        resumeRooms(rewrite: kept?.needsRewrite == true)
        while roomOrder.filter({ rooms[$0]?.permanent == true }).count < config.rooms {
            _ = openRoom(permanent: true)
        }
        if config.bots > 0, let first = roomOrder.first.flatMap({ rooms[$0] }), !first.hasBots {
            first.botsToAdd = config.bots
            if first.room.playerIDs.contains(where: { !first.room.isBot($0) }) { seatBots(in: first) }
        }
        armSweep(at: clock.monoMs())
    }

    /// How many connections the core holds.
    package var connectionCount: Int { peers.count }

    /// The one way into the core: a wake's inputs, in order, at `time`, and the wake's end, which answers with what
    /// the shell must do. The bytes of each connection are handed out after the wake's changes are on disk
    /// (`HostAction.persist`, answered by a wake holding `HostInput.committed`).
    package func handle(_ wake: HostWake, at time: HostTime) -> [HostAction] {
        clock = time
        unsentByShell = wake.unsent
        defer { unsentByShell.removeAll(keepingCapacity: true) }
        var stopping = false
        var index = wake.events.startIndex
        while index < wake.events.endIndex {
            switch wake.events[index] {
            case .read(let id, let range):
                // A read that ended with the end of the stream is acted on with it, as one.
                var endOfStream = false
                if index + 1 < wake.events.endIndex, case .input(.endOfStream(id)) = wake.events[index + 1] {
                    endOfStream = true
                    index += 1
                }
                guard let peer = peers[id] else { break }
                if !peer.isFinished { wake.bytes[range].withUnsafeBytes { peer.accept($0) } }
                read(from: peer, endOfStream: endOfStream)
            case .input(.shutDown):
                stopping = beginShutDown() || stopping
            case .input(let input):
                take(input)
            }
            index += 1
        }
        var actions = endWake()
        if stopping {
            actions.append(.cancel(.sweep))
            for code in roomOrder { actions.append(.cancel(.room(code))) }
            for id in peers.keys { actions.append(.cancel(.connection(id))) }
        }
        return actions
    }

    private func take(_ input: HostInput) {
        switch input {
        case .opened(let id, let address):
            open(id, from: address)
        case .bytes(let id, let bytes):
            guard let peer = peers[id] else { return }
            bytes.withUnsafeBytes { if !peer.isFinished { peer.accept($0) } }
            read(from: peer, endOfStream: false)
        case .endOfStream(let id):
            guard let peer = peers[id] else { return }
            read(from: peer, endOfStream: true)
        case .failed(let id, let reason):
            guard let peer = peers[id] else { return }
            log.debug("connection \(id) failed: \(reason)")
            drop(peer)
        case .timer(let timer):
            fire(timer)
        case .committed(let outcome):
            committed(outcome)
        case .rewritten(let failure):
            rewritten(failure: failure)
        case .shutDown:
            break
        }
    }

    private func open(_ id: UInt64, from address: String) {
        let now = clock.monoMs()
        let peer = Peer(
            id: id, remoteAddress: address, stage: .greeting(deadline: now + Int64(limits.helloSeconds) * 1000),
            now: now, maxPayload: limits.maxHelloFrameBytes)
        peers[id] = peer
        armPeerTimer(peer)
        log.debug("connection \(id) from \(address)")
    }

    /// The end of every wake: the rooms that changed are saved (see `saveChangedRooms`), then each connection's
    /// bytes are handed out, followed by its shutdown or close; the connections that ended leave the books.
    private func endWake() -> [HostAction] {
        var actions = leadingActions
        leadingActions.removeAll(keepingCapacity: true)
        // A wake answering a rewrite asked ahead of a commit hands nothing out: the output waits for the commit.
        if journal.committing != nil { return actions }
        if !journal.justCommitted, let records = saveChangedRooms() {
            // The wake's output waits for `HostInput.committed`, whose wake hands it out; a connection that was
            // only answered a keep-alive hears nothing of the wake's changes and need not wait for the disk.
            flushList.removeAll { peer in
                guard !peer.outputAwaitsCommit, !peer.isClosing, !peer.shutsWrite else { return false }
                handOut(peer, into: &actions)
                return true
            }
            actions.append(.persist(records))
            return actions
        }
        journal.justCommitted = false
        for peer in flushList {
            handOut(peer, into: &actions)
            switch peer.stage {
            case .closing:
                actions.append(.close(peer.id))
            case .lingering(let until, .due):
                peer.stage = .lingering(until: until, shut: .handedOut)
                actions.append(.shutWriteWhenDrained(peer.id))
            case .greeting, .seated, .watching, .claiming, .lingering:
                break
            }
        }
        flushList.removeAll(keepingCapacity: true)
        let ended = closing
        closing.removeAll(keepingCapacity: true)
        for peer in ended {
            guard peers[peer.id] === peer else { continue }
            peers[peer.id] = nil
            releaseInput(peer)
            log.debug("connection \(peer.id) closed")
        }
        return actions
    }

    /// The connection's queued bytes as one `send` action, given away whole; its outbox is then empty.
    private func handOut(_ peer: Peer, into actions: inout [HostAction]) {
        peer.queuedForFlush = false
        peer.outputMark = nil
        peer.outputAwaitsCommit = false
        guard !peer.outbox.isEmpty else { return }
        actions.append(.send(peer.id, peer.outbox))
        peer.outbox = []
    }

    /// Says goodbye to every connection and marks every room to be saved at the end of the wake; the shell then
    /// gives the goodbyes a moment to leave and closes what is left. Returns whether the host was running.
    private func beginShutDown() -> Bool {
        guard !stopped else { return false }
        stopped = true
        log.info("shutting down: telling \(peers.count) connections, saving \(rooms.count) rooms")
        for peer in peers.values where !peer.isFinished {
            switch peer.stage {
            case .greeting, .claiming:
                // Not seated yet: the host accepts no one now.
                send(.error(.init(.hostClosing)), to: peer)
            case .seated, .watching, .lingering, .closing:
                send(.bye(.init(reason: "host_closing")), to: peer)
            }
            queueWebSocketClose(peer, .goingAway, "host_closing")
            // Said goodbye: its input is dropped from now, and the shell closes it once the goodbyes had a moment.
            peer.stage = .lingering(until: clock.monoMs(), shut: .open)
        }
        for code in roomOrder { dirtyRooms.insert(code) }
        return true
    }
}

@available(*, unavailable)
extension HostCore: Sendable {}
