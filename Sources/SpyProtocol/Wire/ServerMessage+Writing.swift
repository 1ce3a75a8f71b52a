/// Server messages written to JSON by hand, the host's side of the wire.
///
/// The same JSON as `Encodable` through `StreamingJSONEncoder` (the reference in tests), byte for byte: `type` first,
/// then each type's fields in declaration order (`GameSettings` in its `CodingKeys` order), an absent optional left
/// out. `Encodable` would spend more than half the host's instructions under load, nearly all of it on the room
/// snapshot sent after every public change; this writes the bytes directly.
extension ServerMessage {
    /// The JSON payload, after `leadingBytes` zero bytes (room for a frame header).
    func jsonBytes(leadingBytes: Int = 0) -> [UInt8] {
        var output = JSONOutput(leadingBytes: leadingBytes, capacity: estimatedSize)
        write(to: &output)
        return output.finish()
    }

    /// About how many bytes the JSON takes, so the output is allocated once in the usual case.
    private var estimatedSize: Int {
        switch self {
        case .room(let view): return 512 + 160 * view.seats.count + 64 * view.clues.count
        case .welcome(let body): return 192 + 80 * (body.categories?.count ?? 0)
        case .gameOver(let body): return 256 + 64 * body.reveal.count
        case .voteResult(let body): return 192 + 48 * body.tally.count
        default: return 160
        }
    }

    func write(to output: inout JSONOutput) {
        switch self {
        case .welcome(let body): body.write(to: &output)
        case .room(let body): body.writeMessage(to: &output)
        case .deal(let body): body.write(to: &output)
        case .turn(let body): body.write(to: &output)
        case .clue(let body):
            output.open(type: "clue")
            body.writeMembers(to: &output)
            output.byte(UInt8(ascii: "}"))
        case .voting(let body): body.write(to: &output)
        case .voteProgress(let body): body.write(to: &output)
        case .voteResult(let body): body.write(to: &output)
        case .guessing(let body): body.write(to: &output)
        case .guessResult(let body):
            output.open(type: "guess_result")
            output.key("player")
            output.string(body.player)
            output.key("role")
            output.string(body.role.rawValue)
            output.key("correct")
            output.bool(body.correct)
            output.key("out")
            output.bool(body.out)
            output.byte(UInt8(ascii: "}"))
        case .gameOver(let body): body.write(to: &output)
        case .pong(let body):
            output.open(type: "pong")
            output.key("id")
            output.int(body.id)
            output.byte(UInt8(ascii: "}"))
        case .ping(let body):
            output.open(type: "ping")
            output.key("id")
            output.int(body.id)
            output.byte(UInt8(ascii: "}"))
        case .error(let body): body.write(to: &output)
        case .bye(let body):
            output.open(type: "bye")
            output.key("reason")
            output.string(body.reason)
            output.byte(UInt8(ascii: "}"))
        case .claimPending(let body):
            output.open(type: "claim_pending")
            output.key("player")
            output.string(body.player)
            output.byte(UInt8(ascii: "}"))
        case .claimDone(let body):
            output.open(type: "claim_done")
            output.key("player")
            output.string(body.player)
            output.byte(UInt8(ascii: "}"))
        case .claim(let body):
            output.open(type: "claim")
            output.key("player")
            output.string(body.player)
            output.key("name")
            output.string(body.name)
            output.byte(UInt8(ascii: "}"))
        case .owner(let body):
            output.open(type: "owner")
            output.key("player")
            output.string(body.player)
            output.key("previous")
            output.string(body.previous)
            if let reason = body.reason {
                output.key("reason")
                output.string(reason.rawValue)
            }
            output.byte(UInt8(ascii: "}"))
        case .history, .wordsReport, .wordList, .moderator, .moderatorOffer, .moderatorDeclined, .moderatorView:
            // Sent at a game's end, on arrival or to one owner, never on the busy path: the reference encoder
            // writes them.
            output.verbatim((try? StreamingJSONEncoder.encode(self)) ?? [])
        }
    }
}

