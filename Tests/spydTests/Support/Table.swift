import Foundation
import SpyNet
import SpyProtocol
import SpyTestSupport
import Testing

/// Players of one room driven together: everyone reacts to what they receive until the game ends.
final class Table {
    let players: [TestPlayer]
    /// Called for each message a player receives, before the table reacts to it.
    var observe: (TestPlayer, ServerMessage) -> Void = { _, _ in }

    init(_ players: [TestPlayer]) {
        self.players = players
    }

    /// Joins `count` players (the first one owns the room when it is new) on `port`.
    static func join(
        _ count: Int, port: UInt16, prefix: String = "P", room: String? = nil, createFirst: Bool = false
    ) throws -> Table {
        try join(count, prefix: prefix, room: room, createFirst: createFirst) { name, room, create in
            try TestPlayer(port: port, name: name, room: room, create: create)
        }
    }

    /// Joins `count` players (the first one owns the room when it is new) to `host`.
    static func join(
        _ count: Int, on host: CoreHost, prefix: String = "P", room: String? = nil, createFirst: Bool = false
    ) throws -> Table {
        try join(count, prefix: prefix, room: room, createFirst: createFirst) { name, room, create in
            try TestPlayer(on: host, name: name, room: room, create: create)
        }
    }

    private static func join(
        _ count: Int, prefix: String, room: String?, createFirst: Bool,
        player: (String, String?, Bool?) throws -> TestPlayer
    ) throws -> Table {
        var players: [TestPlayer] = []
        let first = try player("\(prefix)1", room, createFirst ? true : nil)
        players.append(first)
        for index in 2...count {
            players.append(try player("\(prefix)\(index)", first.room, nil))
        }
        return Table(players)
    }

    var owner: TestPlayer { players[0] }

    /// The owner starts the game; returns once every player has its deal.
    func start() throws {
        try owner.send(.start)
        for player in players {
            try player.waitFor("deal") {
                if case .deal = $0 { return true }
                return false
            }
        }
    }

    /// Every player reacts (clue or pass on its turn, a shared vote target, a guess) until all have
    /// `game_over`, or until `stopWhen` returns true for a message. Returns the game-over message.
    @discardableResult
    ///
    /// On a `CoreHost`, a table whose players are all waiting (for the bots, a turn timer) moves `host`'s clock to
    /// its next timer; without `host` a table that hears nothing has stalled.
    func play(
        seconds: Double = 30, advancing host: CoreHost? = nil, stopWhen: ((TestPlayer, ServerMessage) -> Bool)? = nil
    ) throws -> ServerMessage.GameOver? {
        if players.allSatisfy({ $0.client.pollDescriptor == nil }) {
            return try playInMemory(seconds: seconds, advancing: host, stopWhen: stopWhen)
        }
        let deadline = Deadline.after(seconds: seconds)
        var finished = Set<Int>()
        while finished.count < players.count {
            guard !deadline.hasPassed else {
                let last = players.map { "\($0.name): \($0.history.suffix(2).map { "\($0)".prefix(150) })" }
                    .joined(separator: "\n")
                throw DaemonError(description: "the game did not end in time; finished: \(finished); last:\n\(last)")
            }
            var watched: [(index: Int, entry: pollfd)] = []
            var buffered: [Int] = []
            for (index, player) in players.enumerated() where !finished.contains(index) {
                guard let fd = player.client.pollDescriptor else { continue }
                watched.append((index, pollfd(fd: fd, events: Int16(POLLIN), revents: 0)))
                if player.client.hasBufferedInput { buffered.append(index) }
            }
            var entries = watched.map(\.entry)
            let timeout = buffered.isEmpty ? Int32(min(deadline.remainingMs, 1000)) : 0
            guard poll(&entries, nfds_t(entries.count), timeout) >= 0 || errno == EINTR else {
                throw DaemonError(description: "poll failed (errno \(errno))")
            }
            let ready = zip(watched, entries).filter { $0.1.revents != 0 }.map(\.0.index) + buffered
            for index in ready {
                let player = players[index]
                while let message = try player.next(deadline: Deadline(ms: 0)) {
                    observe(player, message)
                    if let stopWhen, stopWhen(player, message) { return nil }
                    try react(player, message)
                    if case .gameOver = message { finished.insert(index) }
                }
            }
        }
        return owner.gameOver
    }

    /// `play` on a `CoreHost`: every answer is there once a move is sent, so the players read in turn until all
    /// have `game_over`. A pass over the table in which nobody heard anything moves `host`'s clock to its next
    /// timer, for at most `seconds` of the host's time; without `host` it means the game stalled.
    private func playInMemory(
        seconds: Double, advancing host: CoreHost?, stopWhen: ((TestPlayer, ServerMessage) -> Bool)?
    ) throws -> ServerMessage.GameOver? {
        var finished = Set<Int>()
        let start = host?.embedded.now.mono ?? 0
        while finished.count < players.count {
            var heard = false
            for (index, player) in players.enumerated() where !finished.contains(index) {
                while let message = try player.next(deadline: Deadline(ms: 0)) {
                    heard = true
                    observe(player, message)
                    if let stopWhen, stopWhen(player, message) { return nil }
                    try react(player, message)
                    if case .gameOver = message { finished.insert(index) }
                }
            }
            if !heard, let host, host.embedded.now.mono - start < Int64(seconds * 1000),
                host.embedded.fireNextTimer()
            {
                continue
            }
            guard heard else {
                let last = players.map { "\($0.name): \($0.history.suffix(2).map { "\($0)".prefix(150) })" }
                    .joined(separator: "\n")
                throw DaemonError(description: "the game stalled; finished: \(finished); last:\n\(last)")
            }
        }
        return owner.gameOver
    }

    /// What a test player does on its own.
    func react(_ player: TestPlayer, _ message: ServerMessage) throws {
        switch message {
        case .turn(let turn) where turn.player == player.id:
            if player.view?.settings.clueMode == .typed {
                try player.send(.clue(.init(text: "clue \(turn.round) from \(player.name)")))
            } else {
                try player.send(.pass)
            }
        case .voting(let voting) where voting.voters.contains(player.id):
            // Everyone picks the same target (the first candidate; that player picks the second), so one player
            // goes out each round without a tie and the game always ends.
            let candidates = voting.candidates
            let target = candidates[0] == player.id ? candidates[1] : candidates[0]
            try player.send(.vote(.init(target: target)))
        case .guessing(let guessing) where guessing.player == player.id:
            try player.send(.guess(.init(word: "guess")))
        case .error(let error) where error.code == .clueHasWord:
            try player.send(.pass)
        default:
            break
        }
    }
}
