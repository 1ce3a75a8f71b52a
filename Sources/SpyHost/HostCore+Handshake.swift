import SpyGame
import SpyProtocol

/// The first message of a connection: protocol version, the host's password (with a growing wait for an address
/// that keeps guessing), which room, and a new seat, a resumed one (by token), a watcher or a claim.
extension HostCore {
    func greet(_ peer: Peer, _ hello: ClientMessage.Hello) {
        guard supportedProtocolVersions.contains(hello.protocol) else {
            fail(peer, .protocolVersion)
            return
        }
        if let problem = PlayerText.helloProblem(hello) {
            complain(peer, .badMessage, problem)
            return
        }
        if hello.watch == true {
            watch(peer, hello)
            return
        }
        if let token = hello.token, !token.isEmpty {
            resume(peer, token: token, roomText: hello.room)
            return
        }
        let host: RoomHost
        var opened = false
        if hello.create == true {
            guard rooms.count < limits.maxRooms else {
                fail(peer, .tooManyRooms)
                return
            }
            guard passwordAccepted(hello.password, from: peer), mayOpenRoom(peer) else { return }
            host = openRoom(permanent: false, openedBy: peer.remoteAddress)
            opened = true
        } else if let found = roomAsked(by: hello, from: peer) {
            host = found
        } else {
            return
        }
        if !opened, !passwordAccepted(hello.password, from: peer) { return }
        if !opened, let claimed = hello.claim ?? host.room.awaySeat(matchingName: hello.name) {
            openClaim(of: claimed, by: peer, named: hello.name, in: host)
            return
        }
        // The seat (and for a new room, the room) is acknowledged only once it is on disk.
        var seated: (player: PlayerID, token: String)?
        let issuing = { (effects: [RoomEffect]) -> [PlayerID: String]? in
            guard let player = Self.joinedPlayer(in: effects) else { return nil }
            let token = self.randomness.token()
            seated = (player, token)
            return [player: token]
        }
        switch take(
            .join(name: hello.name, bot: false), into: host, issuing: issuing, joinedByOthers: opened ? nil : true)
        {
        case .refused(let rejection):
            fail(peer, rejection.code, rejection.message)
            if opened { closeRoom(host, reason: nil) }
        case .unsaved:
            fail(peer, .hostStorage, "The host cannot save right now, so you were not seated; try again shortly.")
            if opened { closeRoom(host, reason: nil) }
        case .taken(let effects):
            guard let (player, token) = seated else {
                log.error("room \(host.code) accepted a join without naming the seat")
                fail(peer, .internal)
                return
            }
            noteSeated(peer)
            seat(peer, as: player, in: host)
            send(
                .welcome(.init(you: player, token: token, room: host.code, resumed: false, categories: categories)),
                to: peer)
            log.debug("room \(host.code): \(player) seated from \(peer.remoteAddress)")
            carryOut(effects, in: host)
            if host.botsToAdd > 0 { seatBots(in: host) }
            followFirstOwner(player, asking: hello.language, from: peer, in: host)
        }
    }

    /// The seat a join's effects name.
    static func joinedPlayer(in effects: [RoomEffect]) -> PlayerID? {
        for case .joined(let id) in effects { return id }
        return nil
    }

    /// A host whose locale names no language starts a new room's word language on its first owner's interface
    /// language, as if they had chosen it, when the bank deals enough pairs in it.
    private func followFirstOwner(_ player: PlayerID, asking language: String?, from peer: Peer, in host: RoomHost) {
        guard !host.hadFirstOwner, host.room.ownerID == player else { return }
        host.hadFirstOwner = true
        guard config.languageFromFirstOwner, host.room.latestGame == 0,
            let wanted = language.flatMap(BankLanguage.init(rawValue:)), [.zhTW, .zhHans, .en].contains(wanted),
            wanted != host.room.settings.language
        else { return }
        let change = SettingsChange(language: wanted)
        guard choiceProblem(host.room.settings.merging(change)) == nil else { return }
        handle(.settings(change), from: peer, player: player, in: host)
    }

