/// Every input surface that has a fuzz target. Each body takes any bytes and must neither trap nor break an
/// invariant; the libFuzzer executables under Sources/Fuzz call these, and the test suite replays the committed
/// corpora and past findings through the same functions.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// A byte stream split at input-chosen points through the frame decoder, each payload decoded as a client
    /// message and round-tripped.
    case frames
    /// A room driven by a script of events decoded from the input, with its invariants checked after each.
    case room
    /// A saved room (the state file's JSON), loaded and then played on.
    case roomState = "room-state"
    /// The question bank's parser over every format it detects (CSV/TSV, gviz, legacy feed, JSON).
    case bank
    /// The host's cached copy of a remote sheet, read back when the sheet cannot be fetched.
    case bankCache = "bank-cache"
    /// A request head through the HTTP parser and the routes (assets, the WebSocket upgrade).
    case http
    /// A browser's socket after the upgrade: the WebSocket frame decoder, then each text message as a frame.
    case websocket
    /// A LAN discovery datagram: as a client reads an answer, as a host reads a probe, through the rate limiter.
    case discovery
    /// What a host sends the terminal client, with the player's keys and commands between: its state and screen.
    case client

    public func run(_ bytes: [UInt8]) {
        switch self {
        case .frames: FrameStreamTarget.run(bytes)
        case .room: RoomScriptTarget.run(bytes)
        case .roomState: RoomStateTarget.run(bytes)
        case .bank: BankTarget.run(bytes)
        case .bankCache: BankCacheTarget.run(bytes)
        case .http: HTTPRequestTarget.run(bytes)
        case .websocket: WebSocketTarget.run(bytes)
        case .discovery: DiscoveryTarget.run(bytes)
        case .client: ClientTarget.run(bytes)
        }
    }
}
