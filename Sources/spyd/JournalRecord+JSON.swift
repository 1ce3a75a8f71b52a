import SpyProtocol

/// A change record's JSON, written by hand: the host journals one for nearly every move, and through `Encodable`
/// each costs boxed containers and a coding path per nested value.
///
/// The bytes are those `StreamingJSONEncoder` writes for the same value (tests compare them): keys in declaration
/// order, absent optionals left out. Strings that need no escape are copied as they are; any other string, and the
/// client messages that carry more than an id, go through `StreamingJSONEncoder`, so escaping has one definition.
extension RoomChange {
    func writeJSON(into bytes: inout [UInt8]) throws {
        JSONBytes.raw(#"{"room":"#, into: &bytes)
        try Self.writeString(room, into: &bytes)
        JSONBytes.raw(#","now":"#, into: &bytes)
        JSONBytes.integer(now, into: &bytes)
        if let event {
            JSONBytes.raw(#","event":"#, into: &bytes)
            try event.writeJSON(into: &bytes)
        }
        if let tokens {
            JSONBytes.raw(#","tokens":{"#, into: &bytes)
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
            JSONBytes.raw(#","joinedByOthers":"#, into: &bytes)
            JSONBytes.raw(joinedByOthers ? "true" : "false", into: &bytes)
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
        JSONBytes.raw(#"{"kind":""#, into: &bytes)
        bytes.append(contentsOf: kind.rawValue.utf8)
        bytes.append(UInt8(ascii: "\""))
        if let player {
            JSONBytes.raw(#","player":"#, into: &bytes)
            try RoomChange.writeString(player, into: &bytes)
        }
        if let name {
            JSONBytes.raw(#","name":"#, into: &bytes)
            try RoomChange.writeString(name, into: &bytes)
        }
        if let bot {
            JSONBytes.raw(#","bot":"#, into: &bytes)
            JSONBytes.raw(bot ? "true" : "false", into: &bytes)
        }
        if let message {
            JSONBytes.raw(#","message":"#, into: &bytes)
            switch message {
            case .pass, .start, .leave:
                JSONBytes.raw(#"{"type":""#, into: &bytes)
                bytes.append(contentsOf: message.type.utf8)
                JSONBytes.raw(#""}"#, into: &bytes)
            case .vote(let vote):
                JSONBytes.raw(#"{"type":"vote","target":"#, into: &bytes)
                try RoomChange.writeString(vote.target, into: &bytes)
                bytes.append(UInt8(ascii: "}"))
            case .settings(let change):
                JSONBytes.raw(#"{"type":"settings","settings":"#, into: &bytes)
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
        func key(_ name: StaticString, _ bytes: inout [UInt8]) {
            bytes.append(UInt8(ascii: first ? "{" : ","))
            first = false
            bytes.append(UInt8(ascii: "\""))
            JSONBytes.raw(name, into: &bytes)
            JSONBytes.raw(#"":"#, into: &bytes)
        }
        func int(_ name: StaticString, _ value: Int?, _ bytes: inout [UInt8]) {
            guard let value else { return }
            key(name, &bytes)
            JSONBytes.integer(value, into: &bytes)
        }
        func bool(_ name: StaticString, _ value: Bool?, _ bytes: inout [UInt8]) {
            guard let value else { return }
            key(name, &bytes)
            JSONBytes.raw(value ? "true" : "false", into: &bytes)
        }
        func word(_ name: StaticString, _ value: String?, _ bytes: inout [UInt8]) throws {
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
        JSONBytes.raw(first ? "{}" : "}", into: &bytes)
    }
}

/// Appends to a record's bytes without going through `String`: the host writes a change record for nearly every
/// move.
enum JSONBytes {
    static func raw(_ text: StaticString, into bytes: inout [UInt8]) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// `value` in decimal, as `String(value)` writes it.
    static func integer(_ value: Int, into bytes: inout [UInt8]) {
        integer(Int64(value), into: &bytes)
    }

    /// `value` in decimal, as `String(value)` writes it.
    static func integer(_ value: Int64, into bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var rest = value.magnitude
        // 20 digits hold any UInt64; they are made from the last and copied out in order.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = 20
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            } while rest > 0
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }
}
