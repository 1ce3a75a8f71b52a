import Foundation
import SpyProtocol

/// Shapes of a clue that give a word away as plainly as saying it: naming either word of the pair, spelling a
/// Chinese word out around other characters (羽毛做的球 for 羽毛球), or another name of the word (洋芋 for 馬鈴薯,
/// 番茄 for 西红柿). The embedded bank's material is checked against them by its tests, and a sheet's clue columns
/// when parsed.
public enum ClueShape {
    /// Other names that say a word outright, by folded word: regional names, old names, a famous nickname. The
    /// Traditional and Simplified spellings of a word are different keys; a key spelled alike in both scripts
    /// (土豆, 番茄) lists what either side calls it, as a mainland clue would not name a Taiwanese word anyway.
    static let otherNames: [String: [String]] = [
        "蟾蜍": ["癩蛤蟆", "癞蛤蟆"], "甜椒": ["彩椒"], "青椒": ["彩椒"], "馬鈴薯": ["洋芋", "土豆"], "桌球": ["乒乓"],
        "鳳梨": ["旺來", "菠蘿"], "eggplant": ["aubergine"], "cilantro": ["coriander"], "fanny pack": ["bum bag"],
        "flashlight": ["torch"], "paper clip": ["clippy"],
        // Mainland words and the names other regions (or other mainland provinces) give the same thing.
        "土豆": ["马铃薯", "洋芋", "薯仔"], "西红柿": ["番茄"], "番茄": ["西红柿"], "菠萝": ["凤梨"], "凤梨": ["菠萝"],
        "红薯": ["地瓜", "番薯", "白薯"], "地瓜": ["红薯", "番薯"], "玉米": ["苞米", "苞谷", "玉蜀黍"], "香菜": ["芫荽"],
        "猕猴桃": ["奇异果"], "卷心菜": ["包菜", "圆白菜", "洋白菜", "高丽菜"], "包菜": ["卷心菜", "圆白菜", "高丽菜"],
        "西兰花": ["青花菜", "绿花椰"], "馄饨": ["云吞", "抄手"], "奶酪": ["芝士", "起司", "乳酪"], "芝士": ["奶酪", "起司"],
        "酸奶": ["优格", "优酪乳"], "方便面": ["泡面", "速食面"], "自行车": ["单车", "脚踏车"], "摩托车": ["机车"],
        "出租车": ["的士", "计程车"], "鼠标": ["滑鼠"], "软件": ["软体"], "圆珠笔": ["原子笔"], "幼儿园": ["幼稚园"],
        "地铁": ["捷运"], "老鼠": ["耗子"], "电饭煲": ["电饭锅"],
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
