import Foundation
import SpyNet
import Testing

/// A log line is one line, whatever its message holds, and says when, how important and whose it is.
@Suite struct LogTests {
    @Test func everyLineBreakInAMessageBecomesASpaceCarriageReturnAndLineFeedTogetherToo() {
        let line = Log(label: "spyd").line(.info, "a\nb\rc\r\nd\n\re")
        #expect(!line.utf8.contains(0x0A))
        #expect(!line.utf8.contains(0x0D))
        #expect(line.hasSuffix(" INFO spyd: a b c  d  e"))
    }

    @Test func aMessageOfAnyScriptIsKeptAsItIs() {
        let message = "房間 QXZT: 小明 joined 🎲 e\u{301}"
        #expect(Log(label: "spyd").line(.warning, message).hasSuffix(" WARNING spyd: " + message))
        #expect(Log().line(.error, message).hasSuffix(" ERROR " + message))
    }

    /// The level in each line is its command-line name in capitals (kept as a literal, not made per line).
    @Test func everyLevelIsPrintedAsItsNameInCapitals() {
        for level in Log.Level.allCases {
            #expect(Log().line(level, "m").hasSuffix(" \(level.name.uppercased()) m"), "\(level)")
        }
    }

    @Test func aLineStartsWithTheUTCTimeToTheMillisecond() throws {
        let before = Date()
        let line = Log(label: "x").line(.debug, "m")
        let after = Date()
        let fields = line.split(separator: " ", maxSplits: 1)
        #expect(fields.count == 2 && fields[1] == "DEBUG x: m")
        let stamp = String(fields[0])
        #expect(stamp.utf8.count == 24)
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: "UTC")
        format.dateFormat = "yyyy-MM-dd'T'HH:mm:ss.SSS'Z'"
        let when = try #require(format.date(from: stamp))
        // Written to the millisecond, cut rather than rounded: within the calls around it.
        #expect(when.timeIntervalSince(before) >= -0.001)
        #expect(when.timeIntervalSince(after) <= 0)
    }
}
