import SpyProtocol

/// Milliseconds on the client's clock (monotonic in the shell, anything in tests).
typealias Millis = Int64

/// Languages the client speaks, by BCP 47 tag.
enum Language: String, Sendable, Equatable, CaseIterable {
    /// Traditional Chinese, as written in Taiwan.
    case zhTW = "zh-TW"
    /// Simplified Chinese, as written on the mainland.
    case zhHans = "zh-Hans"
    /// English.
    case en

    /// The language a locale or language tag names (`zh_CN.UTF-8`, `zh-Hant`, `en-GB`), read as the host reads its
    /// locale (`BankLanguage.locale`); nil for any other language, so the caller decides.
    init?(tag: String) {
        let primary = tag.lowercased().prefix { $0.isLetter }
        switch primary {
        case "zh": self = BankLanguage.locale(tag) == .zhTW ? .zhTW : .zhHans
        case "en": self = .en
        default: return nil
        }
    }

    /// The one of three texts written for this language.
    func pick(_ zhTW: String, _ zhHans: String, _ en: String) -> String {
        switch self {
        case .zhTW: zhTW
        case .zhHans: zhHans
        case .en: en
        }
    }
}

/// The word this client was dealt, held only in this process so that "forgot my word" needs no network.
struct DealtWord: Equatable, Sendable {
    /// Game number the word belongs to.
    var game: Int
    /// The word; nil for the blank.
    var word: String?
}

/// Whether the word panel shows the word.
enum WordVisibility: Equatable, Sendable {
    /// Just dealt: shown until the next key.
    case justDealt
    /// Hidden from a neighbour's glance.
    case hidden
    /// Recalled with `f`: shown until `until` or the next key.
    case recalled(until: Millis)
}

/// A terminal's size in columns and rows.
struct TerminalSize: Equatable, Sendable {
    var columns: Int
    var rows: Int
}

/// The state of the link to the host, as the player should see it.
enum LinkStatus: Equatable, Sendable {
    /// First connection under way.
    case connecting
    /// Joined and talking.
    case connected
    /// The connection dropped; trying again (attempt number, starting at 1).
    case reconnecting(attempt: Int)
    /// Over for good.
    case closed
}

/// Something worth a line in the event log, with names resolved when it happened.
enum LogEvent: Equatable, Sendable {
    /// A seat was taken.
    case joined(name: String)
    /// A player who was away is connected again (or this player resumed their seat).
    case back(name: String)
    /// A player's connection dropped; their seat is kept.
    case away(name: String)
    /// A player gave up their seat.
    case left(name: String)
    /// The owner changed the settings (the new ones).
    case settingsChanged(GameSettings)
    /// A new game was dealt.
    case gameStarted(game: Int)
    /// Someone's turn to describe.
    case turn(name: String, isMe: Bool, pk: Bool)
    /// A clue (typed) or a finished spoken turn (nil text).
    case clue(name: String, text: String?)
    /// The vote opened; `choices` are the seats this player may pick ("4 陳美玲"), empty when it may not vote.
    case votingOpened(pk: Bool, choices: [String])
    /// A voter put a ballot in (never for whom); line mode says it, the screen shows ✓ in the table instead.
    case voted(name: String)
    /// One line of the tally: who voted for `name`.
    case tally(name: String, voters: [String])
    /// The vote sent a player out, with their identity when the room reveals it.
    case votedOut(name: String, identity: Role?)
    /// Voters without a ballot when the vote closed.
    case abstained(names: [String])
    /// A tie: the tied players go to a PK.
    case pk(names: [String])
    /// Nobody goes out this round.
    case nobodyOut
    /// The blank guesses the civilians' word.
    case guessing(name: String, isMe: Bool)
    /// A spy voted out guesses the civilians' word (the spy's last chance).
    case lastChance(name: String, isMe: Bool)
    /// A guess at the civilians' word was decided; `out` when it put the blank out.
    case guessResult(name: String, role: Role, correct: Bool, out: Bool)
    /// The game is over.
    case gameOver(winner: Winner, civilianWord: String, spyWord: String)
    /// The blank's guess at the civilians' word.
    case blankGuess(name: String, guess: String)
    /// One player's revealed role and word at game over.
    case reveal(name: String, role: Role, word: String?)
    /// The host refused something or ended the connection; `need` and `have` carry its numbers, when it gave any.
    case problem(code: ErrorCode, message: String, need: Int? = nil, have: Int? = nil)
    /// Connection news.
    case link(LinkStatus)
    /// The host closed the connection for a reason.
    case bye(reason: String)
    /// The player's own word, recalled in line mode.
    case ownWord(String?)
    /// A local message for the player (a bad command, a hint).
    case hint(Hint)
    /// The room has a new owner.
    case ownerChanged(name: String, isMe: Bool)
    /// Someone who typed `name` asks for the away seat of `seat` back; this player approves (y/n).
    case claimAsked(seat: String, name: String)
    /// News of the evening's features: the history's export, the room's own words, the moderator.
    case evening(EveningNote)
}

