import Foundation
import SpyNet
import SpyProtocol
import SpyTestSupport
import Testing

/// A party on phones, over TCP: taking back an away seat without its token, the owner's hand-over, sitting out.
@Suite struct PartyTests {
    /// Waits for the first message the predicate accepts, answering pings, or fails at the deadline.
    private static func receive(
        _ client: any PlayerLink, _ what: String, seconds: Double = 10, where predicate: (ServerMessage) -> Bool
    ) throws -> ServerMessage {
        let deadline = Deadline.after(seconds: seconds)
        while let message = try client.receive(deadline: deadline) {
            if case .ping(let ping) = message { try client.send(.pong(.init(id: ping.id))) }
            if predicate(message) { return message }
        }
        throw DaemonError(description: "waited in vain for \(what)")
    }

    @Test func aClaimApprovedByTheOwnerGivesTheSeatAndWordBackWithANewToken() throws {
        let daemon = try CoreHost(["--seed", "21"])
        let table = try Table.join(4, on: daemon)
        try table.start()
        let lost = table.players[2]
        let word = lost.deal
        let oldToken = lost.token
        lost.drop()
        try table.owner.waitForView("away") { $0.seats.contains { $0.id == lost.id && !$0.connected } }

        // A new device types the same name: that is a claim of the away seat.
        let claimer = try daemon.connect()
        try claimer.send(.hello(.init(name: lost.name)))
        #expect(try claimer.receive(deadline: .after(seconds: 10)) == .claimPending(.init(player: lost.id)))
        try table.owner.waitFor("the question") { $0 == .claim(.init(player: lost.id, name: lost.name)) }
        // Only the player asked may answer.
        try table.players[1].send(.claimAnswer(.init(player: lost.id, allow: true)))
        try table.players[1].waitForError(.notAllowed)
        try table.owner.send(.claimAnswer(.init(player: lost.id, allow: true)))

        guard case .welcome(let welcome) = try claimer.receive(deadline: .after(seconds: 10)) else {
            Issue.record("no welcome")
            return
        }
        #expect(welcome.you == lost.id)
        #expect(welcome.resumed)
        #expect(welcome.token.count == 32 && welcome.token != oldToken)
        let deal = try Self.receive(claimer, "the word again") { if case .deal = $0 { true } else { false } }
        #expect(deal == word.map(ServerMessage.deal))
        try table.owner.waitFor("the question closes") { $0 == .claimDone(.init(player: lost.id)) }
        try table.owner.waitForView("back") { $0.seats.contains { $0.id == lost.id && $0.connected } }

        let old = try daemon.connect()
        try old.send(.hello(.init(name: lost.name, token: oldToken)))
        #expect(try old.receive(deadline: .after(seconds: 10)) == .error(.init(.badToken)))
        #expect(!daemon.log.contains(welcome.token))
    }

    @Test func aDeniedClaimIsRefusedAndClosed() throws {
        let daemon = try CoreHost()
        let owner = try TestPlayer(on: daemon, name: "Owner")
        let lost = try TestPlayer(on: daemon, name: "Lost")
        try owner.waitForView("two seats") { $0.seats.count == 2 }
        lost.drop()
        try owner.waitForView("away") { $0.seats.contains { $0.id == lost.id && !$0.connected } }

        let busy = try daemon.connect()
        let claimer = try daemon.connect()
        try claimer.send(.hello(.init(name: "Neighbour", claim: lost.id)))
        #expect(try claimer.receive(deadline: .after(seconds: 10)) == .claimPending(.init(player: lost.id)))
        try busy.send(.hello(.init(name: "Other", claim: lost.id)))
        #expect(try busy.receive(deadline: .after(seconds: 10))?.errorCode == .claimBusy)
        let invalid = try daemon.connect()
        try invalid.send(.hello(.init(name: "Other", claim: owner.id)))
        #expect(try invalid.receive(deadline: .after(seconds: 10))?.errorCode == .claimInvalid)

        try owner.waitFor("the question") { $0 == .claim(.init(player: lost.id, name: "Neighbour")) }
        // The claimer cannot answer its own claim.
        try claimer.send(.claimAnswer(.init(player: lost.id, allow: true)))
        #expect(try claimer.receive(deadline: .after(seconds: 10))?.errorCode == .notAllowed)
        try owner.send(.claimAnswer(.init(player: lost.id, allow: false)))
        #expect(try claimer.receive(deadline: .after(seconds: 10))?.errorCode == .claimRefused)
        #expect(claimer.waitForClose(deadline: .after(seconds: 10)))
        try owner.waitFor("the question closes") { $0 == .claimDone(.init(player: lost.id)) }
        // The seat is still away and keeps its token.
        try lost.resume(on: daemon)
    }

