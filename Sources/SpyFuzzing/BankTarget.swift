import SpyBank
import SpyProtocol

/// A downloaded or local sheet in any of the formats the bank detects.
enum BankTarget {
    static func run(_ bytes: [UInt8]) {
        let parsed: ParsedBank
        do {
            parsed = try BankParser.parse(bytes)
        } catch {
            return
        }
        require(!parsed.pairs.isEmpty, "a parse that succeeded with no pair")
        var keys: Set<String> = []
        for pair in parsed.pairs {
            require(pair.isPlayable, "an unplayable pair \(pair.civilian)/\(pair.spy) accepted")
            require(keys.insert(pair.key).inserted, "a duplicate pair \(pair.civilian)/\(pair.spy) accepted")
            for word in [pair.civilian, pair.spy] {
                require(word.count <= BankParser.maxWordLength, "an over-long word accepted")
                require(!TextFold.hasControlCharacters(word), "a word with a control character accepted")
            }
        }
    }
}
