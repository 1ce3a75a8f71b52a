import SpyGame
import SpyProtocol
import SpyWeb

/// What the host says and how connections end: messages encoded once for all their recipients, the output cap
/// (a slow consumer is cut off), the error limit, and the graceful end of a connection (`linger`) or the abrupt one
/// (`closeSoon`). Output is queued here and handed out at the end of the wake, after the save step.
extension HostCore {
    func encode(_ message: ServerMessage) -> OutgoingMessage? {
        // Player text is bounded so every message fits by construction; should one not, a snapshot is sent
        // without its oldest clues rather than not at all.
        guard let encoded = OutgoingMessage(message) else {
            log.error("a \(message.type) message does not fit in a frame")
            return nil
        }
        if encoded.trimmedClues > 0 {
            log.warning("a room snapshot was sent without its \(encoded.trimmedClues) oldest clues to fit a frame")
        }
        return encoded
    }

    /// Queues `message` for `peer`. `awaitsCommit: false` is for a message that says nothing of the rooms (a
    /// pong): alone in a wake's output for the connection, it need not wait for the wake's commit.
    func send(_ message: ServerMessage, to peer: Peer, awaitsCommit: Bool = true) {
        // A pong, the answer to every keep-alive, is written straight into its frame: one array, no shared message.
        if case .pong(let pong) = message, peer.speaksFrames {
            enqueue(frame: WireCodec.pongFrame(id: pong.id), to: peer, awaitsCommit: awaitsCommit)
            return
        }
        if let frame = encode(message) { enqueue(frame, to: peer, awaitsCommit: awaitsCommit) }
    }

    func enqueue(_ message: OutgoingMessage, to peer: Peer, awaitsCommit: Bool = true) {
        guard let frame = peer.wire(message) else { return }
        enqueue(frame: frame, to: peer, awaitsCommit: awaitsCommit)
    }

    /// Queues one message's bytes on the peer's transport, cutting the peer off when they would pass the output cap.
    private func enqueue(frame: [UInt8], to peer: Peer, awaitsCommit: Bool) {
        guard peers[peer.id] != nil else { return }
        if peer.outputMark == nil { peer.outputMark = peer.outbox.count }
        if !write(frame, to: peer, awaitsCommit: awaitsCommit) {
            if !peer.isFinished {
                log.info("connection \(peer.id) cut off: \(pendingOutput(of: peer)) bytes unread")
                if let last = encode(.error(.init(.slowConsumer))).flatMap(peer.wire) {
                    write(last, to: peer, overCap: true)
                }
                queueWebSocketClose(peer, .policyViolation, ErrorCode.slowConsumer.rawValue)
                retire(peer, notifyRoom: true)
            }
            closeSoon(peer)
        }
    }

    /// Bytes sent to `peer` and not yet written: the shell's and this wake's.
    func pendingOutput(of peer: Peer) -> Int {
        queueForFlush(peer)
        return peer.unsentBeforeWake + peer.outbox.count
    }

    /// Queues bytes for the end of the wake, unless (without `overCap`) they would take the connection's unwritten
    /// bytes past the output cap; returns whether they were queued.
    @discardableResult
    func write(_ bytes: [UInt8], to peer: Peer, overCap: Bool = false, awaitsCommit: Bool = true) -> Bool {
        guard overCap || pendingOutput(of: peer) + bytes.count <= limits.maxOutputBytes else { return false }
        // The wake's first bytes are taken as they are: the shell writes this very array, with no copy on the way.
        if peer.outbox.isEmpty { peer.outbox = bytes } else { peer.outbox.append(contentsOf: bytes) }
        if awaitsCommit { peer.outputAwaitsCommit = true }
        queueForFlush(peer)
        return true
    }

    /// Puts the peer on the list handed out at the end of the wake, noting what the shell still holds for it (which
    /// only the shell's writes, after the wake, change).
    func queueForFlush(_ peer: Peer) {
        guard !peer.queuedForFlush else { return }
        peer.queuedForFlush = true
        peer.unsentBeforeWake = unsentByShell[peer.id] ?? 0
        flushList.append(peer)
    }

