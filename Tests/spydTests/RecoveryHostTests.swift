import Foundation
import Glibc
import SpyGame
import SpyProtocol
import SpyTestSupport
import Testing

@testable import SpyHost
@testable import SpyStorage
@testable import spyd

/// Journals a hostile disk could hold, every record under a valid checksum: one bad room costs no other room its
/// seats, a room that breaks the rules is never played, and `spyd state check` names each such room.
@Suite struct RecoveryHostTests {
    static func token(_ letter: Character) -> String { String(repeating: letter, count: 32) }

    /// A room whose first seat, Amy, holds `token`.
    static func room(_ code: String, token: String) -> RoomSnapshot {
        var room = Room(code: code, seed: 3)
        _ = room.apply(.join(name: "Amy", bot: false), now: 0)
        _ = room.apply(.join(name: "Bo", bot: false), now: 0)
        return RoomSnapshot(
            room: room, tokens: ["p1": token, "p2": String(repeating: "f", count: 32)], permanent: false,
            bots: .init(), joinedByOthers: true)
    }

    /// The snapshot of `room`'s JSON object after `edit`.
    static func edited(_ snapshot: RoomSnapshot, _ edit: (inout [String: Any]) -> Void) throws -> [UInt8] {
        var object = try #require(
            try JSONSerialization.jsonObject(with: Data(try StreamingJSONEncoder.encode(snapshot))) as? [String: Any])
        var room = try #require(object["room"] as? [String: Any])
        edit(&room)
        object["room"] = room
        return [UInt8](try JSONSerialization.data(withJSONObject: object))
    }

    /// Twenty-five seats, each with a valid token, in a room set to ten.
    static func crowded(_ code: String) throws -> [UInt8] {
        var snapshot = room(code, token: token("c"))
        for number in 3...25 { snapshot.tokens["p\(number)"] = String(repeating: "d", count: 30) + "\(number + 10)" }
        return try edited(snapshot) { room in
            let seats = room["seats"] as? [[String: Any]] ?? []
            room["seats"] = (1...25).map { number in
                var seat = seats[0]
                seat["id"] = "p\(number)"
                seat["name"] = "Player \(number)"
                return seat
            }
            room["nextPlayerNumber"] = 26
        }
    }

    /// A state directory whose journal holds AAAA and CCCC, good, around BBBB (nextPlayerNumber 2^64) and DDDD
    /// (25 seats).
    static func damagedDirectory() throws -> String {
        let directory = try DaemonProcess.temporaryDirectory().path
        chmod(directory, 0o700)
        var bytes = JournalFormat.header()
        try JournalFormat.frame(.snapshot(room("AAAA", token: token("a"))), into: &bytes)
        let text = String(decoding: try StreamingJSONEncoder.encode(room("BBBB", token: token("b"))), as: UTF8.self)
        let huge = text.replacing(#""nextPlayerNumber":3"#, with: #""nextPlayerNumber":18446744073709551616"#)
        try #require(huge != text)
        JournalFormat.frame(kind: 1, payload: Array(huge.utf8), into: &bytes)
        JournalFormat.frame(kind: 1, payload: try crowded("DDDD"), into: &bytes)
        try JournalFormat.frame(.snapshot(room("CCCC", token: token("e"))), into: &bytes)
        try Data(bytes).write(to: URL(fileURLWithPath: "\(directory)/\(Journal.fileName)"))
        return directory
    }

    private func hello(_ host: InProcessHost, room: String, token: String) throws -> ServerMessage? {
        let client = try host.connect()
        try client.send(.hello(.init(name: "Amy", room: room, token: token)))
        return try client.receive(deadline: .after(seconds: 10))
    }

    @Test(.tags(.shell), .tags(.shell)) func everyGoodRoomResumesAndNoBadOneIsPlayed() throws {
        let directory = try Self.damagedDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let host = try InProcessHost(stateDirectory: URL(fileURLWithPath: directory))
        defer { host.stop() }
        #expect(host.waitForLine(containing: "room BBBB in the journal is corrupt") != nil)
        #expect(host.waitForLine(containing: "room DDDD in the journal is corrupt (25 seats") != nil)
        for (code, letter) in [("AAAA", Character("a")), ("CCCC", "e")] {
            guard case .welcome(let welcome)? = try hello(host, room: code, token: Self.token(letter)) else {
                Issue.record("\(code): no welcome")
                continue
            }
            #expect(welcome.resumed && welcome.room == code && welcome.you == "p1")
        }
        for (code, letter) in [("BBBB", Character("b")), ("DDDD", "c")] {
            let answer = try hello(host, room: code, token: Self.token(letter))
            guard case .error = answer else {
                Issue.record("\(code) was played: \(String(describing: answer))")
                continue
            }
        }
    }

    private func check(_ directory: String) -> (status: Int32, output: [String]) {
        var output: [String] = []
        let status = StateCommand.check(directory, now: 100_000) { output.append($0) }
        return (status, output)
    }

    @Test func stateCheckNamesEachRoomThatDoesNotLoad() throws {
        let directory = try Self.damagedDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (status, output) = check(directory)
        #expect(status == 1)
        #expect(output.contains("rooms: 2"), "\(output)")
        #expect(output.contains { $0.hasPrefix("  AAAA,") && $0.contains("2 seats") }, "\(output)")
        #expect(output.contains { $0.hasPrefix("  CCCC,") }, "\(output)")
        #expect(
            output.contains {
                $0.hasPrefix("problem: room BBBB cannot be trusted (") && $0.contains("a number that does not fit")
            },
            "\(output)")
        #expect(output.contains { $0.hasPrefix("problem: room DDDD cannot be trusted (25 seats") }, "\(output)")
        #expect(output.contains("tail: whole (every record's checksum matches)"), "\(output)")
        #expect(output.last == "not ok")
    }

    @Test(.tags(.shell)) func stateCheckExaminesOlderRoomFilesWaitingToBeTakenIn() throws {
        let directory = try DaemonProcess.temporaryDirectory().path
        chmod(directory, 0o700)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let good = Data(try StreamingJSONEncoder.encode(Self.room("AAAA", token: Self.token("a"))))
        try good.write(to: URL(fileURLWithPath: "\(directory)/room-AAAA.json"))
        var (status, output) = check(directory)
        #expect(status == 0, "\(output)")
        #expect(
            output.contains("  room-AAAA.json: AAAA, opened by a client, 2 seats, phase lobby, 0 games"), "\(output)")

        try Data(try Self.crowded("DDDD")).write(to: URL(fileURLWithPath: "\(directory)/room-DDDD.json"))
        try Data("{".utf8).write(to: URL(fileURLWithPath: "\(directory)/room-ZZZZ.json"))
        (status, output) = check(directory)
        #expect(status == 1)
        #expect(output.contains { $0.hasPrefix("problem: room file room-DDDD.json is corrupt (25 seats") }, "\(output)")
        #expect(output.contains { $0.hasPrefix("problem: room file room-ZZZZ.json is corrupt") }, "\(output)")

        // Beside a journal made from it, a room file is set aside at the next start; any other stops that start.
        unlink("\(directory)/room-DDDD.json")
        unlink("\(directory)/room-ZZZZ.json")
        var journal = JournalFormat.header()
        try JournalFormat.frame(.migrated(["room-AAAA.json": CRC32C.checksum([UInt8](good))]), into: &journal)
        try Data(journal).write(to: URL(fileURLWithPath: "\(directory)/\(Journal.fileName)"))
        (status, output) = check(directory)
        #expect(status == 0, "\(output)")
        #expect(output.contains("  room-AAAA.json: already in the journal (the next start sets the file aside)"))
        try good.write(to: URL(fileURLWithPath: "\(directory)/room-BBBB.json"))
        (status, output) = check(directory)
        #expect(status == 1)
        #expect(output.contains { $0.contains("room-BBBB.json is not one the journal was made from") }, "\(output)")
    }
}
