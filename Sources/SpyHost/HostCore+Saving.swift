import SpyGame
import SpyProtocol

/// Saving: nothing a room decided is heard before it is on disk.
///
/// `apply` takes an event and records it in the journal (`record`); the wake's messages wait in the outboxes. The
/// save step at the end of the wake (`saveChangedRooms`) writes the snapshots that are due and commits the whole
/// wake with one write and one sync (the shell's `persist`), before the wake's bytes are handed out. When that commit fails, every room the wake
/// changed goes back to its state before the wake and the wake's output is dropped (`takeBack`); the rooms refuse
/// moves until the journal can be rewritten (`mendStorage`), then catch up (`reconcile`). At start,
/// `resumeRooms` brings back what the journal holds.
extension HostCore {
    /// The save step of the end of a wake: snapshots of the rooms that need one; returns whether the wake is to be
    /// committed (`HostAction.persist`) before any of its output is handed out.
    func saveChangedRooms() -> Bool {
        guard let store else {
            dirtyRooms.removeAll(keepingCapacity: true)
            return false
        }
        for code in dirtyRooms {
            if let host = rooms[code] { store.recordSnapshot(journalSnapshot(of: host)) }
        }
        for code in store.roomsDueForSnapshot where !dirtyRooms.contains(code) {
            if let host = rooms[code] { store.recordSnapshot(journalSnapshot(of: host)) }
        }
        dirtyRooms.removeAll(keepingCapacity: true)
        if store.isFailing {
            store.skipWake()
            return false
        }
        return true
    }

    /// What the shell's commit of the wake came to: on success the wake's output may go; on failure the wake is
    /// taken back first.
    func committed(_ wake: StorageWake, failure: String?) {
        if let failure {
            takeBack(wake, because: failure)
        } else if store?.wantsCompaction == true {
            compactJournal()
        }
    }

    func resumeRooms() {
        guard let store else { return }
        let now = clock.wallMs()
        for snapshot in store.recovered {
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
            scheduleWake(of: host)
            dirtyRooms.insert(host.code)
            log.info("room \(host.code) resumed with \(host.room.playerIDs.count) seats, phase \(host.room.phase)")
        }
        if store.needsRewrite { compactJournal() }
    }

    /// Applies an event and records it for the wake's commit, which comes before anyone hears of it; a refusal
    /// goes back to `origin` as an `error` frame. While the journal refuses changes the room stays exactly as it
    /// was (as it is on disk), the event's effects are dropped, and the origin gets `host_storage`. Returns whether
    /// the event was taken.
    @discardableResult
    func apply(_ event: RoomEvent, to host: RoomHost, from origin: Peer?) -> Bool {
        let before = host.room
        let now = clock.wallMs()
        switch host.room.apply(event, now: now) {
        case .success(let effects):
            let alreadyFailing = host.saveFailing
            // The bots' memory is replayed from the events, so an event of a room with bots is recorded even when
            // the room itself is unchanged.
            if store != nil, host.hasBots || host.room != before, !record(event, in: host, roomBefore: before, now: now)
            {
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

    /// Records a change the room just took (`event` at `now`, or none when only the host's side changes) for the
    /// wake's commit, and makes the host's own changes: `tokens` issued, `joinedByOthers`. `false` while the
    /// journal refuses changes: the host's side is unchanged, and the caller undoes the room's change.
    func record(
        _ event: RoomEvent?, in host: RoomHost, roomBefore: Room, now: Millis, tokens: [PlayerID: String]? = nil,
        joinedByOthers: Bool? = nil
    ) -> Bool {
        if let store {
            guard !store.isFailing else {
                storageFailed(host, "the journal cannot be written until it is rewritten whole")
                return false
            }
            store.touch(host, roomBefore: roomBefore)
            if let event, !store.recordsAsChange(event) {
                // A start carries the bank's pairs: the room's snapshot is written after its effects instead.
                dirtyRooms.insert(host.code)
            } else {
                store.recordChange(
                    room: host.code, now: now, event: event, tokens: tokens, joinedByOthers: joinedByOthers)
            }
        }
        for (player, token) in tokens ?? [:] { host.tokens[player] = token }
        if let joinedByOthers { host.joinedByOthers = joinedByOthers }
        return true
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

    /// After a failed commit, from the sweep: rewrites the journal from the rooms (which are as the disk last had
    /// them), and when that works, lets every room play again.
    func mendStorage() {
        guard let store, store.isFailing else { return }
        do {
            try store.rewrite(roomOrder.compactMap { rooms[$0].map(journalSnapshot) })
        } catch {
            log.debug("the journal still cannot be rewritten: \(error)")
            return
        }
        for code in roomOrder {
            guard let host = rooms[code], host.saveFailing else { continue }
            host.saveFailing = false
            host.needsReconcile = true
            log.info("room \(host.code): saving works again")
        }
    }

    /// Rewrites the journal as one snapshot per room; a failure leaves the file as it was.
    private func compactJournal() {
        guard let store else { return }
        do {
            try store.rewrite(roomOrder.compactMap { rooms[$0].map(journalSnapshot) })
        } catch {
            log.warning("cannot compact the journal (it stays as it is): \(error)")
        }
    }

    /// A room's snapshot for the journal, stamped with when it is written.
    private func journalSnapshot(of host: RoomHost) -> RoomSnapshot {
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
