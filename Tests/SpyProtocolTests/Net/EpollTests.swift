import Foundation
import Glibc
import SpyNet
import SpyTestSupport
import Testing

@Suite struct EpollTests {
    /// A connected pair of sockets on loopback: a listener's accepted end and the client's end.
    private func loopbackPair() throws -> (server: Socket, client: Socket) {
        let (listener, port) = try Socket.listen(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        let client = try Socket.connect(host: "127.0.0.1", port: port, timeoutMs: 5000)
        let deadline = Deadline.after(seconds: 5)
        while !deadline.hasPassed {
            if let (server, _) = try listener.accept() { return (server, client) }
            var entry = pollfd(fd: listener.fd, events: Int16(POLLIN), revents: 0)
            _ = poll(&entry, 1, 100)
        }
        throw SocketError("accept", code: ETIMEDOUT)
    }

    @Test func reportsOnlyReadyDescriptorsWithTheirTokens() throws {
        let epoll = try Epoll()
        let (server, client) = try loopbackPair()
        defer {
            server.close()
            client.close()
        }
        try epoll.add(fd: server.fd, token: 42)
        #expect(try epoll.wait(timeoutMs: 0).ready.isEmpty)

        let byte: [UInt8] = [7]
        _ = try byte.withUnsafeBytes { try client.write($0) }
        let ready = try epoll.wait(timeoutMs: 5000).ready
        #expect(ready.map(\.token) == [42])
        #expect(ready.first?.readable == true)
        #expect(ready.first?.writable == false)
        // Level-triggered: unread input is reported again.
        #expect(try epoll.wait(timeoutMs: 5000).ready.map(\.token) == [42])

        try epoll.modify(fd: server.fd, token: 43, read: false, write: true)
        let writable = try epoll.wait(timeoutMs: 5000).ready
        #expect(writable.map(\.token) == [43])
        #expect(writable.first?.writable == true)

        epoll.remove(fd: server.fd)
        #expect(try epoll.wait(timeoutMs: 0).ready.isEmpty)
    }

    @Test func aWakeEndsTheWaitAndAClosedPeerIsReported() throws {
        let epoll = try Epoll()
        epoll.wake()
        let woken = try epoll.wait(timeoutMs: 5000)
        #expect(woken.woken)
        #expect(woken.ready.isEmpty)
        #expect(try epoll.wait(timeoutMs: 0).woken == false)

        let (server, client) = try loopbackPair()
        defer { server.close() }
        try epoll.add(fd: server.fd, token: 5)
        client.close()
        let ready = try epoll.wait(timeoutMs: 5000).ready
        #expect(ready.map(\.token) == [5])
        #expect(ready.first?.readable == true)
    }
}
