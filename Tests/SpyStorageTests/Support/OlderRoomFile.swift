import Foundation
import SpyHost
import SpyProtocol

/// Room files as an older host wrote them: what a start finds in a state directory it takes into the journal.
enum OlderRoomFile {
    /// Writes `snapshot` to `room-CODE.json` in `directory`: the snapshot's JSON, nothing else.
    static func write(_ snapshot: RoomSnapshot, in directory: String) throws {
        let path = "\(directory)/room-\(snapshot.room.code).json"
        try Data(try StreamingJSONEncoder.encode(snapshot)).write(to: URL(fileURLWithPath: path))
    }
}
