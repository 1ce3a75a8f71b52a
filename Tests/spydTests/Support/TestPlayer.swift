import Foundation
import SpyNet
import SpyProtocol
import SpyTestSupport
import Testing

/// One player driven by a test, over a real connection or to a `CoreHost`, remembering what it was told.
final class TestPlayer {
    private(set) var client: any PlayerLink
    let name: String
    private(set) var id: PlayerID = ""
    private(set) var token = ""
    private(set) var room = ""
    /// The last deal: `.some(nil)` for the blank.
    private(set) var deal: ServerMessage.Deal?
    /// The last room view.
    private(set) var view: RoomView?
    /// Every message received, over every connection this player used.
    private(set) var history: [ServerMessage] = []
    /// Every payload received, over every connection this player used.
    var payloads: [[UInt8]] { finishedPayloads + client.receivedPayloads }
    private var finishedPayloads: [[UInt8]] = []
    /// The game-over message, once it came.
    private(set) var gameOver: ServerMessage.GameOver?

    /// Connects on `port` and says hello; fails the test unless a welcome comes.
    convenience init(
        port: UInt16, name: String, room: String? = nil, create: Bool? = nil, password: String? = nil
    ) throws {
        try self.init(
            link: try FrameClient(host: "127.0.0.1", port: port), name: name, room: room, create: create,
            password: password)
    }

    /// Connects to `host` and says hello; fails the test unless a welcome comes.
    convenience init(
        on host: CoreHost, name: String, room: String? = nil, create: Bool? = nil, password: String? = nil
    ) throws {
        try self.init(link: try host.connect(), name: name, room: room, create: create, password: password)
    }

    private init(link: any PlayerLink, name: String, room: String?, create: Bool?, password: String?) throws {
        self.name = name
        client = link
        client.recordsPayloads = true
        try client.send(.hello(.init(name: name, room: room, password: password, create: create)))
        try expectWelcome(resumed: false)
    }

    /// Drops the connection without a word (as a lost network would).
    func drop() {
        finishedPayloads += client.receivedPayloads
        client.close()
    }

    /// Comes back with the token on `port`.
    func resume(port: UInt16) throws {
        try resume(over: try FrameClient(host: "127.0.0.1", port: port))
    }

    /// Comes back with the token to `host`.
    func resume(on host: CoreHost) throws {
        try resume(over: try host.connect())
    }

    private func resume(over link: any PlayerLink) throws {
        finishedPayloads += client.receivedPayloads
        client.close()
        client = link
        client.recordsPayloads = true
        try client.send(.hello(.init(name: name, room: room, token: token)))
        try expectWelcome(resumed: true)
    }

    private func expectWelcome(resumed: Bool) throws {
        guard case .welcome(let welcome)? = try next(deadline: .after(seconds: 10)) else {
            throw DaemonError(description: "\(name): no welcome; got \(history.last.map { "\($0)" } ?? "nothing")")
        }
        #expect(welcome.resumed == resumed)
        id = welcome.you
        token = welcome.token
        room = welcome.room
    }

    func send(_ message: ClientMessage) throws {
        try client.send(message)
    }

    /// The next message (recorded and folded into what the player knows), or nil at the deadline.
    func next(deadline: Deadline) throws -> ServerMessage? {
        guard let message = try client.receive(deadline: deadline) else { return nil }
        history.append(message)
        switch message {
        case .deal(let deal): self.deal = deal
        case .room(let view): self.view = view
        case .gameOver(let over): gameOver = over
        case .ping(let ping): try client.send(.pong(.init(id: ping.id)))
        default: break
        }
        return message
    }

    /// Reads until a message matches, or fails the test at the deadline.
    @discardableResult
    func waitFor(
        _ what: String, seconds: Double = 10, where predicate: (ServerMessage) -> Bool
    ) throws -> ServerMessage {
        let deadline = Deadline.after(seconds: seconds)
        while let message = try next(deadline: deadline) {
            if predicate(message) { return message }
        }
        throw DaemonError(description: "\(name) waited in vain for \(what); last: \(history.suffix(3))")
    }

    /// Waits for an error frame with `code`.
    @discardableResult
    func waitForError(_ code: ErrorCode, seconds: Double = 10) throws -> ServerMessage {
        try waitFor("error \(code.rawValue)", seconds: seconds) {
            if case .error(let error) = $0 { return error.code == code }
            return false
        }
    }

    /// Waits for a room view that satisfies `predicate`.
    @discardableResult
    func waitForView(_ what: String, seconds: Double = 10, where predicate: (RoomView) -> Bool) throws -> RoomView {
        if let view, predicate(view) { return view }
        let message = try waitFor(what, seconds: seconds) {
            if case .room(let view) = $0 { return predicate(view) }
            return false
        }
        guard case .room(let view) = message else { fatalError("unreachable") }
        return view
    }

    /// Whether the host closed the connection before the deadline (reading and recording what came first).
    func waitForClose(seconds: Double = 10) -> Bool {
        let deadline = Deadline.after(seconds: seconds)
        while true {
            do {
                guard try next(deadline: deadline) != nil else { return false }
            } catch {
                return true
            }
        }
    }
}
