import SpyGame
import SpyProtocol

/// Taking back an away seat without its token: the claimer waits without a seat (still counted against the
/// connection and input limits, and pinged like a player) while a connected player of the room approves. The rules
/// of who approves and for how long live in `SeatClaims`; this carries out what it decides.
extension HostCore {
    /// A `hello` that claims `seat` (by `claim`, or by a name that clashes with an away seat).
    func openClaim(of seat: PlayerID, by peer: Peer, named name: String, in host: RoomHost) {
        let now = clock.wallMs()
        switch host.claims.open(seat: seat, name: name, claimer: peer.id, room: host.room, now: now) {
        case .failure(let rejection):
            fail(peer, rejection.code, rejection.message)
        case .success(let claim):
            peer.stage = .claiming(room: host.code, player: seat, probed: false)
            armPeerTimer(peer)
            send(.claimPending(.init(player: seat)), to: peer)
            ask(for: claim, in: host)
            scheduleWake(of: host)
            log.info(
                "room \(host.code): a claim of \(seat) from \(peer.remoteAddress) waits for "
                    + "\(claim.approver ?? "nobody")")
        }
    }

    /// The approver's answer: the seat moves to the claimer with a new token, saved before the claimer hears of it,
    /// or the claimer is refused.
    func answerClaim(_ answer: ClientMessage.ClaimAnswer, from player: PlayerID, in host: RoomHost, peer: Peer) {
        let claim: SeatClaims.Claim
        switch host.claims.answer(seat: answer.player, from: player) {
        case .failure(let rejection):
            complain(peer, rejection.code, rejection.message)
            return
        case .success(let answered):
            claim = answered
        }
        defer { tellDone(claim, in: host) }
        guard let claimer = peers[claim.claimer], case .claiming = claimer.stage else { return }
        guard answer.allow, host.room.isAway(claim.seat) else {
            log.info("room \(host.code): the claim of \(claim.seat) was refused by \(player)")
            fail(claimer, .claimRefused)
            return
        }
        let token = randomness.token()
        guard case .taken = take(nil, into: host, issuing: { _ in [claim.seat: token] }) else {
            fail(claimer, .hostStorage, "The host cannot save right now, so the seat was not given back; try again.")
            return
        }
        noteSeated(claimer)
        seat(claimer, as: claim.seat, in: host)
        host.absentSince[claim.seat] = nil
        send(
            .welcome(.init(you: claim.seat, token: token, room: host.code, resumed: true, categories: categories)),
            to: claimer)
        log.info("room \(host.code): \(claim.seat) given back to \(claimer.remoteAddress) by \(player)")
        apply(.connected(claim.seat), to: host, from: nil)
    }

    /// Ends what the room's changes and the clock ended, and asks a new approver when the last one left.
    func reviewClaims(in host: RoomHost) {
        guard !host.claims.isEmpty else { return }
        for change in host.claims.review(room: host.room, now: clock.wallMs()) {
            switch change {
            case .ended(let claim, let ending):
                log.info("room \(host.code): the claim of \(claim.seat) ended: \(ending)")
                if let claimer = peers[claim.claimer] { fail(claimer, .claimRefused) }
                tellDone(claim, in: host)
            case .asked(let claim):
                ask(for: claim, in: host)
            }
        }
    }

    /// A claimer's connection ended (or it sent `leave`): its claim is withdrawn.
    func claimerLeft(_ peer: Peer, _ host: RoomHost) {
        guard let claim = host.claims.withdraw(claimer: peer.id) else { return }
        log.info("room \(host.code): the claim of \(claim.seat) was withdrawn")
        tellDone(claim, in: host)
    }

    /// The room closes: every claimer is refused.
    func endClaims(in host: RoomHost) {
        for claim in host.claims.removeAll() {
            if let claimer = peers[claim.claimer] { fail(claimer, .claimRefused) }
        }
    }

    private func ask(for claim: SeatClaims.Claim, in host: RoomHost) {
        guard let approver = claim.approver else { return }
        sendToSeat(.claim(.init(player: claim.seat, name: claim.name)), approver, in: host)
    }

    private func tellDone(_ claim: SeatClaims.Claim, in host: RoomHost) {
        guard let approver = claim.approver else { return }
        sendToSeat(.claimDone(.init(player: claim.seat)), approver, in: host)
    }

    private func sendToSeat(_ message: ServerMessage, _ player: PlayerID, in host: RoomHost) {
        guard let id = host.peers[player], let peer = peers[id] else { return }
        send(message, to: peer)
    }
}
