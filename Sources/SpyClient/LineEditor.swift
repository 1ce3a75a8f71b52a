import SpyProtocol

/// A one-line text editor over grapheme clusters, so one backspace removes one visible character (a whole CJK
/// character or an accented letter), never half of it.
struct LineEditor: Equatable, Sendable {
    /// The characters typed so far.
    private(set) var characters: [Character] = []
    /// Insertion point, as an index into `characters`.
    private(set) var cursor = 0
    /// The most characters the line may hold; the host refuses longer clues anyway.
    let limit: Int

    init(limit: Int = 100, text: String = "") {
        self.limit = limit
        insert(text)
    }

    /// The whole line.
    var text: String { String(characters) }

    /// Whether nothing has been typed.
    var isEmpty: Bool { characters.isEmpty }

    /// Inserts text at the cursor, dropping control characters and anything past the limit.
    mutating func insert(_ text: String) {
        for character in text where !character.unicodeScalars.contains(where: Self.isControl) {
            guard characters.count < limit else { return }
            characters.insert(character, at: cursor)
            cursor += 1
        }
    }

    /// Removes the character before the cursor.
    mutating func backspace() {
        guard cursor > 0 else { return }
        cursor -= 1
        characters.remove(at: cursor)
    }

    /// Removes the character under the cursor.
    mutating func deleteForward() {
        guard cursor < characters.count else { return }
        characters.remove(at: cursor)
    }

    mutating func moveLeft() { cursor = max(0, cursor - 1) }
    mutating func moveRight() { cursor = min(characters.count, cursor + 1) }
    mutating func moveToStart() { cursor = 0 }
    mutating func moveToEnd() { cursor = characters.count }

    /// Removes everything before the cursor (Ctrl-U in shells).
    mutating func clearToStart() {
        characters.removeFirst(cursor)
        cursor = 0
    }

    /// Returns the line and empties the editor.
    mutating func submit() -> String {
        let line = text
        characters = []
        cursor = 0
        return line
    }

    /// The part of the line to draw in `columns` columns and where the cursor falls in it, scrolling so that
    /// the cursor stays visible. Wide characters are never split.
    func window(columns: Int) -> (text: String, cursorColumn: Int) {
        guard columns > 1 else { return ("", 0) }
        let widths = characters.map { DisplayWidth.of(String($0)) }
        // Leave one column for the cursor block after the last character.
        var start = 0
        var beforeCursor = widths[0..<cursor].reduce(0, +)
        while beforeCursor > columns - 1 && start < cursor {
            beforeCursor -= widths[start]
            start += 1
        }
        var used = 0
        var end = start
        while end < characters.count && used + widths[end] <= columns {
            used += widths[end]
            end += 1
        }
        return (String(characters[start..<end]), beforeCursor)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
    }
}
