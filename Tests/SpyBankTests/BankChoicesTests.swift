import SpyProtocol
import Testing

@testable import SpyBank

@Suite struct BankChoicesTests {
    /// Choices a room may make: each language, party pairs on and off, no categories, real ones in another case,
    /// an unknown one, and one that leaves too few pairs.
    private static func choices(of bank: [WordPair]) -> [GameSettings] {
        let categories = BankFilter.categories(of: bank)
        let lists: [[String]] = [
            [], Array(categories.prefix(2)), [categories.last ?? "x"].map { $0.uppercased() }, ["no such category"],
            Array(categories.prefix(1)),
        ]
        var settings: [GameSettings] = []
        for language in [BankLanguage.zhTW, .en, .both] {
            for allowParty in [false, true] {
                for list in lists {
                    settings.append(GameSettings(language: language, allowParty: allowParty, categories: list))
                }
            }
        }
        return settings
    }

    @Test func eachChoiceGetsWhatFilteringTheBankGives() {
        let bank = EmbeddedBank.pairs(in: .both)
        let choices = BankChoices(bank: bank)
        // Twice over: the second answer comes from what the first remembered.
        for _ in 0..<2 {
            for settings in Self.choices(of: bank) {
                #expect(choices.pairs(for: settings) == BankFilter.pairs(bank, for: settings), "\(settings)")
                #expect(choices.problem(for: settings) == BankCatalog.choiceProblem(settings, in: bank), "\(settings)")
            }
        }
        #expect(choices.rememberedChoices == Self.choices(of: bank).count)
    }

    @Test func theChoicesRememberedAreBoundedAndAnswersStayRight() {
        let bank = EmbeddedBank.pairs(in: .both)
        let choices = BankChoices(bank: bank)
        let plain = GameSettings(language: .both)
        for index in 0..<(3 * BankChoices.maxChoices) {
            let named = GameSettings(language: .both, categories: ["made-up \(index)"])
            #expect(choices.problem(for: named) == BankCatalog.choiceProblem(named, in: bank))
            #expect(choices.rememberedChoices <= BankChoices.maxChoices)
            #expect(choices.pairs(for: plain) == BankFilter.pairs(bank, for: plain))
        }
    }
}
