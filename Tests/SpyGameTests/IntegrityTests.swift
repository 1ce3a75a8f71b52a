import Foundation
import SpyGame
import SpyProtocol
import Testing

/// A room read back from a file is checked before it is used: no number in it can make a later move trap.
struct IntegrityTests {
    private func edited(_ room: Room, _ change: (inout [String: Any]) -> Void) throws -> Room {
        var object = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(room)) as? [String: Any])
        change(&object)
        return try JSONDecoder().decode(Room.self, from: JSONSerialization.data(withJSONObject: object))
    }

    private func seated() -> Room {
        var room = Room(code: "KFRW", seed: 5)
        for name in ["Amy", "Bob", "Cat", "Dan"] { _ = room.apply(.join(name: name, bot: false), now: 0) }
        return room
    }

    @Test func anOrdinaryRoomIsSound() throws {
        #expect(Room(code: "KFRW", seed: 1).integrityProblem == nil)
        #expect(seated().integrityProblem == nil)
        #expect(try edited(seated()) { _ in }.integrityProblem == nil)
    }

    @Test func aHugePlayerCounterIsRefusedInsteadOfTrappingOnTheNextJoin() throws {
        let room = try edited(seated()) { $0["nextPlayerNumber"] = Int.max }
        #expect(room.integrityProblem != nil)
    }

    /// Found by the room-state fuzzer: a counter behind the seats it has already numbered hands out a seat's id
    /// again, and the room then seats one player twice.
    @Test func aPlayerCounterBehindTheSeatsIsRefused() throws {
        let room = try edited(seated()) { $0["nextPlayerNumber"] = 3 }
        #expect(room.integrityProblem != nil)
        let sound = try edited(seated()) { $0["nextPlayerNumber"] = 9 }
        #expect(sound.integrityProblem == nil)
    }

    @Test(arguments: [
        ("gamesPlayed", Int.max), ("gamesPlayed", -1), ("nextPlayerNumber", 0), ("deadline", Int.min),
        ("deadline", Int.max),
    ])
    func countersOutOfRangeAreRefused(field: String, value: Int) throws {
        let room = try edited(seated()) { $0[field] = value }
        #expect(room.integrityProblem != nil)
    }

    @Test func scoresAndSettingsOutOfRangeAreRefused() throws {
        let scored = try edited(seated()) { object in
            var seats = object["seats"] as? [[String: Any]] ?? []
            seats[0]["score"] = Int.max
            object["seats"] = seats
        }
        #expect(scored.integrityProblem != nil)
        let timed = try edited(seated()) { object in
            var settings = object["settings"] as? [String: Any] ?? [:]
            settings["turnSeconds"] = Int.max / 500
            object["settings"] = settings
        }
        #expect(timed.integrityProblem != nil)
    }
}
