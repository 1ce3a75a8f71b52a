import Glibc
import SpyNet
import SpyProtocol
import SpyTestSupport
import Testing

/// The loop over real loopback sockets: handlers, the end-of-wake flush list, deferred close, connecting.
@Suite struct EventLoopSocketTests {
    /// Runs the loop until `done` holds, failing after thirty seconds (a loaded machine is slow, never that slow).
    private func run(_ loop: EventLoop, until done: () -> Bool) throws {
        let deadline = Deadline.after(seconds: 30)
        while !done() {
            guard !deadline.hasPassed else {
                Issue.record("the loop did not get there in time")
                return
            }
            try loop.runOnce(maxWaitMs: 100)
        }
    }

    /// Whether `socket` has input (or end of stream) within `timeoutMs`.
    private func readable(_ socket: Socket, timeoutMs: Int32) -> Bool {
        var entry = pollfd(fd: socket.fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, timeoutMs) > 0
    }

    /// Reads until `count` bytes arrived or the stream ended.
    private func readBytes(_ socket: Socket, count: Int) throws -> [UInt8] {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        let deadline = Deadline.after(seconds: 5)
        while received.count < count, !deadline.hasPassed {
            switch try buffer.withUnsafeMutableBytes({ try socket.read(into: $0) }) {
            case .bytes(let n): received += buffer[0..<n]
            case .wouldBlock: _ = readable(socket, timeoutMs: Int32(deadline.remainingMs))
            case .endOfStream: return received
            }
        }
        return received
    }

    private func write(_ bytes: [UInt8], to socket: Socket) throws {
        let result = try bytes.withUnsafeBytes { try socket.write($0) }
        #expect(result == .wrote(bytes.count))
    }

    @Test func eachReadyDescriptorReachesOnlyItsOwnHandler() throws {
        let loop = try EventLoop()
        let first = try loopbackPair()
        let second = try loopbackPair()
        defer {
            for socket in [first.listener, first.client, first.server, second.listener, second.client, second.server] {
                socket.close()
            }
        }
        var calls: [String] = []
        try loop.register(fd: first.server.fd) { _ in calls.append("first") }
        try loop.register(fd: second.server.fd) { _ in calls.append("second") }
        try write([1], to: second.client)
        try run(loop) { !calls.isEmpty }
        #expect(calls == ["second"])
    }

    @Test func aDescriptorUnregisteredEarlierInTheSameWakeIsNotServed() throws {
        let loop = try EventLoop()
        let first = try loopbackPair()
        let second = try loopbackPair()
        defer {
            for socket in [first.listener, first.client, first.server, second.listener, second.client, second.server] {
                socket.close()
            }
        }
        var calls = 0
        var registrations: [EventLoop.Registration] = []
        // Whichever is served first unregisters the other, as a handler closing another connection would.
        registrations.append(
            try loop.register(fd: first.server.fd) { _ in
                calls += 1
                loop.unregister(registrations[1])
            })
        registrations.append(
            try loop.register(fd: second.server.fd) { _ in
                calls += 1
                loop.unregister(registrations[0])
            })
        try write([1], to: first.client)
        try write([2], to: second.client)
        // Both are ready before the wait, so one wait reports both.
        #expect(readable(first.server, timeoutMs: 5000) && readable(second.server, timeoutMs: 5000))
        try loop.runOnce(maxWaitMs: 5000)
        #expect(calls == 1)
        #expect(loop.registeredCount == 1)
    }

    @Test func outputQueuedDuringAWakeIsWrittenOnlyAtItsEnd() throws {
        let loop = try EventLoop()
        let (listener, client, server) = try loopbackPair()
        defer {
            listener.close()
            client.close()
        }
        let connection = try LoopConnection(
            loop: loop, connection: Connection(id: 1, socket: server, remoteAddress: "127.0.0.1"))
        var wroteDuringWake: Bool?
        connection.onEvent = { event in
            guard event == .readable else { return }
            _ = try? connection.read()
            connection.send([1, 2, 3])
            connection.send([4, 5])
            wroteDuringWake = self.readable(client, timeoutMs: 0)
        }
        try write([9], to: client)
        try run(loop) { wroteDuringWake != nil }
        #expect(wroteDuringWake == false)
        #expect(try readBytes(client, count: 5) == [1, 2, 3, 4, 5])
        #expect(!connection.connection.hasPendingOutput)
        connection.close()
    }

