import Foundation
import SpyNet
import SpyProtocol
import Testing

@Suite struct GameTests {
    @Test(arguments: [4, 6, 10], ClueMode.allCases)
    func aFullGamePlaysToTheEnd(players: Int, mode: ClueMode) throws {
        let daemon = try CoreHost(["--clues", mode.rawValue, "--seed", "\(players)"])
        let table = try Table.join(players, on: daemon)
        // 4 players: one spy; 6: two spies; 10: three spies and the blank.
        let spies = players >= 10 ? 3 : players >= 6 ? 2 : 1
        let blank = players >= 10
        try table.owner.send(.settings(.init(spies: spies, blank: blank)))
        try table.owner.waitForView("settings applied") { $0.settings.spies == spies }
        try table.start()
        let over = try #require(try table.play())
        #expect(over.reveal.count == players)
        for player in table.players {
            let deal = try #require(player.deal)
            let entry = try #require(over.reveal.first { $0.player == player.id })
            #expect(entry.word == deal.word)
            #expect(deal.blank == (entry.role == .blank))
            #expect(player.gameOver == over)
        }
        #expect(over.reveal.filter { $0.role == .spy }.count == spies)
        #expect(over.reveal.filter { $0.role == .blank }.count == (blank ? 1 : 0))
        let clues = table.owner.history.compactMap { message -> ClueView? in
            if case .clue(let clue) = message { return clue }
            return nil
        }
        #expect(!clues.isEmpty)
        #expect(clues.allSatisfy { (mode == .typed) == ($0.text != nil) })
    }

    @Test func twoRoomsPlayAtOnceWithoutCrossTalk() throws {
        let daemon = try CoreHost(["--clues", "typed"])
        let first = try Table.join(4, on: daemon, prefix: "A")
        let second = try Table.join(5, on: daemon, prefix: "B", createFirst: true)
        #expect(first.owner.room != second.owner.room)
        // A room a client opened is reached by its code only: a hello without one still finds the host's room.
        let lost = try TestPlayer(on: daemon, name: "Lost")
        #expect(lost.room == first.owner.room)
        try lost.send(.leave)
        #expect(lost.waitForClose())
        try first.owner.waitForView("Lost gone") { !$0.seats.contains { $0.name == "Lost" } }
        try first.start()
        try second.start()
        let players = first.players + second.players
        let both = Table(players)
        var seen: [PlayerID: Set<String>] = [:]
        both.observe = { player, message in
            if case .room(let view) = message { seen[player.name, default: []].insert(view.room) }
        }
        try both.play()
        for player in players {
            #expect(seen[player.name] == [player.room])
            #expect(player.gameOver?.reveal.count == (first.players.contains { $0 === player } ? 4 : 5))
        }
    }

    @Test func aRoomOpenedByAClientClosesWhenLeftEmpty() throws {
        let host = try CoreHost(["--empty-room-seconds", "1"])
        let opener = try TestPlayer(on: host, name: "Opener", create: true)
        let code = opener.room
        try opener.send(.leave)
        #expect(opener.waitForClose())
        host.advance(seconds: 1)
        host.advance(seconds: 1)
        #expect(host.waitForLine(containing: "room \(code) closed") != nil)
        let late = try host.connect()
        try late.send(.hello(.init(name: "Late", room: code)))
        #expect(try late.receive(deadline: .after(seconds: 10)) == .error(.init(.roomNotFound)))
        // The room opened at start stays open, empty or not.
        _ = try TestPlayer(on: host, name: "Regular")
    }

    @Test func theOwnerLeavingHandsTheRoomOn() throws {
        let daemon = try CoreHost()
        let table = try Table.join(5, on: daemon)
        let owner = table.owner
        try owner.send(.leave)
        try owner.waitFor("bye") {
            if case .bye(let bye) = $0 { return bye.reason == "left" }
            return false
        }
        #expect(owner.waitForClose())
        let next = table.players[1]
        let view = try next.waitForView("new owner") { !$0.seats.contains { $0.id == owner.id } }
        #expect(view.seats.filter(\.owner).count == 1)
        let newOwner = try #require(
            table.players.first { player in view.seats.contains { $0.owner && $0.id == player.id } })
        let rest = Table(table.players.filter { $0 !== owner })
        try newOwner.send(.start)
        for player in rest.players {
            try player.waitFor("deal") {
                if case .deal = $0 { return true }
                return false
            }
        }
        #expect(try rest.play() != nil)
    }
}
