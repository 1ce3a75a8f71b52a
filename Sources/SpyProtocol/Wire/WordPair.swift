/// One question of the bank: the civilians' word and the spies' word, which are close but different.
public struct WordPair: Codable, Sendable, Hashable {
    /// The majority word (平民).
    public let civilian: String
    /// The spies' word (臥底).
    public let spy: String
    /// A theme such as "food" or "食物"; empty when the source has none.
    public var category: String
    /// Language of the two words.
    public var language: BankLanguage
    /// Content rating.
    public var label: ContentLabel
    /// Identity of the pair regardless of word order, for de-duplication and "no repeat" bookkeeping.
    ///
    /// Folding is costly next to everything else a game start does, so it is done once, when the pair is made.
    public let key: String
    /// Whether the two words are non-empty and different once folded, so the pair can be dealt.
    public let isPlayable: Bool
    /// Clue phrases a sheet gave for the civilian word (bots describe it with them); empty when it gave none.
    public var civilianClues: [String]
    /// Clue phrases a sheet gave for the spy word; empty when it gave none.
    public var spyClues: [String]

    public init(
        civilian: String, spy: String, category: String = "", language: BankLanguage = .zhTW,
        label: ContentLabel = .family, civilianClues: [String] = [], spyClues: [String] = []
    ) {
        self.civilian = civilian
        self.spy = spy
        self.category = category
        self.language = language
        self.label = label
        self.civilianClues = civilianClues
        self.spyClues = spyClues
        let a = TextFold.key(civilian)
        let b = TextFold.key(spy)
        key = a < b ? "\(a)\u{1F}\(b)" : "\(b)\u{1F}\(a)"
        isPlayable = !a.isEmpty && !b.isEmpty && a != b
    }

    private enum CodingKeys: String, CodingKey {
        case civilian, spy, category, language, label
        case civilianClues = "civilian_clues"
        case spyClues = "spy_clues"
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            civilian: try container.decode(String.self, forKey: .civilian),
            spy: try container.decode(String.self, forKey: .spy),
            category: try container.decodeIfPresent(String.self, forKey: .category) ?? "",
            language: try container.decodeIfPresent(BankLanguage.self, forKey: .language) ?? .zhTW,
            label: try container.decodeIfPresent(ContentLabel.self, forKey: .label) ?? .family,
            civilianClues: try container.decodeIfPresent([String].self, forKey: .civilianClues) ?? [],
            spyClues: try container.decodeIfPresent([String].self, forKey: .spyClues) ?? [])
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(civilian, forKey: .civilian)
        try container.encode(spy, forKey: .spy)
        try container.encode(category, forKey: .category)
        try container.encode(language, forKey: .language)
        try container.encode(label, forKey: .label)
        // Written only when present, so a pair without clues is stored exactly as before they existed.
        if !civilianClues.isEmpty { try container.encode(civilianClues, forKey: .civilianClues) }
        if !spyClues.isEmpty { try container.encode(spyClues, forKey: .spyClues) }
    }
}
