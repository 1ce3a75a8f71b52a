import SpyGame
import SpyProtocol

/// One room with the daemon's bookkeeping around it: who is connected to which seat, tokens, absences, bots.
package final class RoomHost {
    package var room: Room
    /// Each seated human's resume token. Never logged, never sent to anyone but its owner.
    package var tokens: [PlayerID: String]
    /// The connection of each connected human.
    package var peers: [PlayerID: UInt64] = [:]
    /// Connections watching the room (the board): no seat, public messages only.
    package var watchers: Set<UInt64> = []
    /// Wall-clock ms since which a seated human has been away.
    package var absentSince: [PlayerID: Int64] = [:]
    /// Claims of away seats waiting for approval.
    package var claims = SeatClaims()
    /// Wall-clock ms since which nobody has been connected.
    package var emptySince: Int64?
    /// Opened at start: stays open while empty.
    package let permanent: Bool
    package var bots: BotDriver
    /// Bots to seat once the first human has joined (so the human owns the room).
    package var botsToAdd = 0
    /// The last deadline a tick was sent for, so a deadline the room keeps after its tick is not ticked again.
    package var tickedDeadline: Millis?
    /// The address of the client that opened the room (`nil` for the host's own rooms and resumed ones).
    package var openedBy: String?
    /// Whether anyone but the client that opened the room has joined it.
    package var joinedByOthers = false
    /// Whether the room has had its first owner: only theirs may choose its starting word language.
    package var hadFirstOwner = false
    /// Whether the last save failed: moves are refused until one succeeds.
    package var saveFailing = false
    /// Saving works again after an outage: presence, timers and bots must catch up with what happened meanwhile.
    package var needsReconcile = false
    /// The number of the last wake that noted this room's state before it (0: none yet), so that a room is noted
    /// once a wake at the cost of a compare, not of a lookup by its code.
    var notedInWake: UInt64 = 0
    /// Whether the journal holds the room (its snapshot was recorded): a room it does not hold is recorded whole
    /// before its first change.
    var inJournal = false
    /// The monotonic moment the room's timer (its next deadline, bot move or claim expiry) is armed for, if armed.
    var wakeArmedAt: Int64?

    package init(room: Room, tokens: [PlayerID: String] = [:], permanent: Bool, botMemory: BotMemory = BotMemory()) {
        self.room = room
        self.tokens = tokens
        self.permanent = permanent
        self.bots = BotDriver(memory: botMemory)
    }

    package var code: String { room.code }

    package var hasBots: Bool { room.hasBots }

    package func snapshot() -> RoomSnapshot {
        // Tokens of seats the room just gave up are dropped from the file even before the effects are carried out.
        let seated = Set(room.playerIDs)
        return RoomSnapshot(
            room: room, tokens: tokens.filter { seated.contains($0.key) }, permanent: permanent, bots: bots.memory,
            joinedByOthers: joinedByOthers)
    }
}

@available(*, unavailable)
extension RoomHost: Sendable {}
