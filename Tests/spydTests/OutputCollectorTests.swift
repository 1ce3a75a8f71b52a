import Foundation
import Testing

/// The harness that reads the daemon's log: the tests that wait for a line depend on it reading what was written.
@Suite struct OutputCollectorTests {
    @Test func aCharacterSplitAcrossTwoReadsIsKept() {
        let collector = OutputCollector()
        let line = Array("INFO spyd: room 客廳 opened\n".utf8)
        // Cut inside 客 (three bytes in UTF-8), as a pipe read may.
        let cut = line.firstIndex(of: 0xE5)! + 1
        collector.append(Data(line[..<cut]))
        collector.append(Data(line[cut...]))
        #expect(collector.text == "INFO spyd: room 客廳 opened\n")
        #expect(collector.waitForLine(containing: "客廳", timeout: 0) == "INFO spyd: room 客廳 opened")
    }
}
