import Foundation
import SpyProtocol
import Testing

@testable import SpyClient

/// The evening's history in the terminal client: kept from the host's `history` messages, shown, and saved.
@Suite struct HistoryClientTests {
    let now: Millis = 1_000

    static func record(_ game: Int) -> GameRecord {
        GameRecord(
            game: game, civilianWord: "咖啡", spyWord: "奶茶", winner: .civilians,
            players: [
                .init(player: "p1", name: "Amy", role: .civilian, points: 3, survived: true),
                .init(player: "p2", name: "=SUM(A1)", role: .spy, points: 0, survived: false),
                .init(player: "p3", name: "Bea, \"B\"", role: .blank, points: 0, survived: false),
                .init(player: "p4", name: "Ken", role: .civilian, points: 2, survived: false),
            ],
            outs: [
                .init(player: "p4", round: 1, reason: .voted, votes: 2, pk: true),
                .init(player: "p3", round: 2, reason: .left),
                .init(player: "p2", round: 2, reason: .voted, votes: 3, pk: false),
            ],
            guesses: [.init(player: "p3", round: 1, word: "可可", correct: false)])
    }

    @Test func recordsAreKeptOncePerGameInOrder() {
        var state = Fixtures.joined(language: .en)
        state.apply(.history(.init(games: [Self.record(2), Self.record(1)])), now: now)
        state.apply(.history(.init(games: [Self.record(3)])), now: now)
        // Sent again on every arrival: nothing doubles.
        state.apply(.history(.init(games: [Self.record(1), Self.record(2), Self.record(3)])), now: now)
        #expect(state.history.map(\.game) == [1, 2, 3])
    }

    @Test func aRecordReadsAsLinesInEachLanguage() {
        let english = Strings(language: .en).recordLines(Self.record(1))
        #expect(english[0].contains("Game 1") && english[0].contains("咖啡"))
        #expect(english.contains { $0.contains("spies: =SUM(A1)") && $0.contains("blank: Bea") })
        #expect(english.contains { $0.contains("Ken (2 votes, PK)") && $0.contains("left") })
        #expect(english.contains { $0.contains("guessed 可可 (wrong)") })
        #expect(english.contains { $0.contains("Amy +3") && $0.contains("Ken +2") })
        let chinese = Strings(language: .zhTW).recordLines(Self.record(1))
        #expect(chinese.contains { $0.contains("Ken（2票，PK）") })
        #expect(chinese.contains { $0.contains("臥底：") })
    }

    @Test func theCSVHasOneRowPerPlayerAndQuotesWhatItMust() throws {
        let csv = HistoryExport.csv([Self.record(1), Self.record(2)])
        let rows = csv.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(rows.count == 1 + 8)
        #expect(rows[0] == HistoryExport.csvHeader.joined(separator: ","))
        #expect(rows[1] == "1,civilians,咖啡,奶茶,p1,Amy,civilian,3,true,,,,,,")
        // A name a spreadsheet would run as a formula is defused; one with a comma and quotes is quoted.
        #expect(rows[2].contains(",'=SUM(A1),spy,0,false,2,voted,3,false,,"))
        #expect(rows[3].contains(",\"Bea, \"\"B\"\"\",blank,0,false,2,left,,,可可,false"))
        #expect(rows[4].hasSuffix(",Ken,civilian,2,false,1,voted,2,true,,"))
    }

    @Test func theJSONHoldsTheRecordsAsTheHostSentThem() throws {
        let bytes = HistoryExport.json([Self.record(1)], room: "KFRW")
        struct Document: Decodable {
            var room: String
            var games: [GameRecord]
        }
        let document = try JSONDecoder().decode(Document.self, from: Data(bytes))
        #expect(document.room == "KFRW")
        #expect(document.games == [Self.record(1)])
        #expect(HistoryExport.format(of: "night.JSON") == .json)
        #expect(HistoryExport.format(of: "night.csv") == .csv)
        #expect(HistoryExport.defaultPaths(room: "KFRW") == ["spy-history-KFRW.csv", "spy-history-KFRW.json"])
    }

    @Test func xAndExportAskTheShellToSaveOnlyOnceThereIsAHistory() {
        var state = Fixtures.state(.lobby, language: .en)
        #expect(state.handle(.character("x"), now: now).action == .none)
        #expect(state.notice == .evening(.noHistoryYet))
        state.apply(.history(.init(games: [Self.record(1)])), now: now)
        state.roomCode = "KFRW"
        #expect(
            state.handle(.character("x"), now: now).action
                == .exportHistory(["spy-history-KFRW.csv", "spy-history-KFRW.json"]))
        #expect(PlainMode.parse("export night.json") == .success(.export("night.json")))
        #expect(PlainMode.parse("export") == .success(.export(nil)))
        let (reaction, _) = state.perform(.export("night.json"), now: now)
        #expect(reaction.action == .exportHistory(["night.json"]))
        let (_, lines) = state.perform(.history, now: now)
        #expect(lines.first == "The evening so far")
        #expect(lines.count == 1 + Strings(language: .en).recordLines(Self.record(1)).count)
        state.historyExported(["night.json"], failure: nil)
        #expect(Strings(language: .en).event(state.log.last!) == "History saved to night.json")
    }

    @Test func theDetailsPageShowsTheEvening() {
        var state = Fixtures.state(.gameOver, language: .en)
        state.apply(.history(.init(games: [Self.record(1)])), now: now)
        let lines = Screen.detailsLines(state, columns: 100).map { $0.pieces.map(\.text).joined() }
        #expect(lines.contains { $0.contains("The evening so far") })
        #expect(lines.contains { $0.contains("Ken (2 votes, PK)") })
    }

    @Test func aHistoryWithANumberOutOfRangeIsSkipped() {
        var record = Self.record(1)
        record.outs[0].votes = Int.max
        #expect(HostMessages.outOfRange(.history(.init(games: [record]))) == "games.outs.votes")
        #expect(HostMessages.outOfRange(.history(.init(games: [Self.record(1)]))) == nil)
    }
}