    @Test func aClaimNobodyAnswersEndsWhenItsMinuteIsUp() throws {
        let host = try CoreHost(["--ping-seconds", "600", "--idle-seconds", "1200"])
        let owner = try TestPlayer(on: host, name: "Owner")
        let lost = try TestPlayer(on: host, name: "Lost")
        try owner.waitForView("two seats") { $0.seats.count == 2 }
        lost.drop()
        try owner.waitForView("away") { $0.seats.contains { $0.id == lost.id && !$0.connected } }
        let claimer = try host.connect()
        try claimer.send(.hello(.init(name: "Neighbour", claim: lost.id)))
        #expect(try claimer.receive(deadline: .after(seconds: 10)) == .claimPending(.init(player: lost.id)))
        try owner.waitFor("the question") { $0 == .claim(.init(player: lost.id, name: "Neighbour")) }
        host.advance(seconds: 59)
        #expect(try claimer.receive(deadline: Deadline(ms: 0)) == nil)
        host.advance(seconds: 1)
        #expect(try claimer.receive(deadline: .after(seconds: 10))?.errorCode == .claimRefused)
        #expect(claimer.waitForClose(deadline: .after(seconds: 10)))
        try owner.waitFor("the question closes") { $0 == .claimDone(.init(player: lost.id)) }
        // The seat is still away and keeps its token.
        try lost.resume(on: host)
    }

    @Test func anOwnerWhoLeavesIsAnnouncedToTheRoomAndItsWatchers() throws {
        let daemon = try CoreHost()
        let table = try Table.join(3, on: daemon)
        let board = try daemon.connect()
        try board.send(.hello(.init(name: "", watch: true)))
        _ = try Self.receive(board, "the snapshot") { if case .room = $0 { true } else { false } }
        let (first, second) = (table.players[0].id, table.players[1].id)
        try table.owner.send(.leave)
        let announcement = ServerMessage.owner(.init(player: second, previous: first, reason: .left))
        try table.players[2].waitFor("the new owner") { $0 == announcement }
        _ = try Self.receive(board, "the new owner") { $0 == announcement }
        let view = try table.players[2].waitForView("the snapshot after") { $0.seats.count == 2 }
        #expect(view.seats.first { $0.owner }?.id == second)
    }

    @Test func anOwnerAwayThirtySecondsInTheLobbyHandsTheRoomOver() throws {
        let host = try CoreHost()
        let table = try Table.join(3, on: host)
        let (first, second) = (table.players[0].id, table.players[1].id)
        table.owner.drop()
        try table.players[2].waitForView("the owner away") { $0.seats.contains { $0.id == first && !$0.connected } }
        host.advance(seconds: 30)
        try table.players[2].waitFor("the hand-over") {
            $0 == .owner(.init(player: second, previous: first, reason: .away))
        }
        try table.players[1].waitForView("owner") { $0.seats.first { $0.owner }?.id == second }
        try table.players[1].send(.start)
        try table.players[1].waitForError(.tooFewPlayers)
    }

    @Test func aSeatAwayAtTheDealSitsTheGameOut() throws {
        let daemon = try CoreHost(["--seed", "22"])
        let table = try Table.join(5, on: daemon)
        let away = table.players[4]
        away.drop()
        try table.owner.waitForView("away") { $0.seats.contains { $0.id == away.id && !$0.connected } }
        try table.owner.send(.start)
        for player in table.players.prefix(4) {
            try player.waitFor("deal") { if case .deal = $0 { true } else { false } }
        }
        let view = try table.owner.waitForView("sitting out") { $0.phase == .describing }
        #expect(view.seats.first { $0.id == away.id }?.sittingOut == true)
        #expect(view.seats.filter { $0.sittingOut == true }.count == 1)
        try away.resume(on: daemon)
        let back = try away.waitForView("back") { $0.seats.contains { $0.id == away.id && $0.connected } }
        #expect(back.seats.first { $0.id == away.id }?.sittingOut == true)
        #expect(!away.history.contains { if case .deal = $0 { true } else { false } })
    }
}

extension ServerMessage {
    fileprivate var errorCode: ErrorCode? {
        if case .error(let error) = self { return error.code }
        return nil
    }
}
