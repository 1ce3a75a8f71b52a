import SpyGame
import SpyProtocol

/// Saving: nothing a room decided is heard before it is on disk, and the core writes nothing itself.
///
/// `apply` takes an event and records it for the journal (`record`); the wake's messages wait in the outboxes. The
/// save step at the end of the wake (`saveChangedRooms`) adds the snapshots that are due and hands the wake's records
/// to the shell (`HostAction.persist`), which commits them with one write and one sync before the wake's bytes are
/// handed out. When that commit fails, every room the wake changed goes back to its state before the wake and the
/// wake's output is dropped (`takeBack`); the rooms refuse moves until the journal is rewritten
/// (`HostAction.rewrite`, asked by the sweep), then catch up (`reconcile`). At start, `resumeRooms` brings back what
/// the journal held; a journal grown large is rewritten as one snapshot per room after a commit.
extension HostCore {
    /// The save step of the end of a wake: snapshots of the rooms that need one; returns the records to commit
    /// (`HostAction.persist`) before any of the wake's output is handed out, `nil` when there is nothing to commit.
    func saveChangedRooms() -> [JournalEntry]? {
        guard keepsRooms else {
            dirtyRooms.removeAll(keepingCapacity: true)
            return nil
        }
        for code in dirtyRooms {
            if let host = rooms[code] { recordSnapshot(of: host) }
        }
        for code in journal.dueForSnapshot where !dirtyRooms.contains(code) {
            if let host = rooms[code] { recordSnapshot(of: host) }
        }
        journal.dueForSnapshot.removeAll()
        dirtyRooms.removeAll(keepingCapacity: true)
        if journal.failing {
            // What the wake would have written (closings, snapshots) is said again by the rewrite that mends it.
            journal.startNextWake()
            return nil
        }
        return journal.takeWake()
    }

    /// What the shell's commit of the wake came to: on success the wake's output may go; on failure the wake is
    /// taken back first.
    func committed(_ outcome: CommitOutcome) {
        let wake = journal.committing ?? StorageWake()
        journal.committing = nil
        journal.justCommitted = true
        if let failure = outcome.failure {
            journal.failing = true
            takeBack(wake, because: failure)
            return
        }
        journal.dueForSnapshot = outcome.roomsDueForSnapshot
        if outcome.wantsCompaction { askRewrite(.compaction) }
    }

    /// Asks the shell to replace the journal with one snapshot of each room, as the rooms are now.
    func askRewrite(_ reason: JournalBooks.Rewrite) {
        let snapshots = roomOrder.compactMap { rooms[$0].map(journalSnapshot) }
        journal.rewrites.append((reason, snapshots.map(\.room.code)))
        leadingActions.append(.rewrite(snapshots))
    }

    /// What the shell's rewrite of the journal came to. A rewrite that mends the journal lets every room play
    /// again, and the sweep that asked for it goes on.
    func rewritten(failure: String?) {
        guard !journal.rewrites.isEmpty else { return }
        let (reason, codes) = journal.rewrites.removeFirst()
        if let failure {
            if reason == .mend {
                log.debug("the journal still cannot be rewritten: \(failure)")
            } else {
                log.warning("cannot compact the journal (it stays as it is): \(failure)")
            }
        } else {
            journal.failing = false
            journal.dueForSnapshot.removeAll()
            for code in codes { rooms[code]?.inJournal = true }
            if reason == .mend {
                for code in roomOrder {
                    guard let host = rooms[code], host.saveFailing else { continue }
                    host.saveFailing = false
                    host.needsReconcile = true
                    log.info("room \(host.code): saving works again")
                }
            }
        }
        if reason == .mend { sweepRooms(clock.wallMs()) }
    }

    func resumeRooms(rewrite: Bool) {
        guard keepsRooms else { return }
        let now = clock.wallMs()
        for snapshot in kept {
            guard rooms[snapshot.room.code] == nil else { continue }
            let host = RoomHost(
                room: snapshot.room, tokens: snapshot.tokens, permanent: snapshot.permanent, botMemory: snapshot.bots)
            host.joinedByOthers = snapshot.joinedByOthers ?? (snapshot.room.playerIDs.count > 1)
            host.inJournal = true
            rooms[host.code] = host
            roomOrder.append(host.code)
            for player in host.room.playerIDs where !host.room.isBot(player) {
                host.absentSince[player] = now
            }
            // Everyone is away until they resume; the room decides nothing on ballots of players reconnecting. The
            // room's snapshot after it is what the journal gets.
            if case .taken(let effects) = take(.hostRestarted, into: host, recorded: false) {
                carryOut(effects, in: host)
            }
            if !host.permanent { host.emptySince = now }
            planBots(host)
            scheduleWake(of: host)
            dirtyRooms.insert(host.code)
            log.info("room \(host.code) resumed with \(host.room.playerIDs.count) seats, phase \(host.room.phase)")
        }
        kept = []
        if rewrite { askRewrite(.resumed) }
    }