/// A local message that needs no host.
enum Hint: Equatable, Sendable {
    /// The command line could not be read.
    case unknownCommand(String)
    /// No seat with that number can be chosen.
    case noSuchSeat(String)
    /// No word has been dealt yet.
    case noWordYet
    /// Only the owner may do that.
    case ownerOnly
    /// That is not possible now.
    case notNow
    /// The list of line-mode commands.
    case help
    /// The vote for a player was sent.
    case ballotSent(name: String)
    /// Nobody votes for themselves.
    case cannotVoteForYourself
    /// That player is out (or, in a PK, not one of the tied) and cannot be chosen.
    case cannotChoose(name: String)
    /// This player has no ballot in this vote.
    case noBallot
    /// Someone else is speaking.
    case turnOf(name: String)
    /// Line mode: how to see the word again.
    case wordHidden
}

/// What the screen asks of the player at the bottom line.
enum Prompt: Equatable, Sendable {
    /// Nothing special: keys act directly.
    case none
    /// Typing a clue.
    case clue(LineEditor)
    /// Typing the blank's guess.
    case guess(LineEditor)
    /// Typing the seat number to kick.
    case kick(LineEditor)
    /// The moderator typing the next game's pair.
    case pair(LineEditor)
    /// "Vote X out?" waiting for y/n.
    case confirmVote(PlayerID)
    /// "Leave the game?" waiting for y/n.
    case confirmLeave
    /// The owner choosing language, categories and party pairs (CategoryPicker.swift).
    case categories(CategoryPicker)
}

/// What the shell should do after a key or command, besides sending messages.
enum UIAction: Equatable, Sendable {
    /// Keep going.
    case none
    /// Exit; `leave` tells whether the seat was given up (a `leave` message was sent) or kept for later.
    case quit(leave: Bool)
    /// Write the evening's history to these files (the format by each name's ending).
    case exportHistory([String])
    /// Read this file and send it as the room's own word list.
    case uploadWords(String)
}

/// The result of a key or a command.
struct Reaction: Equatable, Sendable {
    var messages: [ClientMessage] = []
    var action: UIAction = .none
}

/// Everything the client knows, changed only by messages from the host, keys, commands and the clock.
struct ClientState: Equatable, Sendable {
    /// How long `f` shows the word.
    static let recallMillis: Millis = 5_000
    /// How many log events are kept.
    static let logLimit = 200
    /// How many finished games are kept (a host keeps no more).
    static let historyLimit = 100

