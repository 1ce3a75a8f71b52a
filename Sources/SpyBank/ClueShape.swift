import Foundation
import SpyProtocol

/// Shapes of a clue that give a word away as plainly as saying it: naming either word of the pair, spelling a
/// Chinese word out around other characters (羽毛做的球 for 羽毛球), or another name of the word (洋芋 for 馬鈴薯).
/// The embedded bank's material is checked against them by its tests, and a sheet's clue columns when parsed.
public enum ClueShape {
    /// Other names that say a word outright, by folded word: regional names, old names, a famous nickname.
    static let otherNames: [String: [String]] = [
        "蟾蜍": ["癩蛤蟆"], "甜椒": ["彩椒"], "青椒": ["彩椒"], "馬鈴薯": ["洋芋", "土豆"], "桌球": ["乒乓"],
        "鳳梨": ["旺來", "菠蘿"], "eggplant": ["aubergine"], "cilantro": ["coriander"], "fanny pack": ["bum bag"],
        "flashlight": ["torch"], "paper clip": ["clippy"],
    ]

    /// Why `clue` gives `word` away, if it does: a short reason for a test message or a dropped clue.
    public static func problem(_ clue: String, word: String) -> String? {
        if TextFold.contains(clue, word: word) { return "names \(word)" }
        if spellsOut(clue, word: word) { return "spells out \(word)" }
        for name in otherNames[TextFold.key(word)] ?? [] where TextFold.contains(clue, word: name) {
            return "calls \(word) \(name)"
        }
        return nil
    }

    /// Whether a word of two or more CJK characters has all its characters in the clue, in order.
    static func spellsOut(_ clue: String, word: String) -> Bool {
        let characters = TextFold.key(word).filter { !$0.isWhitespace }
        guard characters.count >= 2,
            characters.allSatisfy({ $0.unicodeScalars.contains { $0.value >= 0x2E80 } })
        else { return false }
        var rest = Substring(TextFold.key(clue))
        for character in characters {
            guard let found = rest.firstIndex(of: character) else { return false }
            rest = rest[rest.index(after: found)...]
        }
        return true
    }
}
