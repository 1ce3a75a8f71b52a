import SpyBank
import SpyGame
import SpyProtocol
import SpyWeb

/// What a peer sends: reads within the loop's read budget, the one budget of unfinished input across every
/// connection, and the dispatch of each message by where the peer stands.
extension HostCore {
    /// Acts on the input `peer` holds, after a read that took (`Peer.accept`) what arrived; `endOfStream` when
    /// the peer closed its side.
    func read(from peer: Peer, endOfStream: Bool) {
        if peer.isFinished {
            // What a closing peer still sends was dropped; once it closes, so does the connection.
            if endOfStream { closeSoon(peer) }
            return
        }
        while !peer.isFinished, peers[peer.id] != nil, let input = peer.nextInput() {
            switch input {
            case .message(let payload):
                receive(payload, from: peer)
            case .badFrame:
                if case .greeting = peer.stage {
                    fail(peer, .frameTooLarge, "Before hello a frame may be 1 to \(limits.maxHelloFrameBytes) bytes.")
                } else {
                    fail(peer, .frameTooLarge)
                }
                return
            case .request, .refused, .control, .webSocketFailed:
                handleWeb(input, from: peer)
            }
        }
        if endOfStream, !peer.isFinished {
            log.debug("connection \(peer.id) closed by peer")
            drop(peer)
        }
        accountInput(peer)
    }

    /// Keeps the total of bytes held in unfinished input up to date after `peer`'s input changed, and when it
    /// passes the budget, cuts the connections holding the most until the rest fits.
    private func accountInput(_ peer: Peer) {
        let held = peer.isFinished ? 0 : peer.unfinishedInputBytes
        partialFrameBytes += held - peer.heldInputBytes
        peer.heldInputBytes = held
        guard partialFrameBytes > limits.partialFrameBudget else { return }
        let holders = peers.values.filter { $0.heldInputBytes > 0 }.map { (id: $0.id, bytes: $0.heldInputBytes) }
        let victims = PartialFrameBudget.connectionsToCut(held: holders, budget: limits.partialFrameBudget)
        let now = clock.monoMs()
        budgetCuts += victims.count
        if now - lastBudgetWarning >= 10_000 {
            lastBudgetWarning = now
            log.warning(
                "unfinished frames passed the budget of \(limits.partialFrameBudget) bytes; cut \(budgetCuts) "
                    + "connection(s) holding the most (logged at most every 10 s)")
            budgetCuts = 0
        }
        for id in victims {
            guard let victim = peers[id] else { continue }
            if victim.transport.isHTTP {
                answer(victim, .problem(.headersTooLarge, "The host holds too much unfinished input."))
                continue
            }
            fail(victim, .frameTooLarge, "The host holds too many unfinished frames, and yours was among the largest.")
            releaseInput(victim)
        }
    }

    /// Drops the unread input of a finished connection, so its memory is free before the socket closes.
    func releaseInput(_ peer: Peer) {
        partialFrameBytes -= peer.heldInputBytes
        peer.heldInputBytes = 0
        if peer.inbox.bufferedByteCount > 0 || peer.inbox.capacity > 0 {
            peer.inbox = FrameDecoder(maxPayload: peer.inbox.maxPayload)
        }
        peer.releaseTransportInput()
    }

    func receive(_ payload: [UInt8], from peer: Peer) {
        peer.lastHeard = clock.monoMs()
        if peer.probed { peer.probed = false }
        let message: ClientMessage
        do {
            message = try ClientMessage.read(from: payload)
        } catch {
            complain(peer, error.code, error.detail)
            return
        }
        switch peer.stage {
        case .greeting:
            guard case .hello(let hello) = message else {
                fail(peer, .helloRequired)
                return
            }
            greet(peer, hello)
        case .seated(let code, let player, _):
            guard let host = rooms[code] else {
                fail(peer, .roomNotFound)
                return
            }
            handle(message, from: peer, player: player, in: host)
        case .watching:
            unseatedSent(message, from: peer, refusal: "A watcher has no seat.")
        case .claiming:
            unseatedSent(
                message, from: peer, refusal: "Your claim of a seat has not been answered yet.")
        case .lingering, .closing:
            return
        }
    }

