import SpyGame
import SpyProtocol
import SpyWeb

/// One network peer of the daemon and where it stands.
///
/// The state read and written for every message goes without run-time exclusivity checks (with them, they were a
/// fifth of the host's instructions per ping): each access is one statement's, or a decoder's own mutating call
/// that touches nothing else of the peer, so no two can overlap.
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

    /// The connection's number, which the shell's actions name.
    let id: UInt64
    /// The peer's address, as the shell accepted it.
    let remoteAddress: String
    var stage: Stage
    /// Monotonic ms of the last frame received.
    @exclusivity(unchecked) var lastHeard: Int64
    /// Whether the silence probe has been sent since the last frame.
    @exclusivity(unchecked) var probed = false
    /// Monotonic ms of recent errors, oldest first, for the abuse limit.
    var recentErrors: [Int64] = []
    /// The monotonic moment the peer's timer is armed for (hello, silence, lingering), if it is armed.
    var timer: Int64?
    /// Bytes of an unfinished frame held for this peer, as last counted into the host's budget.
    @exclusivity(unchecked) var heldInputBytes = 0
    /// The framed protocol's decoder; also sets the largest message a WebSocket peer may send.
    @exclusivity(unchecked) var inbox: FrameDecoder
    /// How the connection's bytes are framed, with that framing's decoder; selected by its first bytes.
    @exclusivity(unchecked) var transport = PeerTransport.sniffing(held: [])
    /// Bytes queued in this wake, written once the wake is on disk: handed to the shell whole, as the connection's one
    /// `send` of the wake. The wake's first message is taken as it was encoded (shared, for a broadcast), not copied.
    @exclusivity(unchecked) var outbox: [UInt8] = []
    /// The connection shuts its write side once its bytes are written (it lingers).
    var shutsWrite = false
    /// The connection closes at the end of the wake, after its bytes.
    var isClosing = false
    /// Whether the shell was told to shut the write side.
    var shutHandedOut = false
    /// Whether the connection is in the core's list of what to hand out at the end of the wake.
    @exclusivity(unchecked) var queuedForFlush = false
    /// Bytes the shell had not written when the wake first queued something for the connection.
    @exclusivity(unchecked) var unsentBeforeWake = 0
    /// The outbox's length when the wake queued its first message: a wake taken back drops what followed.
    @exclusivity(unchecked) var outputMark: Int?
    /// Whether this wake queued anything but answers to keep-alives: only then must the bytes wait for the commit.
    @exclusivity(unchecked) var outputAwaitsCommit = false

    init(id: UInt64, remoteAddress: String, stage: Stage, now: Int64, maxPayload: Int) {
        self.id = id
        self.remoteAddress = remoteAddress
        self.stage = stage
        self.lastHeard = now
        self.inbox = FrameDecoder(maxPayload: maxPayload)
    }

    /// The hello was accepted: frames (and WebSocket messages) may now be as large as the protocol allows.
    func helloAccepted() {
        inbox.maxPayload = FrameLimits.defaultMaxPayload
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
