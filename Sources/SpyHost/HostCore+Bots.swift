import SpyGame
import SpyProtocol

/// The bot driver: seating a room's bots once its first human is there, and planning their moves, which the
/// room's timer plays when they are due (see `roomWake`).
extension HostCore {
    func seatBots(in host: RoomHost) {
        let count = host.botsToAdd
        host.botsToAdd = 0
        var number = 1
        var seated = 0
        while seated < count, number <= count + 40 {
            let name = "Bot \(number)"
            number += 1
            switch take(.join(name: name, bot: true), into: host) {
            case .taken(let effects):
                seated += 1
                carryOut(effects, in: host)
            case .unsaved:
                host.botsToAdd = count - seated
                return
            case .refused(let rejection):
                if rejection.code != .nameTaken {
                    log.warning("room \(host.code): cannot seat a bot: \(rejection.message)")
                    return
                }
            }
        }
    }

    func planBots(_ host: RoomHost) {
        guard host.hasBots else { return }
        host.bots.plan(
            room: host.room, now: clock.wallMs(), delayMs: limits.botDelayMs, level: config.botLevel,
            knowledge: botVocabulary.knowledge(for: host.room.settings.language), random: &random)
    }
}
