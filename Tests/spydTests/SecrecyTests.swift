import Foundation
import SpyNet
import SpyProtocol
import Testing

@Suite struct SecrecyTests {
    /// Every frame every client receives through a whole game with reconnects: before `game_over`, none carries a
    /// word its player was not dealt, any role, or another player's token; the host's log carries no word or token.
    @Test func noFrameLeaksAWordARoleOrAToken() throws {
        let daemon = try CoreHost(["--clues", "typed", "--lang", "zh-TW", "--seed", "21"])
        let table = try Table.join(6, on: daemon)
        try table.owner.send(.settings(.init(spies: 1, blank: true, revealOut: false)))
        try table.owner.waitForView("settings") { $0.settings.blank && !$0.settings.revealOut }
        try table.start()
        let describer = table.players[3]
        let voter = table.players[4]
        var droppedDescriber = false
        try table.play { player, message in
            if !droppedDescriber, case .turn = message, player === describer {
                droppedDescriber = true
                return true
            }
            if case .voting = message, player === voter { return true }
            return false
        }
        describer.drop()
        try describer.resume(on: daemon)
        voter.drop()
        try voter.resume(on: daemon)
        let over = try #require(try table.play())

        let tokens = table.players.map(\.token)
        let log = daemon.log
        #expect(!log.contains(over.civilianWord) && !log.contains(over.spyWord))
        #expect(!tokens.contains { log.contains($0) })
        for player in table.players {
            let role = try #require(over.reveal.first { $0.player == player.id }?.role)
            let forbidden: [String]
            switch role {
            case .civilian: forbidden = [over.spyWord]
            case .spy: forbidden = [over.civilianWord]
            case .blank: forbidden = [over.civilianWord, over.spyWord]
            }
            let others = tokens.filter { $0 != player.token }
            var checked = 0
            for payload in player.payloads {
                let object = try JSONSerialization.jsonObject(with: Data(payload))
                if (object as? [String: Any])?["type"] as? String == "game_over" { break }
                checked += 1
                let strings = SecrecyTests.strings(in: object)
                for word in forbidden {
                    #expect(!strings.contains { $0.contains(word) }, "\(player.name) (\(role)) saw \(word)")
                }
                #expect(!strings.contains { others.contains($0) }, "\(player.name) saw another player's token")
                let roles = SecrecyTests.values(in: object, forKeys: ["role", "revealed", "identity"])
                #expect(roles.isEmpty, "\(player.name) saw a role: \(roles)")
            }
            #expect(checked > 10)
        }
    }

    static func strings(in object: Any) -> [String] {
        switch object {
        case let text as String: return [text]
        case let array as [Any]: return array.flatMap { strings(in: $0) }
        case let dictionary as [String: Any]: return dictionary.keys + dictionary.values.flatMap { strings(in: $0) }
        default: return []
        }
    }

    /// Non-null values under any of `keys`, anywhere in the object.
    static func values(in object: Any, forKeys keys: Set<String>) -> [String] {
        switch object {
        case let array as [Any]:
            return array.flatMap { values(in: $0, forKeys: keys) }
        case let dictionary as [String: Any]:
            var found: [String] = []
            for (key, value) in dictionary {
                if keys.contains(key), !(value is NSNull) { found.append("\(key)=\(value)") }
                found += values(in: value, forKeys: keys)
            }
            return found
        default:
            return []
        }
    }
}
