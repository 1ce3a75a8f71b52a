import SpyGame
import SpyProtocol

/// One simulated player of the load test: reacts to what the host sends as fast as the protocol allows.
///
/// Pure: it is fed server messages and answers with the client messages to send, so the load loop stays a
/// loop over sockets and this logic can be tested without one.
struct BenchPlayer {
    /// What the player did that the load loop measures.
    enum Note: Equatable {
        /// A vote opened for `voters` players (every player of the room reports it).
        case votingOpened(voters: Int)
        /// The player sent a ballot.
        case sentBallot
        /// The player received a vote result.
        case receivedVoteResult
        /// The player's games are all played.
        case finished
        /// The host sent an error frame or a `bye`.
        case failure(String)
    }

    let name: String
    /// Whether this player opens the room and starts each game.
    let isOwner: Bool
    /// How many seats the room must fill before the owner starts.
    let tableSize: Int
    /// Games to play before the player is done.
    let gamesWanted: Int
    private var random: SplitMix64

    private(set) var me: PlayerID?
    private(set) var roomCode: String?
    private(set) var gamesFinished = 0
    private var startedGame = 0

    init(name: String, isOwner: Bool, tableSize: Int, gamesWanted: Int, seed: UInt64) {
        self.name = name
        self.isOwner = isOwner
        self.tableSize = tableSize
        self.gamesWanted = gamesWanted
        self.random = SplitMix64(seed: seed)
    }

    var isFinished: Bool { gamesFinished >= gamesWanted }

    /// The first frame: the owner opens a room, the others join the owner's room.
    func hello(room: String?) -> ClientMessage {
        .hello(ClientMessage.Hello(name: name, room: room, create: isOwner ? true : nil))
    }

    /// Whether a frame of this `type` can change what the player does; the others need not be decoded.
    /// `payload` lets a `turn` be skipped unless it names this player: nine of ten turns are someone else's.
    func needsDecoding(_ type: String, payload: [UInt8] = []) -> Bool {
        switch type {
        // Only the owner acts on a room view, and only between games, where one can start the next: decoding the
        // views of a game in progress was a quarter of the bench's CPU.
        case "room": return isOwner && startedGame == gamesFinished
        case "clue", "vote_progress", "vote_result": return false
        case "turn":
            guard let me else { return true }
            return FrameSniffer.mentions(me, in: payload)
        default: return true
        }
    }

    /// Reacts to one message from the host.
    mutating func receive(_ message: ServerMessage) -> (send: [ClientMessage], notes: [Note]) {
        switch message {
        case .welcome(let welcome):
            me = welcome.you
            roomCode = welcome.room
            return ([], [])
        case .room(let view):
            return (startIfReady(view), [])
        case .ping(let ping):
            return ([.pong(ClientMessage.Pong(id: ping.id))], [])
        case .turn(let turn) where turn.player == me:
            return ([.pass], [])
        case .voting(let voting):
            let opened = Note.votingOpened(voters: voting.voters.count)
            guard let me, voting.voters.contains(me) else { return ([], [opened]) }
            let choices = voting.candidates.filter { $0 != me }
            guard !choices.isEmpty else { return ([], [opened]) }
            return (
                [.vote(ClientMessage.Vote(target: choices[random.next(below: choices.count)]))], [opened, .sentBallot]
            )
        case .voteResult:
            return ([], [.receivedVoteResult])
        case .guessing(let guessing) where guessing.player == me:
            return ([.guess(ClientMessage.Guess(word: "?"))], [])
        case .gameOver:
            gamesFinished += 1
            return ([], isFinished ? [.finished] : [])
        case .error(let error):
            return ([], [.failure("\(error.code.rawValue): \(error.message)")])
        case .bye(let bye):
            return ([], [.failure("bye: \(bye.reason)")])
        default:
            return ([], [])
        }
    }

    private mutating func startIfReady(_ view: RoomView) -> [ClientMessage] {
        guard isOwner, !isFinished, view.phase == .lobby || view.phase == .gameOver,
            view.seats.count >= tableSize, startedGame == gamesFinished
        else { return [] }
        startedGame += 1
        return [.start]
    }
}
