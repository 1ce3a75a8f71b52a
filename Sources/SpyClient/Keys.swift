/// One key press, decoded from the bytes a terminal in raw mode sends.
enum Key: Equatable, Sendable {
    /// A printable character (any script; a whole UTF-8 sequence).
    case character(Character)
    /// Return or Enter.
    case enter
    /// Backspace (DEL or ^H).
    case backspace
    /// The Delete key.
    case delete
    /// Arrow keys.
    case up, down, left, right
    /// Home and End.
    case home, end
    /// A lone Escape.
    case escape
    /// Tab.
    case tab
    /// Ctrl-C: leave the program, keeping the seat.
    case interrupt
    /// Ctrl-D.
    case endOfInput
    /// Ctrl-U: clear the line before the cursor.
    case clearLine
    /// Ctrl-L: redraw.
    case redraw
    /// Any other control byte or escape sequence; ignored.
    case unknown
}

extension Key {
    /// The character of a printable key.
    var character: Character? {
        if case .character(let value) = self { return value }
        return nil
    }
}

/// Turns raw terminal bytes into keys. Sequences cut between two reads are held until the rest arrives.
struct KeyDecoder: Sendable {
    private var pending: [UInt8] = []

    /// Decodes `bytes` (appended to whatever was held back) into keys.
    ///
    /// An Escape that ends a read is taken as the Escape key: terminals send a whole escape sequence in one
    /// write, so a lone trailing ESC is almost always the key itself.
    mutating func feed<Bytes: Sequence>(_ bytes: Bytes) -> [Key] where Bytes.Element == UInt8 {
        pending.append(contentsOf: bytes)
        var keys: [Key] = []
        var index = 0
        while index < pending.count {
            guard let (key, length) = Self.decodeOne(pending, from: index) else { break }
            if let key { keys.append(key) }
            index += length
        }
        pending.removeFirst(index)
        if pending == [0x1B] {
            keys.append(.escape)
            pending = []
        }
        return keys
    }

    /// Decodes one key at `start`: the key (nil for a skipped byte) and the bytes it used, or nil when the
    /// sequence is incomplete.
    private static func decodeOne(_ bytes: [UInt8], from start: Int) -> (Key?, Int)? {
        let byte = bytes[start]
        switch byte {
        case 0x0D, 0x0A: return (.enter, 1)
        case 0x7F, 0x08: return (.backspace, 1)
        case 0x09: return (.tab, 1)
        case 0x03: return (.interrupt, 1)
        case 0x04: return (.endOfInput, 1)
        case 0x15: return (.clearLine, 1)
        case 0x0C: return (.redraw, 1)
        case 0x1B: return decodeEscape(bytes, from: start)
        case 0x00..<0x20: return (.unknown, 1)
        case 0x20..<0x80: return (.character(Character(Unicode.Scalar(byte))), 1)
        default: return decodeUTF8(bytes, from: start)
        }
    }

    private static func decodeEscape(_ bytes: [UInt8], from start: Int) -> (Key?, Int)? {
        guard start + 1 < bytes.count else { return nil }
        let introducer = bytes[start + 1]
        if introducer == UInt8(ascii: "O") {
            guard start + 2 < bytes.count else { return nil }
            return (finalKey(bytes[start + 2], parameters: []), 3)
        }
        guard introducer == UInt8(ascii: "[") else {
            // ESC followed by something else: Alt+key or a lone Escape typed before another key.
            return (.escape, 1)
        }
        var index = start + 2
        var parameters: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            if (0x40...0x7E).contains(byte) {
                return (finalKey(byte, parameters: parameters), index - start + 1)
            }
            guard parameters.count < 16 else { return (.unknown, index - start + 1) }
            parameters.append(byte)
            index += 1
        }
        return nil
    }

    private static func finalKey(_ final: UInt8, parameters: [UInt8]) -> Key {
        switch final {
        case UInt8(ascii: "A"): return .up
        case UInt8(ascii: "B"): return .down
        case UInt8(ascii: "C"): return .right
        case UInt8(ascii: "D"): return .left
        case UInt8(ascii: "H"): return .home
        case UInt8(ascii: "F"): return .end
        case UInt8(ascii: "~"):
            switch String(decoding: parameters, as: UTF8.self) {
            case "1", "7": return .home
            case "4", "8": return .end
            case "3": return .delete
            default: return .unknown
            }
        default: return .unknown
        }
    }

    private static func decodeUTF8(_ bytes: [UInt8], from start: Int) -> (Key?, Int)? {
        let lead = bytes[start]
        let length: Int
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return (nil, 1)
        }
        guard start + length <= bytes.count else {
            // Wait for the rest, unless a byte already here shows the sequence is broken.
            for index in (start + 1)..<bytes.count where bytes[index] & 0xC0 != 0x80 { return (nil, 1) }
            return nil
        }
        let slice = Array(bytes[start..<start + length])
        guard let text = String(validating: slice, as: UTF8.self), let character = text.first else {
            return (nil, 1)
        }
        return (.character(character), length)
    }
}