extension ServerMessage.Welcome {
    fileprivate func write(to output: inout JSONOutput) {
        output.open(type: "welcome")
        output.key("protocol")
        output.int(`protocol`)
        output.key("you")
        output.string(you)
        output.key("token")
        output.string(token)
        output.key("room")
        output.string(room)
        output.key("resumed")
        output.bool(resumed)
        if let categories {
            output.key("categories")
            output.array(categories) { output, category in
                output.byte(UInt8(ascii: "{"))
                output.firstKey("name")
                output.string(category.name)
                output.key("language")
                output.string(category.language.rawValue)
                output.key("pairs")
                output.int(category.pairs)
                output.key("partyPairs")
                output.int(category.partyPairs)
                output.byte(UInt8(ascii: "}"))
            }
        }
        if let watch {
            output.key("watch")
            output.bool(watch)
        }
        output.byte(UInt8(ascii: "}"))
    }
}

extension RoomView {
    fileprivate func writeMessage(to output: inout JSONOutput) {
        output.open(type: "room")
        output.key("room")
        output.string(room)
        output.key("phase")
        output.string(phase.rawValue)
        output.key("game")
        output.int(game)
        output.key("round")
        output.int(round)
        output.key("settings")
        settings.write(to: &output)
        output.key("seats")
        output.array(seats) { output, seat in seat.write(to: &output) }
        if let turn {
            output.key("turn")
            output.string(turn)
        }
        output.key("pk")
        output.strings(pk)
        output.key("clues")
        output.array(clues) { output, clue in
            output.byte(UInt8(ascii: "{"))
            output.firstKey("player")
            output.string(clue.player)
            output.key("round")
            output.int(clue.round)
            if let text = clue.text {
                output.key("text")
                output.string(text)
            }
            output.byte(UInt8(ascii: "}"))
        }
        if let timerMs {
            output.key("timerMs")
            output.int(timerMs)
        }
        if let timerKind {
            output.key("timerKind")
            output.string(timerKind.rawValue)
        }
        if let winner {
            output.key("winner")
            output.string(winner.rawValue)
        }
        if let wordCount {
            output.key("wordCount")
            output.int(wordCount)
        }
        if let paused {
            output.key("paused")
            output.bool(paused)
        }
        output.byte(UInt8(ascii: "}"))
    }
}

extension GameSettings {
    fileprivate func write(to output: inout JSONOutput) {
        output.byte(UInt8(ascii: "{"))
        output.firstKey("maxPlayers")
        output.int(maxPlayers)
        output.key("spies")
        output.int(spies)
        output.key("blank")
        output.bool(blank)
        output.key("clueMode")
        output.string(clueMode.rawValue)
        output.key("turnSeconds")
        output.int(turnSeconds)
        output.key("voteSeconds")
        output.int(voteSeconds)
        output.key("tieRule")
        output.string(tieRule.rawValue)
        output.key("revealOut")
        output.bool(revealOut)
        output.key("blankRule")
        output.string(blankRule.rawValue)
        output.key("spyWin")
        output.string(spyWin.rawValue)
        output.key("spyLastChance")
        output.bool(spyLastChance)
        output.key("wordSource")
        output.string(wordSource.rawValue)
        output.key("language")
        output.string(language.rawValue)
        output.key("allowParty")
        output.bool(allowParty)
        output.key("categories")
        output.strings(categories)
        output.byte(UInt8(ascii: "}"))
    }
}

extension SeatView {
    fileprivate func write(to output: inout JSONOutput) {
        output.byte(UInt8(ascii: "{"))
        output.firstKey("id")
        output.string(id)
        output.key("seat")
        output.int(seat)
        output.key("name")
        output.string(name)
        output.key("owner")
        output.bool(owner)
        output.key("connected")
        output.bool(connected)
        output.key("bot")
        output.bool(bot)
        output.key("alive")
        output.bool(alive)
        output.key("voted")
        output.bool(voted)
        if let revealed {
            output.key("revealed")
            output.string(revealed.rawValue)
        }
        output.key("score")
        output.int(score)
        if let sittingOut {
            output.key("sittingOut")
            output.bool(sittingOut)
        }
        if let left {
            output.key("left")
            output.bool(left)
        }
        if let moderator {
            output.key("moderator")
            output.bool(moderator)
        }
        output.byte(UInt8(ascii: "}"))
    }
}

extension ClueView {
    /// The members after `type` of a `clue` message.
    fileprivate func writeMembers(to output: inout JSONOutput) {
        output.key("player")
        output.string(player)
        output.key("round")
        output.int(round)
        if let text {
            output.key("text")
            output.string(text)
        }
    }
}

extension ServerMessage.Deal {
    fileprivate func write(to output: inout JSONOutput) {
        output.open(type: "deal")
        output.key("game")
        output.int(game)
        if let word {
            output.key("word")
            output.string(word)
        }
        output.key("blank")
        output.bool(blank)
        output.byte(UInt8(ascii: "}"))
    }
}

