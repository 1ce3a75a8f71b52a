import SpyGame
import SpyProtocol

/// A change record's JSON, written by hand: the host journals one for nearly every move, and through `Encodable`
/// each costs boxed containers and a coding path per nested value.
///
/// The bytes are those `StreamingJSONEncoder` writes for the same value (tests compare them): keys in declaration
/// order, absent optionals left out, strings escaped as `JSONOutput` and that encoder both escape them. The client
/// messages a move rarely carries (a `hello`, a keep-alive) go through `StreamingJSONEncoder` itself.
///
/// The host writes a change straight from the room's event (`JournalFormat.frameChange`), without making the
/// `RoomChange` and `LoggedEvent` values first: making them copies the event's message, which cost about as much as
/// writing it.
extension RoomChange {
    func write(to output: inout JSONOutput) throws {
        try Self.write(room: room, now: now, tokens: tokens, joinedByOthers: joinedByOthers, to: &output) { output in
            guard let event else { return false }
            // Written from the room event it stands for when it is that event's logged form, member for member;
            // any other value (decoded, made by hand) through the encoder.
            if let roomEvent = event.event, LoggedEvent(roomEvent) == event,
                try LoggedEvent.write(roomEvent, to: &output)
            {
                return true
            }
            output.verbatim(try StreamingJSONEncoder.encode(event))
            return true
        }
    }

    /// A change's JSON; `writeEvent` writes the event's member, if the change has one (and says so).
    static func write(
        room: String, now: Millis, tokens: [PlayerID: String]?, joinedByOthers: Bool?, to output: inout JSONOutput,
        event writeEvent: (inout JSONOutput) throws -> Bool
    ) throws {
        output.raw(#"{"room":"#)
        output.string(room)
        output.raw(#","now":"#)
        output.int(Int(now))
        // The key is written first and taken back when there is no event: the output is a value, cheap to cut.
        let beforeEvent = output.byteCount
        output.raw(#","event":"#)
        if try !writeEvent(&output) { output.truncate(to: beforeEvent) }
        if let tokens {
            output.raw(#","tokens":{"#)
            var first = true
            for (player, token) in tokens {
                if !first { output.byte(UInt8(ascii: ",")) }
                first = false
                output.string(player)
                output.byte(UInt8(ascii: ":"))
                output.string(token)
            }
            output.byte(UInt8(ascii: "}"))
        }
        if let joinedByOthers {
            output.raw(#","joinedByOthers":"#)
            output.bool(joinedByOthers)
        }
        output.byte(UInt8(ascii: "}"))
    }
}

extension LoggedEvent {
    /// Writes the logged form of `event` as `Encodable` writes it (`kind`, then the members the kind has, in
    /// declaration order) and returns `true`; a `start` has none, and nothing is written.
    static func write(_ event: RoomEvent, to output: inout JSONOutput) throws -> Bool {
        switch event {
        case .join(let name, let bot):
            output.raw(#"{"kind":"join","name":"#)
            output.string(name)
            output.raw(#","bot":"#)
            output.bool(bot)
        case .connected(let player):
            output.raw(#"{"kind":"connected","player":"#)
            output.string(player)
        case .disconnected(let player):
            output.raw(#"{"kind":"disconnected","player":"#)
            output.string(player)
        case .leave(let player):
            output.raw(#"{"kind":"leave","player":"#)
            output.string(player)
        case .move(let player, let message):
            output.raw(#"{"kind":"move","player":"#)
            output.string(player)
            output.raw(#","message":"#)
            try write(message, to: &output)
        case .tick:
            output.raw(#"{"kind":"tick""#)
        case .hostRestarted:
            output.raw(#"{"kind":"hostRestarted""#)
        case .start, .words, .moderatorPair:
            return false
        }
        output.byte(UInt8(ascii: "}"))
        return true
    }

    private static func write(_ message: ClientMessage, to output: inout JSONOutput) throws {
        switch message {
        case .pass: output.raw(#"{"type":"pass"}"#)
        case .start: output.raw(#"{"type":"start"}"#)
        case .leave: output.raw(#"{"type":"leave"}"#)
        case .vote(let vote): oneString(#"{"type":"vote","target":"#, vote.target, &output)
        case .clue(let clue): oneString(#"{"type":"clue","text":"#, clue.text, &output)
        case .guess(let guess): oneString(#"{"type":"guess","word":"#, guess.word, &output)
        case .kick(let kick): oneString(#"{"type":"kick","player":"#, kick.player, &output)
        case .claimAnswer(let answer):
            output.raw(#"{"type":"claim_answer","player":"#)
            output.string(answer.player)
            output.raw(#","allow":"#)
            output.bool(answer.allow)
            output.byte(UInt8(ascii: "}"))
        case .settings(let change):
            output.raw(#"{"type":"settings","settings":"#)
            change.write(to: &output)
            output.byte(UInt8(ascii: "}"))
        case .hello, .ping, .pong, .words, .wordsClear, .wordsExport, .moderator, .moderatorAnswer, .moderatorPair,
            .pause, .resume, .passTurn:
            output.verbatim(try StreamingJSONEncoder.encode(message))
        }
    }

    /// A message whose one member after its type is a string: `opening` ends with that member's key.
    private static func oneString(_ opening: StaticString, _ text: String, _ output: inout JSONOutput) {
        output.raw(opening)
        output.string(text)
        output.byte(UInt8(ascii: "}"))
    }
}

extension SettingsChange {
    /// The members present, in declaration order, as `Encodable` writes them.
    fileprivate func write(to output: inout JSONOutput) {
        var first = true
        func key(_ name: StaticString, _ output: inout JSONOutput) {
            if first {
                output.byte(UInt8(ascii: "{"))
                output.firstKey(name)
            } else {
                output.key(name)
            }
            first = false
        }
        func int(_ name: StaticString, _ value: Int?, _ output: inout JSONOutput) {
            guard let value else { return }
            key(name, &output)
            output.int(value)
        }
        func bool(_ name: StaticString, _ value: Bool?, _ output: inout JSONOutput) {
            guard let value else { return }
            key(name, &output)
            output.bool(value)
        }
        func word(_ name: StaticString, _ value: String?, _ output: inout JSONOutput) {
            guard let value else { return }
            key(name, &output)
            output.string(value)
        }
        int("maxPlayers", maxPlayers, &output)
        int("spies", spies, &output)
        bool("blank", blank, &output)
        word("clueMode", clueMode?.rawValue, &output)
        int("turnSeconds", turnSeconds, &output)
        int("voteSeconds", voteSeconds, &output)
        word("tieRule", tieRule?.rawValue, &output)
        bool("revealOut", revealOut, &output)
        word("blankRule", blankRule?.rawValue, &output)
        word("language", language?.rawValue, &output)
        bool("allowParty", allowParty, &output)
        if let categories {
            key("categories", &output)
            output.strings(categories)
        }
        word("spyWin", spyWin?.rawValue, &output)
        bool("spyLastChance", spyLastChance, &output)
        word("wordSource", wordSource?.rawValue, &output)
        if first {
            output.raw("{}")
        } else {
            output.byte(UInt8(ascii: "}"))
        }
    }
}
