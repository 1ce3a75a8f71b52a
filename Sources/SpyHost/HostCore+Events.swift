import SpyGame
import SpyProtocol

/// The one way a room takes an event, whoever it comes from — a player's move, a join, a seat given back, a bot, a
/// timer, a departure, the host's restart: the room takes it as the journal's replay does (`HostedRoom.take`), the
/// change is recorded for the wake's commit, and while the journal refuses changes the room is put back exactly as
/// it was (as it is on disk). The caller then carries out the effects (`carryOut`), which nobody hears of before
/// the commit.
extension HostCore {
    /// What became of an event.
    enum EventOutcome {
        /// The room took it, with these effects to carry out.
        case taken([RoomEffect])
        /// The rules refused it; nothing changed.
        case refused(Rejection)
        /// The journal refuses changes: nothing changed, and the room's people were told.
        case unsaved
    }

    /// Takes `event` (none when only the host's side changes) into the room at the wall clock's now, with the host's
    /// own changes: the resume tokens `issuing` names for the effects, `joinedByOthers`. With `recorded`, the change
    /// goes into the wake's commit; without, the room's snapshot is the caller's to write.
    func take(
        _ event: RoomEvent?, into host: RoomHost, issuing: ([RoomEffect]) -> [PlayerID: String]? = { _ in nil },
        joinedByOthers: Bool? = nil, recorded: Bool = true
    ) -> EventOutcome {
        let now = clock.wallMs()
        let before = (room: host.room, tokens: host.tokens, bots: host.bots, joinedByOthers: host.joinedByOthers)
        var taking = host
        var issued: [PlayerID: String]?
        let result = taking.take(event, at: now, joinedByOthers: joinedByOthers) { effects in
            issued = issuing(effects)
            return issued
        }
        let effects: [RoomEffect]
        switch result {
        case .success(let taken): effects = taken
        case .failure(let rejection): return .refused(rejection)
        }
        // The bots' memory is replayed from the events, so an event of a room with bots is recorded even when the
        // room itself is unchanged.
        guard recorded, keepsRooms,
            event == nil || issued != nil || joinedByOthers != nil || host.hasBots || host.room != before.room
        else { return .taken(effects) }
        guard !journal.failing else {
            host.room = before.room
            host.tokens = before.tokens
            host.bots = before.bots
            host.joinedByOthers = before.joinedByOthers
            storageFailed(host, "the journal cannot be written until it is rewritten whole")
            return .unsaved
        }
        noteBefore(
            host, room: before.room, tokens: before.tokens, bots: before.bots.memory,
            joinedByOthers: before.joinedByOthers)
        if let event, !event.isRecordedAsChange {
            // The room's snapshot is written after the event's effects instead.
            dirtyRooms.insert(host.code)
        } else {
            journal.records.append(
                .change(room: host.code, now: now, event: event, tokens: issued, joinedByOthers: joinedByOthers))
        }
        return .taken(effects)
    }

    /// Takes an event into the room and carries out its effects; a refusal goes back to `origin` as an `error`
    /// frame. While the journal refuses changes the event's effects are dropped and the origin gets `host_storage`.
    /// Returns whether the event was taken.
    @discardableResult
    func apply(_ event: RoomEvent, to host: RoomHost, from origin: Peer?) -> Bool {
        let alreadyFailing = host.saveFailing
        switch take(event, into: host) {
        case .taken(let effects):
            carryOut(effects, in: host)
            return true
        case .unsaved:
            // A room that just started failing has told everyone already.
            if let origin, alreadyFailing { send(.error(.init(.hostStorage)), to: origin) }
            return false
        case .refused(let rejection):
            if let origin {
                complain(origin, rejection.errorMessage)
            } else {
                log.debug("room \(host.code): \(rejection.code.rawValue) for an event of the host")
            }
            return false
        }
    }

    /// Notes a room's state before the wake's first change to it, to take back should the commit fail; a room the
    /// journal does not hold yet is recorded whole first.
    private func noteBefore(
        _ host: RoomHost, room: Room, tokens: [PlayerID: String], bots: BotMemory, joinedByOthers: Bool
    ) {
        guard host.notedInWake != journal.wakeNumber else { return }
        host.notedInWake = journal.wakeNumber
        let before = RoomSnapshot(
            room: room, tokens: tokens, permanent: host.permanent, bots: bots, joinedByOthers: joinedByOthers)
        // A code closed and opened again within the wake keeps its state before the wake: the first noted.
        let first = journal.wake.before.index(forKey: host.code) == nil
        if host.inJournal {
            if first { journal.wake.before[host.code] = .some(before) }
        } else {
            if first { journal.wake.before[host.code] = .some(nil) }
            journal.records.append(.snapshot(before))
            host.inJournal = true
        }
    }
}
