import Foundation
import SpyProtocol

/// Payloads for comparing the host's byte reader with `JSONDecoder`: fixed edge cases and a seeded generator of
/// client messages written by hand (field order, whitespace, escapes, unknown fields, nulls), and mutations of them.
enum ReaderCorpus {
    static let fixedCases: [String] = [
        // Shapes and nulls.
        #"{"type":"hello","protocol":1,"name":"Amy"}"#, #"{"id":7,"type":"ping"}"#,
        #"{"type":"pass","extra":[1,{"a":null}]}"#,
        #"{"type":"hello","protocol":1,"name":"Amy","room":null,"token":null,"create":null}"#,
        // Unknown types.
        #"{"type":"welcome","protocol":1}"#, #"{"type":"Hello","protocol":1,"name":"a"}"#, #"{"type":""}"#,
        #"{"type":"hello ","protocol":1,"name":"a"}"#, #"{"type":"vote_result"}"#,
        #"{"type":""# + String(repeating: "長", count: 100) + #""}"#,
        // Missing or ill-typed fields.
        #"{"type":"hello","name":"Amy"}"#, #"{"type":"hello","protocol":1}"#,
        #"{"type":"hello","protocol":"1","name":"a"}"#, #"{"type":"hello","protocol":1.5,"name":"a"}"#,
        #"{"type":"hello","protocol":1,"name":null}"#, #"{"type":"hello","protocol":1,"name":"a","create":"yes"}"#,
        #"{"type":"hello","protocol":99999999999999999999999,"name":"a"}"#, #"{"type":"ping"}"#,
        #"{"type":"ping","id":"7"}"#, #"{"type":"settings"}"#, #"{"type":"settings","settings":[]}"#,
        #"{"type":"settings","settings":null}"#, #"{"type":"settings","settings":{"spies":"two"}}"#,
        #"{"type":"settings","settings":{"clueMode":"shouted"}}"#,
        #"{"type":"settings","settings":{"categories":"food"}}"#,
        #"{"type":"settings","settings":{"categories":["a",1]}}"#,
        #"{"type":"settings","settings":{"categories":["a",null]}}"#,
        #"{"type":"settings","settings":{"language":"zh-TW","spyWin":"parity","tieRule":"nobody"}}"#,
        #"{"type":"settings","settings":{"spyWin":"always"}}"#, #"{"type":"clue"}"#, #"{"type":"clue","text":5}"#,
        #"{"type":"vote"}"#, #"{"type":"vote","target":["p1"]}"#, #"{"type":"guess"}"#,
        #"{"type":"kick","player":{}}"#, #"{"type":"hello","protocol":true,"name":"a"}"#,
        #"{"type":"hello","protocol":1,"name":"a","create":1}"#,
        // Numbers.
        #"{"type":"ping","id":1.0}"#, #"{"type":"ping","id":1e2}"#, #"{"type":"ping","id":-0}"#,
        #"{"type":"ping","id":0.1e1}"#, #"{"type":"ping","id":10E-1}"#, #"{"type":"ping","id":1.0e-400}"#,
        // Whole only after rounding to a Double (found by the frames fuzzer); whole numbers near Int's ends.
        #"{"type":"ping","id":59999999999999989.99999}"#, #"{"type":"ping","id":1.00000000000000001}"#,
        #"{"type":"ping","id":9223372036854775807.0}"#, #"{"type":"ping","id":-9223372036854775808.0}"#,
        #"{"type":"ping","id":1.5e1}"#, #"{"type":"ping","id":150e-1}"#, #"{"type":"ping","id":4.9999999999999999}"#,
        #"{"type":"ping","id":9223372036854775807}"#, #"{"type":"ping","id":9223372036854775808}"#,
        #"{"type":"ping","id":-9223372036854775808}"#, #"{"type":"ping","id":-9223372036854775809}"#,
        #"{"type":"ping","id":1E400}"#, #"{"type":"ping","id":01}"#, #"{"type":"ping","id":+1}"#,
        #"{"type":"ping","id":.5}"#, #"{"type":"ping","id":1.}"#, #"{"type":"ping","id":-}"#,
        #"{"type":"ping","id":2.5e0}"#, #"{"type":"kick","player":[9223372036851e24775808]}"#,
        // Duplicate keys: the first one counts.
        #"{"type":"ping","id":1,"id":2}"#, #"{"type":"ping","id":"x","id":2}"#, #"{"type":"pass","type":"start"}"#,
        #"{"type":"settings","settings":{"spies":1,"spies":"x"}}"#,
        // Strings and escapes.
        #"{"t\u0079pe":"pass"}"#, #"{"type":"p\u0061ss"}"#, #"{"type":"clue","text":"\ud83d\ude00\u00e9"}"#,
        #"{"type":"clue","text":"\ud83d"}"#, #"{"type":"clue","text":"\ude00"}"#,
        #"{"type":"clue","text":"\ud83d\u0041"}"#, #"{"type":"clue","text":"\u00"}"#,
        #"{"type":"clue","text":"\U0041"}"#, #"{"type":"clue","text":"\/\b\f\n\r\t\\\""}"#,
        #"{"type":"clue","text":"\u0000"}"#, "{\"type\":\"clue\",\"text\":\"a\u{1}\"}",
        // Not an object with a string type.
        "[]", #"[{"type":"pass"}]"#, "42", "-0.5", #""pass""#, "true", "null", "", " ", "{",
        #"{"type":"pass"} {}"#, "{}", #"{"type":5}"#, #"{"type":null}"#, #"{"type":["pass"]}"#,
        #"{"Type":"pass"}"#, "{'type':'pass'}", #"{"type":"pass""#, #"{"type" "pass"}"#, #"{"type":"pass",,}"#,
        #"{type:"pass"}"#, " \n\t\r{\"type\" : \"pass\" } \n", #"{"type":"pass"}x"#, #"{"type":"pass"]"#,
        #"{"type":"pass","x":[1,2}"#, #"{"type":"pass","x":tru}"#, #"{"type":"pass","x":nul}"#,
    ]

