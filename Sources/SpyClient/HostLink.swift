import SpyNet
import SpyProtocol

/// What reading from the host gave: whole messages, and whether the connection ended after them (a fatal
/// `error` is followed by the close, and must still be shown).
struct LinkRead {
    var messages: [ServerMessage] = []
    var closed = false
}

/// A connection to the host that speaks length-prefixed frames, served by the session's event loop.
final class HostLink {
    private let connection: LoopConnection

    /// Starts connecting to one address of the host; `nil` when the connect failed at once.
    init?(_ address: Socket.Address, loop: EventLoop, ids: inout ConnectionIDGenerator) {
        guard let connection = try? LoopConnection.connect(to: address, loop: loop, ids: &ids) else { return nil }
        self.connection = connection
    }

    /// Whether the TCP handshake has finished.
    var isOpen: Bool { !connection.isConnecting }

    /// Called with what the loop saw on this connection (it keeps the closure: capture the session unowned).
    var onEvent: (LoopConnection.Event) -> Void {
        get { connection.onEvent }
        set { connection.onEvent = newValue }
    }

    /// Queues a message; it leaves at the end of the loop's wake.
    func send(_ message: ClientMessage) {
        guard let frame = try? WireCodec.encodeFrame(message) else { return }
        connection.send(frame)
    }

    /// Waits up to `milliseconds` for the outbox to drain (used for the last `leave`).
    func drain(milliseconds: Int32) {
        connection.drain(timeoutMs: Int(milliseconds))
    }

    /// Reads what arrived and decodes whole messages. Unknown message types are skipped so that a newer host
    /// does not break an older client, and so are messages with numbers out of range (`HostMessages`).
    func receive() -> LinkRead {
        var result = LinkRead()
        let outcome = try? connection.read()
        do {
            while let payload = try connection.connection.inbox.next() {
                if let message = HostMessages.decode(payload) {
                    result.messages.append(message)
                }
            }
        } catch {
            result.closed = true
        }
        switch outcome {
        case .open?: break
        case .endOfStream?, nil: result.closed = true
        }
        return result
    }

    func close() {
        connection.close()
    }
}