    var language: Language
    /// This player's id, from `welcome`.
    var me: PlayerID?
    /// Room code, from `welcome`.
    var roomCode: String?
    /// The categories of the host's bank, from `welcome` (empty when the host sends none).
    var bankCategories: [BankCategory] = []
    /// The latest public state.
    var room: RoomView?
    /// The word dealt to this player, only ever from a `deal` addressed to it.
    var dealt: DealtWord?
    var wordVisibility: WordVisibility = .hidden
    /// The last events, oldest first (at most `logLimit`).
    var log: [LogEvent] = []
    /// How many events were ever recorded, so a printer can tell which are new after old ones were dropped.
    var recorded = 0
    /// The open vote, if any.
    var voting: ServerMessage.Voting?
    /// The ballot this player sent in the open vote.
    var ballot: PlayerID?
    /// The highlighted candidate while voting.
    var cursor: PlayerID?
    /// Digits typed to pick a seat by number.
    var seatDigits = ""
    var prompt: Prompt = .none
    /// The latest refusal from the host or local hint, shown on the status line until the next key.
    var notice: LogEvent?
    /// The blank's guess in progress.
    var guessing: ServerMessage.Guessing?
    /// The latest game over, shown until the next deal.
    var gameOver: ServerMessage.GameOver?
    var link: LinkStatus = .connecting
    /// The last turn logged (game/round/player/pk), so a turn is announced once.
    var lastTurnAnnounced = ""
    /// The last vote logged (game/round/pk).
    var lastVoteAnnounced = ""
    /// When the running turn or vote timer ends, on the client's clock.
    var timerEnds: Millis?
    /// Whether the running timer is the wait for an absent player rather than a configured timer.
    var timerIsAbsence = false
    /// The details page (every seat, the settings, the whole log), scrolled this many lines; nil when closed.
    var details: Int?
    /// Terminal size the screen was last drawn at, so the details page scrolls within what exists.
    var viewport = TerminalSize(columns: 80, rows: 24)
    /// Whether `welcome` said this connection took back an existing seat.
    var resumed = false
    /// Back after a dropped connection: the deal that follows is said again in line mode.
    var sayWordAgain = false
    /// A claim of an away seat this player was asked to approve, until it is answered or ends.
    var claimQuestion: ServerMessage.Claim?
    /// The room's finished games, oldest first, one record per game number.
    var history: [GameRecord] = []
    /// The room's own list as the host last sent it for an export (owner only), until the shell writes it.
    var ownWords: [ListedPair]?
    /// Where that export goes, once asked for.
    var wordsExportPath: String?
    /// What only the moderator sees, while this player is the moderator.
    var moderatorView: ModeratorView?
    /// The owner asked this player to moderate, and the answer (y/n) is awaited.
    var moderatorAsked = false
    /// The number of a game that started without a deal for this player, until its snapshot says so.
    var startedUndealt: Int?
    /// `--words FILE`, and whether it has gone to the host (the first time this player owned the room).
    var wordsFile: String?
    var wordsFileSent = false

    init(language: Language) {
        self.language = language
    }

    // MARK: Queries

    /// This player's seat.
    var mySeat: SeatView? { room?.seats.first { $0.id == me } }

    /// Whether this player owns the room.
    var isOwner: Bool { mySeat?.owner ?? false }

    /// Whether it is this player's turn to describe.
    var isMyTurn: Bool { room?.phase == .describing && room?.turn != nil && room?.turn == me }

    /// Whether this player may vote now.
    var canVote: Bool { voting.map { vote in me.map { vote.voters.contains($0) } ?? false } ?? false }

    /// Whether a game is running (a leave now gives up a seat mid-game).
    var inGame: Bool {
        switch room?.phase {
        case .describing?, .voting?, .guessing?: return true
        default: return false
        }
    }

    /// Whether the word panel shows the word at `now`.
    func wordShown(at now: Millis) -> Bool {
        switch wordVisibility {
        case .justDealt: return true
        case .hidden: return false
        case .recalled(let until): return now < until
        }
    }

    /// The players this player may vote for, in seat order.
    var voteCandidates: [SeatView] {
        guard let voting, let room else { return [] }
        return room.seats.filter { voting.candidates.contains($0.id) && $0.id != me }
    }

    func seat(_ id: PlayerID?) -> SeatView? { room?.seats.first { $0.id == id } }

    func name(_ id: PlayerID?) -> String { seat(id)?.name ?? id ?? "?" }

    /// The next moment the screen changes by itself (the word hides again, a timer second ticks).
    func nextWake(after now: Millis) -> Millis? {
        var wake: Millis?
        if case .recalled(let until) = wordVisibility, until > now { wake = until }
        if let timerEnds, timerEnds > now {
            let nextSecond = now + max(1, (timerEnds - now) % 1000)
            wake = min(wake ?? nextSecond, nextSecond)
        }
        return wake
    }

