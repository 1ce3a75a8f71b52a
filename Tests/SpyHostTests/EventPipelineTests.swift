import SpyGame
import SpyHostHarness
import SpyProtocol
import Testing

@testable import SpyHost

/// Every event a room takes goes through one pipeline — the room takes it, the journal records it, a journal that
/// refuses changes undoes it — and the journal's replay takes the recorded events through the same step.
@Suite struct EventPipelineTests {
    /// The rooms the committed records hold, each replayed as the journal's replay does: a snapshot starts a room
    /// again, a change goes through `HostedRoom.take`, a closing ends it.
    private static func replay(_ records: [JournalEntry]) throws -> [String: RoomSnapshot] {
        var rooms: [String: RoomSnapshot] = [:]
        for record in records {
            switch record {
            case .snapshot(let snapshot):
                rooms[snapshot.room.code] = snapshot
            case .change(let code, let now, let event, let tokens, let joinedByOthers):
                var room = try #require(rooms[code], "a change of \(code) before its snapshot")
                _ = try room.take(event, at: now, joinedByOthers: joinedByOthers) { _ in tokens }.get()
                rooms[code] = room
            case .closed(let code):
                rooms[code] = nil
            }
        }
        return rooms
    }

    @Test func replayingWhatWasCommittedYieldsTheRoomLivePlayLeft() throws {
        let storage = FakeStorage()
        let host = EmbeddedHost(storage: storage) {
            $0.bots = 2
            $0.settings.turnSeconds = 10
            $0.settings.voteSeconds = 10
        }
        let ann = try host.join("Ann")
        let ben = try host.join("Ben")
        try host.send(.start, on: ann.connection)
        // Turns time out, bots give clues and vote, a player goes away and comes back as another connection would.
        host.advance(seconds: 25)
        host.drop(ben.connection)
        host.advance(seconds: 40)
        try host.send(.settings(.init(maxPlayers: 9)), on: ann.connection)
        host.advance(seconds: 30)

        let live = try #require(host.core.rooms.values.first)
        #expect(live.room.hasBots)
        #expect(live.room.latestGame >= 1)
        let replayed = try #require(try Self.replay(storage.records)[live.code])
        #expect(replayed.room == live.room)
        #expect(replayed.tokens.filter { live.room.playerIDs.contains($0.key) } == live.snapshot().tokens)
        #expect(replayed.bots == live.bots.memory)
        #expect(replayed.joinedByOthers == live.joinedByOthers)
    }

    @Test func whileTheJournalRefusesChangesEveryPathLeavesTheRoomAsItWas() throws {
        let storage = FakeStorage()
        let host = EmbeddedHost(storage: storage) { $0.limits.graceSeconds = 1 }
        let ann = try host.join("Ann")
        let ben = try host.join("Ben")
        let room = try #require(host.core.rooms.values.first)
        storage.failNextCommit = true
        try host.send(.settings(.init(maxPlayers: 8)), on: ann.connection)
        let onDisk = room.snapshot()
        #expect(onDisk.room.settings.maxPlayers != 8, "the failed commit took the move back")
        // The rewrite that would mend the journal fails too, so it keeps refusing changes.
        storage.rewriteFails = true

        // A player's move.
        try host.send(.settings(.init(maxPlayers: 9)), on: ann.connection)
        #expect(room.snapshot() == onDisk)
        // A join.
        let cat = host.connect()
        try host.send(.hello(.init(name: "Cat")), on: cat)
        #expect(EmbeddedHost.errors(in: host.messages(on: cat)).contains(.hostStorage))
        #expect(room.snapshot() == onDisk)
        // The host's own events: a departure, and the grace period's end.
        host.drop(ben.connection)
        host.advance(seconds: 3)
        #expect(room.snapshot() == onDisk)
        #expect(room.room.playerIDs == [ann.player, ben.player])

        // Once the journal is rewritten, the room catches up: Ben is away, then gone after the grace period.
        storage.rewriteFails = false
        host.advance(seconds: 1)
        host.advance(seconds: 2)
        #expect(room.room.playerIDs == [ann.player])
    }
}
