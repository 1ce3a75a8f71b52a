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

    /// A room mid-game: five players dealt in, the first turn given.
    private func dealt() throws -> Room {
        var room = seated()
        _ = room.apply(.join(name: "Eve", bot: false), now: 0)
        _ = try room.apply(.start(by: "p1", pairs: [WordPair(civilian: "milk", spy: "soy")]), now: 1_000).get()
        return room
    }

    /// The same room once its first round is described and the vote is open.
    private func voting() throws -> Room {
        var room = try dealt()
        var now: Millis = 2_000
        while room.phase == .describing, let speaker = room.view(now: now).turn {
            now += 1_000
            _ = try room.apply(.move(speaker, .pass), now: now).get()
        }
        #expect(room.phase == .voting)
        return room
    }

    private func seats(_ room: Room, _ change: (inout [[String: Any]]) -> Void) throws -> Room {
        try edited(room) { object in
            var seats = object["seats"] as? [[String: Any]] ?? []
            change(&seats)
            object["seats"] = seats
        }
    }

    private func game(_ room: Room, _ change: (inout [String: Any]) -> Void) throws -> Room {
        try edited(room) { object in
            var game = object["game"] as? [String: Any] ?? [:]
            change(&game)
            object["game"] = game
        }
    }

    @Test func roomsMidGameAreSound() throws {
        #expect(try dealt().integrityProblem == nil)
        #expect(try voting().integrityProblem == nil)
        #expect(try edited(try voting()) { _ in }.integrityProblem == nil)
    }

    /// More seats than the rules' table (20) or the room's own, each a seat the counter gave out.
    @Test func moreSeatsThanTheTableHoldsAreRefused() throws {
        func crowded(_ count: Int, maxPlayers: Int) throws -> Room {
            let room = try seats(seated()) { seats in
                let first = seats[0]
                seats = (1...count).map { number in
                    var seat = first
                    seat["id"] = "p\(number)"
                    seat["name"] = "Player \(number)"
                    return seat
                }
            }
            return try edited(room) { object in
                object["nextPlayerNumber"] = count + 1
                var settings = object["settings"] as? [String: Any] ?? [:]
                settings["maxPlayers"] = maxPlayers
                object["settings"] = settings
            }
        }
        #expect(try crowded(10, maxPlayers: 10).integrityProblem == nil)
        #expect(try crowded(25, maxPlayers: 10).integrityProblem?.contains("25 seats") == true)
        #expect(try crowded(11, maxPlayers: 10).integrityProblem?.contains("11 seats") == true)
        #expect(try crowded(21, maxPlayers: 20).integrityProblem != nil)
    }

    /// Two seats under the owner's id: two owners.
    @Test func twoOwnersAreRefused() throws {
        let room = try seats(seated()) { seats in
            var twin = seats[0]
            twin["name"] = "Twin"
            seats.append(twin)
        }
        #expect(room.integrityProblem?.contains("two seats with one id") == true)
        let nobody = try edited(seated()) { $0["owner"] = "p9" }
        #expect(nobody.integrityProblem?.contains("owner") == true)
    }

    @Test func aTurnNamingAPlayerWhoIsOutIsRefused() throws {
        let room = try dealt()
        let speaker = try #require(room.view(now: 1_000).turn)
        let spoiled = try game(room) { $0["out"] = [speaker] }
        #expect(spoiled.integrityProblem?.contains("who is out") == true)
    }

    @Test func theVoteHoldsOnlyBallotsItWouldTake() throws {
        let room = try voting()
        let view = room.view(now: 10_000)
        let voter = try #require(view.seats.first?.id)
        let selfVote = try game(room) { $0["ballots"] = [voter: voter] }
        #expect(selfVote.integrityProblem?.contains("ballot") == true)
        let stranger = try game(room) { $0["voters"] = ["p9"] }
        #expect(stranger.integrityProblem != nil)
        let blankGuessing = try game(room) { $0["guesser"] = voter }
        #expect(blankGuessing.integrityProblem != nil)
    }

    @Test func aPhaseWithoutTheDataItNeedsIsRefused() throws {
        #expect(try edited(seated()) { $0["phase"] = "voting" }.integrityProblem != nil)
        #expect(try edited(try dealt()) { $0["phase"] = "lobby" }.integrityProblem != nil)
        #expect(try edited(try dealt()) { $0["phase"] = "guessing" }.integrityProblem != nil)
        #expect(try edited(try dealt()) { $0["phase"] = "gameOver" }.integrityProblem != nil)
        #expect(try game(try dealt()) { $0["winner"] = "spies" }.integrityProblem != nil)
        #expect(try game(try dealt()) { $0["number"] = 7 }.integrityProblem != nil)
        #expect(try game(try dealt()) { $0["dealt"] = ["p1", "p2"] }.integrityProblem != nil)
    }

    @Test func seatsOutOfShapeAreRefused() throws {
        let departed = try seats(seated()) { $0[1]["departed"] = true }
        #expect(departed.integrityProblem?.contains("left") == true)
        let away = try seats(seated()) { $0[1]["awaySince"] = Int.max }
        #expect(away.integrityProblem?.contains("absence") == true)
        let nameless = try seats(seated()) { $0[1]["name"] = "" }
        #expect(nameless.integrityProblem?.contains("name") == true)
        let bell = try seats(seated()) { $0[1]["name"] = "Bo\u{7}" }
        #expect(bell.integrityProblem?.contains("name") == true)
    }
}
