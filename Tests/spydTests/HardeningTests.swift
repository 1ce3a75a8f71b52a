import Foundation
import Glibc
import SpyNet
import SpyProtocol
import Testing

@testable import SpyStorage
@testable import spyd

/// A restart never decides a vote, and a bot never owns a room: with the real host.
@Suite struct HardeningTests {
    @Test(.tags(.shell), .tags(.shell)) func aKillNineMidVoteDecidesNothingAndAResumedPlayerSeesTheVote() throws {
        let state = try DaemonProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: state) }
        var daemon = try DaemonProcess(["--seed", "21"], stateDirectory: state)
        let table = try Table.join(5, port: daemon.port)
        try table.start()
        try table.play { _, message in
            if case .voting = message { return true }
            return false
        }
        var votings: [PlayerID: ServerMessage.Voting] = [:]
        for player in table.players {
            if case .voting(let voting) = try votingMessage(of: player) { votings[player.id] = voting }
        }
        // Two ballots of five, then the host dies.
        func target(for player: TestPlayer) -> PlayerID {
            let candidates = votings[player.id]?.candidates ?? []
            return candidates[0] == player.id ? candidates[1] : candidates[0]
        }
        let early = Array(table.players.prefix(2))
        for player in early { try player.send(.vote(.init(target: target(for: player)))) }
        try table.players[4].waitFor("two ballots in") {
            if case .voteProgress(let progress) = $0 { return progress.voted.count == 2 }
            return false
        }
        daemon.stop(signal: SIGKILL)

        daemon = try DaemonProcess(["--seed", "21"], stateDirectory: state)
        #expect(!daemon.log.contains(" vote: "), "the vote closed on restart:\n\(daemon.log)")
        // The first player back sees the vote as it stands and votes alone: the vote stays open.
        let first = table.players[3]
        try first.resume(port: daemon.port)
        let view = try first.waitForView("the vote after the restart") { $0.phase == .voting }
        #expect(view.seats.filter { !$0.connected }.count == 4)
        let progress = try first.waitFor("progress on resume") {
            if case .voteProgress = $0 { return true }
            return false
        }
        #expect(progress == .voteProgress(.init(voted: early.map(\.id), waiting: table.players[2...].map(\.id))))
        try first.send(.vote(.init(target: target(for: first))))
        try first.waitFor("three ballots in") {
            if case .voteProgress(let progress) = $0 { return progress.voted.count == 3 }
            return false
        }
        #expect(!first.history.contains { if case .voteResult = $0 { true } else { false } })
        #expect(!daemon.log.contains(" vote: "))
        // A voter who had voted before the crash is shown their own ballot.
        let voter = table.players[0]
        try voter.resume(port: daemon.port)
        let voting = try voter.waitFor("voting on resume") {
            if case .voting = $0 { return true }
            return false
        }
        var expected = try #require(votings[voter.id])
        expected.ballot = target(for: voter)
        #expect(voting == .voting(expected))
        // Everyone back: whoever has no ballot in votes, and the table finishes the game.
        for player in table.players where player !== first && player !== voter {
            try player.resume(port: daemon.port)
            let again = try player.waitFor("voting on resume") {
                if case .voting = $0 { return true }
                return false
            }
            if case .voting(let voting) = again, voting.ballot == nil { try table.react(player, again) }
        }
        let over = try #require(try table.play())
        #expect(over.reveal.count == 5)
    }

    @Test func aVoteResultMissedWhileAwayComesOnResume() throws {
        let host = try CoreHost(["--seed", "22", "--grace-seconds", "120"])
        let table = try Table.join(5, on: host)
        try table.start()
        let away = table.players[4]
        try table.play { player, message in
            guard case .voting = message else { return false }
            return player === away
        }
        away.drop()
        // The others vote (again: a later ballot replaces an earlier one); the vote closes when the away voter's
        // absent window ends.
        for player in table.players.prefix(4) {
            try table.react(player, try votingMessage(of: player))
        }
        host.advance(seconds: 20)
        let result = try table.owner.waitFor("vote result") {
            if case .voteResult = $0 { return true }
            return false
        }
        try away.resume(on: host)
        try away.waitFor("the missed vote result") { $0 == result }
    }

    @Test(.tags(.shell), .tags(.shell)) func aBotNeverOwnsTheRoomAndABotOwnerInTheStateFileIsRepaired() throws {
        let state = try DaemonProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: state) }
        var daemon = try DaemonProcess(["--bots", "3", "--bot-delay-ms", "10"], stateDirectory: state)
        let first = try TestPlayer(port: daemon.port, name: "First")
        try first.waitForView("bots seated") { $0.seats.filter(\.bot).count == 3 }
        try first.send(.leave)
        let watcher = try TestPlayer(port: daemon.port, name: "Late")
        let view = try watcher.waitForView("the newcomer owns the room") { $0.seats.count == 4 }
        #expect(view.seats.first { $0.owner }?.id == watcher.id)
        try watcher.send(.start)
        try watcher.waitFor("deal") {
            if case .deal = $0 { return true }
            return false
        }
        #expect(daemon.stop() == 0)

        // A room written by a host that let a bot own the room, in the room file of an older host.
        let saved = try #require(try StorageTests.journalRooms(state.path).first)
        try FileManager.default.removeItem(at: state.appendingPathComponent(Journal.fileName))
        let url = state.appendingPathComponent("room-\(saved.room.code).json")
        var snapshot = try #require(
            try JSONSerialization.jsonObject(with: Data(StreamingJSONEncoder.encode(saved))) as? [String: Any])
        var room = try #require(snapshot["room"] as? [String: Any])
        let seats = try #require(room["seats"] as? [[String: Any]])
        let bot = try #require(seats.first { $0["bot"] as? Bool == true }?["id"] as? String)
        room["owner"] = bot
        snapshot["room"] = room
        try JSONSerialization.data(withJSONObject: snapshot).write(to: url)

        daemon = try DaemonProcess(["--bots", "3", "--bot-delay-ms", "10"], stateDirectory: state)
        #expect(daemon.log.contains("is not a seated person"))
        try watcher.resume(port: daemon.port)
        let repaired = try watcher.waitForView("owner repaired") { $0.seats.count == 4 }
        #expect(repaired.seats.first { $0.owner }?.id == watcher.id)
    }

    @Test func aNameOfThousandsOfAccentsIsRefusedAndTheRoomKeepsItsSnapshots() throws {
        let daemon = try CoreHost()
        let seated = try TestPlayer(on: daemon, name: "Amy")
        // The 65,529-byte hello of the report no longer gets past the frame header (a frame before hello is at
        // most 4 KiB); a name that fits such a frame is still refused by its byte bound.
        let flood = try daemon.connect()
        try flood.send(.hello(.init(name: "Z" + String(repeating: "\u{0301}", count: 32_740))))
        guard case .error(let cut)? = try flood.receive(deadline: .after(seconds: 10)) else {
            Issue.record("no answer to the oversized hello")
            return
        }
        #expect(cut.code == .frameTooLarge)
        let hostile = try daemon.connect()
        try hostile.send(.hello(.init(name: "Z" + String(repeating: "\u{0301}", count: 1_300))))
        #expect(
            try hostile.receive(deadline: .after(seconds: 10))
                == .error(.init(code: .badName, message: PlayerText.NameProblem.tooManyBytes.message)))
        let impostor = try daemon.connect()
        try impostor.send(.hello(.init(name: "\u{0410}my")))
        #expect(
            try impostor.receive(deadline: .after(seconds: 10))
                == .error(.init(code: .badName, message: PlayerText.NameProblem.mixedScripts.message)))
        let late = try TestPlayer(on: daemon, name: "Bob")
        let view = try seated.waitForView("the next snapshot") { $0.seats.count == 2 }
        #expect(view.seats.map(\.name) == ["Amy", "Bob"])
        try late.waitForView("its own snapshot") { $0.seats.count == 2 }
        #expect(!daemon.log.contains("does not fit"))
    }

    /// The `voting` a player already read, or the next one.
    private func votingMessage(of player: TestPlayer) throws -> ServerMessage {
        if let seen = player.history.last(where: { if case .voting = $0 { true } else { false } }) { return seen }
        return try player.waitFor("voting") {
            if case .voting = $0 { return true }
            return false
        }
    }
}