    static let invalidUTF8: [[UInt8]] = [
        [0xFF], [0xC0, 0xAF], [0xED, 0xA0, 0x80], Array(#"{"type":"pass"}"#.utf8) + [0xFE],
        [0x7B, 0x22, 0x74, 0x79, 0x70, 0x65, 0x22, 0x3A, 0x22, 0xE8, 0xA9, 0x22, 0x7D],
        Array(#"{"type":"clue","text":""#.utf8) + [0xF4, 0x90, 0x80, 0x80] + Array(#""}"#.utf8),
        Array(#"{"type":"clue","text":""#.utf8) + [0xE0, 0x80, 0x80] + Array(#""}"#.utf8),
        Array(#"{"type":"clue","text":""#.utf8) + [0xF0, 0x9F, 0x98] + Array(#""}"#.utf8),
        Array(#"{x"#.utf8) + [0xFF],
    ]

    // MARK: Generator

    private static let words = [
        "Amy", "小明", "", "a b", "詞😀", "quote\"d", "back\\slash", "p1", "p10", "QXWZ", "tab\tnew\nline", "é",
        "e\u{301}", "zh-TW", "typed", "spoken", "pk", "nobody", "random", "survive", "guess", "three", "parity",
        "both", "en", "hello", "pass",
    ]

    private static let numbers = [
        "0", "1", "-1", "7", "20", "1.0", "1e1", "1.5", "-0", "9223372036854775807", "9223372036854775808",
        "-9223372036854775808", "123456789012345678901234567890", "2E-2", "0.5e1",
    ]

    private static func pick<T>(_ items: [T], _ generator: inout SplitMix64) -> T {
        items[Int.random(in: 0..<items.count, using: &generator)]
    }

    /// A JSON string literal of `text`, escaping some characters that need no escape.
    static func literal(_ text: String, _ generator: inout SplitMix64) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            let escapeAnyway = Int.random(in: 0..<8, using: &generator) == 0
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || escapeAnyway:
                for unit in String(scalar).utf16 { out += String(format: "\\u%04x", unit) }
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// Any JSON value, mostly small, for unknown fields and ill-typed known ones.
    static func anyValue(_ generator: inout SplitMix64, depth: Int = 0) -> String {
        switch Int.random(in: 0..<(depth > 2 ? 5 : 7), using: &generator) {
        case 0: return "null"
        case 1: return pick(["true", "false"], &generator)
        case 2: return pick(numbers, &generator)
        case 3, 4: return literal(pick(words, &generator), &generator)
        case 5:
            let items = (0..<Int.random(in: 0..<4, using: &generator)).map { _ in
                anyValue(&generator, depth: depth + 1)
            }
            return "[" + items.joined(separator: ",") + "]"
        default:
            let members = (0..<Int.random(in: 0..<4, using: &generator)).map { _ in
                literal(pick(["a", "type", "id", "spies"], &generator), &generator) + ":"
                    + anyValue(&generator, depth: depth + 1)
            }
            return "{" + members.joined(separator: ",") + "}"
        }
    }

    private static func space(_ generator: inout SplitMix64) -> String {
        Int.random(in: 0..<5, using: &generator) == 0 ? pick([" ", "\n", "\t", "\r\n  "], &generator) : ""
    }

    /// A value for a field of the given kind: usually right, sometimes null or of another type.
    private static func value(_ kind: String, _ generator: inout SplitMix64) -> String {
        if Int.random(in: 0..<10, using: &generator) == 0 { return anyValue(&generator) }
        if kind.hasPrefix("type:") { return literal(String(kind.dropFirst(5)), &generator) }
        switch kind {
        case "int": return pick(numbers.prefix(6) + ["1.0", "-3"], &generator)
        case "string": return literal(pick(words, &generator), &generator)
        case "bool": return pick(["true", "false", "null"], &generator)
        case "clueMode": return literal(pick(["spoken", "typed", "shouted"], &generator), &generator)
        case "tieRule": return literal(pick(["pk", "nobody", "random"], &generator), &generator)
        case "blankRule": return literal(pick(["survive", "guess", "guessEachRound"], &generator), &generator)
        case "wordSource": return literal(pick(["bank", "ours", "oursAndBank", "theirs"], &generator), &generator)
        case "language": return literal(pick(["zh-TW", "en", "both", "fr"], &generator), &generator)
        case "spyWin": return literal(pick(["three", "parity"], &generator), &generator)
        case "strings":
            let items = (0..<Int.random(in: 0..<3, using: &generator)).map { _ in
                literal(pick(words, &generator), &generator)
            }
            return "[" + items.joined(separator: ",") + "]"
        case "settings":
            let fields: [(String, String)] = [
                ("maxPlayers", "int"), ("spies", "int"), ("blank", "bool"), ("clueMode", "clueMode"),
                ("turnSeconds", "int"), ("voteSeconds", "int"), ("tieRule", "tieRule"), ("revealOut", "bool"),
                ("blankRule", "blankRule"), ("language", "language"), ("allowParty", "bool"),
                ("categories", "strings"), ("spyWin", "spyWin"), ("spyLastChance", "bool"),
                ("wordSource", "wordSource"),
            ]
            return object(fields.filter { _ in Int.random(in: 0..<3, using: &generator) == 0 }, &generator)
        default: return anyValue(&generator)
        }
    }

    private static func object(_ fields: [(String, String)], _ generator: inout SplitMix64) -> String {
        var members = fields.map { key, kind in
            literal(key, &generator) + space(&generator) + ":" + space(&generator) + value(kind, &generator)
        }
        if Int.random(in: 0..<4, using: &generator) == 0 {
            members.append(
                literal(pick(["extra", "x", "watch", "Type"], &generator), &generator) + ":" + anyValue(&generator))
        }
        members.shuffle(using: &generator)
        return "{" + space(&generator) + members.joined(separator: "," + space(&generator)) + space(&generator) + "}"
    }

    private static let shapes: [String: [(String, String)]] = [
        "hello": [
            ("protocol", "int"), ("name", "string"), ("room", "string"), ("token", "string"),
            ("password", "string"), ("create", "bool"), ("watch", "bool"), ("claim", "string"),
        ],
        "ping": [("id", "int")], "pong": [("id", "int")], "settings": [("settings", "settings")], "start": [],
        "clue": [("text", "string")], "pass": [], "vote": [("target", "string")], "guess": [("word", "string")],
        "kick": [("player", "string")], "leave": [],
        "claim_answer": [("player", "string"), ("allow", "bool")], "vote_result": [], "Hello": [("protocol", "int")],
        "words": [("text", "string"), ("replace", "bool")], "words_clear": [], "words_export": [],
        "moderator": [("player", "string")], "moderator_answer": [("accept", "bool")],
        "moderator_pair": [("civilian", "string"), ("spy", "string")], "pause": [], "resume": [], "pass_turn": [],
    ]

    /// A client message as a peer might write it: every type, fields in any order, some missing or ill-typed.
    static func randomMessage(using generator: inout SplitMix64) -> [UInt8] {
        let type = pick(shapes.keys.sorted(), &generator)
        let fields = shapes[type]!.filter { _ in Int.random(in: 0..<12, using: &generator) != 0 }
        return Array(object([("type", "type:" + type)] + fields, &generator).utf8)
    }

    private static let fragments = [
        ",", "01", "\"\\ud800\"", "1.5", "null", "1e2", "}", "]", "{", "[", "\"", "\\", ":", "\"type\":\"pass\",",
        "\"id\":2,", "\u{1}", "tru", " ", "\"\\x\"",
    ]

    /// The payload with a few bytes changed, cut, inserted or removed.
    static func mutate(_ payload: [UInt8], using generator: inout SplitMix64) -> [UInt8] {
        var payload = payload
        for _ in 0..<Int.random(in: 1...2, using: &generator) where !payload.isEmpty {
            let at = Int.random(in: 0..<payload.count, using: &generator)
            switch Int.random(in: 0..<5, using: &generator) {
            case 0: payload = Array(payload.prefix(at))
            case 1: payload[at] = UInt8.random(in: 0...255, using: &generator)
            case 2: payload[at] = pick(Array("{}[]\",:0123456789.-eEtfnul \\".utf8), &generator)
            case 3: payload.insert(contentsOf: Array(pick(fragments, &generator).utf8), at: at)
            default: payload.remove(at: at)
            }
        }
        return payload
    }
}
