import SpyGame
import SpyHostHarness
import SpyProtocol
import Testing

@testable import SpyHost

/// The host's rules that wait, and its saving, decided by the core alone: bytes in, actions out, time moved by
/// hand. No socket, thread or clock is involved.
@Suite struct HostCoreTests {
    @Test func aConnectionWithoutHelloIsToldAndClosedWhenItsDeadlinePasses() throws {
        let host = EmbeddedHost { $0.limits.helloSeconds = 10 }
        let id = host.connect()
        host.advance(seconds: 9.9)
        #expect(host.messages(on: id).isEmpty)
        #expect(!host.shut.contains(id))
        host.advance(seconds: 0.1)
        #expect(EmbeddedHost.errors(in: host.messages(on: id)) == [.helloTimeout])
        #expect(host.shut.contains(id))
        #expect(!host.closed.contains(id))
        // It lingers two seconds for the peer to read the error and close; then the host closes it.
        host.advance(seconds: 2)
        #expect(host.closed.contains(id))
        #expect(host.core.connectionCount == 0)
    }

    @Test func aLingeringConnectionIsShutOnceDropsWhatItSendsAndClosesWhenThePeerCloses() throws {
        let host = EmbeddedHost { $0.limits.helloSeconds = 10 }
        let id = host.connect()
        host.advance(seconds: 10)
        #expect(EmbeddedHost.errors(in: host.messages(on: id)) == [.helloTimeout])
        // What a lingering peer still sends is read and dropped; its write side was shut once.
        try host.send(.hello(.init(name: "Ann")), on: id)
        #expect(host.messages(on: id).isEmpty)
        #expect(host.actions.filter { $0 == .shutWriteWhenDrained(id) }.count == 1)
        #expect(!host.closed.contains(id))
        host.drop(id)
        #expect(host.closed.contains(id))
        #expect(host.core.connectionCount == 0)
        #expect(host.core.rooms.values.allSatisfy { $0.room.playerIDs.isEmpty })
    }

    @Test func anAbsentSpeakerKeepsTheTableWaitingTwentySeconds() throws {
        let host = EmbeddedHost()
        let seats = try ["Ann", "Ben", "Cat", "Dan"].map { try host.join($0) }
        for seat in seats { _ = host.messages(on: seat.connection) }
        try host.send(.start, on: seats[0].connection)
        let speaker = try #require(Self.turns(in: host.messages(on: seats[1].connection)).last)
        let away = try #require(seats.first { $0.player == speaker })
        let watcher = try #require(seats.first { $0.player != speaker })
        host.drop(away.connection)
        _ = host.messages(on: watcher.connection)
        host.advance(seconds: 19.9)
        #expect(Self.turns(in: host.messages(on: watcher.connection)).isEmpty)
        host.advance(seconds: 0.1)
        let next = try #require(Self.turns(in: host.messages(on: watcher.connection)).first)
        #expect(next != speaker)
    }

    @Test func anAwaySeatIsGivenUpWhenTheGracePeriodEnds() throws {
        let host = EmbeddedHost { $0.limits.graceSeconds = 5 }
        let owner = try host.join("Ann")
        let leaver = try host.join("Ben")
        host.drop(leaver.connection)
        _ = host.messages(on: owner.connection)
        host.advance(seconds: 4)
        #expect(Self.seats(in: host.messages(on: owner.connection)).allSatisfy { $0.contains(leaver.player) })
        host.advance(seconds: 1.5)
        let after = try #require(Self.seats(in: host.messages(on: owner.connection)).last)
        #expect(after == [owner.player])
    }

