import SpyGame
import SpyProtocol

/// The room registry: opening and closing rooms, carrying out what a room decided, and the status line.
extension HostCore {
    /// Opens a room in memory. A room a client asked for is saved with its first seat, before anyone hears of it.
    func openRoom(permanent: Bool, openedBy: String? = nil) -> RoomHost {
        var code = RoomCode.make { random.next(below: $0) }
        while rooms[code] != nil { code = RoomCode.make { random.next(below: $0) } }
        let seed = config.seed == nil ? randomness.seed() : random.next()
        let host = RoomHost(room: Room(code: code, settings: config.settings, seed: seed), permanent: permanent)
        host.openedBy = openedBy
        if !permanent { host.emptySince = clock.wallMs() }
        rooms[code] = host
        roomOrder.append(code)
        if permanent { dirtyRooms.insert(code) }
        log.info("room \(code) opened")
        return host
    }

    func closeRoom(_ host: RoomHost, reason: String?) {
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
        if host.wakeArmedAt != nil {
            host.wakeArmedAt = nil
            leadingActions.append(.cancel(.room(host.code)))
        }
        rooms[host.code] = nil
        roomOrder.removeAll { $0 == host.code }
        dirtyRooms.remove(host.code)
        if keepsRooms { journal.records.append(.closed(host.code)) }
        log.info("room \(host.code) closed")
    }

    /// Carries out a room's effects in order. A message to many is encoded once.
    func carryOut(_ effects: [RoomEffect], in host: RoomHost) {
        for effect in effects {
            switch effect {
            case .send(let player, let message):
                if !host.room.isBot(player), let id = host.peers[player], let peer = peers[id],
                    let frame = encode(message)
                {
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
            case .joined:
                break
            case .removed(let player, let reason):
                host.absentSince[player] = nil
                if let id = host.peers.removeValue(forKey: player), let peer = peers[id] {
                    if let reason {
                        send(.error(.init(reason)), to: peer)
                    } else {
                        send(.bye(.init(reason: "left")), to: peer)
                    }
                    linger(peer)
                }
            case .log(let line):
                log.info("room \(host.code): \(line)")
            }
        }
        planBots(host)
        reviewClaims(in: host)
        // The room's timer is armed for its next deadline (`Room.nextDeadline`), with the bots' and the claims'.
        scheduleWake(of: host)
    }

    // MARK: Status

    /// A word-free summary of the rooms for the live status line.
    package func statusSummary(at time: HostTime) -> String {
        clock = time
        if rooms.count == 1, let host = rooms.values.first {
            let view = host.room.view(now: clock.wallMs())
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
