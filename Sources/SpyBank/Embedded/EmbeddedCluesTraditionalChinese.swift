// Clue material for the Traditional Chinese words of the embedded bank, read by ClueBook. One word per line as
// "word=clue|clue|~clue"; a leading "~" marks a clue that fits the word's partner too. One string literal, like the
// pairs, to keep the type checker quick.
extension ClueBook {
    static let traditionalChineseCluesText = """
        """
}
