import SpyProtocol

/// Which of the two Chinese scripts a text is written in, from the characters only one of them uses (们 这 个 in
/// Simplified, 們 這 個 in Traditional); most characters (人 山 水 中) are written alike and tell nothing.
public enum ChineseScript {
    static let traditionalOnly = Set(traditionalOnlyText.filter { !$0.isWhitespace })
    static let simplifiedOnly = Set(simplifiedOnlyText.filter { !$0.isWhitespace })

    /// `zhHans` when the text has a Simplified-only character and no Traditional-only one, `zhTW` when it has a
    /// Traditional-only one, `nil` when it has neither (猫|狗 is the same in both).
    public static func script(of text: String) -> BankLanguage? {
        var simplified = false
        for character in text {
            if traditionalOnly.contains(character) { return .zhTW }
            if simplifiedOnly.contains(character) { simplified = true }
        }
        return simplified ? .zhHans : nil
    }
}
