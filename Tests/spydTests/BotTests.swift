import Foundation
import SpyBank
import SpyGame
import SpyNet
import SpyProtocol
import SpyTestSupport
import Testing

@testable import SpyHost
@testable import spyd

@Suite struct BotTests {
    /// A bot answers its turn after half its delay at the earliest and one and a half times it at the latest, as a
    /// person would take a moment: tested in the host's process by moving its clock.
    @Test func aBotTakesBetweenHalfAndOneAndAHalfTimesItsDelay() throws {
        let host = try CoreHost(["--bots", "3", "--bot-delay-ms", "1000", "--clues", "typed", "--seed", "3"])
        let human = try TestPlayer(on: host, name: "Human")
        try human.waitForView("the bots seated") { $0.seats.count == 4 }
        try human.send(.start)
        func nextTurn(_ what: String) throws -> ServerMessage.Turn {
            guard case .turn(let turn) = try human.waitFor(what, where: { if case .turn = $0 { true } else { false } })
            else { throw DaemonError(description: "no turn") }
            return turn
        }
        var turn = try nextTurn("the first turn")
        if turn.player == human.id {
            try human.send(.clue(.init(text: "round and warm")))
            turn = try nextTurn("a bot's turn")
        }
        let bot = turn.player
        func botSpoke(_ message: ServerMessage) -> Bool {
            if case .clue(let clue) = message { return clue.player == bot }
            return false
        }
        host.advance(seconds: 0.49)
        var early: [ServerMessage] = []
        while let message = try human.next(deadline: Deadline(ms: 0)) { early.append(message) }
        #expect(!early.contains(where: botSpoke))
        host.advance(seconds: 1.01)
        try human.waitFor("the bot's clue", where: botSpoke)
    }

    @Test(.tags(.endToEnd), .tags(.endToEnd), arguments: ClueMode.allCases)
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
        // (shown as text, since a bot cannot talk), unless that word's lines had all been said already; a bot that
        // found itself outnumbered may instead describe the other word of its pair, with that word's lines.
        let pair = WordPair(civilian: over.civilianWord, spy: over.spyWord, language: .both)
        var said: [String] = []
        for clue in clues {
            let entry = try #require(over.reveal.first { $0.player == clue.player })
            let text = try #require(clue.text, "bot \(clue.player) gave no clue")
            defer { said.append(text) }
            let word = try #require(entry.word)
            #expect(!TextFold.contains(text, word: over.civilianWord) && !TextFold.contains(text, word: over.spyWord))
            let material = ClueBook.clues(for: word, in: pair).map(\.text)
            let other = word == over.civilianWord ? over.spyWord : over.civilianWord
            let otherMaterial = ClueBook.clues(for: other, in: pair).map(\.text)
            #expect(!material.isEmpty, "no clue material for \(word)")
            let exhausted = material.allSatisfy(said.contains)
            #expect(
                material.contains(text) || otherMaterial.contains(text) || exhausted,
                "\(text) is not a clue line of \(word) or \(other)")
            #expect(!said.contains(text), "\(text) was said before")
        }
    }

    @Test func aBotCanBeKicked() throws {
        let host = try CoreHost(["--bots", "4", "--bot-delay-ms", "10"])
        let human = try TestPlayer(on: host, name: "Boss")
        let view = try human.waitForView("bots seated") { $0.seats.filter(\.bot).count == 4 }
        let bot = try #require(view.seats.first { $0.bot })
        try human.send(.kick(.init(player: bot.id)))
        try human.waitForView("bot gone") { !$0.seats.contains { $0.id == bot.id } }
    }
}

/// Bots on a sheet that carries clue columns describe their word with the sheet's clues, ahead of the embedded ones.
@Suite struct SheetClueBotTests {
    @Test func botsGiveOnlyTheSheetsCluesForTheirWord() throws {
        let sheet =
            "civilian,spy,category,civilian_clues,spy_clues\n"
            + "coffee,tea,Drinks,sheet roast|sheet crema|sheet barista|warm cup,sheet leaves|sheet kettle|warm cup\n"
        let pairs = try BankParser.parse(Array(sheet.utf8)).pairs
        let pair = try #require(pairs.first)
        // The embedded bank has its own lines for these words: the sheet's must win.
        #expect(!ClueBook.clues(for: "coffee", in: pair).isEmpty)
        let knowledge = BotVocabulary(pairs: pairs).knowledge
        #expect(knowledge.material("coffee").filter(\.fitsPartner).map(\.text) == ["warm cup"])
        var room = Room(code: "KFRW", settings: GameSettings(clueMode: .typed), seed: 21)
        var inbox: [PlayerID: [ServerMessage]] = [:]
        func deliver(_ result: Result<[RoomEffect], Rejection>) {
            guard case .success(let effects) = result else { return }
            for effect in effects {
                switch effect {
                case .send(let player, let message): inbox[player, default: []].append(message)
                case .broadcast(let message): for id in room.playerIDs { inbox[id, default: []].append(message) }
                default: break
                }
            }
        }
        for number in 1...5 { deliver(room.apply(.join(name: "Bot \(number)", bot: false), now: 0)) }
        deliver(room.apply(.start(by: "p1", pairs: pairs), now: 0))
        var random = SplitMix64(seed: 3)
        var words: Set<String> = []
        for (player, messages) in inbox {
            var mind = BotMind(me: player, level: .normal, knowledge: knowledge)
            for message in messages { mind.observe(message) }
            let word = try #require(mind.word)
            words.insert(word)
            let lines = word == "coffee" ? pair.civilianClues : pair.spyClues
            for _ in 0..<20 {
                let clue = try #require(mind.clue(random: &random))
                #expect(lines.contains(clue), "\(player) holding \(word) said \(clue)")
            }
        }
        #expect(words == ["coffee", "tea"])
    }
}