    func handle(_ message: ClientMessage, from peer: Peer, player: PlayerID, in host: RoomHost) {
        switch message {
        case .hello:
            complain(peer, .alreadyJoined, nil)
        case .ping(let ping):
            send(.pong(.init(id: ping.id)), to: peer, awaitsCommit: false)
        case .pong:
            break
        case .start:
            // The room's refusals come first, as the protocol lists them; the bank's `bad_settings` last.
            if let refusal = host.room.startRefusal(by: player) {
                complain(peer, refusal.errorMessage)
                return
            }
            // A room dealing the moderator's pair or its own list needs the bank only when it mixes the list with it,
            // and then not to refuse.
            switch host.room.settings.wordSource {
            case _ where host.room.hasModeratorPair, .ours:
                apply(.start(by: player, pairs: []), to: host, from: peer)
                return
            case .oursAndBank where !host.room.ownPairs.isEmpty:
                apply(.start(by: player, pairs: pairsFor(host.room.settings)), to: host, from: peer)
                return
            case .bank, .oursAndBank:
                break
            }
            if let problem = choiceProblem(host.room.settings) {
                complain(peer, .badSettings, problem)
                return
            }
            let pairs = pairsFor(host.room.settings)
            guard !pairs.isEmpty else {
                complain(peer, .badSettings, BankFilter.emptyReason(bank, for: host.room.settings))
                return
            }
            apply(.start(by: player, pairs: pairs), to: host, from: peer)
        case .leave:
            apply(.leave(player), to: host, from: peer)
        case .settings(let change)
        where host.room.ownerID == player && (host.room.phase == .lobby || host.room.phase == .gameOver)
            && (change.language != nil || change.categories != nil || change.allowParty != nil):
            // The rules engine does not know the bank; a choice that leaves too few pairs is refused here.
            if let problem = choiceProblem(host.room.settings.merging(change)) {
                complain(peer, .badSettings, problem)
                return
            }
            apply(.move(player, message), to: host, from: peer)
        case .settings, .clue, .pass, .vote, .guess, .kick:
            apply(.move(player, message), to: host, from: peer)
        case .claimAnswer(let answer):
            answerClaim(answer, from: player, in: host, peer: peer)
        case .words(let words):
            // Read and checked line by line here, with the bank's rules; the room decides the rest.
            guard words.text.utf8.count <= Rules.maxWordListTextBytes else {
                complain(peer, .badWords, "A word list is at most \(Rules.maxWordListTextBytes / 1024) KiB of text.")
                return
            }
            let parsed = RoomWordList.parse(words.text)
            let upload = WordUpload(
                pairs: parsed.pairs, lines: parsed.lines, refused: parsed.refused, replace: words.replace ?? false)
            apply(.words(by: player, upload), to: host, from: peer)
        case .wordsClear, .moderator, .moderatorAnswer, .pause, .resume, .passTurn:
            apply(.move(player, message), to: host, from: peer)
        case .moderatorPair(let typed):
            // Checked as a line of the room's own list is; the pair then waits, in the room alone, for the next deal.
            guard host.room.moderatorID == player else {
                complain(peer, .notAllowed, "Only the moderator types the next pair.")
                return
            }
            switch RoomWordList.typedPair(civilian: typed.civilian, spy: typed.spy) {
            case .success(let pair): apply(.moderatorPair(by: player, pair), to: host, from: peer)
            case .failure(let reason): complain(peer, .badWords, "The pair is refused: \(reason.rawValue).")
            }
        case .wordsExport:
            switch host.room.wordListExport(for: player) {
            case .success(let list): send(.wordList(list), to: peer)
            case .failure(let rejection): complain(peer, rejection.errorMessage)
            }
        }
    }
}
