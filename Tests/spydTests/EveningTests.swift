import Foundation
import Glibc
import SpyProtocol
import SpyTestSupport
import Testing

/// What a room keeps for the evening across a `kill -9` of the host: the history of its finished games.
@Suite struct EveningTests {
    /// The records a player holds, by game number, from every `history` it received.
    static func records(of player: TestPlayer) -> [GameRecord] {
        var byGame: [Int: GameRecord] = [:]
        for case .history(let history) in player.history {
            for record in history.games { byGame[record.game] = record }
        }
        return byGame.values.sorted { $0.game < $1.game }
    }

    @Test func theHistoryOfTheEveningSurvivesKillNine() throws {
        let state = try DaemonProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: state) }
        var daemon = try DaemonProcess(["--seed", "8"], stateDirectory: state)
        let table = try Table.join(4, port: daemon.port)
        for game in 1...2 {
            try table.start()
            _ = try #require(try table.play())
            for player in table.players where Self.records(of: player).count < game {
                try player.waitFor("the record of game \(game)") {
                    if case .history = $0 { return true }
                    return false
                }
            }
        }
        let before = Self.records(of: table.owner)
        #expect(before.map(\.game) == [1, 2])
        #expect(before.allSatisfy { $0.players.count == 4 && !$0.outs.isEmpty })

        daemon.stop(signal: SIGKILL)
        daemon = try DaemonProcess(["--seed", "8"], stateDirectory: state)
        let late = try TestPlayer(port: daemon.port, name: "Late")
        try late.waitFor("the history on arrival") {
            if case .history = $0 { return true }
            return false
        }
        #expect(Self.records(of: late) == before)
        let owner = table.owner
        let seen = owner.history.count
        try owner.resume(port: daemon.port)
        try owner.waitFor("the history on resume") {
            if case .history = $0 { return true }
            return false
        }
        let resent = owner.history.dropFirst(seen).compactMap { if case .history(let h) = $0 { h.games } else { nil } }
        #expect(resent == [before])
        #expect(daemon.stop() == 0)
    }
}
