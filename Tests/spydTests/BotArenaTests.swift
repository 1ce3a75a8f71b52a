import Foundation
import SpyBank
import SpyGame
import SpyProtocol
import Testing

@testable import SpyHost
@testable import spyd

/// Bot-only games on the embedded bank, in memory, few enough to keep the suite quick (the published figures come
/// from `spy-bench --bots-only` on many more): reasoning bots must read the table clearly better than bots voting
/// at random, play a fair game of real lines that always ends, and never switch sides; in Simplified Chinese as in
/// Traditional Chinese and English.
@Suite struct BotArenaTests {
    static let vocabulary = BotVocabulary(pairs: EmbeddedBank.pairs)

    /// Games of a table dealing `language` (`both`, the Traditional Chinese and English pairs, unless said), with
    /// the pairs and knowledge the host gives such a room.
    static func tally(
        _ level: BotLevel, players: Int, spies: Int, games: Int, language: BankLanguage = .both
    ) -> BotArena.Tally {
        var settings = GameSettings(clueMode: .typed)
        settings.spies = spies
        settings.language = language
        return BotArena(
            players: players, level: level, knowledge: vocabulary.knowledge(for: language),
            pairs: EmbeddedBank.pairs(in: language), settings: settings
        )
        .play(games: games, seed: 14)
    }

    /// Normal bots at 8 players with 2 spies, shared by the tests below (the slowest games of the suite).
    static let normalEight = tally(.normal, players: 8, spies: 2, games: 60)

    @Test func reasoningCiviliansNameASpyAndWinFarMoreOftenThanRandomOnes() {
        let random = Self.tally(.easy, players: 8, spies: 2, games: 60)
        let reasoning = Self.normalEight
        #expect(random.games == 60 && reasoning.games == 60)
        #expect(random.unfinished == 0 && random.filler == 0 && random.giveaways == 0)
        // Random ballots name one of the 2 spies among 7 others about 2 times in 7, whoever wins.
        #expect(
            reasoning.civilianBallotOnSpyRate >= random.civilianBallotOnSpyRate + 0.08,
            "ballots on a spy: reasoning \(reasoning.civilianBallotOnSpyRate), random \(random.civilianBallotOnSpyRate)"
        )
        #expect(
            reasoning.civilianWinRate >= random.civilianWinRate + 0.15,
            "civilians won: reasoning \(reasoning.civilianWinRate), random \(random.civilianWinRate)")
    }

    @Test(arguments: [BankLanguage.both, .zhHans])
    func normalBotsPlayAFairGameOfRealLinesThatAlwaysEndsAndHoldTheirSide(_ language: BankLanguage) {
        let eight =
            language == .both
            ? Self.normalEight : Self.tally(.normal, players: 8, spies: 2, games: 60, language: language)
        for (players, spies, tally) in [
            (6, 1, Self.tally(.normal, players: 6, spies: 1, games: 60, language: language)), (8, 2, eight),
        ] {
            let label = "\(language.rawValue), \(players) players, \(spies) spies"
            #expect(tally.games == 60 && tally.unfinished == 0, "\(label)")
            #expect(tally.filler == 0 && tally.giveaways == 0, "\(label)")
            #expect(tally.realLineShare >= 0.98, "\(label): real lines \(tally.realLineShare)")
            // Neither side hopeless (the published figures are measured on many more games).
            #expect(
                tally.civilianWinRate >= 0.4 && tally.civilianWinRate <= 0.85,
                "\(label): civilians won \(tally.civilianWins) of \(tally.games)")
            // As many odd voices as there are spies never make a civilian describe the spies' word.
            #expect(tally.sideSwitches <= 1, "\(label): side switches in \(tally.sideSwitches) games")
        }
    }
}
