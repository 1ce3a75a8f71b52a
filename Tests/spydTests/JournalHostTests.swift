import Foundation
import Glibc
import SpyGame
import Testing

@testable import SpyHost
@testable import SpyStorage

/// What the host does with a journal that holds a room it cannot trust.
@Suite struct JournalHostTests {
    @Test(.tags(.shell), .tags(.shell)) func aCorruptRoomIsSetAsideOnceAndTheJournalNoLongerHoldsIt() throws {
        let state = try DaemonProcess.temporaryDirectory()
        chmod(state.path, 0o700)
        defer { try? FileManager.default.removeItem(at: state) }
        let (journal, _) = try Journal.open(directory: state.path, now: 0) { Issue.record("\($0)") }
        var room = Room(code: "BADT", seed: 3)
        _ = room.apply(.join(name: "Amy", bot: false), now: 0)
        try journal.append(
            .snapshot(RoomSnapshot(room: room, tokens: ["p1": "guessable"], permanent: false, bots: .init())))
        try journal.commit()

        let first = try DaemonProcess(stateDirectory: state)
        #expect(first.waitForLine(containing: "room BADT in the journal is corrupt") != nil)
        #expect(first.stop() == 0)
        let aside = try FileManager.default.contentsOfDirectory(atPath: state.path).filter {
            $0.hasPrefix("room-BADT.corrupt-")
        }
        #expect(aside.count == 1)

        let second = try DaemonProcess(stateDirectory: state)
        _ = try TestPlayer(port: second.port, name: "Fresh")
        #expect(second.stop() == 0)
        #expect(!second.log.contains("BADT"))
        #expect(try StorageTests.journalRooms(state.path).allSatisfy { $0.room.code != "BADT" })
    }
}