extension ServerMessage.Turn {
    fileprivate func write(to output: inout JSONOutput) {
        output.open(type: "turn")
        output.key("round")
        output.int(round)
        output.key("player")
        output.string(player)
        output.key("pk")
        output.bool(pk)
        output.optionalTimer(timerMs, timerKind)
        output.byte(UInt8(ascii: "}"))
    }
}

extension ServerMessage.Voting {
    fileprivate func write(to output: inout JSONOutput) {
        output.open(type: "voting")
        output.key("round")
        output.int(round)
        output.key("candidates")
        output.strings(candidates)
        output.key("voters")
        output.strings(voters)
        output.key("pk")
        output.bool(pk)
        if let timerMs {
            output.key("timerMs")
            output.int(timerMs)
        }
        if let ballot {
            output.key("ballot")
            output.string(ballot)
        }
        output.byte(UInt8(ascii: "}"))
    }
}

extension ServerMessage.VoteProgress {
    fileprivate func write(to output: inout JSONOutput) {
        output.open(type: "vote_progress")
        output.key("voted")
        output.strings(voted)
        output.key("waiting")
        output.strings(waiting)
        if let abstaining {
            output.key("abstaining")
            output.strings(abstaining)
        }
        output.byte(UInt8(ascii: "}"))
    }
}

extension ServerMessage.VoteResult {
    fileprivate func write(to output: inout JSONOutput) {
        output.open(type: "vote_result")
        output.key("round")
        output.int(round)
        output.key("tally")
        output.array(tally) { output, entry in
            output.byte(UInt8(ascii: "{"))
            output.firstKey("player")
            output.string(entry.player)
            output.key("voters")
            output.strings(entry.voters)
            output.byte(UInt8(ascii: "}"))
        }
        output.key("abstained")
        output.strings(abstained)
        output.key("outcome")
        output.string(outcome.rawValue)
        if let out {
            output.key("out")
            output.string(out)
        }
        if let identity {
            output.key("identity")
            output.string(identity.rawValue)
        }
        output.key("tied")
        output.strings(tied)
        output.byte(UInt8(ascii: "}"))
    }
}

extension ServerMessage.Guessing {
    fileprivate func write(to output: inout JSONOutput) {
        output.open(type: "guessing")
        output.key("player")
        output.string(player)
        output.optionalTimer(timerMs, timerKind)
        if let role {
            output.key("role")
            output.string(role.rawValue)
        }
        output.byte(UInt8(ascii: "}"))
    }
}

extension ServerMessage.GameOver {
    fileprivate func write(to output: inout JSONOutput) {
        output.open(type: "game_over")
        output.key("game")
        output.int(game)
        output.key("winner")
        output.string(winner.rawValue)
        output.key("civilianWord")
        output.string(civilianWord)
        output.key("spyWord")
        output.string(spyWord)
        output.key("reveal")
        output.array(reveal) { output, entry in
            output.byte(UInt8(ascii: "{"))
            output.firstKey("player")
            output.string(entry.player)
            output.key("role")
            output.string(entry.role.rawValue)
            if let word = entry.word {
                output.key("word")
                output.string(word)
            }
            output.byte(UInt8(ascii: "}"))
        }
        if let blankGuess {
            output.key("blankGuess")
            output.string(blankGuess)
        }
        output.key("scores")
        output.array(scores) { output, entry in
            output.byte(UInt8(ascii: "{"))
            output.firstKey("player")
            output.string(entry.player)
            output.key("score")
            output.int(entry.score)
            output.byte(UInt8(ascii: "}"))
        }
        output.byte(UInt8(ascii: "}"))
    }
}

extension ServerMessage.ErrorMessage {
    fileprivate func write(to output: inout JSONOutput) {
        output.open(type: "error")
        output.key("code")
        output.string(code.rawValue)
        output.key("message")
        output.string(message)
        if let need {
            output.key("need")
            output.int(need)
        }
        if let have {
            output.key("have")
            output.int(have)
        }
        output.byte(UInt8(ascii: "}"))
    }
}

extension JSONOutput {
    /// `timerMs` and `timerKind`, each when present.
    fileprivate mutating func optionalTimer(_ milliseconds: Int?, _ kind: TimerKind?) {
        if let milliseconds {
            key("timerMs")
            int(milliseconds)
        }
        if let kind {
            key("timerKind")
            string(kind.rawValue)
        }
    }
}