    // MARK: Messages from the host

    /// Folds one message from the host into the state.
    mutating func apply(_ message: ServerMessage, now: Millis) {
        switch message {
        case .welcome(let welcome):
            me = welcome.you
            roomCode = welcome.room
            resumed = welcome.resumed
            bankCategories = welcome.categories ?? []
            if link != .connecting && link != .connected {
                record(.link(.connected))
                // Back after a drop: say again whose turn it is or that a vote is open, as the player may have
                // missed it.
                lastTurnAnnounced = ""
                lastVoteAnnounced = ""
                sayWordAgain = true
            }
            link = .connected
        case .room(let view):
            applyRoom(view, now: now)
        case .deal(let deal):
            let sameGame = dealt?.game == deal.game && dealt?.word == deal.word
            dealt = DealtWord(game: deal.game, word: deal.blank ? nil : deal.word)
            if !sameGame {
                wordVisibility = .justDealt
                gameOver = nil
                guessing = nil
                // A resumed client already logged the start when it rebuilt the game from the room snapshot.
                if !log.contains(.gameStarted(game: deal.game)) { record(.gameStarted(game: deal.game)) }
            }
            if !sameGame || sayWordAgain { record(.ownWord(deal.blank ? nil : deal.word)) }
            sayWordAgain = false
        case .turn(let turn):
            timerEnds = turn.timerMs.map { now + Millis($0) }
            timerIsAbsence = turn.timerKind == .absent
            if let room, room.phase == .lobby || room.phase == .gameOver, (dealt?.game ?? 0) <= room.game {
                // A game started that this player was not dealt into (the moderator, a seat sitting out): the
                // snapshot with its number comes after its first turn.
                startedUndealt = room.game + 1
                if !log.contains(.gameStarted(game: room.game + 1)) { record(.gameStarted(game: room.game + 1)) }
            }
            announceTurn(of: turn.player, round: turn.round, pk: turn.pk)
        case .clue(let clue):
            record(.clue(name: name(clue.player), text: clue.text))
        case .voting(let vote):
            let sameVote = voting.map { voteKey(round: $0.round, pk: $0.pk) } == voteKey(round: vote.round, pk: vote.pk)
            voting = vote
            timerEnds = vote.timerMs.map { now + Millis($0) }
            if case .clue = prompt { prompt = .none }
            if !sameVote {
                ballot = nil
                cursor = voteCandidates.first?.id
                seatDigits = ""
            }
            // On resume the host says which ballot this player has in (a restarted client forgot it).
            if let own = vote.ballot {
                ballot = own
                cursor = own
            }
            announceVote()
        case .voteProgress(let progress):
            guard var view = room else { return }
            for index in view.seats.indices {
                let voted = progress.voted.contains(view.seats[index].id)
                if voted && !view.seats[index].voted { record(.voted(name: view.seats[index].name)) }
                view.seats[index].voted = voted
            }
            room = view
        case .voteResult(let result):
            applyResult(result)
        case .guessing(let guess):
            guessing = guess
            timerEnds = guess.timerMs.map { now + Millis($0) }
            timerIsAbsence = guess.timerKind == .absent
            if guess.role == .spy {
                record(.lastChance(name: name(guess.player), isMe: guess.player == me))
            } else {
                record(.guessing(name: name(guess.player), isMe: guess.player == me))
            }
        case .guessResult(let result):
            record(
                .guessResult(name: name(result.player), role: result.role, correct: result.correct, out: result.out))
            if result.out, result.player == me, case .guess = prompt { prompt = .none }
        case .gameOver(let over):
            gameOver = over
            voting = nil
            guessing = nil
            timerEnds = nil
            prompt = .none
            if let guess = over.blankGuess, let blank = over.reveal.first(where: { $0.role == .blank }) {
                record(.blankGuess(name: name(blank.player), guess: guess))
            }
            record(.gameOver(winner: over.winner, civilianWord: over.civilianWord, spyWord: over.spyWord))
            for entry in over.reveal {
                record(.reveal(name: name(entry.player), role: entry.role, word: entry.word))
            }
        case .pong, .ping:
            // Heartbeat traffic carries no game state; the session answers a ping with a pong.
            break
        case .error(let error):
            let event = LogEvent.problem(
                code: error.code, message: error.message, need: error.need, have: error.have)
            notice = event
            record(event)
            if error.code.isFatal { link = .closed }
        case .bye(let bye):
            record(.bye(reason: bye.reason))
            link = .closed
        case .owner(let change):
            record(.ownerChanged(name: name(change.player), isMe: change.player == me))
        case .claim(let claim):
            claimQuestion = claim
            record(.claimAsked(seat: name(claim.player), name: claim.name))
        case .claimDone(let done):
            if claimQuestion?.player == done.player { claimQuestion = nil }
        case .claimPending:
            // The session waits longer for its welcome; nothing to show in the room yet.
            break
        case .history(let news):
            mergeHistory(news.games)
        case .wordsReport(let report):
            wordsReported(report)
        case .wordList(let list):
            wordListArrived(list)
        case .moderator(let change):
            moderatorChanged(change)
        case .moderatorOffer:
            moderatorAsked = true
            record(.evening(.moderatorAsked))
        case .moderatorDeclined(let offer):
            record(.evening(.moderatorDeclined(name: name(offer.player))))
        case .moderatorView(let view):
            moderatorSaw(view)
        }
    }

