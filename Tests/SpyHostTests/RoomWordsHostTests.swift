import Foundation
import SpyGame
import SpyHostHarness
import SpyProtocol
import Testing

@testable import SpyHost

/// The room's own word list through the host: read and checked where the owner's message arrives, answered to the
/// owner alone, shown to everyone else as a count.
@Suite struct RoomWordsHostTests {
    /// Thirty lines, five of them refused (lines 4, 9, 15, 22 and 30).
    static let pasted: String = (1...30).map { line -> String in
        switch line {
        case 4: return "lonely"
        case 9: return "same,SAME"
        case 15: return "橘子,橘子汁"
        case 22: return "ourciv1,ourspy1"
        case 30: return "a,b,c"
        default: return "ourciv\(line)——ourspy\(line)"
        }
    }.joined(separator: "\n")

    static func table(_ host: EmbeddedHost) throws -> [(connection: UInt64, player: PlayerID)] {
        let seats = try ["Ann", "Ben", "Cat", "Dan"].map { try host.join($0) }
        for seat in seats { _ = host.messages(on: seat.connection) }
        return seats
    }

    static func watch(_ host: EmbeddedHost) throws -> UInt64 {
        let id = host.connect()
        try host.send(.hello(.init(name: "", watch: true)), on: id)
        return id
    }

    @Test func theOwnerHearsEveryRefusedLineAndEveryoneElseOnlyTheCount() throws {
        let host = EmbeddedHost()
        let seats = try Self.table(host)
        let board = try Self.watch(host)
        _ = host.payloads(on: board)
        try host.send(.words(.init(text: Self.pasted)), on: seats[0].connection)
        let report = try #require(
            host.messages(on: seats[0].connection).lazy.compactMap {
                if case .wordsReport(let r) = $0 { r } else { nil }
            }
            .first)
        #expect(report.added == 25 && report.total == 25)
        #expect(report.refused.map(\.line) == [4, 9, 15, 22, 30])
        #expect(
            report.refused.map(\.reason) == [.noSeparator, .sameWords, .containsOther, .duplicate, .tooManyWords])
        #expect(report.refused[3].other == 1)
        for id in seats.dropFirst().map(\.connection) + [board] {
            let payloads = host.payloads(on: id)
            #expect(!payloads.isEmpty)
            for payload in payloads {
                let text = String(decoding: payload, as: UTF8.self)
                #expect(!text.contains("ourciv") && !text.contains("ourspy"), "\(text.prefix(80))")
                #expect(!text.contains("words_report"))
            }
        }
        try host.send(.settings(.init(wordSource: .ours)), on: seats[0].connection)
        let view = try #require(
            host.messages(on: seats[1].connection).lazy.compactMap { if case .room(let v) = $0 { v } else { nil } }.last
        )
        #expect(view.wordCount == 25 && view.settings.wordSource == .ours)
    }

    @Test func refusalsOfTheHost() throws {
        let host = EmbeddedHost()
        let seats = try Self.table(host)
        try host.send(.words(.init(text: "a,b")), on: seats[1].connection)
        #expect(EmbeddedHost.errors(in: host.messages(on: seats[1].connection)) == [.notOwner])
        let huge = String(repeating: "x,y\n", count: Rules.maxWordListTextBytes / 4 + 1)
        try host.send(.words(.init(text: huge)), on: seats[0].connection)
        #expect(EmbeddedHost.errors(in: host.messages(on: seats[0].connection)) == [.badWords])
        try host.send(.wordsExport, on: seats[2].connection)
        #expect(EmbeddedHost.errors(in: host.messages(on: seats[2].connection)) == [.notOwner])
        let board = try Self.watch(host)
        _ = host.messages(on: board)
        try host.send(.wordsExport, on: board)
        #expect(EmbeddedHost.errors(in: host.messages(on: board)) == [.notPlaying])
    }

    @Test func theOwnerExportsAndARoomOfItsOwnWordsDealsThem() throws {
        let storage = FakeStorage()
        let host = EmbeddedHost(storage: storage)
        let seats = try Self.table(host)
        let owner = seats[0].connection
        try host.send(.words(.init(text: "ourciv1,ourspy1\nourciv2,ourspy2")), on: owner)
        // The list arrives as a snapshot of the room, not as a change to replay.
        #expect(storage.committed.last?.hasPrefix("snapshot") == true)
        _ = host.messages(on: owner)
        try host.send(.wordsExport, on: owner)
        let list = try #require(
            host.messages(on: owner).lazy.compactMap { if case .wordList(let l) = $0 { l } else { nil } }.first)
        #expect(list.pairs == [.init(civilian: "ourciv1", spy: "ourspy1"), .init(civilian: "ourciv2", spy: "ourspy2")])
        try host.send(.settings(.init(wordSource: .ours)), on: owner)
        try host.send(.start, on: owner)
        var words: Set<String> = []
        for seat in seats {
            for case .deal(let deal) in host.messages(on: seat.connection) { words.insert(deal.word ?? "") }
        }
        #expect(words.allSatisfy { $0.hasPrefix("ourciv") || $0.hasPrefix("ourspy") })
        #expect(words.count == 2)
    }
}
