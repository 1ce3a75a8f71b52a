import SpyNet
import SpyProtocol

extension ClientState {
    /// Asks the shell to save the history: to `path` (by its ending), or to both files named after the room.
    mutating func exportHistory(to path: String?) -> Reaction {
        guard !history.isEmpty else {
            notice = .evening(.noHistoryYet)
            record(.evening(.noHistoryYet))
            return Reaction()
        }
        return Reaction(action: .exportHistory(path.map { [$0] } ?? HistoryExport.defaultPaths(room: roomCode)))
    }

    /// The shell wrote the history (`failure` says why a file could not be).
    mutating func historyExported(_ paths: [String], failure: (path: String, reason: String)?) {
        let note: EveningNote = failure.map { .exportFailed(path: $0.path, reason: $0.reason) } ?? .exported(paths)
        notice = .evening(note)
        record(.evening(note))
    }
}

extension ClientState {
    /// The host answered a `words` or `words_clear`: the count and every refused line go to the log.
    mutating func wordsReported(_ report: ServerMessage.WordsReport) {
        record(.evening(.wordsReport(report)))
        for refusal in report.refused { record(.evening(.wordRefused(refusal))) }
        if let more = report.moreRefused { record(.evening(.moreRefused(more))) }
    }

    /// The room's own list came back for an export: the shell writes it where the player asked.
    mutating func wordListArrived(_ list: ServerMessage.WordList) {
        ownWords = list.pairs
    }
}

extension ClientState {
    /// Whether this player may change the room's own list now: the owner, between games.
    var managesWords: Bool {
        guard isOwner, let phase = room?.phase else { return false }
        return phase == .lobby || phase == .gameOver
    }

    /// `--words FILE`, the first time this player owns the room between games: the file to send, once.
    mutating func wordsFileDue() -> String? {
        guard let wordsFile, !wordsFileSent, managesWords else { return nil }
        wordsFileSent = true
        return wordsFile
    }

    /// `u`: the `--words` file again (it may have been edited since).
    mutating func uploadWordsFile() -> Reaction {
        guard let wordsFile else {
            notice = .evening(.noWordsFile)
            return Reaction()
        }
        wordsFileSent = true
        return Reaction(action: .uploadWords(wordsFile))
    }

    /// `e` or `words export`: asks the host for the list; the shell writes it when it comes.
    mutating func exportWords(to path: String?) -> Reaction {
        wordsExportPath = path ?? "spy-words-" + (roomCode ?? "room").filter { $0.isASCII && $0.isLetter } + ".csv"
        return Reaction(messages: [.wordsExport])
    }

    /// The list that came back, with where it goes, once.
    mutating func takeWordsToSave() -> (path: String, pairs: [ListedPair])? {
        guard let path = wordsExportPath, let pairs = ownWords else { return nil }
        wordsExportPath = nil
        ownWords = nil
        return (path, pairs)
    }

    /// The shell read (or could not read) a word file.
    mutating func wordsFileProblem(_ path: String, _ reason: String) {
        notice = .evening(.exportFailed(path: path, reason: reason))
        record(.evening(.exportFailed(path: path, reason: reason)))
    }

    /// The shell saved the list.
    mutating func wordsSaved(_ path: String, count: Int) {
        notice = .evening(.wordsSaved(path: path, count: count))
        record(.evening(.wordsSaved(path: path, count: count)))
    }
}

/// The room's own list as a file: CSV with a header a bank sheet and `--words` both read back.
enum WordListFile {
    static func csv(_ pairs: [ListedPair]) -> [UInt8] {
        let rows = [["civilian", "spy"]] + pairs.map { [$0.civilian, $0.spy] }
        return Array(
            (rows.map { $0.map(HistoryExport.csvField).joined(separator: ",") }.joined(separator: "\r\n") + "\r\n").utf8
        )
    }
}

/// A word file as `--words` and `words FILE` read it: UTF-8 (a byte-order mark is skipped), at most what the host
/// takes in one message.
enum WordFile {
    static let maxBytes = 48 * 1024

    /// Why a word file cannot be sent, if it cannot.
    enum Problem: Equatable {
        case unreadable(String)
        case tooLarge
        case notText
    }

