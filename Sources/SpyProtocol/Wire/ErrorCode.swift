/// Stable error codes carried by `error` frames. The raw value is the wire string.
public enum ErrorCode: String, Codable, Sendable, Equatable, CaseIterable {
    // Framing and decoding (the connection stays open unless the frame length itself was bad).
    /// The frame is not UTF-8, not JSON, or not a JSON object with a string `type`.
    case badFrame = "bad_frame"
    /// The frame's length is 0 or over the maximum. Fatal.
    case frameTooLarge = "frame_too_large"
    /// The `type` is not one the host knows.
    case unknownType = "unknown_type"
    /// A field is missing or has the wrong type or value.
    case badMessage = "bad_message"

    // Handshake (fatal, except `already_joined`, which only refuses the second `hello`).
    /// The client's protocol version is not spoken here.
    case protocolVersion = "protocol_version"
    /// The first frame must be `hello`.
    case helloRequired = "hello_required"
    /// No `hello` came in time.
    case helloTimeout = "hello_timeout"
    /// `hello` was sent twice on one connection.
    case alreadyJoined = "already_joined"
    /// No room with that code.
    case roomNotFound = "room_not_found"
    /// The host has several rooms: name one.
    case roomRequired = "room_required"
    /// Every seat is taken.
    case roomFull = "room_full"
    /// A game is running; new players join at the next game.
    case gameInProgress = "game_in_progress"
    /// Another player in the room has that name.
    case nameTaken = "name_taken"
    /// The name is too long or has control characters.
    case badName = "bad_name"
    /// The room's password is wrong or missing.
    case wrongPassword = "wrong_password"
    /// The resume token is unknown or expired.
    case badToken = "bad_token"
    /// The host cannot open another room.
    case tooManyRooms = "too_many_rooms"
    /// Too many wrong passwords from this address: wait before trying again.
    case tooManyAttempts = "too_many_attempts"
    /// The claimed seat is not an away person's seat of that room.
    case claimInvalid = "claim_invalid"
    /// Nobody connected can approve the claim.
    case claimUnavailable = "claim_unavailable"
    /// A claim of that seat is already waiting.
    case claimBusy = "claim_busy"
    /// The claim was denied, timed out, or the seat stopped being away.
    case claimRefused = "claim_refused"

    // Game moves (the connection stays open, nothing changes).
    /// Only the room owner may do that.
    case notOwner = "not_owner"
    /// That move is not valid in the current phase.
    case wrongPhase = "wrong_phase"
    /// It is not your turn to describe.
    case notYourTurn = "not_your_turn"
    /// You are out of this game (or not in it).
    case notPlaying = "not_playing"
    /// You cannot vote for yourself.
    case selfVote = "self_vote"
    /// That player cannot be voted for or kicked (unknown, out, or outside the PK).
    case badTarget = "bad_target"
    /// The clue contains your own word.
    case clueHasWord = "clue_has_word"
    /// The clue is empty, too long or has control characters.
    case badClue = "bad_clue"
    /// Not enough players to start.
    case tooFewPlayers = "too_few_players"
    /// More spies than the table size allows.
    case tooManySpies = "too_many_spies"
    /// A setting is out of range.
    case badSettings = "bad_settings"
    /// Only the player the host asked may answer that.
    case notAllowed = "not_allowed"
    /// A pasted word list is larger than the host reads in one message, or not text it can read.
    case badWords = "bad_words"

    // Connection management (fatal).
    /// Your seat was taken over by a newer connection with your token.
    case replaced
    /// The owner removed you from the room.
    case kicked
    /// You did not read your messages fast enough.
    case slowConsumer = "slow_consumer"
    /// Too many bad frames or moves in a short time.
    case tooManyErrors = "too_many_errors"
    /// The host holds as many connections as it may (in total or from your address).
    case tooManyConnections = "too_many_connections"
    /// Nothing heard from you for too long.
    case idleTimeout = "idle_timeout"
    /// The host is shutting down.
    case hostClosing = "host_closing"
    /// The host hit an unexpected problem with this request.
    case `internal`
    /// The host cannot save the room (its disk is full or failing): the move was not taken. Play resumes once it can.
    case hostStorage = "host_storage"

    /// Whether the host closes the connection after sending this error.
    public var isFatal: Bool {
        switch self {
        case .frameTooLarge, .protocolVersion, .helloRequired, .helloTimeout, .roomNotFound, .roomRequired,
            .roomFull, .gameInProgress, .nameTaken, .badName, .wrongPassword, .badToken, .tooManyRooms, .replaced,
            .kicked, .slowConsumer, .tooManyErrors, .tooManyConnections, .idleTimeout, .hostClosing,
            .tooManyAttempts, .claimInvalid, .claimUnavailable, .claimBusy, .claimRefused:
            return true
        default:
            return false
        }
    }

    /// A standard human sentence for the code.
    public var defaultMessage: String {
        switch self {
        case .badFrame: return "The frame is not a UTF-8 JSON object with a string \"type\"."
        case .frameTooLarge: return "The frame length is zero or over the maximum."
        case .unknownType: return "Unknown message type."
        case .badMessage: return "A field is missing or has the wrong type."
        case .protocolVersion:
            let versions = supportedProtocolVersions.map(String.init).joined(separator: ", ")
            return "Unsupported protocol version; this host speaks version \(versions)."
        case .helloRequired: return "The first message must be hello."
        case .helloTimeout: return "No hello received in time."
        case .alreadyJoined: return "This connection has already joined."
        case .roomNotFound: return "No room with that code."
        case .roomRequired: return "This host has several rooms; give a room code."
        case .roomFull: return "The room is full."
        case .gameInProgress: return "A game is in progress; join when it ends."
        case .nameTaken: return "Another player in the room has that name."
        case .badName: return "Names are 1 to 16 columns wide with no control characters."
        case .wrongPassword: return "Wrong room password."
        case .badToken: return "Unknown or expired resume token."
        case .tooManyRooms: return "The host cannot open another room."
        case .notOwner: return "Only the room owner can do that."
        case .wrongPhase: return "That is not possible in the current phase."
        case .notYourTurn: return "It is not your turn."
        case .notPlaying: return "You are not playing in this game."
        case .selfVote: return "You cannot vote for yourself."
        case .badTarget: return "That player cannot be chosen."
        case .clueHasWord: return "Your clue contains your word."
        case .badClue: return "Clues are 1 to 100 characters with no control characters."
        case .tooFewPlayers: return "At least 4 players are needed to start."
        case .tooManySpies: return "Too many spies for this table."
        case .badSettings: return "A setting is out of range."
        case .replaced: return "Your seat was resumed from another connection."
        case .kicked: return "The room owner removed you."
        case .slowConsumer: return "Disconnected: messages were not read fast enough."
        case .tooManyErrors: return "Disconnected: too many bad messages."
        case .tooManyConnections: return "The host has too many connections."
        case .idleTimeout: return "Disconnected: nothing heard for too long."
        case .hostClosing: return "The host is shutting down."
        case .internal: return "Internal error."
        case .tooManyAttempts: return "Too many wrong passwords from your address; wait a little and try again."
        case .claimInvalid: return "That seat cannot be claimed: it is not an away player's seat in this room."
        case .claimUnavailable: return "Nobody at the table is connected to approve giving that seat back."
        case .claimBusy: return "Someone is already asking for that seat back."
        case .claimRefused: return "The seat was not given back."
        case .notAllowed: return "You were not asked that."
        case .badWords: return "The word list cannot be read: at most 48 KiB of text, one pair a line."
        case .hostStorage: return "The host cannot save the game right now, so that was not taken; try again shortly."
        }
    }
}
