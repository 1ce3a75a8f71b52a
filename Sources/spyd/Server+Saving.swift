import SpyGame
import SpyNet
import SpyProtocol

/// Saving: nothing a room decided is heard before the room is on disk.
///
/// `apply` takes an event and saves the room before its effects go out; a room that cannot be saved stays as it
/// is on disk and refuses moves until saving works again (`persist`), then catches up (`reconcile`). The end of
/// every wake saves what changed without an event of its own (bots' memory, the host's rooms), before the loop
/// writes anything (`saveChangedRooms`). At start, `resumeRooms` brings back what the state directory holds.
extension Server {
    /// The save step of the end of a wake: every room changed in it is saved, before any output of the wake is
    /// written.
    func saveChangedRooms() {
        if store != nil, !dirtyRooms.isEmpty {
            for code in dirtyRooms {
                guard let host = rooms[code] else { continue }
                _ = persist(host)
            }
        }
        dirtyRooms.removeAll(keepingCapacity: true)
    }

    func resumeRooms() throws {
        guard let store else { return }
        let now = clock.wallMs()
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
            scheduleWake(of: host)
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
        switch host.room.apply(event, now: clock.wallMs()) {
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
            return false
        }
        dirtyRooms.remove(host.code)
        if host.saveFailing {
            host.saveFailing = false
            host.needsReconcile = true
            armSweep(at: clock.monoMs())
            log.info("room \(host.code): saving works again")
        }
        return true
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
