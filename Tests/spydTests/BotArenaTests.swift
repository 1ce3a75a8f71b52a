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
        // Spy bots blend in, so reasoning civilians no longer win nearly every game; they must still win clearly
        // more often than random voters (15 points is over twice the noise of 150 games a side).
        #expect(
            reasoning.civilianWinRate >= random.civilianWinRate + 0.15,
            "reasoning \(reasoning.civilianWinRate) vs random \(random.civilianWinRate)")
    }

    @Test func spyBotsWinAFairShareAtNormal() {
        let pairs = EmbeddedBank.pairs
        let knowledge = BotVocabulary(pairs: pairs).knowledge
        let tally = BotArena(
            players: 6, level: .normal, knowledge: knowledge, pairs: pairs, settings: GameSettings(clueMode: .typed)
        ).play(games: 150, seed: 14)
        let spyShare = Double(tally.spyWins) / Double(max(tally.games, 1))
        #expect(tally.unfinished == 0)
        #expect(spyShare >= 0.15 && spyShare <= 0.5, "spies won \(tally.spyWins) of \(tally.games)")
    }
}
