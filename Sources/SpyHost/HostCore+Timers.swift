import SpyGame
import SpyProtocol
import SpyWeb

/// Every rule that waits, as timers the shell arms on its loop and feeds back when due: each connection's next deadline (hello, silence, lingering),
/// each room's next deadline (turn and vote timers, absence windows, bot moves, claim expiries), and the
/// once-a-second sweep over rooms (grace periods, empty rooms, saving retries, rate limits).
extension HostCore {
    // MARK: Connections

    /// Arms (or moves) the peer's timer to its next deadline. While it is seated, watching or claiming, that is
    /// when its silence would next matter; a frame that arrives since only moves `lastHeard`, and the timer, when
    /// it fires early, re-arms from there.
    func armPeerTimer(_ peer: Peer) {
        let deadline: Int64
        switch peer.stage {
        case .greeting(let until), .lingering(let until, _):
            deadline = until
        case .closing:
            return
        case .seated, .watching, .claiming:
            deadline = peer.lastHeard + Int64(peer.probed ? limits.idleSeconds : limits.pingSeconds) * 1000
        }
        guard peer.timer != deadline else { return }
        peer.timer = deadline
        leadingActions.append(.arm(.connection(peer.id), at: deadline))
    }

    func cancelPeerTimer(_ peer: Peer) {
        guard peer.timer != nil else { return }
        peer.timer = nil
        leadingActions.append(.cancel(.connection(peer.id)))
    }

    /// A timer the shell armed is due.
    func fire(_ timer: HostTimer) {
        switch timer {
        case .connection(let id):
            guard let peer = peers[id], peer.timer != nil else { return }
            peer.timer = nil
            peerDeadline(peer)
        case .room(let code):
            guard let host = rooms[code] else { return }
            roomWake(host)
        case .sweep:
            sweepArmed = false
            sweepAddresses()
            // A journal that refuses changes is rewritten first; the rooms are swept once the outcome is in.
            if keepsRooms, journal.failing {
                askRewrite(.mend)
            } else {
                sweepRooms(clock.wallMs())
            }
            if !sweepArmed { armSweep(at: clock.monoMs() + 1000) }
        }
    }

    private func peerDeadline(_ peer: Peer) {
        guard peers[peer.id] === peer, !peer.isClosing else { return }
        let now = clock.monoMs()
        let pingAfter = Int64(limits.pingSeconds) * 1000
        let closeAfter = Int64(limits.idleSeconds) * 1000
        switch peer.stage {
        case .greeting(let deadline):
            if now >= deadline, peer.transport.isHTTP {
                answer(peer, .problem(.requestTimeout, "The request did not arrive in time."))
            } else if now >= deadline {
                fail(peer, .helloTimeout)
            }
        case .lingering(let until, _):
            if now >= until {
                closeSoon(peer)
                return
            }
        case .closing:
            return
        case .seated, .watching, .claiming:
            let silent = now - peer.lastHeard
            if silent >= closeAfter {
                log.info("connection \(peer.id) silent for \(silent / 1000) s; closing")
                fail(peer, .idleTimeout)
            } else if silent >= pingAfter, !peer.probed {
                peer.probed = true
                send(.ping(.init(id: Int(truncatingIfNeeded: peer.lastHeard))), to: peer)
            }
        }
        if peers[peer.id] === peer, !peer.isClosing, peer.timer == nil { armPeerTimer(peer) }
    }

    // MARK: Rooms

    /// Arms (or moves, or disarms) the room's timer for the first of its deadline, its bots' next move and its
    /// claims' next expiry. A deadline the room keeps after its tick is not ticked again.
    func scheduleWake(of host: RoomHost) {
        var due = host.room.nextDeadline.flatMap { $0 == host.tickedDeadline ? nil : $0 }
        for other in [host.bots.nextDue, host.claims.nextDeadline] {
            if let other { due = min(due ?? other, other) }
        }
        guard let due, rooms[host.code] === host else {
            if host.wakeArmedAt != nil {
                host.wakeArmedAt = nil
                leadingActions.append(.cancel(.room(host.code)))
            }
            return
        }
        let at = clock.monoMs(atWall: due)
        guard host.wakeArmedAt != at else { return }
        host.wakeArmedAt = at
        leadingActions.append(.arm(.room(host.code), at: at))
    }

    /// The room's timer fired: its deadline is ticked, its bots' due moves are played, its claims reviewed.
    private func roomWake(_ host: RoomHost) {
        host.wakeArmedAt = nil
        let now = clock.wallMs()
        if let deadline = host.room.nextDeadline, deadline <= now, deadline != host.tickedDeadline {
            host.tickedDeadline = deadline
            apply(.tick, to: host, from: nil)
        }
        for move in host.bots.takeDue(now: now) {
            apply(.move(move.bot, move.message), to: host, from: nil)
        }
        reviewClaims(in: host)
        scheduleWake(of: host)
    }

    // MARK: Sweep

    /// Arms (or moves) the sweep over rooms for `deadline` (monotonic ms).
    func armSweep(at deadline: Int64) {
        sweepArmed = true
        leadingActions.append(.arm(.sweep, at: deadline))
    }

    private func sweepAddresses() {
        roomOpenings.sweep(now: clock.monoMs())
        for (address, burst) in passwordThrottle.sweep(now: clock.monoMs()) {
            log.info(
                "wrong passwords from \(address) stopped: \(burst.failures) wrong, \(burst.refused) refused while waiting"
            )
        }
    }

    /// The sweep over rooms (wall-clock `now`): catching up after an outage of the disk, seats given up after the
    /// grace period, rooms closed once empty long enough.
    func sweepRooms(_ now: Int64) {
        let grace = Int64(limits.graceSeconds) * 1000
        let emptyLife = Int64(limits.emptyRoomSeconds) * 1000
        let unusedLife = Int64(min(limits.unusedRoomSeconds, limits.emptyRoomSeconds)) * 1000
        for code in roomOrder {
            guard let host = rooms[code] else { continue }
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
}
