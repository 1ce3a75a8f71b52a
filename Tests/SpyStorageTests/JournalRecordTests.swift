import Foundation
import SpyGame
import SpyNet
import SpyProtocol
import Testing

@testable import SpyStorage

/// The bytes of a record: its checksum and the JSON of a change.
extension JournalTests {
    /// CRC-32C a byte at a time, straight from the polynomial: what the table-driven checksum must equal.
    private static func bitwiseCRC32C(_ bytes: some Sequence<UInt8>, continuing seed: UInt32 = 0) -> UInt32 {
        var crc = ~seed
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
        }
        return ~crc
    }

    @Test func crc32cOfEveryLengthAndAlignmentEqualsTheBitwiseDefinition() {
        var random = SplitMix64(seed: 32)
        let bytes = (0..<600).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        for start in 0..<9 {
            for end in start...min(bytes.count, start + 300) {
                let slice = bytes[start..<end]
                #expect(CRC32C.checksum(slice) == Self.bitwiseCRC32C(slice), "\(start)..<\(end)")
            }
        }
        let whole = Self.bitwiseCRC32C(bytes)
        for split in stride(from: 0, through: bytes.count, by: 37) {
            let first = CRC32C.checksum(bytes[..<split])
            #expect(CRC32C.checksum(bytes[split...], continuing: first) == whole, "split at \(split)")
            let raw = bytes.withUnsafeBytes {
                CRC32C.checksum(UnsafeRawBufferPointer(rebasing: $0[split...]), continuing: first)
            }
            #expect(raw == whole, "split at \(split)")
        }
        // A sequence without contiguous storage takes the byte-at-a-time path.
        #expect(CRC32C.checksum(bytes.lazy.map { $0 }) == whole)
    }

    /// A change's payload as the journal writes it.
    private static func json(of change: RoomChange) throws -> [UInt8] {
        var output = JSONOutput(capacity: 16)
        try change.write(to: &output)
        return output.finish()
    }

    @Test func integersAreWrittenAsStringWritesThem() {
        var values: [Int64] = [0, 1, -1, 9, 10, -10, 99, 100, 977, Int64.max, Int64.min, Int64.max - 1, Int64.min + 1]
        var random = SplitMix64(seed: 64)
        values += (0..<200).map { _ in Int64(bitPattern: random.next()) >> (random.next() % 64) }
        for value in values {
            var output = JSONOutput(leadingBytes: 1, capacity: 1)
            output.int(Int(value))
            #expect(output.finish() == [0] + Array(String(value).utf8), "\(value)")
        }
    }

    @Test func everyEventButAStartHasALoggedForm() {
        let events: [RoomEvent] = [
            .join(name: "Amy", bot: false), .connected("p1"), .disconnected("p1"), .leave("p1"),
            .move("p1", .pass), .tick, .hostRestarted,
        ]
        for event in events {
            #expect(event.isRecordedAsChange && LoggedEvent(event) != nil, "\(event)")
        }
        let start = RoomEvent.start(by: "p1", pairs: [WordPair(civilian: "貓", spy: "狗")])
        #expect(!start.isRecordedAsChange && LoggedEvent(start) == nil)
    }

    /// Every kind of change, with every client message and strings that need escaping, is written by hand as the
    /// very bytes `StreamingJSONEncoder` writes for it, and reads back as the same change.
    @Test func aChangeIsWrittenAsTheBytesOfItsEncodableForm() throws {
        let awkward = ["Amy", "", "雞蛋 🥚", "a\"b\\c", "tab\there\nnew\u{7F}\u{01}", "/slash", "\u{2028}"]
        var messages: [ClientMessage] = [
            .pass, .start, .leave, .ping(.init(id: -3)), .pong(.init(id: Int.max)),
            .settings(.init(maxPlayers: 8)), .settings(.init()), .settings(.init(categories: [])),
            .settings(.init(blank: false, language: .both, spyWin: .three)),
            .settings(.init(clueMode: .spoken, tieRule: .random, blankRule: .survive, language: .en)),
            .settings(
                .init(
                    maxPlayers: 6, spies: 2, blank: true, clueMode: .typed, turnSeconds: 30, voteSeconds: 20,
                    tieRule: .pk, revealOut: false, blankRule: .guess, language: .zhTW, allowParty: true,
                    categories: ["動物", "a\"b"], spyWin: .parity)),
            .hello(.init(name: "Bo", room: "KFRW", token: "t", password: "p\"w", create: true, watch: false)),
            .claimAnswer(.init(player: "p2", allow: true)), .claimAnswer(.init(player: "p2", allow: false)),
        ]
        for text in awkward {
            messages += [
                .vote(.init(target: text)), .clue(.init(text: text)), .guess(.init(word: text)),
                .kick(.init(player: text)),
            ]
        }
        var roomEvents: [RoomEvent?] = [
            nil, .tick, .hostRestarted, .join(name: "Bot 1", bot: true),
            .start(by: "p1", pairs: [WordPair(civilian: "貓", spy: "狗")]),
        ]
        for text in awkward {
            roomEvents += [.join(name: text, bot: false), .connected(text), .disconnected(text), .leave(text)]
        }
        roomEvents += messages.map { .move("p3", $0) }
        let events = roomEvents.map { $0.flatMap(LoggedEvent.init) }
        let tokenSets: [[PlayerID: String]?] = [
            nil, [:], ["p1": String(repeating: "a", count: 32)],
            ["p1": "x", "p2": "y\"", "p\n3": "z", "p4": "w"],
        ]
        var count = 0
        for (index, event) in events.enumerated() {
            for tokens in tokenSets {
                for joined in [nil, true, false] as [Bool?] {
                    let room = index % 3 == 0 ? "KF\"RW" : "KFRW"
                    let change = RoomChange(
                        room: room, now: Millis(index) * 977 - 5, event: event, tokens: tokens, joinedByOthers: joined)
                    let written = try Self.json(of: change)
                    #expect(written == (try StreamingJSONEncoder.encode(change)), "\(change)")
                    let read = try JSONDecoder().decode(RoomChange.self, from: Data(written))
                    #expect(read == change)
                    // The host frames the change straight from the room's event: the same record.
                    var framed: [UInt8] = [7]
                    let size = try JournalFormat.frameChange(
                        room: room, now: change.now, event: roomEvents[index],
                        tokens: tokens, joinedByOthers: joined, into: &framed)
                    let checked = [JournalRecord.Kind.change.rawValue] + (try StreamingJSONEncoder.encode(change))
                    var reference: [UInt8] = [7]
                    JournalFormat.append(UInt32(checked.count - 1), to: &reference)
                    JournalFormat.append(Self.bitwiseCRC32C(checked), to: &reference)
                    reference += checked
                    #expect(framed == reference && size == framed.count - 1, "\(change)")
                    count += 1
                }
            }
        }
        #expect(count == events.count * 12)

        // A logged event that is no room event's logged form (members its kind does not have) is still written
        // as the encoder writes it.
        for odd in [#"{"kind":"tick","player":"p1"}"#, #"{"kind":"join","name":"A"}"#, #"{"kind":"move"}"#] {
            let event = try JSONDecoder().decode(LoggedEvent.self, from: Data(odd.utf8))
            let change = RoomChange(room: "KFRW", now: 1, event: event)
            #expect(try Self.json(of: change) == (try StreamingJSONEncoder.encode(change)), "\(odd)")
        }

        // Framed, the change reads back from a journal's bytes.
        var journal = JournalFormat.header()
        let change = RoomChange(room: "KFRW", now: 5, event: LoggedEvent(.move("p1", .vote(.init(target: "p2")))))
        let size = try JournalFormat.frame(.change(change), into: &journal)
        #expect(size == journal.count - JournalFormat.headerBytes)
        #expect(JournalFormat.parse(journal).records.map(\.record) == [.change(change)])
    }
}
