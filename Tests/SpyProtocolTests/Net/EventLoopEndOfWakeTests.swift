import Glibc
import SpyNet
import SpyProtocol
import SpyTestSupport
import Testing

/// What a program can ask of the end of a wake: a step of its own before anything is written (the host saves
/// there), more input looked for before writing, a write side shut once the last bytes are out, and a last
/// message past the output cap.
@Suite struct EventLoopEndOfWakeTests {
    /// Whether `socket` has input (or end of stream) right now.
    private func readable(_ socket: Socket) -> Bool {
        var entry = pollfd(fd: socket.fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) > 0
    }

    /// Everything `socket` receives until the stream ends (or five seconds pass), and whether it ended.
    private func readToEnd(_ socket: Socket) throws -> (bytes: [UInt8], ended: Bool) {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = Deadline.after(seconds: 5)
        while !deadline.hasPassed {
            switch try buffer.withUnsafeMutableBytes({ try socket.read(into: $0) }) {
            case .bytes(let count): received += buffer[0..<count]
            case .wouldBlock:
                var entry = pollfd(fd: socket.fd, events: Int16(POLLIN), revents: 0)
                _ = poll(&entry, 1, Int32(deadline.remainingMs))
            case .endOfStream: return (received, true)
            }
        }
        return (received, false)
    }

    private func write(_ bytes: [UInt8], to socket: Socket) throws {
        let result = try bytes.withUnsafeBytes { try socket.write($0) }
        #expect(result == .wrote(bytes.count))
    }

    @Test func theStepBeforeTheFlushRunsBeforeAnyOutputOfTheWakeIsWritten() throws {
        let loop = try EventLoop()
        let (listener, client, server) = try loopbackPair()
        defer { [listener, client].forEach { $0.close() } }
        let connection = try LoopConnection(
            loop: loop, connection: Connection(id: 1, socket: server, remoteAddress: "127.0.0.1"))
        var answered = false
        connection.onEvent = { event in
            guard event == .readable else { return }
            _ = try? connection.read()
            connection.send([7, 7])
            answered = true
        }
        var outputSeenByTheStep: [Bool] = []
        loop.beforeFlush = { if answered { outputSeenByTheStep.append(self.readable(client)) } }
        try write([1], to: client)
        let deadline = Deadline.after(seconds: 30)
        while !answered, !deadline.hasPassed { try loop.runOnce(maxWaitMs: 100) }
        #expect(outputSeenByTheStep.first == false)
        connection.closeSoon()
        loop.finishIteration()
        #expect(try readToEnd(client) == ([7, 7], true))
    }

    @Test func morePollsServeInputThatArrivedDuringTheWakeBeforeAnythingIsWritten() throws {
        for morePolls in [0, 1] {
            let loop = try EventLoop()
            let first = try loopbackPair()
            let second = try loopbackPair()
            defer {
                for socket in [
                    first.listener, first.client, first.server, second.listener, second.client, second.server,
                ] {
                    socket.close()
                }
            }
            var served: [String] = []
            try loop.register(fd: first.server.fd) { _ in
                served.append("first")
                var byte: [UInt8] = [0]
                _ = try? byte.withUnsafeMutableBytes { try first.server.read(into: $0) }
                // Input for the other descriptor arrives while this wake is being served.
                try? self.write([2], to: second.client)
            }
            try loop.register(fd: second.server.fd) { _ in served.append("second") }
            try write([1], to: first.client)
            try loop.runOnce(maxWaitMs: 5000, morePolls: morePolls)
            #expect(served == (morePolls == 0 ? ["first"] : ["first", "second"]), "morePolls \(morePolls)")
        }
    }

    @Test func aWakeServesAtMostItsBudgetOfReadyDescriptorsAndTheRestComeFirstInTheNext() throws {
        let loop = try EventLoop(maxEventsPerWait: 4)
        var pipes: [(read: Int32, write: Int32)] = []
        defer {
            for (readEnd, writeEnd) in pipes {
                Glibc.close(readEnd)
                Glibc.close(writeEnd)
            }
        }
        var servedInWake: [Int] = []
        for index in 0..<10 {
            var fds: [Int32] = [0, 0]
            try #require(pipe(&fds) == 0)
            pipes.append((fds[0], fds[1]))
            var byte: UInt8 = 1
            try #require(Glibc.write(fds[1], &byte, 1) == 1)
            // Nothing is read, so every descriptor stays ready for as long as the test runs.
            try loop.register(fd: fds[0]) { _ in servedInWake.append(index) }
        }
        var wakes: [[Int]] = []
        for _ in 0..<3 {
            servedInWake = []
            try loop.runOnce(maxWaitMs: 5000, morePolls: 2)
            wakes.append(servedInWake)
        }
        #expect(wakes.map(\.count) == [4, 4, 4])
        #expect(Set(wakes.joined()) == Set(0..<10), "every ready descriptor is served within three wakes: \(wakes)")
    }

    @Test func aConnectionShutsItsWriteSideOnceItsLastBytesAreOutAndStillReads() throws {
        let loop = try EventLoop()
        let (listener, client, server) = try loopbackPair()
        defer { [listener, client].forEach { $0.close() } }
        let connection = try LoopConnection(
            loop: loop, connection: Connection(id: 1, socket: server, remoteAddress: "127.0.0.1"))
        var readable = false
        connection.onEvent = { if $0 == .readable { readable = true } }
        connection.send(Array("last words".utf8))
        connection.shutWriteWhenDrained()
        loop.finishIteration()
        #expect(try readToEnd(client) == (Array("last words".utf8), true))
        try write([1], to: client)
        let deadline = Deadline.after(seconds: 30)
        while !readable, !deadline.hasPassed { try loop.runOnce(maxWaitMs: 100) }
        #expect(readable && !connection.isClosed)
    }

    @Test func aSendPastTheCapIsRefusedUnlessAskedFor() throws {
        let loop = try EventLoop()
        let (listener, client, server) = try loopbackPair()
        defer { [listener, client].forEach { $0.close() } }
        let connection = try LoopConnection(
            loop: loop, connection: Connection(id: 1, socket: server, remoteAddress: "127.0.0.1", outboxCap: 8))
        #expect(connection.send(Array(repeating: 1, count: 6)) == .queued)
        #expect(connection.send(Array(repeating: 2, count: 6)) == .overCap)
        #expect(connection.send(Array(repeating: 3, count: 6), overCap: true) == .queued)
        connection.closeSoon()
        loop.finishIteration()
        #expect(try readToEnd(client) == (Array(repeating: 1, count: 6) + Array(repeating: 3, count: 6), true))
    }
}
