import SpyGame
import SpyProtocol

/// A room with the host's part of it — its resume tokens, what its bots know, whether anyone but its opener joined —
/// as live play holds it (`RoomHost`) and as the journal's replay does (`RoomSnapshot`). Both take an event the
/// same way, through `take`.
package protocol HostedRoom {
    var room: Room { get set }
    var tokens: [PlayerID: String] { get set }
    /// The bots learn from the effects the room just decided.
    mutating func botsLearn(from effects: [RoomEffect])
    mutating func setJoinedByOthers(_ joined: Bool)
}

extension HostedRoom {
    /// Takes one event (none when only the host's side changes) at `now`: the rules decide; the bots learn from
    /// exactly the messages the room sent; seats the room gave up lose their tokens; then the host's own changes,
    /// the tokens `issuing` names for the effects and `joinedByOthers`. A refusal leaves everything as it was.
    package mutating func take(
        _ event: RoomEvent?, at now: Millis, joinedByOthers: Bool? = nil,
        issuing: ([RoomEffect]) -> [PlayerID: String]? = { _ in nil }
    ) -> Result<[RoomEffect], Rejection> {
        var effects: [RoomEffect] = []
        if let event {
            switch room.apply(event, now: now) {
            case .success(let taken): effects = taken
            case .failure(let rejection): return .failure(rejection)
            }
            if room.hasBots { botsLearn(from: effects) }
            for case .removed(let player, _) in effects { tokens[player] = nil }
        }
        for (player, token) in issuing(effects) ?? [:] { tokens[player] = token }
        if let joinedByOthers { setJoinedByOthers(joinedByOthers) }
        return .success(effects)
    }
}

extension RoomHost: HostedRoom {
    package func botsLearn(from effects: [RoomEffect]) {
        bots.learn(from: effects, in: room)
    }

    package func setJoinedByOthers(_ joined: Bool) {
        joinedByOthers = joined
    }
}

extension RoomSnapshot: HostedRoom {
    package mutating func botsLearn(from effects: [RoomEffect]) {
        var driver = BotDriver(memory: bots)
        driver.learn(from: effects, in: room)
        bots = driver.memory
    }

    package mutating func setJoinedByOthers(_ joined: Bool) {
        joinedByOthers = joined
    }
}
