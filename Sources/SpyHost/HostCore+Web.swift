import SpyGame
import SpyProtocol
import SpyWeb

/// The browser's side of the one port: HTTP requests, the WebSocket upgrade and its control frames, and watchers.
/// Protocol messages from a WebSocket go through `receive`, exactly as a frame's payload does.
extension HostCore {
    func handleWeb(_ input: PeerInput, from peer: Peer) {
        switch input {
        case .request(let request, let leftover):
            switch WebRoutes.route(request, site: webSite) {
            case .respond(let response):
                answer(peer, response, head: request.isHead)
            case .upgrade(let response):
                writeRaw(response.serialized(), to: peer)
                peer.startWebSocket(leftover: leftover)
                // The request came within the hello deadline; the hello gets a deadline of its own.
                peer.stage = .greeting(deadline: clock.monoMs() + Int64(limits.helloSeconds) * 1000)
                armPeerTimer(peer)
                log.debug("connection \(peer.id) speaks WebSocket")
            }
        case .refused(let status, let detail):
            let allow = status == .methodNotAllowed ? [HTTPHeader("Allow", "GET, HEAD")] : []
            answer(peer, .problem(status, detail, extra: allow))
        case .control(.ping(let payload)):
            // Pongs count against the output cap like messages: pinging without reading is a slow consumer too.
            if !write(WebSocketFrame.pong(payload), to: peer, awaitsCommit: false) {
                log.info("connection \(peer.id) cut off: pings not read")
                retire(peer, notifyRoom: true)
                closeSoon(peer)
            }
        case .control(.close(let code, _)):
            // Echo the client's code (RFC 6455, 5.5.1): the decoder let through only codes a peer may send, and
            // those may be sent back. Its room learns the player is away, as for a dropped line.
            queueWebSocketClose(peer, code: code ?? WebSocketCloseCode.normal.rawValue, "")
            retire(peer, notifyRoom: true)
            linger(peer)
        case .control(.pong), .control(.text):
            break
        case .webSocketFailed(let failure):
            log.info("connection \(peer.id) from \(peer.remoteAddress) closed: \(failure.reason)")
            queueWebSocketClose(peer, failure.code, failure.reason)
            retire(peer, notifyRoom: true)
            linger(peer)
        case .message, .badFrame:
            break
        }
    }

    /// Writes a plain HTTP response and ends the connection (`Connection: close`).
    func answer(_ peer: Peer, _ response: HTTPResponse, head: Bool = false) {
        peer.transport = .answered
        writeRaw(response.serialized(includeBody: !head), to: peer)
        if response.status.rawValue >= 400 {
            log.debug("connection \(peer.id): HTTP \(response.status.rawValue)")
        }
        linger(peer)
    }

    /// Queues one close frame for a WebSocket peer; nothing for any other, or when one was already queued.
    func queueWebSocketClose(_ peer: Peer, _ code: WebSocketCloseCode, _ reason: String) {
        queueWebSocketClose(peer, code: code.rawValue, reason)
    }

    private func queueWebSocketClose(_ peer: Peer, code: UInt16, _ reason: String) {
        guard peer.takeWebSocketClose() else { return }
        writeRaw(WebSocketFrame.close(code: code, reason: reason), to: peer)
    }

    /// Queues bytes that are not a protocol message: an HTTP response (one per connection) or the one close frame.
    /// They may pass the output cap, as the last error before a slow consumer is cut off does.
    private func writeRaw(_ bytes: [UInt8], to peer: Peer) {
        write(bytes, to: peer, overCap: true)
    }

    // MARK: Watchers

    /// A `hello` with `watch: true`: no seat, the room's public messages from now on, after a catch-up built
    /// from the same view as a returning player's with no player in it.
    func watch(_ peer: Peer, _ hello: ClientMessage.Hello) {
        guard let host = roomAsked(by: hello, from: peer) else { return }
        guard passwordAccepted(hello.password, from: peer) else { return }
        peer.helloAccepted()
        peer.stage = .watching(room: host.code, probed: false)
        host.watchers.insert(peer.id)
        armPeerTimer(peer)
        send(.welcome(.init(you: "", token: "", room: host.code, resumed: false, watch: true)), to: peer)
        for message in host.room.catchUp(for: nil, now: clock.wallMs()) { send(message, to: peer) }
        log.debug("room \(host.code): watched from \(peer.remoteAddress)")
    }

    /// A message from a connection without a seat (a watcher, or a claimer whose claim waits): keep-alives and
    /// `leave` (which withdraws a claim); anything else is refused, `refusal` saying why a move is not taken.
    func unseatedSent(_ message: ClientMessage, from peer: Peer, refusal: String) {
        switch message {
        case .ping(let ping):
            send(.pong(.init(id: ping.id)), to: peer, awaitsCommit: false)
        case .pong:
            break
        case .leave:
            send(.bye(.init(reason: "left")), to: peer)
            retire(peer, notifyRoom: false)
            linger(peer)
        case .hello:
            complain(peer, .alreadyJoined, nil)
        case .claimAnswer:
            complain(peer, .notAllowed, nil)
        case .settings, .start, .clue, .pass, .vote, .guess, .kick, .words, .wordsClear, .wordsExport, .moderator,
            .moderatorAnswer, .moderatorPair, .pause, .resume, .passTurn:
            complain(peer, .notPlaying, refusal)
        }
    }
}
