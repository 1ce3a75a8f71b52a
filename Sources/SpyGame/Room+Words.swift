import SpyProtocol

/// The room's own word list: pasted by the owner between games, kept with the room, dealt from as the settings'
/// `wordSource` says. Its words go to nobody but the owner before the game that deals them is over: the view
/// carries its count only.
extension Room {
    /// The pairs of the room's own list, in the order they were added.
    public var ownPairs: [WordPair] { wordList ?? [] }

    /// Whether `player` may change or export the room's own list.
    func mayManageWords(_ player: PlayerID) -> Bool {
        runsTheGame(player)
    }

    /// The pairs a game may be dealt from, by `settings.wordSource`: the bank's, the room's own, or both (a pair
    /// in both once).
    func dealablePairs(bank: [WordPair]) -> [WordPair] {
        let candidates: [WordPair]
        switch settings.wordSource {
        case .bank: candidates = bank
        case .ours: candidates = ownPairs
        case .oursAndBank:
            let own = Set(ownPairs.map(\.key))
            candidates = ownPairs + bank.filter { !own.contains($0.key) }
        }
        return candidates.filter(\.isPlayable)
    }

    mutating func addWords(by player: PlayerID, _ upload: WordUpload, _ context: inout Context) throws {
        guard seatIndex(of: player) != nil else { throw Rejection(.notPlaying, "You have no seat in this room.") }
        guard mayManageWords(player) else { throw Rejection(.notOwner) }
        guard !gameRunning else { throw Rejection(.wrongPhase, "The room's word list changes between games.") }
        var list = upload.replace ? [] : ownPairs
        var keys = Set(list.map(\.key))
        var bytes = list.reduce(0) { $0 + Self.wordBytes($1) }
        var refused = upload.refused
        var added = 0
        for (pair, line) in zip(upload.pairs, upload.lines) {
            guard pair.isPlayable else {
                refused.append(WordRefusal(line: line, reason: .sameWords))
                continue
            }
            guard !keys.contains(pair.key) else {
                refused.append(WordRefusal(line: line, reason: .alreadyListed))
                continue
            }
            let size = Self.wordBytes(pair)
            guard list.count < Rules.maxRoomPairs, bytes + size <= Rules.maxRoomWordBytes else {
                refused.append(WordRefusal(line: line, reason: .listFull))
                continue
            }
            list.append(pair)
            keys.insert(pair.key)
            bytes += size
            added += 1
        }
        let before = wordList?.count
        wordList = list.isEmpty ? nil : list
        context.send(player, .wordsReport(Self.report(added: added, total: list.count, refused: refused)))
        if wordList?.count != before || upload.replace { context.roomChanged = true }
        context.log("\(player) added \(added) pairs to the room's list (\(list.count) now)")
    }

    mutating func clearWords(by player: PlayerID, _ context: inout Context) throws {
        guard mayManageWords(player) else { throw Rejection(.notOwner) }
        guard !gameRunning else { throw Rejection(.wrongPhase, "The room's word list changes between games.") }
        guard wordList != nil else {
            context.send(player, .wordsReport(.init(added: 0, total: 0)))
            return
        }
        wordList = nil
        context.send(player, .wordsReport(.init(added: 0, total: 0)))
        context.roomChanged = true
        context.log("\(player) cleared the room's list")
    }

    /// The room's own list for `player` to export: the owner's, between games (a running game's pair may be in it).
    public func wordListExport(for player: PlayerID) -> Result<ServerMessage.WordList, Rejection> {
        guard seatIndex(of: player) != nil else { return .failure(Rejection(.notPlaying)) }
        guard mayManageWords(player) else { return .failure(Rejection(.notOwner)) }
        guard !gameRunning else {
            return .failure(Rejection(.wrongPhase, "The room's word list is exported between games."))
        }
        return .success(.init(pairs: ownPairs.map { ListedPair(civilian: $0.civilian, spy: $0.spy) }))
    }

    static func wordBytes(_ pair: WordPair) -> Int {
        pair.civilian.utf8.count + pair.spy.utf8.count
    }

    /// The report of an upload: refusals in line order, runs of consecutive lines refused for the same reason as one
    /// entry, at most `Rules.maxReportedRefusals` entries and the lines of the others counted.
    static func report(added: Int, total: Int, refused: [WordRefusal]) -> ServerMessage.WordsReport {
        var entries: [WordRefusal] = []
        for refusal in refused.sorted(by: { $0.line < $1.line }) {
            if var last = entries.last, last.other == nil, refusal.other == nil, last.reason == refusal.reason,
                (last.through ?? last.line) + 1 == refusal.line
            {
                last.through = refusal.line
                entries[entries.count - 1] = last
            } else {
                entries.append(refusal)
            }
        }
        let listed = Array(entries.prefix(Rules.maxReportedRefusals))
        let more = entries.dropFirst(Rules.maxReportedRefusals).reduce(0) { $0 + ($1.through ?? $1.line) - $1.line + 1 }
        return .init(added: added, total: total, refused: listed, moreRefused: more == 0 ? nil : more)
    }
}
