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
        guard var room = try? JSONDecoder().decode(Room.self, from: file) else { return }
        RoomScriptTarget.play(&room, &input, now: 1_700_000_000_000)
    }
}
