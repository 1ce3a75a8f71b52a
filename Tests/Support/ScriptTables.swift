import Foundation

/// The characters that belong to one Chinese script only, and the Traditional → Simplified character map, read from
/// `Tests/Support/Fixtures` (written by scripts/script-tables.py; the rule is in docs/TESTING.md). Every test target
/// that checks Chinese text uses these: a zh-Hans string holds no Traditional-only character, a zh-TW string no
/// Simplified-only one.
public enum ScriptTables {
    /// Traditional-only character → its Simplified form(s): 們 → 们, 裏 → 里.
    public static let traditionalOnly = load("traditional-only.txt")
    /// Simplified-only character → its Traditional form(s): 们 → 們, 着 → 著.
    public static let simplifiedOnly = load("simplified-only.txt")
    /// Characters of both scripts that a Traditional → Simplified conversion may still change: 乾 → 干, 後 → 后.
    public static let convertedInBoth = load("converted-in-both.txt")

    /// Words of Taiwan a mainland player does not say (滑鼠, 影片, 便当), in Simplified characters.
    public static let taiwanOnlyWords: [String] = {
        lines("taiwan-only-words.txt").compactMap { line in
            let word = line.split(separator: "#").first?.trimmingCharacters(in: .whitespaces) ?? ""
            return word.isEmpty ? nil : word
        }
    }()

    /// The Taiwan-only words `text` contains.
    public static func taiwanOnlyWords(in text: String) -> [String] {
        taiwanOnlyWords.filter { text.contains($0) }
    }

    /// The Traditional-only characters of `text`, in order, each once: what a zh-Hans string must not hold.
    public static func traditionalOnlyCharacters(in text: String) -> [Character] {
        unique(text.filter { traditionalOnly[$0] != nil })
    }

    /// The Simplified-only characters of `text`, in order, each once: what a zh-TW string must not hold.
    public static func simplifiedOnlyCharacters(in text: String) -> [Character] {
        unique(text.filter { simplifiedOnly[$0] != nil })
    }

    /// A short account of the characters of `text` foreign to `simplified` (zh-Hans) or Traditional (zh-TW) text,
    /// with the form to use instead ("這 → 这, 個 → 个"); empty when there are none.
    public static func foreignCharacters(in text: String, simplified: Bool) -> String {
        let table = simplified ? traditionalOnly : simplifiedOnly
        let found = simplified ? traditionalOnlyCharacters(in: text) : simplifiedOnlyCharacters(in: text)
        return found.map { "\($0) → \(String(table[$0] ?? []))" }.joined(separator: ", ")
    }

    /// Whether `simplified` is what a character-by-character conversion of `traditional` could give: the same length,
    /// and each character either the same (when it is not Traditional-only) or one of its Simplified forms.
    public static func isConversion(_ simplified: String, of traditional: String) -> Bool {
        let from = Array(traditional)
        let to = Array(simplified)
        guard from.count == to.count else { return false }
        for (source, target) in zip(from, to) {
            if let forms = traditionalOnly[source] {
                guard forms.contains(target) else { return false }
            } else if source != target {
                guard convertedInBoth[source]?.contains(target) == true else { return false }
            }
        }
        return true
    }

    /// The fixture `name`: one entry a line (the character, then its forms in the other script); `#` lines are
    /// comments.
    static func load(_ name: String) -> [Character: [Character]] {
        var table: [Character: [Character]] = [:]
        for line in lines(name) {
            let characters = Array(line.filter { !$0.isWhitespace })
            guard let first = characters.first, characters.count >= 2 else { continue }
            table[first] = Array(characters.dropFirst())
        }
        return table
    }

    /// The lines of the fixture `name` that are not `#` comments.
    static func lines(_ name: String) -> [Substring] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures").appendingPathComponent(name)
        guard let text = try? String(contentsOf: url, encoding: .utf8) else {
            fatalError("cannot read the script table \(url.path)")
        }
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }
    }

    private static func unique(_ characters: String) -> [Character] {
        var seen = Set<Character>()
        return characters.filter { seen.insert($0).inserted }
    }
}
