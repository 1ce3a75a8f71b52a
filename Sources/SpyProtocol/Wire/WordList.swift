/// Where a game's pair comes from: the host's bank, the room's own word list, or both.
public enum WordSource: String, Codable, Sendable, Equatable, CaseIterable {
    /// The host's bank, as the language, categories and party settings choose (the default).
    case bank
    /// The room's own list only.
    case ours
    /// The room's own list and the bank's pairs together.
    case oursAndBank
}

/// A line of a pasted word list that was not kept, and why: one entry per line, or per run of lines refused for the
/// same reason (`line` through `through`).
public struct WordRefusal: Codable, Sendable, Equatable {
    /// The 1-based line of the text the owner sent.
    public var line: Int
    /// The last line of a run of consecutive lines refused for the same reason; absent for one line.
    public var through: Int?
    public var reason: WordRefusalReason
    /// For `duplicate`: the line the pair was first given on.
    public var other: Int?

    public init(line: Int, through: Int? = nil, reason: WordRefusalReason, other: Int? = nil) {
        self.line = line
        self.through = through
        self.reason = reason
        self.other = other
    }
}

/// Why a line of a pasted word list was not kept. The raw value is the wire string.
public enum WordRefusalReason: String, Codable, Sendable, Equatable, CaseIterable, Error {
    /// One word and no separator (`,` `，` tab `/` `／` `——` `—`) between two.
    case noSeparator = "no_separator"
    /// More than two words on the line.
    case tooManyWords = "too_many_words"
    /// A separator with nothing on one side of it.
    case missingWord = "missing_word"
    /// A word longer than 40 characters or 160 bytes.
    case tooLong = "too_long"
    /// A control character (a line break inside a quoted cell is one).
    case controlCharacter = "control_character"
    /// A character that shows nothing (zero-width, a text-direction control, a blank-looking letter).
    case invisibleCharacter = "invisible_character"
    /// A word made of nothing but spaces and punctuation marks that fold away.
    case noVisibleLetter = "no_visible_letter"
    /// Both words are the same (ignoring case, width and spaces).
    case sameWords = "same_words"
    /// One word contains the other (蘋果 / 蘋果汁): the clue for one would give the other away.
    case containsOther = "contains_other"
    /// The same pair as an earlier line (either order): kept once.
    case duplicate
    /// The pair is in the room's list already: kept once.
    case alreadyListed = "already_listed"
    /// The list is full (500 pairs, or 24 KiB of words).
    case listFull = "list_full"
    /// A quoted cell is never closed: this line and the rest of the text are not read.
    case unclosedQuote = "unclosed_quote"
}

/// One pair of the room's own list, as its owner exports it.
public struct ListedPair: Codable, Sendable, Equatable {
    public var civilian: String
    public var spy: String

    public init(civilian: String, spy: String) {
        self.civilian = civilian
        self.spy = spy
    }
}
