import Foundation
import SpyProtocol

/// The numbers and decisions of the game that do not depend on a room's history, kept apart so that
/// docs/RULES.md and the tests can point at one place.
public enum Rules {
    /// Fewest seated players a game can start with.
    public static let minPlayers = 4
    /// Largest table a room may be set to.
    public static let maxTableSize = 20
    /// Longest name, in terminal columns (CJK characters count two); see `PlayerText` for the other bounds.
    public static let maxNameColumns = PlayerText.maxNameColumns
    /// Longest clue or guess, in characters; see `PlayerText` for the other bounds.
    public static let maxClueCharacters = PlayerText.maxClueCharacters
    /// Most recent clues a room snapshot carries, so a long typed game never outgrows the largest frame.
    public static let cluesInView = 40
    /// Most categories a room may filter on.
    public static let maxCategories = 32
    /// Longest category name, in characters.
    public static let maxCategoryCharacters = PlayerText.maxCategoryCharacters
    /// Allowed timer lengths in seconds (0 turns the timer off).
    public static let timerSeconds = 10...600
    /// How long an absent speaker (or guessing blank) keeps the table waiting when no turn timer is set.
    public static let absentTurnMillis: Millis = 20_000
    /// How long an owner may be away in the lobby or at game over before the room passes to someone connected.
    public static let ownerAwayMillis: Millis = 30_000
    /// How long a claim of an away seat waits for its approval.
    public static let claimMillis: Millis = 60_000
    /// Points every player on the winning side gets.
    public static let winPoints = 2
    /// Extra points for winners still in at the end.
    public static let survivorBonus = 1
    /// Finished games a room keeps in its history; older ones are dropped first.
    public static let maxHistoryGames = 100
    /// Game records per `history` message, so the largest records still fit one frame.
    public static let historyGamesPerMessage = 6
    /// Most pairs a room's own list holds.
    public static let maxRoomPairs = 500
    /// Most UTF-8 bytes of words a room's own list holds, so its export fits one frame.
    public static let maxRoomWordBytes = 24 * 1024
    /// Largest text of one `words` message, in UTF-8 bytes.
    public static let maxWordListTextBytes = 48 * 1024
    /// Refused lines a `words_report` lists one by one (or run by run); the rest are counted.
    public static let maxReportedRefusals = 200
    /// Prefix of the name given to a player who joins without one: 玩家1, 玩家2, …
    public static let defaultNamePrefix = "玩家"

    /// Checks a whole settings value a room would run with. Start re-checks the table itself.
    public static func validate(_ settings: GameSettings, seated: Int) -> Rejection? {
        guard (minPlayers...maxTableSize).contains(settings.maxPlayers) else {
            return Rejection(.badSettings, "Players must be \(minPlayers) to \(maxTableSize).")
        }
        guard settings.maxPlayers >= seated else {
            return Rejection(.badSettings, "\(seated) players are already seated.")
        }
        guard settings.spies >= 1 else { return Rejection(.badSettings, "A game needs at least one spy.") }
        for seconds in [settings.turnSeconds, settings.voteSeconds]
        where seconds != 0 && !timerSeconds.contains(seconds) {
            return Rejection(
                .badSettings, "Timers are 0 (off) or \(timerSeconds.lowerBound) to \(timerSeconds.upperBound) s.")
        }
        guard settings.categories.count <= maxCategories else {
            return Rejection(.badSettings, "At most \(maxCategories) categories.")
        }
        for category in settings.categories {
            let trimmed = category.trimmingCharacters(in: .whitespacesAndNewlines)
            let problem = PlayerText.textProblem(
                trimmed, maxCharacters: maxCategoryCharacters, maxBytes: PlayerText.maxCategoryBytes)
            if problem != nil || TextFold.hasControlCharacters(category) {
                return Rejection(
                    .badSettings,
                    "Category names are 1 to \(maxCategoryCharacters) characters "
                        + "(\(PlayerText.maxCategoryBytes) bytes), without control characters.")
            }
        }
        // Checked after every `bad_settings`, as the protocol lists the refusals. Limited by the largest table the
        // room allows, so the owner can pick spies before everyone arrives.
        let spyLimit = maxSpies(forPlayers: settings.maxPlayers)
        guard settings.spies <= spyLimit else {
            return Rejection(.tooManySpies, "Up to \(settings.maxPlayers) players allow at most \(spies(spyLimit)).")
        }
        return nil
    }