    @Test func outputLargerThanTheSocketBufferIsFinishedWhenThePeerReads() throws {
        let loop = try EventLoop()
        let (listener, client, server) = try loopbackPair()
        defer {
            listener.close()
            client.close()
        }
        client.setReceiveBufferSize(4096)
        var sndbuf: Int32 = 4096
        setsockopt(server.fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, socklen_t(MemoryLayout<Int32>.size))
        let connection = try LoopConnection(
            loop: loop, connection: Connection(id: 1, socket: server, remoteAddress: "127.0.0.1", outboxCap: 1 << 22))
        var failures: [LoopConnection.Event] = []
        connection.onEvent = { failures.append($0) }
        let payload = (0..<(256 * 1024)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        #expect(connection.send(payload) == .queued)
        loop.finishIteration()
        #expect(connection.connection.hasPendingOutput)

        // Only a wake for writability can move the rest: nothing else will happen on this connection.
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        try run(loop) {
            while case .bytes(let n) = (try? buffer.withUnsafeMutableBytes { try client.read(into: $0) }) {
                received += buffer[0..<n]
            }
            return received.count == payload.count
        }
        #expect(received == payload)
        #expect(failures.isEmpty)
        connection.close()
    }

    @Test func closeSoonSendsTheLastWordsAndClosesAtTheEndOfTheWake() throws {
        let loop = try EventLoop()
        let (listener, client, server) = try loopbackPair()
        defer {
            listener.close()
            client.close()
        }
        let connection = try LoopConnection(
            loop: loop, connection: Connection(id: 1, socket: server, remoteAddress: "127.0.0.1"))
        var readableEvents = 0
        var closedInsideTheHandler: Bool?
        connection.onEvent = { event in
            guard event == .readable else { return }
            readableEvents += 1
            _ = try? connection.read()
            connection.send(Array("bye".utf8))
            connection.closeSoon()
            closedInsideTheHandler = connection.isClosed
        }
        try write([1], to: client)
        try run(loop) { closedInsideTheHandler != nil }
        #expect(closedInsideTheHandler == false)
        #expect(connection.isClosed)
        #expect(loop.registeredCount == 0)
        #expect(try readBytes(client, count: 4) == Array("bye".utf8))
        #expect(readableEvents == 1)
    }

    @Test func aConnectionAskedToCloseEarlierInTheWakeIsNotServed() throws {
        let loop = try EventLoop()
        let pairs = [try loopbackPair(), try loopbackPair()]
        defer {
            for pair in pairs {
                pair.listener.close()
                pair.client.close()
            }
        }
        let connections = try pairs.enumerated().map { index, pair in
            try LoopConnection(
                loop: loop, connection: Connection(id: UInt64(index), socket: pair.server, remoteAddress: "127.0.0.1"))
        }
        var served: [Int] = []
        for (index, connection) in connections.enumerated() {
            // Whichever is served first ends the other, as a player leaving might end a second connection.
            connection.onEvent = { event in
                guard event == .readable else { return }
                served.append(index)
                connections[1 - index].closeSoon()
            }
        }
        for pair in pairs { try write([1], to: pair.client) }
        #expect(pairs.allSatisfy { readable($0.server, timeoutMs: 5000) })
        try loop.runOnce(maxWaitMs: 5000)
        #expect(served.count == 1)
        #expect(connections.filter(\.isClosed).count == 1)
        #expect(loop.registeredCount == 1)
        for connection in connections { connection.close() }
    }

    @Test func aConnectFinishesThenSendsWhatWasQueuedWhileConnecting() throws {
        let loop = try EventLoop()
        let (listener, port) = try Socket.listen(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        var ids = ConnectionIDGenerator()
        let address = try #require(try Socket.addresses(host: "127.0.0.1", port: port).first)
        let connection = try LoopConnection.connect(to: address, loop: loop, ids: &ids)
        var events: [LoopConnection.Event] = []
        connection.onEvent = { events.append($0) }
        let frame = try WireCodec.encodeFrame(ClientMessage.ping(.init(id: 7)))
        connection.send(frame)
        let wasConnecting = connection.isConnecting
        var accepted: Socket?
        try run(loop) {
            if accepted == nil { accepted = try? listener.accept()?.socket }
            return !connection.isConnecting && accepted != nil
        }
        let server = try #require(accepted)
        defer { server.close() }
        #expect(events == (wasConnecting ? [.connected] : []))
        #expect(try readBytes(server, count: frame.count) == frame)
        connection.close()
    }

    @Test func aRefusedConnectIsReportedAsAFailure() throws {
        let loop = try EventLoop()
        let (listener, port) = try Socket.listen(host: "127.0.0.1", port: 0)
        listener.close()
        var ids = ConnectionIDGenerator()
        let address = try #require(try Socket.addresses(host: "127.0.0.1", port: port).first)
        let connection: LoopConnection
        do {
            connection = try LoopConnection.connect(to: address, loop: loop, ids: &ids)
        } catch {
            #expect(error.code == ECONNREFUSED)
            return
        }
        var events: [LoopConnection.Event] = []
        connection.onEvent = { events.append($0) }
        try run(loop) { !events.isEmpty }
        #expect(events == [.failed(SocketError("connect", code: ECONNREFUSED))])
        connection.close()
    }

    @Test func oneWakeReadsAtMostTheReadBudgetAndTheRestComesNext() throws {
        let loop = try EventLoop(readBudget: 4)
        let (listener, client, server) = try loopbackPair()
        defer {
            listener.close()
            client.close()
        }
        let connection = try LoopConnection(
            loop: loop, connection: Connection(id: 1, socket: server, remoteAddress: "127.0.0.1"))
        var reads: [Int] = []
        connection.onEvent = { event in
            guard event == .readable, case .open(let count)? = try? connection.read() else { return }
            reads.append(count)
        }
        try write(Array(repeating: 0, count: 10), to: client)
        #expect(readable(server, timeoutMs: 5000))
        try run(loop) { reads.reduce(0, +) == 10 }
        #expect(reads == [4, 4, 2])
        connection.close()
    }

    // MARK: Who keeps what alive

    /// Whether `socket`'s peer closed: its end of stream arrives within five seconds.
    private func peerClosed(_ socket: Socket) throws -> Bool {
        guard readable(socket, timeoutMs: 5000) else { return false }
        var byte: UInt8 = 0
        return try withUnsafeMutableBytes(of: &byte) { try socket.read(into: $0) } == .endOfStream
    }

    /// Whether Swift has given `object` a side table, as the first weak reference to an object does. The object's
    /// header keeps the table's address shifted and flagged, which LeakSanitizer does not read as a pointer: once
    /// the weak references are gone, the side table of an object still alive at exit is reported as leaked.
    private func hasSideTable(_ object: AnyObject) -> Bool {
        let header = Unmanaged.passUnretained(object).toOpaque().load(
            fromByteOffset: MemoryLayout<UInt>.size, as: UInt.self)
        // The two top bits of the reference count word say the counts live in a side table.
        return header >> (UInt.bitWidth - 2) == 0b11
    }

    @Test func theLoopAndItsConnectionsTakeNoWeakReferences() throws {
        final class Probe {}
        let plain = Probe()
        let watched = Probe()
        weak let watcher = watched
        // The check reads this runtime's layout: it must tell an object with a weak reference from one without.
        #expect(!hasSideTable(plain))
        #expect(watcher != nil && hasSideTable(watched))

        let loop = try EventLoop()
        let (listener, client, server) = try loopbackPair()
        let (idleListener, idlePort) = try Socket.listen(host: "127.0.0.1", port: 0)
        defer {
            for socket in [listener, client, idleListener] { socket.close() }
        }
        var ids = ConnectionIDGenerator()
        let address = try #require(try Socket.addresses(host: "127.0.0.1", port: idlePort).first)
        let connections = [
            try LoopConnection(loop: loop, connection: Connection(id: ids.next(), socket: server, remoteAddress: "")),
            try LoopConnection.connect(to: address, loop: loop, ids: &ids),
        ]
        for connection in connections {
            connection.send([1])
            #expect(!hasSideTable(connection))
        }
        try loop.runOnce(maxWaitMs: 0)
        #expect(!hasSideTable(loop))
        for connection in connections { connection.close() }
        #expect(!hasSideTable(loop))
    }

    @Test func aConnectionClosedDuringAWakeIsFreedAtItsEndOnceItsOwnerLetsGo() throws {
        let loop = try EventLoop()
        let (listener, client, server) = try loopbackPair()
        defer {
            listener.close()
            client.close()
        }
        var owned: LoopConnection? = try LoopConnection(
            loop: loop, connection: Connection(id: 1, socket: server, remoteAddress: "127.0.0.1"))
        weak let seen = owned
        owned?.onEvent = { event in
            guard event == .readable else { return }
            _ = try? owned?.read()
            owned?.send(Array("bye".utf8))
            owned?.closeSoon()
            owned = nil
        }
        try write([1], to: client)
        try run(loop) { owned == nil }
        #expect(seen == nil)
        #expect(loop.registeredCount == 0)
        #expect(try readBytes(client, count: 4) == Array("bye".utf8))
    }

    @Test func anOpenConnectionItsOwnerDropsIsUnregisteredAndClosed() throws {
        let loop = try EventLoop()
        let (listener, client, server) = try loopbackPair()
        defer {
            listener.close()
            client.close()
        }
        var owned: LoopConnection? = try LoopConnection(
            loop: loop, connection: Connection(id: 1, socket: server, remoteAddress: "127.0.0.1"))
        #expect(owned?.isClosed == false && loop.registeredCount == 1)
        owned = nil
        #expect(loop.registeredCount == 0)
        #expect(try peerClosed(client))
    }

    @Test func anOpenConnectionKeepsItsLoopAndAClosedOneLetsGo() throws {
        let (listener, client, server) = try loopbackPair()
        defer {
            listener.close()
            client.close()
        }
        weak var seenLoop: EventLoop?
        let connection = try {
            let loop = try EventLoop()
            seenLoop = loop
            return try LoopConnection(loop: loop, connection: Connection(id: 1, socket: server, remoteAddress: ""))
        }()
        // Its owner may let go of the loop first: the connection still writes and unregisters through it.
        #expect(seenLoop?.registeredCount == 1)
        #expect(connection.send([7]) == .queued)
        seenLoop?.finishIteration()
        #expect(try readBytes(client, count: 1) == [7])
        connection.close()
        #expect(seenLoop == nil)
        #expect(try peerClosed(client))
    }
}
