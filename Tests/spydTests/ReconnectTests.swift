import Foundation
import Glibc
import SpyNet
import SpyProtocol
import SpyTestSupport
import Testing

@Suite struct ReconnectTests {
    @Test func aPlayerDroppedMidVoteResumesWithItsWordAndVotes() throws {
        let daemon = try CoreHost(["--seed", "11"])
        let table = try Table.join(5, on: daemon)
        try table.start()
        let leaver = table.players[2]
        let word = leaver.deal
        // Stop at the first sign of the vote, before anyone has voted, and drop one player. (Waiting for the
        // leaver's own `voting` let the others vote first; the vote then closed when the leaver dropped, since
        // an absent voter abstains.)
        var firstToSee: (TestPlayer, ServerMessage)?
        try table.play { player, message in
            guard case .voting = message else { return false }
            firstToSee = (player, message)
            return true
        }
        leaver.drop()
        if let (player, voting) = firstToSee, player !== leaver { try table.react(player, voting) }
        try leaver.resume(on: daemon)
        let view = try leaver.waitForView("resumed view") { $0.phase == .voting }
        #expect(view.seats.first { $0.id == leaver.id }?.connected == true)
        try leaver.waitFor("deal again") {
            if case .deal = $0 { return true }
            return false
        }
        #expect(leaver.deal == word)
        let voting = try leaver.waitFor("voting again") {
            if case .voting = $0 { return true }
            return false
        }
        try table.react(leaver, voting)
        #expect(try table.play() != nil)
    }

    @Test func aSeatIsGivenUpWhenTheGracePeriodEnds() throws {
        let host = try CoreHost(["--grace-seconds", "1"])
        let stayer = try TestPlayer(on: host, name: "Stayer")
        let leaver = try TestPlayer(on: host, name: "Leaver")
        try stayer.waitForView("two seats") { $0.seats.count == 2 }
        leaver.drop()
        try stayer.waitForView("away") { $0.seats.contains { $0.id == leaver.id && !$0.connected } }
        host.advance(seconds: 1)
        try stayer.waitForView("seat given up") { $0.seats.count == 1 }
        let late = try host.connect()
        try late.send(.hello(.init(name: "Leaver", token: leaver.token)))
        #expect(try late.receive(deadline: .after(seconds: 10)) == .error(.init(.badToken)))
    }

    @Test func aTurnTimerPassesTheTurnOfAPlayerWhoDoesNothing() throws {
        let host = try CoreHost(["--clues", "typed", "--turn-seconds", "10"])
        let table = try Table.join(4, on: host)
        try table.start()
        let first = try table.owner.waitFor("first turn") {
            if case .turn = $0 { return true }
            return false
        }
        guard case .turn(let turn) = first else { return }
        #expect(turn.timerMs == 10_000)
        host.advance(seconds: 10)
        let skipped = try table.owner.waitFor("the silent turn ends") {
            if case .clue(let clue) = $0 { return clue.player == turn.player }
            return false
        }
        #expect(skipped == .clue(.init(player: turn.player, round: 1, text: nil)))
    }

    @Test func aWrongTokenIsRefused() throws {
        let daemon = try CoreHost()
        let player = try TestPlayer(on: daemon, name: "Real")
        for token in [String(repeating: "0", count: 32), "short", player.token.uppercased()] {
            let client = try daemon.connect()
            try client.send(.hello(.init(name: "Thief", token: token)))
            #expect(try client.receive(deadline: .after(seconds: 10)) == .error(.init(.badToken)))
            #expect(client.waitForClose(deadline: .after(seconds: 10)))
        }
        #expect(!daemon.log.contains(player.token))
    }

    @Test func aSecondConnectionWithTheTokenReplacesTheFirst() throws {
        let daemon = try CoreHost()
        let player = try TestPlayer(on: daemon, name: "Twice")
        try player.resume(on: daemon)
        let other = try daemon.connect()
        try other.send(.hello(.init(name: "Third", token: player.token)))
        let welcome = try other.waitFor(deadline: .after(seconds: 10)) {
            if case .welcome = $0 { return true }
            return false
        }
        #expect(welcome != nil)
        try player.waitForError(.replaced)
        #expect(player.waitForClose())
    }

    @Test(.tags(.shell), .tags(.shell)) func killNineAndRestartLosesNothing() throws {
        let state = try DaemonProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: state) }
        var daemon = try DaemonProcess(["--clues", "typed", "--seed", "5"], stateDirectory: state)
        let table = try Table.join(6, port: daemon.port)
        try table.owner.send(.settings(.init(spies: 1, blank: true)))
        try table.owner.waitForView("settings") { $0.settings.blank }
        try table.start()
        let words = table.players.map(\.deal)
        var clues = 0
        try table.play {
            if case .clue = $1, $0 === table.owner { clues += 1 }
            return clues == 2
        }
        daemon.stop(signal: SIGKILL)
        daemon = try DaemonProcess(["--clues", "typed", "--seed", "5"], stateDirectory: state)
        #expect(daemon.log.contains("resumed"))
        for player in table.players {
            try player.resume(port: daemon.port)
            try player.waitFor("deal after restart") {
                if case .deal = $0 { return true }
                return false
            }
        }
        #expect(table.players.map(\.deal) == words)
        // Whoever had the turn when the daemon died is prompted again on resume; the table carries on.
        let over = try #require(try table.play())
        #expect(over.reveal.count == 6)
        #expect(daemon.stop() == 0)
    }

    @Test(.tags(.shell), .tags(.shell)) func aCorruptStateFileIsMovedAsideAndTheHostStarts() throws {
        let state = try DaemonProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: state) }
        try Data("{ not json".utf8).write(to: state.appendingPathComponent("room-ABCD.json"))
        let daemon = try DaemonProcess(stateDirectory: state)
        #expect(daemon.log.contains("moved aside"))
        let files = try FileManager.default.contentsOfDirectory(atPath: state.path)
        #expect(files.contains { $0.hasPrefix("room-ABCD.json.corrupt-") })
        _ = try TestPlayer(port: daemon.port, name: "Fresh")
    }

    @Test(.tags(.shell), .tags(.shell)) func sigtermSaysGoodbyeAndSaves() throws {
        let state = try DaemonProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: state) }
        let daemon = try DaemonProcess(stateDirectory: state)
        let player = try TestPlayer(port: daemon.port, name: "Stay")
        #expect(daemon.stop() == 0)
        try player.waitFor("bye") {
            if case .bye(let bye) = $0 { return bye.reason == "host_closing" }
            return false
        }
        let again = try DaemonProcess(stateDirectory: state)
        try player.resume(port: again.port)
        #expect(player.view?.seats.count == 1)
    }
}