    /// The most spies a table of `players` allows: 1 below 6 players, 2 for 6 to 9, 3 from 10.
    public static func maxSpies(forPlayers players: Int) -> Int {
        min(3, GameSettings.maxSpies(forPlayers: players))
    }

    /// "1 spy", "2 spies".
    static func spies(_ count: Int) -> String {
        count == 1 ? "1 spy" : "\(count) spies"
    }

    /// Why a table of `players` cannot start with `settings`, if it cannot.
    public static func startProblem(_ settings: GameSettings, players: Int) -> Rejection? {
        guard players >= minPlayers else {
            return Rejection(
                .tooFewPlayers, "At least \(minPlayers) players are needed to start; \(players) are seated.",
                need: minPlayers, have: players)
        }
        // Every `too_few_players` comes before `too_many_spies`, as the protocol lists the refusals.
        if settings.blank && !civiliansAreMajority(players: players, spies: settings.spies, blank: true) {
            let needed = 2 * (settings.spies + 1) + 1
            return Rejection(
                .tooFewPlayers,
                "\(spies(settings.spies)) and the blank need at least \(needed) players; \(players) are seated.",
                need: needed, have: players)
        }
        let spyLimit = maxSpies(forPlayers: players)
        guard settings.spies >= 1, settings.spies <= spyLimit else {
            return Rejection(.tooManySpies, "\(players) players allow at most \(spies(spyLimit)).")
        }
        return nil
    }

    /// The blank may only join a table where civilians outnumber spies and blank together.
    public static func civiliansAreMajority(players: Int, spies: Int, blank: Bool) -> Bool {
        let others = spies + (blank ? 1 : 0)
        return players - others > others
    }

    /// The end conditions, checked after every elimination in this order.
    /// - Parameters:
    ///   - spies: spies still in.
    ///   - others: civilians and blank still in.
    ///   - blankIn: whether the blank is still in.
    ///   - spyWin: `.three` (the seed's rule) lets spies win only with three players or fewer left; `.parity` also
    ///     as soon as they are at least as many as the others.
    public static func winner(
        spies: Int, others: Int, blankIn: Bool, blankRule: BlankRule, spyWin: SpyWin = .three
    ) -> Winner? {
        if spies == 0 && blankIn && blankRule == .survive { return .blank }
        if spies == 0 { return .civilians }
        if spies + others <= 3 { return .spies }
        if spyWin == .parity && spies >= others { return .spies }
        return nil
    }

    /// Points a player earns from one game.
    public static func points(role: Role, winner: Winner, survived: Bool) -> Int {
        let won: Bool
        switch winner {
        case .civilians: won = role == .civilian
        case .spies: won = role == .spy
        case .blank: won = role == .blank
        }
        guard won else { return 0 }
        return winPoints + (survived ? survivorBonus : 0)
    }

    /// Why a name is refused, if it is: `name` is the normalised form of `raw`, which is not empty (an empty
    /// name gets a default name instead). The code is always `bad_name`; the message says what was wrong.
    static func checkName(_ name: String, raw: String) -> Rejection? {
        PlayerText.nameProblem(name, raw: raw).map { Rejection(.badName, $0.message) }
    }

    /// Why a trimmed clue or guess is refused, if it is.
    static func checkText(_ trimmed: String) -> Rejection? {
        PlayerText.clueProblem(trimmed).map { Rejection(.badClue, $0.message) }
    }
}
