import Foundation
import SpyProtocol

/// Guesses at the civilians' word: the blank voted out under the `guess` rule, a spy voted out under the spy's last
/// chance (the `guessing` phase), and the blank's guess once a round while the vote is open (`guessEachRound`).
extension Room {
    mutating func startGuessing(_ player: PlayerID, _ context: inout Context) {
        guard var game, let role = game.roles[player] else { return }
        game.guesser = player
        // Only a blank or a voted-out spy is asked to guess, and the question says which: it reveals the identity.
        game.revealed[player] = role
        self.game = game
        phase = .guessing
        deadline = actorDeadline(for: player, now: context.now)
        if let message = guessingMessage(now: context.now) { context.broadcast(.guessing(message)) }
    }

    func guessingMessage(now: Millis) -> ServerMessage.Guessing? {
        guard let game, let guesser = game.guesser else { return nil }
        return ServerMessage.Guessing(
            player: guesser, timerMs: deadline.map { Int(max(0, $0 - now)) }, timerKind: runningTimerKind,
            role: game.roles[guesser] == .spy ? .spy : nil)
    }

    mutating func guessWord(by player: PlayerID, _ word: String, _ context: inout Context) throws {
        if phase == .voting, settings.blankRule == .guessEachRound {
            try guessWhileVoting(by: player, word, &context)
            return
        }
        guard phase == .guessing, let game else { throw Rejection(.wrongPhase) }
        guard game.guesser == player else { throw Rejection(.notYourTurn, "Only the player asked to guess guesses.") }
        resolveGuess(try Self.checkedGuess(word), &context)
    }

    private static func checkedGuess(_ word: String) throws -> String {
        let trimmed = word.trimmingCharacters(in: .whitespacesAndNewlines)
        if let problem = Rules.checkText(trimmed) { throw problem }
        return trimmed
    }

    /// The guess of the player asked to guess (`nil`: the time ran out, or they left): right wins for their side,
    /// wrong lets the game go on without them.
    mutating func resolveGuess(_ guess: String?, _ context: inout Context) {
        guard var game, let guesser = game.guesser else { return }
        let role = game.roles[guesser] ?? .blank
        let correct = guess.map { Self.sameWord($0, game.civilianWord) } ?? false
        game.guesses = (game.guesses ?? []) + [.init(player: guesser, round: game.round, word: guess, correct: correct)]
        if role == .blank { game.blankGuess = guess }
        game.guesser = nil
        self.game = game
        deadline = nil
        context.announce(.guessResult(.init(player: guesser, role: role, correct: correct)))
        if correct {
            finish(role == .spy ? .spies : .blank, &context)
        } else if !finishIfOver(&context) {
            beginRound(&context)
        }
    }

    /// `guessEachRound`: the blank, still in, guesses while a vote is open. Right wins for the blank at once; wrong
    /// puts the blank out (revealed), their ballot and the ballots for them are dropped, and the vote goes on. The
    /// vote never waits for the guess, so nothing tells the table who the blank is before they guess.
    private mutating func guessWhileVoting(by player: PlayerID, _ word: String, _ context: inout Context) throws {
        guard var game, game.isIn(player) else { throw Rejection(.notPlaying) }
        guard game.roles[player] == .blank else { throw Rejection(.notYourTurn, "Only the blank guesses.") }
        let guess = try Self.checkedGuess(word)
        let correct = Self.sameWord(guess, game.civilianWord)
        game.guesses = (game.guesses ?? []) + [.init(player: player, round: game.round, word: guess, correct: correct)]
        game.blankGuess = guess
        if correct {
            self.game = game
            context.announce(.guessResult(.init(player: player, role: .blank, correct: true)))
            finish(.blank, &context)
            return
        }
        let pkBroken = game.pk.contains(player) && game.pk.count <= 2
        game.out.insert(player)
        game.revealed[player] = .blank
        game.noteOut(.init(player: player, round: game.round, reason: .guessed))
        game.takeOutOfVote(player)
        self.game = game
        context.broadcast(.guessResult(.init(player: player, role: .blank, correct: false, out: true)))
        context.log("round \(game.round): a guess put \(player) out")
        if finishIfOver(&context) { return }
        if pkBroken {
            // A PK needs two players; with one left the round is settled by the guess.
            beginRound(&context)
            return
        }
        context.broadcast(.voteProgress(progressMessage(now: context.now)))
        closeVoteIfComplete(&context)
    }

    static func sameWord(_ lhs: String, _ rhs: String) -> Bool {
        TextFold.key(lhs).filter { !$0.isWhitespace } == TextFold.key(rhs).filter { !$0.isWhitespace }
    }
}

extension Game {
    /// A player out of the game is out of the vote too: no ballot, no candidate, no ballots for them, no PK seat.
    mutating func takeOutOfVote(_ player: PlayerID) {
        pk.removeAll { $0 == player }
        voters.removeAll { $0 == player }
        candidates.removeAll { $0 == player }
        ballots[player] = nil
        ballots = ballots.filter { $0.value != player }
    }
}
