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

    @Test(.tags(.shell), .tags(.shell)) func theHistoryOfTheEveningSurvivesKillNine() throws {
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

    /// The room's own list is in the snapshot the journal writes after it arrives; a change after it (the settings'
    /// word source) is replayed over that snapshot. Both come back after a `kill -9`.
    @Test(.tags(.shell), .tags(.shell)) func theRoomsOwnListSurvivesKillNineAndAReplayOverIt() throws {
        let state = try DaemonProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: state) }
        var daemon = try DaemonProcess(["--seed", "9"], stateDirectory: state)
        let table = try Table.join(4, port: daemon.port)
        let owner = table.owner
        try owner.send(.words(.init(text: "婚紗,禮服\n伴郎——伴娘\nlonely\n蛋糕/喜餅")))
        let reported = try owner.waitFor("the report") { if case .wordsReport = $0 { true } else { false } }
        guard case .wordsReport(let report) = reported else { return }
        #expect(report.total == 3 && report.refused.map(\.line) == [3])
        try owner.send(.settings(.init(wordSource: .ours)))
        try owner.waitForView("the word source") { $0.settings.wordSource == .ours && $0.wordCount == 3 }

        daemon.stop(signal: SIGKILL)
        daemon = try DaemonProcess(["--seed", "9"], stateDirectory: state)
        try owner.resume(port: daemon.port)
        try owner.waitForView("the list after the restart") { $0.settings.wordSource == .ours && $0.wordCount == 3 }
        try owner.send(.wordsExport)
        let exported = try owner.waitFor("the list") { if case .wordList = $0 { true } else { false } }
        #expect(
            exported
                == .wordList(
                    .init(pairs: [
                        .init(civilian: "婚紗", spy: "禮服"), .init(civilian: "伴郎", spy: "伴娘"),
                        .init(civilian: "蛋糕", spy: "喜餅"),
                    ])))
        for player in table.players.dropFirst() { try player.resume(port: daemon.port) }
        try table.start()
        let words = Set(table.players.compactMap { $0.deal?.word })
        #expect(words.isSubset(of: ["婚紗", "禮服", "伴郎", "伴娘", "蛋糕", "喜餅"]) && words.count == 2)
        #expect(daemon.stop() == 0)
    }

    /// The moderator, asked and accepted (changes the journal replays), and the pair they typed (in the room's
    /// snapshot) come back after a `kill -9`: the moderator sees the pair again, and the next game deals it.
    @Test(.tags(.shell), .tags(.shell)) func theModeratorAndTheirPairSurviveKillNine() throws {
        let state = try DaemonProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: state) }
        var daemon = try DaemonProcess(["--seed", "10"], stateDirectory: state)
        let table = try Table.join(5, port: daemon.port)
        let judge = table.players[4]
        try table.owner.send(.moderator(.init(player: judge.id)))
        try judge.waitFor("the offer") { if case .moderatorOffer = $0 { true } else { false } }
        try judge.send(.moderatorAnswer(.init(accept: true)))
        try judge.send(.moderatorPair(.init(civilian: "婚紗", spy: "禮服")))
        try judge.waitFor("the pair") {
            if case .moderatorView(let view) = $0 { view.nextPair != nil } else { false }
        }
        daemon.stop(signal: SIGKILL)
        daemon = try DaemonProcess(["--seed", "10"], stateDirectory: state)
        for player in table.players { try player.resume(port: daemon.port) }
        let seen = try judge.waitFor("the moderator's view after the restart") {
            if case .moderatorView = $0 { true } else { false }
        }
        #expect(seen == .moderatorView(.init(game: 0, nextPair: .init(civilian: "婚紗", spy: "禮服"))))
        try table.owner.waitForView("the moderator's seat") { view in
            view.seats.first { $0.id == judge.id }?.moderator == true
        }
        try judge.send(.start)
        let players = Array(table.players.prefix(4))
        for player in players {
            try player.waitFor("deal") { if case .deal = $0 { true } else { false } }
        }
        #expect(Set(players.compactMap { $0.deal?.word }) == ["婚紗", "禮服"])
        #expect(judge.deal == nil)
        #expect(daemon.stop() == 0)
    }
}
