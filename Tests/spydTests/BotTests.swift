import Foundation
import SpyBank
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
        // Words are revealed at game over: every bot clue must be one of its word's clue lines, in spoken mode too
        // (shown as text, since a bot cannot talk), unless that word's lines had all been said already.
        let pair = WordPair(civilian: over.civilianWord, spy: over.spyWord, language: .both)
        var said: [String] = []
        for clue in clues {
            let entry = try #require(over.reveal.first { $0.player == clue.player })
            let text = try #require(clue.text, "bot \(clue.player) gave no clue")
            defer { said.append(text) }
            let word = try #require(entry.word)
            #expect(!TextFold.contains(text, word: over.civilianWord) && !TextFold.contains(text, word: over.spyWord))
            let material = ClueBook.clues(for: word, in: pair).map(\.text)
            #expect(!material.isEmpty, "no clue material for \(word)")
            let exhausted = material.allSatisfy(said.contains)
            #expect(material.contains(text) || exhausted, "\(text) is not a clue line of \(word)")
            #expect(!said.contains(text), "\(text) was said before")
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
