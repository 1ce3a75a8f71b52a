/// One category of the bank a host plays with, in one language, as the `welcome` message lists it so that a
/// room's owner can choose what the table plays.
public struct BankCategory: Codable, Sendable, Equatable {
    /// The category's name, as the bank spells it (choose it by this name in `settings.categories`).
    public var name: String
    /// Language of its pairs: one of `BankLanguage.pairLanguages` (`zh-TW`, `zh-Hans` or `en`).
    public var language: BankLanguage
    /// Pairs of the category in that language, party pairs included.
    public var pairs: Int
    /// How many of those are party pairs, drawn only while `allowParty` is on.
    public var partyPairs: Int

    public init(name: String, language: BankLanguage, pairs: Int, partyPairs: Int) {
        self.name = name
        self.language = language
        self.pairs = pairs
        self.partyPairs = partyPairs
    }
}