    @Test func whatTheShellHoldsUnwrittenComesWithTheWakeAndCountsAgainstTheOutputCap() throws {
        let host = EmbeddedHost { $0.limits.maxOutputBytes = 1 << 16 }
        let ann = try host.join("Ann")
        let ben = try host.join("Ben")
        _ = (host.messages(on: ann.connection), host.messages(on: ben.connection))
        let ping = try WireCodec.encodeFrame(ClientMessage.ping(.init(id: 1)))
        // Ann's socket still holds all but a few bytes of the cap: her pong does not fit, and she is cut off.
        host.take(.bytes(ann.connection, ping))
        host.take(.bytes(ben.connection, ping))
        let actions = host.endWake(unsent: [ann.connection: (1 << 16) - 6])
        #expect(actions.contains(.close(ann.connection)))
        #expect(!actions.contains(.close(ben.connection)))
        #expect(host.lines.text.contains("connection \(ann.connection) cut off: \((1 << 16) - 6) bytes unread"))
        // A wake that says nothing of a connection means its socket holds nothing.
        let carl = try host.join("Carl")
        host.take(.bytes(carl.connection, ping))
        #expect(!host.endWake().contains(.close(carl.connection)))
    }

    @Test func aFloodedWakeGivesItsReadBufferBackWhileAnOrdinaryOneKeepsIt() {
        var wake = HostWake()
        let small = [UInt8](repeating: 7, count: 4096)
        small.withUnsafeBytes { wake.read(1, $0) }
        wake.removeAll()
        let kept = wake.byteCapacity
        #expect(kept >= small.count, "an ordinary wake's buffer is reused by the next")
        let chunk = [UInt8](repeating: 9, count: 64 * 1024)
        for id in 0..<UInt64(40) { chunk.withUnsafeBytes { wake.read(id, $0) } }
        #expect(wake.byteCapacity > HostWake.keptByteCapacity)
        wake.removeAll()
        #expect(wake.byteCapacity <= HostWake.keptByteCapacity, "2.5 MiB of reads is not held for the next wake")
        #expect(wake.isEmpty)
    }

    @Test func aReadAndTheEndOfItsStreamInOneWakeAreActedOnInOrder() throws {
        let host = EmbeddedHost()
        let owner = try host.join("Ann")
        _ = host.messages(on: owner.connection)
        let id = host.connect()
        var wake = HostWake()
        let hello = try WireCodec.encodeFrame(ClientMessage.hello(.init(name: "Ben")))
        // Two reads of one connection (a frame split across them) and then its end, as the shell gathers them.
        hello[..<3].withUnsafeBytes { wake.read(id, $0) }
        hello[3...].withUnsafeBytes { wake.read(id, $0) }
        wake.take(.endOfStream(id))
        let actions = host.core.handle(wake, at: host.now)
        #expect(actions.contains(.close(id)))
        // Ben was seated by his hello and then went away: the room keeps his seat, away.
        let room = try #require(host.core.rooms.values.first?.room)
        #expect(room.playerIDs.count == 2)
        #expect(room.playerIDs.filter { room.isConnected($0) } == [owner.player])
    }

    @Test func aWakesChangesAreCommittedOnceAtItsEndAndItsBytesWaitForTheOutcome() throws {
        let storage = FakeStorage()
        let host = EmbeddedHost(storage: storage)
        let (ann, ben) = (host.connect(), host.connect())
        storage.events = []
        // Two hellos in one wake: nothing is committed or handed out while the wake runs.
        host.take(.bytes(ann, try WireCodec.encodeFrame(ClientMessage.hello(.init(name: "Ann")))))
        host.take(.bytes(ben, try WireCodec.encodeFrame(ClientMessage.hello(.init(name: "Ben")))))
        #expect(storage.events.isEmpty)
        // The wake's end asks for the commit and holds every byte back until its outcome comes in.
        let held = host.endWake()
        guard case .persist(let records) = held.last else {
            Issue.record("the wake ends without a commit: \(held)")
            return
        }
        #expect(!held.contains { if case .send = $0 { return true } else { return false } })
        #expect(storage.commit(records).failure == nil)
        #expect(storage.committed.filter { $0.hasPrefix("change") }.count == 2)
        let released = host.handle(.committed(CommitOutcome()))
        #expect(!released.contains { if case .persist = $0 { return true } else { return false } })
        for id in [ann, ben] {
            #expect(released.contains { if case .send(id, _) = $0 { return true } else { return false } })
        }
    }

