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
