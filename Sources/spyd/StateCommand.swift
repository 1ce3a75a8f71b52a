import Foundation
import Glibc
import SpyHost
import SpyNet
import SpyProtocol
import SpyStorage

/// `spyd state check [DIR]`: what a state directory holds and whether the host can trust it, read without
/// changing anything (a start is what cuts a torn tail off and takes older room files in).
enum StateCommand {
    static let usage = """
        Usage: spyd state check [DIR]

        check   reads the state directory (by default the one the host uses) without changing it and prints the
                journal's format and size, each room with its seats, phase, snapshot age and the changes after
                it, any torn or corrupt tail, room files of an older host still to be taken in, and files set
                aside; exits 1 when something in it cannot be trusted.

        Try 'spyd state check --help' for its options.
        """

    static let checkSpec = CommandSpec(
        name: "spyd state check",
        summary: "Verifies a state directory and says what it holds, without changing it.",
        options: [],
        positionals: [PositionalSpec("DIR", help: "The state directory (default: the host's own).", optional: true)],
        epilogue: "Exit status: 0 when everything in it can be trusted, 1 when not, 64 for a usage error.")

    /// Runs the command with `arguments` (those after "state"); returns the exit status.
    static func run(
        _ arguments: [String], environment: [String: String], now: Int64 = Int64(Date().timeIntervalSince1970 * 1000),
        output: (String) -> Void = { Log.writeStandardOutput($0 + "\n") },
        errors: (String) -> Void = { Log.writeStandardError($0 + "\n") }
    ) -> Int32 {
        let lines = { (text: String) in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
        switch arguments.first {
        case nil:
            errors("spyd state: missing command (check)")
            lines(usage).forEach(errors)
            return UsageError.exitCode
        case "-h", "--help", "help":
            lines(usage).forEach(output)
            return 0
        case "check":
            break
        case let other?:
            errors("spyd state: unknown command '\(other)' (expected check)")
            lines(usage).forEach(errors)
            return UsageError.exitCode
        }
        switch checkSpec.resolve(Array(arguments.dropFirst()), version: HostCommand.version) {
        case .exit(let code, let standardOutput, let standardError):
            lines(standardOutput).filter { !$0.isEmpty }.forEach(output)
            lines(standardError).filter { !$0.isEmpty }.forEach(errors)
            return code
        case .run(let parsed):
            let directory = parsed.positional("DIR") ?? HostCommand.defaultStateDirectory(environment)
            return check(directory, now: now, say: output)
        }
    }

    /// Reports on `directory`; returns 0 when everything in it can be trusted, 1 when not.
    static func check(_ directory: String, now: Int64, say: (String) -> Void) -> Int32 {
        var trusted = true
        func problem(_ text: String) {
            trusted = false
            say("problem: \(text)")
        }
        var info = stat()
        guard lstat(directory, &info) == 0 else {
            say("state directory \(directory): \(String(cString: strerror(errno)).lowercased())")
            return 1
        }
        let mode = String(info.st_mode & 0o777, radix: 8)
        say("state directory \(directory): mode \(mode), owner uid \(info.st_uid)")
        if info.st_mode & S_IFMT != S_IFDIR { problem("it is not a directory") }
        if info.st_uid != geteuid() { problem("it belongs to another user; the host refuses it") }
        if info.st_mode & 0o022 != 0 { problem("group or others can write it; the host refuses it") }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
        let path = "\(directory)/\(Journal.fileName)"
        var rooms = JournalRooms()
        var journalRead = false
        switch JournalFileSource.open(path, maxBytes: Journal.maxFileBytes) {
        case nil:
            say("journal: none yet (the host writes \(Journal.fileName) at its first start)")
        case .failure(let reason):
            problem("the journal \(Journal.fileName) cannot be read: \(reason.reason)")
        case .success(let source):
            defer { source.close() }
            do {
                journalRead = try read(source, into: &rooms, say: say, problem: problem)
            } catch {
                problem("\(error)")
            }
        }
        rooms.finish()
        say("rooms: \(rooms.rooms.count)")
        for entry in rooms.rooms {
            var parts = ["  " + summary(of: entry.snapshot)]
            parts.append(entry.savedAt.map { "snapshot \(age(now - $0)) old" } ?? "snapshot of unknown age")
            parts.append("\(entry.changes) changes after it")
            if let last = entry.lastChange { parts.append("last change \(age(now - last)) ago") }
            say(parts.joined(separator: ", "))
        }
        for aside in rooms.refused {
            problem(
                "room \(JournalRooms.displayName(aside.code)) cannot be trusted "
                    + "(\(JournalRooms.printable(aside.problem, limit: 400))); the next start sets it aside")
        }
        for (code, reason) in rooms.unreplayed {
            problem(
                "room \(JournalRooms.displayName(code)): a change does not replay "
                    + "(\(JournalRooms.printable(reason, limit: 400)))")
        }
        for (_, reason) in rooms.skipped {
            problem("\(JournalRooms.printable(reason, limit: 400)); the next start skips it")
        }
        checkOlderFiles(
            names.filter(OlderRoomFiles.isRoomFile), in: directory, beside: journalRead ? rooms.migrated : nil,
            say: say, problem: problem)
        let aside = names.filter { $0.contains(".corrupt-") || $0.contains(".tail-") || $0.hasSuffix(".migrated") }
        if !aside.isEmpty { say("set aside (never read again): \(aside.joined(separator: ", "))") }
        say(trusted ? "ok" : "not ok")
        return trusted ? 0 : 1
    }

    /// Reads the journal's records into `rooms`, a window at a time; returns whether it is a journal this host
    /// reads (and its records were read).
    private static func read(
        _ source: JournalFileSource, into rooms: inout JournalRooms, say: (String) -> Void,
        problem: (String) -> Void
    ) throws -> Bool {
        var reader = JournalReader(source)
        switch try reader.headerProblem() {
        case .notAJournal:
            problem("\(Journal.fileName) has no valid journal header (the next start moves it aside)")
            return false
        case .format(let format):
            problem("\(Journal.fileName) has format \(format); this host reads format \(JournalFormat.version)")
            return false
        case nil:
            break
        }
        while let record = try reader.next() {
            rooms.take(
                JournalRecord.decode(kind: record.kind, payload: record.payload), offset: record.offset,
                size: record.size)
        }
        let end = reader.end ?? JournalReader<JournalFileSource>.End(goodBytes: source.size)
        say("journal: format \(JournalFormat.version), \(source.size) bytes, \(rooms.recordCount) records")
        if let tail = end.tailProblem {
            problem(
                "torn or corrupt tail: \(end.tailBytes) bytes from byte \(end.goodBytes) "
                    + "(\(tail)); the next start cuts them off and keeps them aside")
        } else {
            say("tail: whole (every record's checksum matches)")
        }
        if end.preallocatedBytes > 0 {
            say(
                "space written ahead: \(end.preallocatedBytes) bytes of zeros after the last record, "
                    + "where the next records go (the journal ends at byte \(end.goodBytes))")
        }
        return true
    }

    /// The room files of an older host: each is read as the next start would take it in. Beside a journal
    /// (`migrated`: the files it was made from), a file it was made from is set aside at the next start, and any
    /// other stops it.
    private static func checkOlderFiles(
        _ files: [String], in directory: String, beside migrated: [String: UInt32]?, say: (String) -> Void,
        problem: (String) -> Void
    ) {
        guard !files.isEmpty else { return }
        if migrated == nil {
            say(
                "room files of an older host, taken into the journal at the next start: \(files.joined(separator: ", "))"
            )
        } else {
            say("room files of an older host beside the journal: \(files.joined(separator: ", "))")
        }
        let older = OlderRoomFiles(directory: directory)
        for name in files {
            let read: Result<RoomSnapshot, OlderRoomFiles.Corrupt>
            do {
                read = try older.read(name)
            } catch {
                problem("\(error)")
                continue
            }
            if let migrated {
                let bytes = try? BoundedFile.read(
                    "\(directory)/\(name)", maxBytes: OlderRoomFiles.maxFileBytes, followingLinks: false
                ).get()
                if let bytes, migrated[name] == CRC32C.checksum(bytes) {
                    say("  \(name): already in the journal (the next start sets the file aside)")
                } else {
                    problem(
                        "room file \(name) is not one the journal was made from: the next start refuses to run "
                            + "until it is moved away")
                }
                continue
            }
            switch read {
            case .success(let snapshot):
                say("  \(name): " + summary(of: snapshot))
            case .failure(let corrupt):
                problem(
                    "room file \(name) is corrupt (\(JournalRooms.printable(corrupt.problem, limit: 400))); the next "
                        + "start moves it aside")
            }
        }
    }

    /// "KFRW, host's own, 4 seats, phase lobby, 0 games".
    private static func summary(of snapshot: RoomSnapshot) -> String {
        [
            snapshot.room.code, snapshot.permanent ? "host's own" : "opened by a client",
            "\(snapshot.room.playerIDs.count) seats", "phase \(snapshot.room.phase.rawValue)",
            "\(snapshot.room.latestGame) games",
        ].joined(separator: ", ")
    }

    private static func age(_ ms: Int64) -> String {
        let seconds = max(0, ms / 1000)
        if seconds < 120 { return "\(seconds) s" }
        if seconds < 7200 { return "\(seconds / 60) min" }
        return "\(seconds / 3600) h"
    }
}
