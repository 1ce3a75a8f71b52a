import Foundation
import SpyNet
import SpyProtocol
import Testing

@testable import SpyHost
@testable import spyd

/// What docs/PROTOCOL.md promises a client author about tokens, room codes and refusals, against the real host.
@Suite struct TableProtocolTests {
    @Test func aValidTokenWithAWrongOrMistypedRoomResumesItsSeat() throws {
        let daemon = try CoreHost()
        let player = try TestPlayer(on: daemon, name: "Amy")
        let other = try TestPlayer(on: daemon, name: "Ben", room: player.room.lowercased())
        #expect(other.room == player.room, "room codes are case-insensitive")
        let wrongRoom =
            RoomCode.alphabet.map(String.init).map { String(repeating: $0, count: 4) }
            .first { $0 != player.room } ?? "ZZZZ"
        for typed in [wrongRoom, "K", player.room.lowercased()] {
            player.drop()
            let client = try daemon.connect()
            try client.send(.hello(.init(name: "Amy", room: typed, token: player.token)))
            let answer = try client.receive(deadline: .after(seconds: 10))
            guard case .welcome(let welcome) = answer else {
                Issue.record("hello with room \(typed) got \(String(describing: answer?.type))")
                continue
            }
            #expect(
                [welcome.you, welcome.token, welcome.room] == [player.id, player.token, player.room]
                    && welcome.resumed, "hello with room \(typed)")
            client.close()
        }
    }

    @Test func anUnknownTokenWithCreateIsRefusedRatherThanOpeningARoom() throws {
        let daemon = try CoreHost()
        let client = try daemon.connect()
        try client.send(.hello(.init(name: "Amy", token: String(repeating: "a", count: 32), create: true)))
        #expect(try client.receive(deadline: .after(seconds: 10)) == .error(.init(.badToken)))
    }

    @Test func startRefusedForTheBlankSaysHowManyPlayersAreNeeded() throws {
        let daemon = try CoreHost(["--blank"])
        let table = try Table.join(4, on: daemon)
        try table.owner.send(.start)
        guard case .error(let error) = try table.owner.waitForError(.tooFewPlayers) else { return }
        #expect(error.need == 5 && error.have == 4)
        #expect(error.message.contains("5"))
    }

    @Test func anImpossibleCategoryChoiceIsRefusedWithTheReason() throws {
        let daemon = try CoreHost()
        let table = try Table.join(4, on: daemon)
        try table.owner.send(.settings(.init(categories: ["派對", "Party"])))
        guard case .error(let error) = try table.owner.waitForError(.badSettings) else { return }
        #expect(error.message.contains("only party"), "\(error.message)")
        #expect(table.owner.view?.settings.categories == [])
        try table.owner.send(.start)
        try table.owner.waitForView("the game dealt on every category") { $0.phase == .describing }
    }

    @Test func settingsThatChangeNothingAreAnswered() throws {
        let daemon = try CoreHost()
        let owner = try TestPlayer(on: daemon, name: "Amy")
        try owner.waitForView("lobby") { $0.seats.count == 1 }
        try owner.send(.settings(.init(spies: 1)))
        try owner.waitFor("the room again") {
            if case .room = $0 { return true }
            return false
        }
    }

    @Test func theRoomCodeAlphabetIsStatedOnceAndMatchesTheCode() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs")
        let alphabet = String(RoomCode.alphabet)
        #expect(alphabet == "ABCDEFGHJKMNPQRSTUVWXYZ")
        for file in ["PROTOCOL.md", "HOSTING.md"] {
            let text = try String(contentsOf: docs.appendingPathComponent(file), encoding: .utf8)
            #expect(text.contains("`\(alphabet)`"), "\(file) states the alphabet")
        }
    }
}