    /// The room a `hello` names by its code, or the host's own room when it names none; `nil` (after failing the
    /// peer) when there is no such room.
    func roomAsked(by hello: ClientMessage.Hello, from peer: Peer) -> RoomHost? {
        guard let text = hello.room, !text.isEmpty else { return hostsOwnRoom(for: peer) }
        guard let code = RoomCode.normalise(text), let found = rooms[code] else {
            fail(peer, .roomNotFound)
            return nil
        }
        return found
    }

    /// The room a `hello` without a code goes to: the one the host opened at start, when it opened exactly one.
    /// Rooms clients opened are reached by their code only, so one of them never hides the host's own room. `nil`
    /// (after failing the peer) when there is no such room.
    func hostsOwnRoom(for peer: Peer) -> RoomHost? {
        let own = roomOrder.compactMap { rooms[$0] }.filter(\.permanent)
        guard own.count == 1 else {
            fail(peer, own.isEmpty ? .roomNotFound : .roomRequired)
            return nil
        }
        return own[0]
    }

    /// Checks the host's password (when it has one), with a growing wait for an address that keeps guessing.
    func passwordAccepted(_ given: String?, from peer: Peer) -> Bool {
        guard let password = config.password else { return true }
        let address = peer.remoteAddress
        let now = clock.monoMs()
        if let wait = passwordThrottle.waitMs(for: address, now: now) {
            passwordThrottle.recordRefusal(address)
            let seconds = (wait + 999) / 1000
            fail(peer, .tooManyAttempts, "Too many wrong passwords from your address; try again in \(seconds) s.")
            return false
        }
        if ResumeToken.matches(given ?? "", password) {
            passwordThrottle.recordSuccess(address)
            return true
        }
        if passwordThrottle.recordFailure(address, now: now) {
            log.warning("wrong password from \(address); more from it are slowed down and summed up when they stop")
        }
        fail(peer, .wrongPassword)
        return false
    }

    /// Whether the peer's address may open another room (how many it holds, how many it opened lately).
    private func mayOpenRoom(_ peer: Peer) -> Bool {
        let address = peer.remoteAddress
        if limits.maxRoomsPerAddress > 0,
            rooms.values.count(where: { $0.openedBy == address }) >= limits.maxRoomsPerAddress
        {
            fail(
                peer, .tooManyRooms,
                "Your address already has \(limits.maxRoomsPerAddress) rooms open; join one with its code.")
            return false
        }
        guard roomOpenings.allow(address, now: clock.monoMs()) else {
            fail(peer, .tooManyRooms, "Your address opened too many rooms in the last minute; wait a little.")
            return false
        }
        return true
    }

    private func resume(_ peer: Peer, token: String, roomText: String?) {
        // The token names its seat: a wrong or mistyped room code must not cost a player a live seat, so the
        // code is not used to narrow the search.
        let candidates = roomOrder.compactMap { rooms[$0] }
        var match: (RoomHost, PlayerID)?
        for host in candidates {
            for (player, known) in host.tokens where ResumeToken.matches(token, known) {
                match = (host, player)
            }
        }
        guard let (host, player) = match, host.room.playerIDs.contains(player) else {
            log.info("refused a resume with an unknown token from \(peer.remoteAddress)")
            fail(peer, .badToken)
            return
        }
        if let oldID = host.peers[player], let old = peers[oldID] {
            host.peers[player] = nil
            fail(old, .replaced, notifyRoom: false)
        }
        seat(peer, as: player, in: host)
        host.absentSince[player] = nil
        send(
            .welcome(.init(you: player, token: token, room: host.code, resumed: true, categories: categories)), to: peer
        )
        log.info("room \(host.code): \(player) resumed from \(peer.remoteAddress)")
        if let roomText, !roomText.isEmpty, RoomCode.normalise(roomText) != host.code {
            log.debug("room \(host.code): \(player)'s hello named another room; the token decides")
        }
        apply(.connected(player), to: host, from: nil)
    }

    func seat(_ peer: Peer, as player: PlayerID, in host: RoomHost) {
        peer.helloAccepted()
        peer.stage = .seated(room: host.code, player: player, probed: false)
        host.peers[player] = peer.id
        host.emptySince = nil
        armPeerTimer(peer)
    }
}
