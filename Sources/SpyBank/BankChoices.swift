import SpyProtocol

/// What one bank offers each choice of language, party pairs and categories, worked out once per choice.
///
/// A host deals from the same few choices all evening. Filtering the whole bank at every start, twice (to check the
/// choice, then to draw from it), would cost about a million instructions a deal with the embedded bank, most of a
/// deal's work, and at a thousand tables starting within a second, the better part of the host's core.
public final class BankChoices {
    private struct Choice: Hashable {
        var language: BankLanguage
        var allowParty: Bool
        var categories: [String]
    }

    private struct Offer {
        var pairs: [WordPair]
        var problem: String?
    }

    /// Choices remembered at most; owners may name any categories, so the choices have no bound of their own.
    public static let maxChoices = 64
    public let bank: [WordPair]
    private var offers: [Choice: Offer] = [:]
    private var rememberedPairs = 0
    /// Pairs remembered at most over every choice: the bank a few times over.
    private let maxRememberedPairs: Int

    public init(bank: [WordPair]) {
        self.bank = bank
        maxRememberedPairs = 4 * bank.count + 1024
    }

    /// `BankFilter.pairs(bank, for: settings)`.
    public func pairs(for settings: GameSettings) -> [WordPair] { offer(for: settings).pairs }

    /// `BankCatalog.choiceProblem(settings, in: bank)`.
    public func problem(for settings: GameSettings) -> String? { offer(for: settings).problem }

    /// How many choices are remembered now.
    public var rememberedChoices: Int { offers.count }

    private func offer(for settings: GameSettings) -> Offer {
        let choice = Choice(
            language: settings.language, allowParty: settings.allowParty, categories: settings.categories)
        if let known = offers[choice] { return known }
        let offer = Offer(
            pairs: BankFilter.pairs(bank, for: settings), problem: BankCatalog.choiceProblem(settings, in: bank))
        if offers.count >= Self.maxChoices || rememberedPairs + offer.pairs.count > maxRememberedPairs {
            offers.removeAll()
            rememberedPairs = 0
        }
        offers[choice] = offer
        rememberedPairs += offer.pairs.count
        return offer
    }
}
