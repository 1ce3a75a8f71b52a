import Foundation
import SpyBank
import SpyGame
import SpyProtocol

/// Bot knowledge from the embedded bank's pairs of a table of `language`: their clue material, categories and
/// guessable words. `pairs` are that table's, so a word in two languages (牛奶) is looked up in the table's only.
func embeddedKnowledge(_ pairs: [WordPair], language: BankLanguage) -> BotKnowledge {
    var categories: [String: String] = [:]
    var words: [BankLanguage: [String]] = [:]
    var partners: [String: [String]] = [:]
    for pair in pairs {
        partners[pair.civilian, default: []].append(pair.spy)
        partners[pair.spy, default: []].append(pair.civilian)
        categories[pair.civilian] = pair.category
        categories[pair.spy] = pair.category
        words[pair.language, default: []].append(pair.civilian)
    }
    let frozenCategories = categories
    let frozenWords = words
    let frozenPartners = partners
    return BotKnowledge(
        material: { word in
            ClueBook.clues(for: word, language: language).map { BotClue(text: $0.text, fitsPartner: $0.fitsPartner) }
        },
        category: { frozenCategories[$0] },
        guessable: { table in table.dealtLanguages.flatMap { frozenWords[$0] ?? [] } },
        partners: { frozenPartners[$0] ?? [] })
}

/// `--bots-only`: the same games at every bot level, in memory, and what they came to. Fails when a bot gave a word
/// away, said filler or passed, or a game did not end within `BotArena.roundCap` rounds.
func runBotsOnly(_ options: BenchOptions) -> Int32 {
    let pairs = EmbeddedBank.pairs(in: options.language)
    let knowledge = embeddedKnowledge(pairs, language: options.language)
    var settings = GameSettings()
    settings.language = options.language
    settings.clueMode = .typed
    settings.spies = options.spies
    settings.blank = options.blank
    var lines: [String] = []
    var json: [String: [String: Double]] = [:]
    var failures = 0
    for level in BotLevel.allCases {
        let arena = BotArena(
            players: options.players, level: level, knowledge: knowledge, pairs: pairs, settings: settings)
        let tally = arena.play(games: options.games, seed: options.seed)
        failures += tally.giveaways + tally.filler + tally.unfinished
        func percent(_ value: Double) -> String { String(format: "%.1f%%", value * 100) }
        lines.append(
            "\(level.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0)) civilians win "
                + "\(percent(tally.civilianWinRate)) of \(tally.games) (spies \(tally.spyWins), blank \(tally.blankWins),"
                + " unfinished \(tally.unfinished), longest \(tally.longestGame) rounds);"
                + " real lines \(percent(tally.realLineShare)) of \(tally.turns) turns, filler \(tally.filler),"
                + " giving a word away \(tally.giveaways); first-speaking spy out in round 1"
                + " \(percent(tally.firstSpeakerSpyOutRate)) of \(tally.firstSpeakerSpies)"
                + " (any spy \(percent(tally.spyOutInRoundOneRate)) of \(tally.spies));"
                + " civilian ballots on a spy \(percent(tally.civilianBallotOnSpyRate)) of \(tally.civilianBallots);"
                + " civilian side switches in \(percent(tally.sideSwitchRate)) of games")
        json[level.rawValue] = [
            "games": Double(tally.games), "civilianWinRate": tally.civilianWinRate, "clues": Double(tally.clues),
            "spyWins": Double(tally.spyWins), "blankWins": Double(tally.blankWins),
            "giveaways": Double(tally.giveaways), "unfinished": Double(tally.unfinished),
            "turns": Double(tally.turns), "realLineShare": tally.realLineShare, "filler": Double(tally.filler),
            "firstSpeakerSpyOutRate": tally.firstSpeakerSpyOutRate,
            "spyOutInRoundOneRate": tally.spyOutInRoundOneRate, "sideSwitchRate": tally.sideSwitchRate,
            "longestGame": Double(tally.longestGame), "civilianBallotOnSpyRate": tally.civilianBallotOnSpyRate,
        ]
    }
    if options.json {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        print(String(decoding: (try? encoder.encode(json)) ?? Data(), as: UTF8.self))
    } else {
        let spies = options.spies == 1 ? "1 spy" : "\(options.spies) spies"
        print(
            "bot-only games: \(options.players) players, \(spies)\(options.blank ? ", a blank" : ""), typed clues,"
                + " \(options.language.rawValue) pairs (\(pairs.count)), seed \(options.seed)")
        print(lines.joined(separator: "\n"))
    }
    return failures == 0 ? 0 : 1
}
