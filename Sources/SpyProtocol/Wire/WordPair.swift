/// One question of the bank: the civilians' word and the spies' word, which are close but different.
public struct WordPair: Codable, Sendable, Hashable {
    /// The majority word (平民).
    public var civilian: String
    /// The spies' word (臥底).
    public var spy: String
    /// A theme such as "food" or "食物"; empty when the source has none.
    public var category: String
    /// Language of the two words.
    public var language: BankLanguage
    /// Content rating.
    public var label: ContentLabel

    public init(
        civilian: String, spy: String, category: String = "", language: BankLanguage = .zhTW,
        label: ContentLabel = .family
    ) {
        self.civilian = civilian
        self.spy = spy
        self.category = category
        self.language = language
        self.label = label
    }

    /// Identity of the pair regardless of word order, for de-duplication and "no repeat" bookkeeping.
    public var key: String {
        let a = TextFold.key(civilian)
        let b = TextFold.key(spy)
        return a < b ? "\(a)\u{1F}\(b)" : "\(b)\u{1F}\(a)"
    }
}