    /// Records a room whole for the wake's commit.
    func recordSnapshot(of host: RoomHost) {
        journal.records.append(.snapshot(journalSnapshot(of: host)))
        host.inJournal = true
    }

    /// Notes a connection seated in this wake: should the commit fail, its seat is refused.
    func noteSeated(_ peer: Peer) {
        if keepsRooms { journal.wake.seated.insert(peer.id) }
    }

    /// A failed commit: the wake's output is dropped, every room it changed is as it was before it (a room it
    /// opened is closed), whoever it seated is refused, and everyone in those rooms hears `host_storage`.
    private func takeBack(_ wake: StorageWake, because error: String) {
        for peer in flushList {
            guard let mark = peer.outputMark else { continue }
            peer.outbox.removeSubrange(mark...)
            peer.outputMark = nil
            peer.outputAwaitsCommit = false
        }
        for (code, before) in wake.before {
            guard let host = rooms[code] else { continue }
            storageFailed(host, error)
            guard let before else {
                closeRoom(host, reason: nil)
                continue
            }
            host.room = before.room
            host.tokens = before.tokens
            host.bots = BotDriver(memory: before.bots)
            host.joinedByOthers = before.joinedByOthers ?? false
            host.needsReconcile = true
            for (player, id) in host.peers where !host.room.playerIDs.contains(player) {
                host.peers[player] = nil
                if let peer = peers[id] { refuseSeat(peer) }
            }
        }
        for id in wake.seated {
            if let peer = peers[id], peer.seat != nil { refuseSeat(peer) }
        }
        if wake.before.isEmpty { log.error("cannot write the journal: \(error)") }
    }

    private func refuseSeat(_ peer: Peer) {
        fail(peer, .hostStorage, "The host cannot save right now, so you were not seated; try again shortly.")
    }

    /// Marks a room as one whose moves are refused, telling its people once per outage.
    func storageFailed(_ host: RoomHost, _ reason: String) {
        guard !host.saveFailing else { return }
        host.saveFailing = true
        log.error("cannot save room \(host.code): \(reason); its moves are refused until saving works again")
        for id in host.peers.values {
            if let peer = peers[id] { send(.error(.init(.hostStorage)), to: peer) }
        }
    }

    /// A room's snapshot for the journal, stamped with when it is written.
    func journalSnapshot(of host: RoomHost) -> RoomSnapshot {
        var snapshot = host.snapshot()
        snapshot.savedAt = clock.wallMs()
        return snapshot
    }

    /// After an outage of the disk: tells the room what happened to connections meanwhile, and lets timers and
    /// bots act again on what they could not save.
    func reconcile(_ host: RoomHost) {
        host.needsReconcile = false
        for player in host.room.playerIDs where !host.room.isBot(player) {
            let here = host.peers[player] != nil
            if here != host.room.isConnected(player) {
                apply(here ? .connected(player) : .disconnected(player), to: host, from: nil)
            }
        }
        host.tickedDeadline = nil
        host.bots.forgetPlans()
        planBots(host)
        scheduleWake(of: host)
    }
}

/// The journal as the core keeps its books of it: the records of the wake being decided, what the wake changed (to
/// take back), the wake whose commit is outstanding, and the rewrites asked of the shell.
struct JournalBooks {
    /// Why the journal is to be rewritten.
    enum Rewrite {
        /// The journal held records that were set aside or not replayed.
        case resumed
        /// The journal has grown past what its rooms need.
        case compaction
        /// A commit failed: the journal refuses changes until it is rewritten.
        case mend
    }

    /// The wake's records, in order.
    var records: [JournalEntry] = []
    /// What the wake changed.
    var wake = StorageWake()
    /// This wake's number, which `RoomHost.notedInWake` is compared with.
    var wakeNumber: UInt64 = 1
    /// The wake whose records were handed out to be committed, until the outcome comes in.
    var committing: StorageWake?
    /// The wake being decided answers a commit: it hands out what waited, with no save step of its own.
    var justCommitted = false
    /// A commit failed and the journal is not rewritten yet: changes are refused.
    var failing = false
    /// Rooms the last commit found due for a snapshot.
    var dueForSnapshot: Set<String> = []
    /// Rewrites asked and not yet answered, in order, each with the rooms it writes.
    var rewrites: [(reason: Rewrite, rooms: [String])] = []

    /// Hands the wake's records out for the commit, keeping what it changed until the outcome; `nil` when the wake
    /// recorded nothing.
    mutating func takeWake() -> [JournalEntry]? {
        guard !records.isEmpty else {
            startNextWake()
            return nil
        }
        let taken = records
        committing = wake
        startNextWake()
        return taken
    }

    /// Forgets the wake's records and what it changed.
    mutating func startNextWake() {
        records.removeAll(keepingCapacity: true)
        wake = StorageWake()
        wakeNumber += 1
    }
}