    /// A non-fatal error for a bad frame or a refused move; too many of them in a minute close the connection.
    func complain(_ peer: Peer, _ code: ErrorCode, _ detail: String?) {
        complain(peer, ServerMessage.ErrorMessage(code: code, message: detail ?? code.defaultMessage))
    }

    func complain(_ peer: Peer, _ error: ServerMessage.ErrorMessage) {
        if error.code.isFatal {
            fail(peer, error.code, error.message)
            return
        }
        let now = clock.monoMs()
        peer.recentErrors.append(now)
        peer.recentErrors.removeAll { now - $0 > 60_000 }
        // The budget's worth of refusals are answered; the one past it is answered by the end of the connection.
        guard peer.recentErrors.count <= limits.errorsPerMinute else {
            fail(peer, .tooManyErrors)
            return
        }
        send(.error(error), to: peer)
    }

    /// Sends a fatal error and ends the connection.
    func fail(_ peer: Peer, _ code: ErrorCode, _ detail: String? = nil, notifyRoom: Bool = true) {
        guard !peer.isFinished else { return }
        if ![.replaced, .helloTimeout, .wrongPassword, .tooManyAttempts].contains(code) {
            log.info("connection \(peer.id) from \(peer.remoteAddress) ended: \(code.rawValue)")
        }
        send(.error(.init(code: code, message: detail ?? code.defaultMessage)), to: peer)
        queueWebSocketClose(peer, .policyViolation, code.rawValue)
        retire(peer, notifyRoom: notifyRoom)
        linger(peer)
    }

    /// Ends a connection whose peer went away (read error, end of stream, write error).
    func drop(_ peer: Peer) {
        retire(peer, notifyRoom: true)
        closeSoon(peer)
    }

    /// Takes the peer off its seat; the room learns the player is away unless the seat was taken over or ended.
    func retire(_ peer: Peer, notifyRoom: Bool) {
        if case .watching(let code, _) = peer.stage {
            peer.stage = .lingering(until: clock.monoMs(), shut: .open)
            rooms[code]?.watchers.remove(peer.id)
            return
        }
        if case .claiming(let code, _, _) = peer.stage {
            peer.stage = .lingering(until: clock.monoMs(), shut: .open)
            if let host = rooms[code] { claimerLeft(peer, host) }
            return
        }
        guard let (code, player) = peer.seat else { return }
        peer.stage = .lingering(until: clock.monoMs(), shut: .open)
        guard let host = rooms[code], host.peers[player] == peer.id else { return }
        host.peers[player] = nil
        if notifyRoom {
            host.absentSince[player] = clock.wallMs()
            apply(.disconnected(player), to: host, from: nil)
        }
    }

    /// Ends the connection gracefully: queued output goes out (a WebSocket peer gets a close frame after it), then
    /// the write side shuts, and the socket closes once the peer closes or at the latest in two seconds.
    func linger(_ peer: Peer) {
        releaseInput(peer)
        queueWebSocketClose(peer, .normal, "")
        switch peer.stage {
        case .closing:
            // Closing at the end of the wake already, after the same bytes.
            queueForFlush(peer)
            return
        case .lingering(_, .handedOut):
            peer.stage = .lingering(until: clock.monoMs() + 2000, shut: .handedOut)
        case .greeting, .seated, .watching, .claiming, .lingering:
            peer.stage = .lingering(until: clock.monoMs() + 2000, shut: .due)
        }
        queueForFlush(peer)
        armPeerTimer(peer)
    }

    /// Closes the connection at the end of this wake, after its last bytes.
    func closeSoon(_ peer: Peer) {
        releaseInput(peer)
        cancelPeerTimer(peer)
        guard !peer.isClosing else { return }
        peer.stage = .closing
        queueForFlush(peer)
        closing.append(peer)
    }
}
