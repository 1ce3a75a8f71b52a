import SpyProtocol

/// A change record's JSON, written by hand: the host journals one for nearly every move, and through `Encodable`
/// each costs boxed containers and a coding path per nested value.
///
/// The bytes are those `StreamingJSONEncoder` writes for the same value (tests compare them): keys in declaration
/// order, absent optionals left out. Strings that need no escape are copied as they are; any other string, and the
/// client messages that carry more than an id, go through `StreamingJSONEncoder`, so escaping has one definition.
extension RoomChange {
    func writeJSON(into bytes: inout [UInt8]) throws {
        bytes.append(contentsOf: #"{"room":"#.utf8)
        try Self.writeString(room, into: &bytes)
        bytes.append(contentsOf: #","now":"#.utf8)
        bytes.append(contentsOf: String(now).utf8)
        if let event {
            bytes.append(contentsOf: #","event":"#.utf8)
            try event.writeJSON(into: &bytes)
        }
        if let tokens {
            bytes.append(contentsOf: #","tokens":{"#.utf8)
            var first = true
            for (player, token) in tokens {
                if !first { bytes.append(UInt8(ascii: ",")) }
                first = false
                try Self.writeString(player, into: &bytes)
                bytes.append(UInt8(ascii: ":"))
                try Self.writeString(token, into: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
        if let joinedByOthers {
            bytes.append(contentsOf: #","joinedByOthers":"#.utf8)
            bytes.append(contentsOf: (joinedByOthers ? "true" : "false").utf8)
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// `text` as a JSON string.
    static func writeString(_ text: String, into bytes: inout [UInt8]) throws {
        if text.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F }) {
            bytes.append(contentsOf: try StreamingJSONEncoder.encode(text))
        } else {
            bytes.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: text.utf8)
            bytes.append(UInt8(ascii: "\""))
        }
    }
}

extension LoggedEvent {
    fileprivate func writeJSON(into bytes: inout [UInt8]) throws {
        bytes.append(contentsOf: #"{"kind":""#.utf8)
        bytes.append(contentsOf: kind.rawValue.utf8)
        bytes.append(UInt8(ascii: "\""))
        if let player {
            bytes.append(contentsOf: #","player":"#.utf8)
            try RoomChange.writeString(player, into: &bytes)
        }
        if let name {
            bytes.append(contentsOf: #","name":"#.utf8)
            try RoomChange.writeString(name, into: &bytes)
        }
        if let bot {
            bytes.append(contentsOf: #","bot":"#.utf8)
            bytes.append(contentsOf: (bot ? "true" : "false").utf8)
        }
        if let message {
            bytes.append(contentsOf: #","message":"#.utf8)
            switch message {
            case .pass, .start, .leave:
                bytes.append(contentsOf: #"{"type":""#.utf8)
                bytes.append(contentsOf: message.type.utf8)
                bytes.append(contentsOf: #""}"#.utf8)
            case .vote(let vote):
                bytes.append(contentsOf: #"{"type":"vote","target":"#.utf8)
                try RoomChange.writeString(vote.target, into: &bytes)
                bytes.append(UInt8(ascii: "}"))
            case .settings(let change):
                bytes.append(contentsOf: #"{"type":"settings","settings":"#.utf8)
                try change.writeJSON(into: &bytes)
                bytes.append(UInt8(ascii: "}"))
            default:
                bytes.append(contentsOf: try StreamingJSONEncoder.encode(message))
            }
        }
        bytes.append(UInt8(ascii: "}"))
    }
}

extension SettingsChange {
    /// The members present, in declaration order, as `Encodable` writes them.
    fileprivate func writeJSON(into bytes: inout [UInt8]) throws {
        var first = true
        func key(_ name: String, _ bytes: inout [UInt8]) {
            bytes.append(UInt8(ascii: first ? "{" : ","))
            first = false
            bytes.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: name.utf8)
            bytes.append(contentsOf: #"":"#.utf8)
        }
        func int(_ name: String, _ value: Int?, _ bytes: inout [UInt8]) {
            guard let value else { return }
            key(name, &bytes)
            bytes.append(contentsOf: String(value).utf8)
        }
        func bool(_ name: String, _ value: Bool?, _ bytes: inout [UInt8]) {
            guard let value else { return }
            key(name, &bytes)
            bytes.append(contentsOf: (value ? "true" : "false").utf8)
        }
        func word(_ name: String, _ value: String?, _ bytes: inout [UInt8]) throws {
            guard let value else { return }
            key(name, &bytes)
            try RoomChange.writeString(value, into: &bytes)
        }
        int("maxPlayers", maxPlayers, &bytes)
        int("spies", spies, &bytes)
        bool("blank", blank, &bytes)
        try word("clueMode", clueMode?.rawValue, &bytes)
        int("turnSeconds", turnSeconds, &bytes)
        int("voteSeconds", voteSeconds, &bytes)
        try word("tieRule", tieRule?.rawValue, &bytes)
        bool("revealOut", revealOut, &bytes)
        try word("blankRule", blankRule?.rawValue, &bytes)
        try word("language", language?.rawValue, &bytes)
        bool("allowParty", allowParty, &bytes)
        if let categories {
            key("categories", &bytes)
            bytes.append(UInt8(ascii: "["))
            for (index, category) in categories.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                try RoomChange.writeString(category, into: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        }
        try word("spyWin", spyWin?.rawValue, &bytes)
        bytes.append(contentsOf: (first ? "{}" : "}").utf8)
    }
}
