import Foundation
import SpyNet
import SpyProtocol
import SpyTestSupport
import Testing

/// A one-connection server on its own thread: answers each `ping` with a `pong`, closes on `leave`, and
/// sends a broken header on `start`.
private final class PongServer: Sendable {
    let port: UInt16
    private let listener: Socket

    init() throws {
        (listener, port) = try Socket.listen(host: "127.0.0.1", port: 0)
        let listener = self.listener
        Thread.detachNewThread { PongServer.serve(listener) }
    }

    private static func serve(_ listener: Socket) {
        defer { listener.close() }
        var connection: Connection?
        var scratch = [UInt8](repeating: 0, count: 4096)
        let deadline = Deadline.after(seconds: 30)
        while !deadline.hasPassed {
            var entry = pollfd(fd: listener.fd, events: Int16(POLLIN), revents: 0)
            if let connection {
                entry.fd = connection.socket.fd
                if connection.hasPendingOutput { entry.events |= Int16(POLLOUT) }
            }
            guard poll(&entry, 1, 500) >= 0 || errno == EINTR else { return }
            if connection == nil, let (socket, address) = try? listener.accept() {
                connection = Connection(id: 1, socket: socket, remoteAddress: address)
                continue
            }
            guard let current = connection else { continue }
            let outcome = try? scratch.withUnsafeMutableBytes { try current.readAvailable(budget: 65536, scratch: $0) }
            while let payload = try? current.inbox.next() {
                switch try? WireCodec.decode(ClientMessage.self, from: payload) {
                case .ping(let ping):
                    current.enqueue(try! WireCodec.encodeFrame(ServerMessage.pong(.init(id: ping.id))))
                case .start:
                    current.enqueue([0, 0, 0, 0])
                case .leave:
                    _ = try? current.flush()
                    current.close()
                    return
                default:
                    current.enqueue(try! WireCodec.encodeFrame(ServerMessage.error(.init(.badMessage))))
                }
            }
            _ = try? current.flush()
            if outcome == nil || outcome == .endOfStream(bytesRead: 0) {
                current.close()
                return
            }
        }
    }
}

@Suite struct FrameClientTests {
    @Test func pingGetsPongAndSilenceGivesNilAtTheDeadline() throws {
        let server = try PongServer()
        let client = try FrameClient(host: "127.0.0.1", port: server.port)
        defer { client.close() }
        client.recordsPayloads = true
        for id in 1...50 {
            try client.send(.ping(.init(id: id)))
        }
        for id in 1...50 {
            let reply = try client.receive(deadline: .after(seconds: 5))
            #expect(reply == .pong(.init(id: id)))
        }
        #expect(client.receivedPayloads.count == 50)
        #expect(try client.receive(deadline: .after(seconds: 0.05)) == nil)
    }

    @Test func waitForSkipsOtherMessages() throws {
        let server = try PongServer()
        let client = try FrameClient(host: "127.0.0.1", port: server.port)
        defer { client.close() }
        try client.send(.pass)
        try client.send(.ping(.init(id: 9)))
        var skipped: [ServerMessage] = []
        let match = try client.waitFor(deadline: .after(seconds: 5), skipped: { skipped.append($0) }) {
            if case .pong = $0 { return true }
            return false
        }
        #expect(match == .pong(.init(id: 9)))
        #expect(skipped == [.error(.init(.badMessage))])
    }

    @Test func closeByPeerIsReported() throws {
        let server = try PongServer()
        let client = try FrameClient(host: "127.0.0.1", port: server.port)
        defer { client.close() }
        try client.send(.leave)
        #expect(client.waitForClose(deadline: .after(seconds: 5)))
    }

    @Test func aBrokenHeaderIsAFrameError() throws {
        let server = try PongServer()
        let client = try FrameClient(host: "127.0.0.1", port: server.port)
        defer { client.close() }
        try client.send(.start)
        #expect(throws: FrameClientError.frame(.badLength(0))) { try client.receive(deadline: .after(seconds: 5)) }
    }
}
