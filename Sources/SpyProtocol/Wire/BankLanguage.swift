/// Which words of the bank a room draws from, and the language of one pair.
///
/// Three languages a pair can be written in (`zhTW`, `zhHans`, `en`) and two mixed tables. `both` keeps the meaning
/// it has always had on the wire, Traditional Chinese and English, so saved rooms and older clients read it as
/// before; `bothHans` is the mixed table of Simplified Chinese and English. A table never mixes the two Chinese
/// scripts: the same word written twice would be dealt as two pairs.
public enum BankLanguage: String, Codable, Sendable, Equatable, CaseIterable {
    /// Traditional Chinese pairs, written for Taiwan.
    case zhTW = "zh-TW"
    /// English pairs.
    case en
    /// Traditional Chinese and English pairs.
    case both
    /// Simplified Chinese pairs, written for the mainland.
    case zhHans = "zh-Hans"
    /// Simplified Chinese and English pairs.
    case bothHans = "zh-Hans+en"

    /// The languages a single pair is written in, in the order summaries list them.
    public static let pairLanguages: [BankLanguage] = [.zhTW, .zhHans, .en]

    /// The pair languages this choice deals: itself for a pair language, two for a mixed table.
    public var dealtLanguages: [BankLanguage] {
        switch self {
        case .zhTW, .zhHans, .en: [self]
        case .both: [.zhTW, .en]
        case .bothHans: [.zhHans, .en]
        }
    }

    /// Whether a room of this choice deals a pair written in `pairLanguage`.
    public func deals(_ pairLanguage: BankLanguage) -> Bool {
        switch self {
        case .zhTW, .zhHans, .en: pairLanguage == self
        case .both: pairLanguage == .zhTW || pairLanguage == .en
        case .bothHans: pairLanguage == .zhHans || pairLanguage == .en
        }
    }

    /// Whether this choice mixes two languages at one table.
    public var isMixed: Bool { self == .both || self == .bothHans }

    /// The Chinese script of this choice, if it deals Chinese pairs.
    public var chinese: BankLanguage? {
        switch self {
        case .zhTW, .both: .zhTW
        case .zhHans, .bothHans: .zhHans
        case .en: nil
        }
    }
}

extension BankLanguage {
    /// The language a POSIX locale value names, for a program that follows the locale: `zh_CN`, `zh_SG`, `zh_MY`,
    /// `zh_Hans…` and a bare `zh` give zh-Hans; `zh_TW`, `zh_HK`, `zh_MO`, `zh_Hant…` (and a bare `zh` in Big5) give
    /// zh-TW; anything else (`C`, `POSIX`, `en_US.UTF-8`, `fr_FR`) gives en. `-` and `_` are read alike, case is
    /// ignored, and the encoding (`.UTF-8`) and modifier (`@…`) do not count except as said.
    public static func locale(_ value: String) -> BankLanguage {
        var name = Substring(value.lowercased())
        if let at = name.firstIndex(of: "@") { name = name[..<at] }
        var encoding = Substring("")
        if let dot = name.firstIndex(of: ".") {
            encoding = name[name.index(after: dot)...]
            name = name[..<dot]
        }
        let parts = name.split(whereSeparator: { $0 == "_" || $0 == "-" })
        guard parts.first == "zh" else { return .en }
        let rest = parts.dropFirst()
        // A script subtag outranks the region: zh_Hant_CN is written in Traditional characters.
        if rest.contains("hant") { return .zhTW }
        if rest.contains("hans") { return .zhHans }
        if rest.contains(where: { ["tw", "hk", "mo"].contains($0) }) { return .zhTW }
        if rest.isEmpty && encoding.hasPrefix("big5") { return .zhTW }
        return .zhHans
    }

    /// Whether a deciding locale setting (`NAME=value` as `locale(environment:)` returns it, `nil` for none) names
    /// no language at all: `C` and `POSIX` (with or without an encoding), or nothing set.
    public static func namesNoLanguage(_ setting: String?) -> Bool {
        guard let setting else { return true }
        let value = setting.split(separator: "=", maxSplits: 1).last.map(String.init) ?? ""
        let base = value.split(separator: ".").first.map(String.init) ?? value
        return base == "C" || base == "POSIX"
    }

    /// The language the environment's locale asks for: the first of `LC_ALL`, `LC_MESSAGES`, `LANG` that is set and
    /// not empty decides, as for every POSIX program (`locale(_:)` reads it). Returns the deciding setting as
    /// `NAME=value`, or `nil` with en when none is set.
    public static func locale(environment: [String: String]) -> (language: BankLanguage, setting: String?) {
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            guard let value = environment[name], !value.isEmpty else { continue }
            return (locale(value), "\(name)=\(value)")
        }
        return (.en, nil)
    }
}
