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
        /// Seated as `player` in the room with code `room`; `probed` once the silence probe went out since the
        /// last frame.
        case seated(room: String, player: PlayerID, probed: Bool)
        /// Watching the room with code `room`: no seat, public messages only.
        case watching(room: String, probed: Bool)
        /// Asking for the away seat `player` of the room `room` back without its token: no seat until a
        /// connected player of the room approves.
        case claiming(room: String, player: PlayerID, probed: Bool)
        /// Finished: the last bytes go out, input is read and dropped, and the socket closes at the latest at
        /// `until` (monotonic ms). Lingering instead of closing at once keeps unread input from turning the close
        /// into a reset that would destroy the final error frame.
        case lingering(until: Int64, shut: WriteShut)
        /// Finished at once: the connection closes at the end of the wake, after its last bytes.
        case closing
    }

    /// What becomes of a lingering connection's write side.
    enum WriteShut {
        /// It stays open (the host is stopping, and the shell closes what is left).
        case open
        /// It shuts once the bytes are written: to be handed out at the end of the wake.
        case due
        /// The shell was told to shut it.
        case handedOut
    }

    /// The connection's number, which the shell's actions name.
    let id: UInt64
    /// The peer's address, as the shell accepted it.
    let remoteAddress: String
    var stage: Stage
    /// Monotonic ms of the last frame received.
    @exclusivity(unchecked) var lastHeard: Int64
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

    /// Whether the connection is finished (lingering or closing): its input is dropped.
    var isFinished: Bool {
        switch stage {
        case .lingering, .closing: return true
        case .greeting, .seated, .watching, .claiming: return false
        }
    }

    /// Whether the connection closes at the end of the wake.
    var isClosing: Bool {
        if case .closing = stage { return true }
        return false
    }

    /// Whether the connection shuts its write side once its bytes are written (it lingers).
    var shutsWrite: Bool {
        switch stage {
        case .lingering(_, .due), .lingering(_, .handedOut): return true
        case .greeting, .seated, .watching, .claiming, .lingering, .closing: return false
        }
    }

    /// Whether the silence probe went out since the last frame (seated, watching or claiming).
    var probed: Bool {
        get {
            switch stage {
            case .seated(_, _, let probed), .watching(_, let probed), .claiming(_, _, let probed): return probed
            case .greeting, .lingering, .closing: return false
            }
        }
        set {
            switch stage {
            case .seated(let room, let player, _): stage = .seated(room: room, player: player, probed: newValue)
            case .watching(let room, _): stage = .watching(room: room, probed: newValue)
            case .claiming(let room, let player, _): stage = .claiming(room: room, player: player, probed: newValue)
            case .greeting, .lingering, .closing: break
            }
        }
    }

    /// The room and seat, when seated.
    var seat: (room: String, player: PlayerID)? {
        if case .seated(let room, let player, _) = stage { return (room, player) }
        return nil
    }
}

@available(*, unavailable)
extension Peer: Sendable {}
