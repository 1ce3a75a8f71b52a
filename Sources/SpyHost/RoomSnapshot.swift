import SpyBank
import SpyGame
import SpyProtocol

/// Everything needed to carry a room across a restart: the room (with its words and rng), the resume tokens,
/// and what the bots remember.
package struct RoomSnapshot: Codable, Equatable, Sendable {
    /// Layout version of this file.
    package var format = 1
    /// The room itself.
    package var room: Room
    /// Each seated player's resume token.
    package var tokens: [PlayerID: String]
    /// Whether the room was opened at start (and stays open while empty).
    package var permanent: Bool
    /// What the room's bots know.
    package var bots: BotMemory
    /// Whether anyone but the client that opened the room has joined it (absent in older files).
    package var joinedByOthers: Bool?
    /// Wall-clock ms when the host wrote this snapshot into its journal (absent in older files).
    package var savedAt: Int64?

    package init(
        room: Room, tokens: [PlayerID: String], permanent: Bool, bots: BotMemory, joinedByOthers: Bool? = nil,
        savedAt: Int64? = nil
    ) {
        self.room = room
        self.tokens = tokens
        self.permanent = permanent
        self.bots = bots
        self.joinedByOthers = joinedByOthers
        self.savedAt = savedAt
    }

    /// Why the parts around the room cannot be trusted, if they cannot (the room has `Room.integrityProblem`).
    /// Tokens are as `ResumeToken.make` writes them: a short one would be guessable, a huge one copied on every
    /// resume attempt. The bots remember a table's cards at most, of words a bank could hold, from games dealt.
    package var integrityProblem: String? {
        let hexDigits = Set("0123456789abcdef".utf8)
        for (player, token) in tokens where token.utf8.count != 32 || !token.utf8.allSatisfy(hexDigits.contains) {
            return "the resume token of \(player.prefix(8)) is not one the host makes"
        }
        if let savedAt, !(0...Room.maxLoadedDeadline).contains(savedAt) { return "savedAt out of range" }
        guard bots.cards.count <= Rules.maxTableSize else { return "\(bots.cards.count) bot cards" }
        for card in bots.cards.values {
            guard (0...room.latestGame).contains(card.game) else { return "a bot card of game \(card.game)" }
            if let word = card.word,
                word.count > BankParser.maxWordLength || word.utf8.count > 4 * BankParser.maxWordLength
            {
                return "a bot's word is longer than a bank word"
            }
        }
        if let voting = bots.voting,
            voting.candidates.count > Rules.maxTableSize || voting.voters.count > Rules.maxTableSize
        {
            return "a remembered vote larger than a table"
        }
        return nil
    }
}
