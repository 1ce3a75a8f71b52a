import Foundation
import SpyGame

/// A state file as the host reads it back after a restart: any bytes may be there (a hand edit, a bad disk),
/// and a room that loads must keep working under play.
enum RoomStateTarget {
    static func run(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        // The first byte says how much of the input is the file; the rest is played on the loaded room.
        let fileLength = Int(input.byte()) << 8 | Int(input.byte())
        let file = Data(input.take(fileLength))
        // As the host loads it: a file that does not decode, or whose numbers are out of range, is set aside; a room
        // that loads is told the host came back before anything else happens to it.
        guard var room = try? JSONDecoder().decode(Room.self, from: file), room.integrityProblem == nil else { return }
        let now: Millis = 1_700_000_000_000
        let before = room
        var spelled = SpellingCheck()
        switch room.apply(.hostRestarted, now: now) {
        case .success(let effects):
            RoomInvariants.check(room, after: .hostRestarted, effects: effects, spelled: &spelled)
        case .failure: require(room == before, "a refused restart changed the room")
        }
        RoomScriptTarget.play(&room, &input, now: now, spelled: &spelled)
    }
}