    static func problem(_ path: String) -> Problem? {
        switch BoundedFile.read(path, maxBytes: maxBytes) {
        case .success(let bytes): return text(bytes) == nil ? .notText : nil
        case .failure(.tooLarge): return .tooLarge
        case .failure(let error): return .unreadable(error.reason)
        }
    }

    static func text(_ bytes: [UInt8]) -> String? {
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        return String(validating: body, as: UTF8.self)
    }
}

extension ClientState {
    /// Whether this player is the room's moderator.
    var isModerator: Bool { mySeat?.moderator == true }

    mutating func moderatorChanged(_ change: ServerMessage.Moderator) {
        if change.player != me { moderatorView = nil }
        moderatorAsked = false
        if let player = change.player {
            record(.evening(.moderatorIs(name: name(player), isMe: player == me)))
        } else {
            record(.evening(.noModerator))
        }
    }

    /// What only the moderator sees came in: the log says what is new (a new game's roles and words, each ballot,
    /// each guess), so that line mode reads it out.
    mutating func moderatorSaw(_ view: ModeratorView) {
        let before = moderatorView
        moderatorView = view
        if before?.game != view.game || before?.civilianWord != view.civilianWord, let civilian = view.civilianWord,
            let spy = view.spyWord
        {
            record(.evening(.moderatorPair(game: view.game, civilian: civilian, spy: spy)))
            for entry in view.players {
                record(.evening(.moderatorRole(name: name(entry.player), role: entry.role, word: entry.word)))
            }
        }
        let seenBallots = Set(
            (before?.game == view.game ? before?.ballots ?? [] : []).flatMap { entry in
                entry.voters.map { "\($0)>\(entry.player)" }
            })
        for entry in view.ballots {
            for voter in entry.voters where !seenBallots.contains("\(voter)>\(entry.player)") {
                record(.evening(.moderatorBallot(voter: name(voter), target: name(entry.player))))
            }
        }
        let seenGuesses = before?.game == view.game ? before?.guesses.count ?? 0 : 0
        for guess in view.guesses.dropFirst(seenGuesses) {
            record(.evening(.moderatorGuess(name: name(guess.player), word: guess.word, correct: guess.correct)))
        }
        if let next = view.nextPair, next != before?.nextPair {
            record(.evening(.nextPair(civilian: next.civilian, spy: next.spy)))
        }
    }

    mutating func answerModeratorOffer(accept: Bool) -> Reaction {
        moderatorAsked = false
        return Reaction(messages: [.moderatorAnswer(.init(accept: accept))])
    }

    /// The moderator's own keys: `s` start between games, `i` type the next pair, `j` give the seat up; during a
    /// game `p` pause or resume, `n` pass an absent player's turn, `k` kick. `nil` for keys left to the rest.
    mutating func moderatorKey(_ key: Key, room: RoomView) -> Reaction? {
        let betweenGames = room.phase == .lobby || room.phase == .gameOver
        switch key {
        case .character("s") where betweenGames && !isOwner, .character("a") where betweenGames && !isOwner:
            return Reaction(messages: [.start])
        case .character("i") where betweenGames:
            prompt = .pair(LineEditor())
            return Reaction()
        case .character("j") where betweenGames && !isOwner:
            return Reaction(messages: [.moderator(.init(player: nil))])
        case .character("p") where !betweenGames:
            return Reaction(messages: [room.paused == true ? .resume : .pause])
        case .character("n") where !betweenGames:
            return Reaction(messages: [.passTurn])
        case .character("k") where !isOwner:
            prompt = .kick(LineEditor(limit: 3))
            return Reaction()
        default:
            return nil
        }
    }

    /// The moderator's typed pair, `civilian/spy` (or with `,` `，` `／` `——` between): sent as one pair.
    func typedPair(_ typed: String) -> Reaction {
        let separators = ["——", "—", "／", "/", "，", ","]
        for separator in separators {
            let parts = typed.components(separatedBy: separator).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty {
                return Reaction(messages: [.moderatorPair(.init(civilian: parts[0], spy: parts[1]))])
            }
        }
        return Reaction()
    }
}