    /// Keeps each record once, by game number, in game order: a record never changes once its game is over, so
    /// a record sent again (on every arrival) replaces its copy with the same thing.
    private mutating func mergeHistory(_ records: [GameRecord]) {
        var byGame = Dictionary(history.map { ($0.game, $0) }, uniquingKeysWith: { _, last in last })
        for record in records { byGame[record.game] = record }
        history = byGame.values.sorted { $0.game < $1.game }
        if history.count > Self.historyLimit { history.removeFirst(history.count - Self.historyLimit) }
    }

    private mutating func applyRoom(_ view: RoomView, now: Millis) {
        let before = room
        if let before {
            for seat in view.seats where !before.seats.contains(where: { $0.id == seat.id }) {
                record(.joined(name: seat.name))
            }
            for seat in before.seats where !view.seats.contains(where: { $0.id == seat.id }) {
                record(.left(name: seat.name))
            }
            // A seat that stays while its connection comes and goes is the same player stepping away and back.
            for seat in view.seats where seat.id != me {
                guard let old = before.seats.first(where: { $0.id == seat.id }), old.connected != seat.connected
                else { continue }
                record(seat.connected ? .back(name: seat.name) : .away(name: seat.name))
            }
            if before.settings != view.settings, view.phase == .lobby || view.phase == .gameOver {
                record(.settingsChanged(view.settings))
            }
        }
        room = view
        if before == nil, let me, let seat = view.seats.first(where: { $0.id == me }) {
            if resumed {
                record(.back(name: seat.name))
                replayGame(view)
            } else {
                record(.joined(name: seat.name))
            }
        }
        roomCode = view.room
        if view.phase != .voting {
            voting = nil
            ballot = nil
            if case .confirmVote = prompt { prompt = .none }
        } else if voting == nil {
            // Joined or resumed mid-vote: rebuild the vote from the public state.
            let candidates = view.pk.isEmpty ? view.seats.filter(\.alive).map(\.id) : view.pk
            let voters = view.seats.filter { $0.alive && !(view.pk.contains($0.id) && !view.pk.isEmpty) }.map(\.id)
            voting = ServerMessage.Voting(
                round: view.round, candidates: candidates, voters: voters, pk: !view.pk.isEmpty,
                timerMs: view.timerMs)
            cursor = voteCandidates.first?.id
            announceVote()
        }
        if view.phase == .describing, let turn = view.turn {
            announceTurn(of: turn, round: view.round, pk: !view.pk.isEmpty)
        }
        if view.phase != .guessing { guessing = nil }
        if view.phase == .lobby { gameOver = nil }
        if !isMyTurn, case .clue = prompt { prompt = .none }
        if view.phase != .guessing, !mayGuessWhileVoting, case .guess = prompt { prompt = .none }
        if !isOwner && !isModerator, case .kick = prompt { prompt = .none }
        if !isOwner || (view.phase != .lobby && view.phase != .gameOver), case .categories = prompt { prompt = .none }
        timerEnds = view.timerMs.map { now + Millis($0) }
        timerIsAbsence = view.timerKind == .absent
    }

