import Foundation
import SpyGame
import SpyProtocol

/// A room driven by whatever a table of hostile players and a flaky network could do, one event per step.
enum RoomScriptTarget {
    static let pairs = [
        WordPair(civilian: "牛奶", spy: "豆漿", category: "食物", language: .zhTW),
        WordPair(civilian: "coffee", spy: "tea", category: "drinks", language: .en),
        WordPair(civilian: "貓", spy: "狗", category: "動物", language: .zhTW),
        // The same words in the other script, as the embedded banks deal them.
        WordPair(civilian: "牛奶", spy: "豆浆", category: "食物", language: .zhHans),
    ]

    static func run(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        var room = Room(code: "FUZZ", seed: input.uint64())
        var spelled = SpellingCheck()
        play(&room, &input, now: 1_700_000_000_000, spelled: &spelled)
    }

    /// Plays the rest of `input` on `room`, checking the invariants after every event.
    static func play(
        _ room: inout Room, _ input: inout FuzzInput, now start: Millis, spelled: inout SpellingCheck
    ) {
        var now = start
        var steps = 0
        while !input.isExhausted, steps < 400 {
            steps += 1
            let event = nextEvent(&input, room: room, now: &now)
            let before = room
            switch room.apply(event, now: now) {
            case .failure(let rejection):
                require(room == before, "a refused \(event) changed the room (\(rejection.code))")
            case .success(let effects):
                RoomInvariants.check(room, after: event, effects: effects, spelled: &spelled)
            }
        }
        spelled.finish()
        // As the host's state store writes a room and reads it back after a restart.
        let encoded = try? StreamingJSONEncoder.encode(room)
        let decoded = encoded.flatMap { try? JSONDecoder().decode(Room.self, from: Data($0)) }
        require(decoded == room, "a room does not survive its own encoding")
    }

    private static func nextEvent(_ input: inout FuzzInput, room: Room, now: inout Millis) -> RoomEvent {
        let seated = room.playerIDs
        func player() -> PlayerID {
            let pick = Int(input.byte())
            // Now and then someone who has no seat, or never had one.
            if seated.isEmpty || pick % 16 == 15 { return "p\(pick % 40)" }
            return seated[pick % seated.count]
        }
        switch input.byte() % 14 {
        case 0: return .join(name: input.text(maxBytes: 48), bot: input.byte() & 1 == 1)
        case 1: return .connected(player())
        case 2: return .disconnected(player())
        case 3: return .leave(player())
        case 4: return .start(by: player(), pairs: Array(pairs.prefix(Int(input.byte() % 4) + 1)))
        case 5: return .move(player(), .settings(settingsChange(&input)))
        case 6: return .move(player(), .clue(.init(text: input.text(maxBytes: 160))))
        case 7: return .move(player(), .pass)
        case 8: return .move(player(), .vote(.init(target: player())))
        case 9: return .move(player(), .guess(.init(word: input.text(maxBytes: 40))))
        case 10: return .move(player(), .kick(.init(player: player())))
        case 11:
            now += Millis(input.byte()) * 1000
            return .tick
        case 12:
            // Straight to the deadline the room asked for, as the daemon's timer would.
            now = max(now, room.nextDeadline ?? now)
            return .tick
        default:
            // Anything a client could send, decoded the way the host decodes it.
            let payload = input.take(Int(input.byte()))
            let message = (try? WireCodec.decode(ClientMessage.self, from: payload)) ?? .pass
            return .move(player(), message)
        }
    }

    private static func settingsChange(_ input: inout FuzzInput) -> SettingsChange {
        var change = SettingsChange()
        let fields = input.byte()
        if fields & 1 != 0 { change.maxPlayers = Int(Int8(bitPattern: input.byte())) }
        if fields & 2 != 0 { change.spies = Int(input.byte() % 5) }
        if fields & 4 != 0 {
            let byte = input.byte()
            change.blank = byte & 1 == 1
            // Every language a table may choose, and the room must take any of them.
            change.language = BankLanguage.allCases[Int(byte >> 1) % BankLanguage.allCases.count]
        }
        if fields & 8 != 0 { change.clueMode = input.byte() & 1 == 1 ? .typed : .spoken }
        if fields & 16 != 0 { change.turnSeconds = Int(input.byte()) * 3 }
        if fields & 32 != 0 { change.voteSeconds = Int(input.byte()) * 3 }
        if fields & 64 != 0 {
            change.tieRule = [TieRule.pk, .nobody, .random][Int(input.byte() % 3)]
            change.revealOut = input.byte() & 1 == 1
        }
        if fields & 128 != 0 {
            change.blankRule = [BlankRule.survive, .guess][Int(input.byte() % 2)]
            change.categories = (0..<Int(input.byte() % 4)).map { _ in input.text(maxBytes: 40) }
        }
        return change
    }
}
