import SpyGame
import SpyNet
import SpyProtocol
import SpyWeb

/// One network peer of the daemon and where it stands.
final class Peer {
    /// Where the peer is in its life.
    enum Stage {
        /// Connected, no `hello` yet; it must come before `deadline` (monotonic ms).
        case greeting(deadline: Int64)
        /// Seated as `player` in the room with code `room`.
        case seated(room: String, player: PlayerID)
        /// Watching the room with code `room`: no seat, public messages only.
        case watching(room: String)
        /// Asking for the away seat `player` of the room `room` back without its token: no seat until a
        /// connected player of the room approves.
        case claiming(room: String, player: PlayerID)
        /// Finished: the last bytes go out, input is read and dropped, and the socket closes at the latest at
        /// `until` (monotonic ms). Lingering instead of closing at once keeps unread input from turning the close
        /// into a reset that would destroy the final error frame.
        case lingering(until: Int64)
    }

    let connection: Connection
    var stage: Stage
    /// Monotonic ms of the last frame received.
    var lastHeard: Int64
    /// Whether the silence probe has been sent since the last frame.
    var probed = false
    /// Monotonic ms of recent errors, oldest first, for the abuse limit.
    var recentErrors: [Int64] = []
    /// Whether the peer is already on the list to flush at the end of the iteration.
    var queuedForFlush = false
    /// Whether the poller watches this connection for writability (only while output waits).
    var watchingWrite = false
    /// Whether the write side has been shut down after the last frame went out.
    var writeShut = false
    /// Bytes of an unfinished frame held for this peer, as last counted into the host's budget.
    var heldInputBytes = 0
    /// How the connection's bytes are framed; decided from its first bytes.
    var transport = PeerTransport.sniffing
    /// The first bytes, held until they tell the transport.
    var sniffed: [UInt8] = []
    /// The request head while `transport` is `.http`.
    var httpRequest = HTTPRequestParser()
    /// The frame decoder while `transport` is `.webSocket`.
    var webSocket: WebSocketDecoder?
    /// Whether a WebSocket close frame has been queued (only one is ever sent).
    var webSocketCloseSent = false

    init(connection: Connection, stage: Stage, now: Int64) {
        self.connection = connection
        self.stage = stage
        self.lastHeard = now
    }

    var id: UInt64 { connection.id }

    var isLingering: Bool {
        if case .lingering = stage { return true }
        return false
    }

    /// The room and seat, when seated.
    var seat: (room: String, player: PlayerID)? {
        if case .seated(let room, let player) = stage { return (room, player) }
        return nil
    }
}

@available(*, unavailable)
extension Peer: Sendable {}

/// One room with the daemon's bookkeeping around it: who is connected to which seat, tokens, absences, bots.
final class RoomHost {
    var room: Room
    /// Each seated human's resume token. Never logged, never sent to anyone but its owner.
    var tokens: [PlayerID: String]
    /// The connection of each connected human.
    var peers: [PlayerID: UInt64] = [:]
    /// Connections watching the room (the board): no seat, public messages only.
    var watchers: Set<UInt64> = []
    /// Wall-clock ms since which a seated human has been away.
    var absentSince: [PlayerID: Int64] = [:]
    /// Claims of away seats waiting for approval.
    var claims = SeatClaims()
    /// Wall-clock ms since which nobody has been connected.
    var emptySince: Int64?
    /// Opened at start: stays open while empty.
    let permanent: Bool
    var bots: BotDriver
    /// Bots to seat once the first human has joined (so the human owns the room).
    var botsToAdd = 0
    /// The last deadline a tick was sent for, so a deadline the room keeps after its tick is not ticked again.
    var tickedDeadline: Millis?
    /// The address of the client that opened the room (`nil` for the host's own rooms and resumed ones).
    var openedBy: String?
    /// Whether anyone but the client that opened the room has joined it.
    var joinedByOthers = false
    /// Whether the last save failed: moves are refused until one succeeds.
    var saveFailing = false
    /// Saving works again after an outage: presence, timers and bots must catch up with what happened meanwhile.
    var needsReconcile = false

    init(room: Room, tokens: [PlayerID: String] = [:], permanent: Bool, botMemory: BotMemory = BotMemory()) {
        self.room = room
        self.tokens = tokens
        self.permanent = permanent
        self.bots = BotDriver(memory: botMemory)
    }

    var code: String { room.code }

    var hasBots: Bool { room.hasBots }

    func snapshot() -> RoomSnapshot {
        // Tokens of seats the room just gave up are dropped from the file even before the effects are carried out.
        let seated = Set(room.playerIDs)
        return RoomSnapshot(
            room: room, tokens: tokens.filter { seated.contains($0.key) }, permanent: permanent, bots: bots.memory,
            joinedByOthers: joinedByOthers)
    }
}

@available(*, unavailable)
extension RoomHost: Sendable {}
