import Foundation
import SpyBank
import SpyGame
import SpyProtocol
import Testing

@testable import spyd

/// Bot-only games on the embedded bank, in memory: reasoning bots must find the spy clearly more often than bots
/// voting at random, and no bot clue may give a word away.
@Suite struct BotArenaTests {
    @Test func reasoningCiviliansFindTheSpyFarMoreOftenThanRandomOnes() {
        let pairs = EmbeddedBank.pairs
        let knowledge = BotVocabulary(pairs: pairs).knowledge
        let settings = GameSettings(clueMode: .typed)
        func tally(_ level: BotLevel) -> BotArena.Tally {
            BotArena(players: 6, level: level, knowledge: knowledge, pairs: pairs, settings: settings)
                .play(games: 150, seed: 14)
        }
        let random = tally(.easy)
        let reasoning = tally(.normal)
        #expect(random.games == 150 && reasoning.games == 150)
        #expect(random.unfinished == 0 && reasoning.unfinished == 0)
        #expect(reasoning.clues > 0 && random.clues > 0)
        #expect(reasoning.giveaways == 0 && random.giveaways == 0)
        // Spy bots blend in and normal bots hesitate between suspects, so reasoning civilians do not win every game;
        // they must still win clearly more often than random voters.
        #expect(
            reasoning.civilianWinRate >= random.civilianWinRate + 0.08,
            "reasoning \(reasoning.civilianWinRate) vs random \(random.civilianWinRate)")
    }

    @Test func normalBotsPlayAFairGameOfRealLinesThatAlwaysEnds() {
        let pairs = EmbeddedBank.pairs
        let knowledge = BotVocabulary(pairs: pairs).knowledge
        for (players, spies) in [(6, 1), (8, 2)] {
            var settings = GameSettings(clueMode: .typed)
            settings.spies = spies
            let tally = BotArena(
                players: players, level: .normal, knowledge: knowledge, pairs: pairs, settings: settings
            )
            .play(games: 150, seed: 14)
            let label = "\(players) players, \(spies) spies"
            #expect(tally.unfinished == 0, "\(label)")
            #expect(tally.filler == 0 && tally.giveaways == 0, "\(label)")
            #expect(tally.realLineShare >= 0.98, "\(label): real lines \(tally.realLineShare)")
            // Neither side hopeless (the published figures are measured on many more games).
            #expect(
                tally.civilianWinRate >= 0.45 && tally.civilianWinRate <= 0.8,
                "\(label): civilians won \(tally.civilianWins) of \(tally.games)")
            #expect(tally.sideSwitchRate <= 0.2, "\(label): side switches in \(tally.sideSwitches) games")
        }
    }
}
