import Foundation
import SpyNet
import SpyProtocol
import Testing

@Suite struct BotTests {
    @Test(arguments: ClueMode.allCases)
    func onePersonPlaysAWholeGameAgainstBots(mode: ClueMode) throws {
        let daemon = try DaemonProcess(["--bots", "3", "--bot-delay-ms", "10", "--clues", mode.rawValue])
        let human = try TestPlayer(port: daemon.port, name: "Solo")
        let view = try human.waitForView("bots seated") { $0.seats.filter(\.bot).count == 3 }
        #expect(view.seats.first { $0.owner }?.id == human.id)
        let table = Table([human])
        try table.start()
        let over = try #require(try table.play())
        #expect(over.reveal.count == 4)
        let clues = human.history.compactMap { message -> ClueView? in
            if case .clue(let clue) = message, clue.player != human.id { return clue }
            return nil
        }
        #expect(!clues.isEmpty)
        for clue in clues {
            let entry = try #require(over.reveal.first { $0.player == clue.player })
            if mode == .spoken {
                #expect(clue.text == nil)
            } else if let text = clue.text, let word = entry.word {
                #expect(!TextFold.contains(text, word: word))
            }
        }
    }

    @Test func aBotCanBeKicked() throws {
        let daemon = try DaemonProcess(["--bots", "4", "--bot-delay-ms", "10"])
        let human = try TestPlayer(port: daemon.port, name: "Boss")
        let view = try human.waitForView("bots seated") { $0.seats.filter(\.bot).count == 4 }
        let bot = try #require(view.seats.first { $0.bot })
        try human.send(.kick(.init(player: bot.id)))
        try human.waitForView("bot gone") { !$0.seats.contains { $0.id == bot.id } }
    }
}
