import Testing

@testable import SpyProtocol

struct ControlScanTests {
    /// The eight-byte steps must answer exactly as a look at every byte: the client passes a line without a
    /// suspect byte to the terminal as it is.
    @Test func theScanAnswersAsALookAtEveryByte() {
        let pieces = [
            "", "a", " ", "        ", "a plain line", "王", "é", "\u{A0}", "\u{85}", "\u{9B}", "\u{1B}", "\t", "\n",
            "\u{7F}", "\u{0}", "~", "👍", "\u{2028}", "ｗ",
        ]
        var random = SplitMix64(seed: 31)
        var suspectTexts = 0
        for _ in 0..<5_000 {
            let text = (0..<Int(random.next() % 12)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }
                .joined()
            let everyByte = text.utf8.contains { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 }
            if everyByte { suspectTexts += 1 }
            #expect(ControlScan.mayHoldControls(text) == everyByte, "\(text.debugDescription)")
        }
        // Both answers come up often, so neither is taken for granted.
        #expect(suspectTexts > 500 && 5_000 - suspectTexts > 500)
    }

    /// Every C0 control, DEL and every C1 control is found wherever it sits in a line of printable ASCII: at each
    /// offset of the eight-byte steps and in the bytes after the last whole step.
    @Test func everyControlIsFoundAtEveryOffset() {
        let controls = (UInt32(0)..<0x20).map { $0 } + [0x7F] + (UInt32(0x80)...0x9F).map { $0 }
        for value in controls {
            let control = String(Character(Unicode.Scalar(value)!))
            for length in 0...19 {
                for offset in 0...length {
                    let line =
                        String(repeating: "x", count: offset) + control
                        + String(repeating: "y", count: length - offset)
                    #expect(ControlScan.mayHoldControls(line), "U+\(String(value, radix: 16)) at \(offset)")
                }
            }
        }
        #expect(!ControlScan.mayHoldControls(String(repeating: "~ 王 padded line ", count: 9)))
    }
}
