import Foundation
import SpyProtocol

/// Milliseconds on the injected clock (wall-clock milliseconds since 1970 in the daemon; anything in tests).
public typealias Millis = Int64

/// Something that happened to a room. The daemon turns network input and timers into these.
public enum RoomEvent: Sendable, Equatable {
    /// A new player asks for a seat (lobby or game over only). On success the effects include `.joined(id)`.
    case join(name: String, bot: Bool)
    /// A seated player's connection came back (resume): they get the full state and their own word again.
    case connected(PlayerID)
    /// A seated player's connection dropped; the seat is kept.
    case disconnected(PlayerID)
    /// A player gives up their seat for good (`leave` message, or the daemon's grace period ran out).
    case leave(PlayerID)
    /// The owner starts a game; `pairs` are the bank's pairs that fit the room's settings (empty when the room
    /// plays its own list only).
    case start(by: PlayerID, pairs: [WordPair])
    /// The owner sent pairs for the room's own list, which the host has read and checked line by line.
    case words(by: PlayerID, WordUpload)
    /// The moderator typed the next game's pair, which the host has checked as a line of a list.
    case moderatorPair(by: PlayerID, WordPair)
    /// Any other game move from a player: `settings`, `clue`, `pass`, `vote`, `guess`, `kick`.
    /// (`hello`, `ping`, `start` and `leave` are handled by the daemon or by the cases above.)
    case move(PlayerID, ClientMessage)
    /// The clock reached the deadline the room asked for.
    case tick
    /// The host started again with this room from its journal: every person is away from now (until they
    /// resume), a running timer is never due sooner than the absent window from now, and an owner who is not a
    /// seated person is replaced.
    case hostRestarted
}

/// Pairs for a room's own list as the host read them from the owner's text: the pairs that passed the checks of a
/// single line, each with its line, and the lines refused already. The room refuses more (a pair it holds, a full
/// list) and answers with the whole report.
public struct WordUpload: Sendable, Equatable {
    public var pairs: [WordPair]
    /// The 1-based line of each pair of `pairs`.
    public var lines: [Int]
    public var refused: [WordRefusal]
    /// Whether the pairs replace the list rather than join it.
    public var replace: Bool

    public init(pairs: [WordPair], lines: [Int], refused: [WordRefusal] = [], replace: Bool = false) {
        self.pairs = pairs
        self.lines = lines
        self.refused = refused
        self.replace = replace
    }
}

/// What the daemon must do after an event. The room does no I/O itself.
public enum RoomEffect: Sendable, Equatable {
    /// Send a message to one player (dropped by the daemon when that player is not connected).
    case send(PlayerID, ServerMessage)
    /// Send the same message to every seated player of the room.
    case broadcast(ServerMessage)
    /// A `join` succeeded with this new player id.
    case joined(PlayerID)
    /// The player no longer has a seat (kicked or left); `reason` is the error to send before closing, if any.
    case removed(PlayerID, reason: ErrorCode?)
    /// A line for the host's log. Never contains a word or a hidden role before the reveal.
    case log(String)
}

/// Why an event was refused. The room is unchanged.
public struct Rejection: Error, Sendable, Equatable {
    public var code: ErrorCode
    public var message: String
    /// For a refusal about numbers: how many are needed, and how many there are.
    public var need: Int?
    public var have: Int?

    public init(_ code: ErrorCode, _ message: String? = nil, need: Int? = nil, have: Int? = nil) {
        self.code = code
        self.message = message ?? code.defaultMessage
        self.need = need
        self.have = have
    }

    /// The `error` message a player is sent for this refusal.
    public var errorMessage: ServerMessage.ErrorMessage {
        ServerMessage.ErrorMessage(code: code, message: message, need: need, have: have)
    }
}
