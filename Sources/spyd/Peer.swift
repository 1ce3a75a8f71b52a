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

    /// The connection on the host's event loop.
    let link: LoopConnection
    var stage: Stage
    /// Monotonic ms of the last frame received.
    var lastHeard: Int64
    /// Whether the silence probe has been sent since the last frame.
    var probed = false
    /// Monotonic ms of recent errors, oldest first, for the abuse limit.
    var recentErrors: [Int64] = []
    /// The timer of the peer's next deadline (hello, silence, lingering), armed on the host's loop.
    var timer: TimerID?
    /// Bytes of an unfinished frame held for this peer, as last counted into the host's budget.
    var heldInputBytes = 0
    /// How the connection's bytes are framed, with that framing's decoder; selected by its first bytes.
    var transport = PeerTransport.sniffing(held: [])

    init(link: LoopConnection, stage: Stage, now: Int64) {
        self.link = link
        self.stage = stage
        self.lastHeard = now
    }

    /// The socket, its frame inbox and its capped outbox.
    var connection: Connection { link.connection }

    var id: UInt64 { connection.id }

    /// The hello was accepted: frames (and WebSocket messages) may now be as large as the protocol allows.
    func helloAccepted() {
        connection.inbox.maxPayload = FrameLimits.defaultMaxPayload
    }

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