    @Test func aPongLeavesAheadOfTheWakesCommitUnlessTheConnectionHearsOfTheWakesChanges() throws {
        let storage = FakeStorage()
        let host = EmbeddedHost(storage: storage) { $0.limits.maxRoomsPerAddress = 0 }
        let ann = try host.join("Ann")
        let ben = host.connect()
        try host.send(.hello(.init(name: "Ben", create: true)), on: ben)
        #expect(host.core.rooms.count == 2)
        _ = (host.messages(on: ann.connection), host.messages(on: ben))
        // Frames handed out for `id`: a connection's wake leaves as one send, however many messages it holds.
        func sends(to id: UInt64, in actions: ArraySlice<HostAction>) -> Int {
            var frames = FrameDecoder()
            for case .send(id, let bytes) in actions { frames.feed(bytes) }
            return Array(sequence(state: frames) { try? $0.next() }).count
        }
        // One wake: Ann changes her room's settings and pings; Ben, in a room of his own, pings.
        host.take(.bytes(ann.connection, try WireCodec.encodeFrame(ClientMessage.settings(.init(maxPlayers: 8)))))
        host.take(.bytes(ann.connection, try WireCodec.encodeFrame(ClientMessage.ping(.init(id: 1)))))
        host.take(.bytes(ben, try WireCodec.encodeFrame(ClientMessage.ping(.init(id: 2)))))
        let handed = host.endWake()
        let persist = try #require(handed.firstIndex { if case .persist = $0 { return true } else { return false } })
        // Ben's pong says nothing of Ann's change: it leaves before the commit. Ann's pong stays behind her
        // room's news, which waits for the disk.
        #expect(sends(to: ben, in: handed[..<persist]) == 1)
        #expect(sends(to: ann.connection, in: handed[...]) == 0)
        guard case .persist(let records) = handed[persist] else { return }
        #expect(storage.commit(records).failure == nil)
        let released = host.handle(.committed(CommitOutcome()))
        #expect(sends(to: ann.connection, in: released[...]) == 2)
        #expect(sends(to: ben, in: released[...]) == 0)
    }

    @Test func aFailedCommitTakesTheWakeBackAndItsMessagesNeverLeave() throws {
        let storage = FakeStorage()
        let host = EmbeddedHost(storage: storage)
        let ann = try host.join("Ann")
        _ = host.messages(on: ann.connection)
        let ben = host.connect()
        storage.failNextCommit = true
        try host.send(.hello(.init(name: "Ben")), on: ben)
        #expect(storage.events.contains("commit failed"))
        // Ben's seat is not on disk: he is never welcomed, and Ann never hears he joined.
        let toBen = host.messages(on: ben)
        #expect(!toBen.contains { if case .welcome = $0 { return true } else { return false } })
        #expect(Set(EmbeddedHost.errors(in: toBen)) == [.hostStorage])
        let toAnn = host.messages(on: ann.connection)
        #expect(EmbeddedHost.errors(in: toAnn) == [.hostStorage])
        #expect(Self.seats(in: toAnn).isEmpty)
        #expect(host.core.rooms.values.first?.room.playerIDs == [ann.player])
        // Until the journal is rewritten, moves are refused; the sweep rewrites it and play resumes.
        try host.send(.settings(.init(maxPlayers: 8)), on: ann.connection)
        #expect(EmbeddedHost.errors(in: host.messages(on: ann.connection)) == [.hostStorage])
        host.advance(seconds: 1)
        #expect(!storage.isFailing)
        #expect(storage.committed.contains { $0.hasPrefix("rewrite") })
        let carl = try host.join("Carl")
        #expect(Self.seats(in: host.messages(on: ann.connection)).last == [ann.player, carl.player])
    }

    // MARK: Reading messages

    private static func turns(in messages: [ServerMessage]) -> [PlayerID] {
        messages.compactMap {
            if case .turn(let turn) = $0 { return turn.player }
            return nil
        }
    }

    private static func seats(in messages: [ServerMessage]) -> [[PlayerID]] {
        messages.compactMap {
            if case .room(let view) = $0 { return view.seats.map(\.id) }
            return nil
        }
    }
}