    /// A client started again on a seat in a game: the log starts with what the room still shows of that game.
    private mutating func replayGame(_ view: RoomView) {
        guard view.game > 0, view.phase != .lobby else { return }
        record(.gameStarted(game: view.game))
        for clue in view.clues { record(.clue(name: name(clue.player), text: clue.text)) }
        for seat in view.seats where !seat.alive {
            record(.votedOut(name: seat.name, identity: seat.revealed))
        }
    }

    private mutating func applyResult(_ result: ServerMessage.VoteResult) {
        voting = nil
        ballot = nil
        timerEnds = nil
        if case .confirmVote = prompt { prompt = .none }
        for entry in result.tally.sorted(by: { $0.voters.count > $1.voters.count }) {
            record(.tally(name: name(entry.player), voters: entry.voters.map { name($0) }))
        }
        if !result.abstained.isEmpty { record(.abstained(names: result.abstained.map { name($0) })) }
        switch result.outcome {
        case .out:
            record(.votedOut(name: name(result.out), identity: result.identity))
        case .pk:
            record(.pk(names: result.tied.map { name($0) }))
        case .nobody:
            record(.nobodyOut)
        }
    }

    /// Logs whose turn it is once, whether the news came as a `turn` message or in a room snapshot on resume.
    private mutating func announceTurn(of player: PlayerID, round: Int, pk: Bool) {
        let key = "\(currentGame)/\(round)/\(player)/\(pk)"
        guard key != lastTurnAnnounced else { return }
        lastTurnAnnounced = key
        record(.turn(name: name(player), isMe: player == me, pk: pk))
    }

    /// The game being played: a deal arrives before the room snapshot that carries the new game number.
    private var currentGame: Int { max(room?.game ?? 0, dealt?.game ?? 0, startedUndealt ?? 0) }

    private func voteKey(round: Int, pk: Bool) -> String { "\(currentGame)/\(round)/\(pk)" }

    private mutating func announceVote() {
        guard let voting else { return }
        let key = voteKey(round: voting.round, pk: voting.pk)
        guard key != lastVoteAnnounced else { return }
        lastVoteAnnounced = key
        let choices = canVote ? voteCandidates.map { "\($0.seat) \($0.name)" } : []
        record(.votingOpened(pk: voting.pk, choices: choices))
        if mayGuessWhileVoting { record(.evening(.mayGuess)) }
    }

    /// Records connection news from the shell.
    mutating func linkChanged(_ status: LinkStatus) {
        guard status != link else { return }
        let sameKind: Bool
        switch (link, status) {
        case (.reconnecting, .reconnecting): sameKind = true
        default: sameKind = false
        }
        link = status
        // One line when the link drops, not one per attempt; the header counts the attempts.
        if !sameKind { record(.link(status)) }
    }

    mutating func record(_ event: LogEvent) {
        recorded += 1
        log.append(event)
        if log.count > Self.logLimit { log.removeFirst(log.count - Self.logLimit) }
    }

    // MARK: The clock

    /// Lets time pass: a recalled word hides again after a few seconds.
    mutating func tick(now: Millis) {
        if case .recalled(let until) = wordVisibility, now >= until { wordVisibility = .hidden }
    }

    /// Shows the word from local memory for a few seconds. Sends nothing.
    mutating func recallWord(now: Millis) {
        wordVisibility = .recalled(until: now + Self.recallMillis)
    }
}

extension ClientState {
    /// Answers the open claim question, if there is one.
    mutating func answerClaim(allow: Bool) -> Reaction {
        guard let question = claimQuestion else { return Reaction() }
        claimQuestion = nil
        return Reaction(messages: [.claimAnswer(.init(player: question.player, allow: allow))])
    }
}
