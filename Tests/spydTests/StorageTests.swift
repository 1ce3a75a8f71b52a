import Foundation
import Glibc
import SpyGame
import SpyNet
import SpyProtocol
import Testing

@testable import SpyHost
@testable import SpyStorage
@testable import spyd

/// Nothing is acknowledged before it is on disk, even when the disk fails; and the state directory is the host's own.
@Suite struct StorageTests {
    private func privateDirectory() throws -> URL {
        let directory = try DaemonProcess.temporaryDirectory()
        chmod(directory.path, 0o700)
        return directory
    }

    private func errorCode(_ message: ServerMessage?) -> ErrorCode? {
        if case .error(let error)? = message { return error.code }
        return nil
    }

    @Test(.tags(.shell), .tags(.shell)) func movesThatCannotBeSavedAreRefusedAndPlayResumesByItself() throws {
        let state = try privateDirectory()
        let away = state.deletingLastPathComponent().appendingPathComponent(state.lastPathComponent + ".away")
        let daemon = try DaemonProcess(stateDirectory: state)
        let owner = try TestPlayer(port: daemon.port, name: "Owner")
        let other = try TestPlayer(port: daemon.port, name: "Other")
        try owner.waitForView("both seated") { $0.seats.count == 2 }
        try other.waitForView("both seated") { $0.seats.count == 2 }
        // Every save now fails: the directory the host writes to is gone (as good as a full disk for the host).
        #expect(rename(state.path, away.path) == 0)

        try owner.send(.settings(.init(maxPlayers: 8)))
        try owner.waitForError(.hostStorage)
        try other.waitForError(.hostStorage)
        #expect(daemon.waitForLine(containing: "cannot save room") != nil)
        // The refused change reached nobody.
        try other.send(.ping(.init(id: 1)))
        try other.waitFor("pong") { $0 == .pong(.init(id: 1)) }
        let everyView = (owner.history + other.history).compactMap { message -> RoomView? in
            if case .room(let view) = message { return view }
            return nil
        }
        #expect(everyView.allSatisfy { $0.settings.maxPlayers == 10 })

        // Neither a join nor a new room is acknowledged.
        let joiner = try daemon.connect()
        try joiner.send(.hello(.init(name: "Joiner")))
        #expect(errorCode(try joiner.receive(deadline: .after(seconds: 10))) == .hostStorage)
        #expect(joiner.waitForClose(deadline: .after(seconds: 10)))
        let opener = try daemon.connect()
        try opener.send(.hello(.init(name: "Opener", create: true)))
        #expect(errorCode(try opener.receive(deadline: .after(seconds: 10))) == .hostStorage)
        #expect(opener.waitForClose(deadline: .after(seconds: 10)))

        // A player drops while nothing can be saved; the room learns of it once it can.
        other.drop()

        // The disk comes back: the host notices by itself, and the same move now goes through.
        #expect(rename(away.path, state.path) == 0)
        #expect(daemon.waitForLine(containing: "room \(owner.room): saving works again", timeout: 20) != nil)
        try owner.waitForView("the other away") { $0.seats.contains { $0.name == "Other" && !$0.connected } }
        try owner.send(.settings(.init(maxPlayers: 8)))
        try owner.waitForView("the change") { $0.settings.maxPlayers == 8 }

        // What was acknowledged survives a crash; what was refused never existed.
        daemon.stop(signal: SIGKILL)
        #expect(try Self.journalRooms(state.path).map(\.room.code) == [owner.room])
        let again = try DaemonProcess(stateDirectory: state)
        try owner.resume(port: again.port)
        let resumed = try owner.waitFor("the room after resuming") {
            if case .room = $0 { return true }
            return false
        }
        guard case .room(let view) = resumed else { return }
        #expect(view.settings.maxPlayers == 8)
        #expect(view.seats.map(\.name) == ["Owner", "Other"])
    }

    /// The rooms the journal of `directory` holds, read as a start would (without changing the file).
    static func journalRooms(_ directory: String) throws -> [RoomSnapshot] {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: "\(directory)/\(Journal.fileName)")))
        return JournalRooms(JournalFormat.parse(bytes).records.map(\.record)).rooms.map(\.snapshot)
    }

    @Test(.tags(.shell), .tags(.shell)) func aHugeCounterInAStateFileIsSetAsideInsteadOfCrashingTheHost() throws {
        let state = try privateDirectory()
        // A room file as an older host wrote it, taken into the journal at start.
        var room = Room(code: "KFRW", seed: 4)
        _ = room.apply(.join(name: "First", bot: false), now: 0)
        let path = state.appendingPathComponent("room-KFRW.json").path
        let snapshot = RoomSnapshot(room: room, tokens: ["p1": ResumeToken.make()], permanent: true, bots: BotMemory())
        try Data(try StreamingJSONEncoder.encode(snapshot)).write(to: URL(fileURLWithPath: path))
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let edited = text.replacingOccurrences(
            of: "\"nextPlayerNumber\":2", with: "\"nextPlayerNumber\":9223372036854775807")
        #expect(edited != text)
        try edited.write(toFile: path, atomically: true, encoding: .utf8)
        let again = try DaemonProcess(stateDirectory: state)
        #expect(again.waitForLine(containing: "nextPlayerNumber out of range") != nil)
        _ = try TestPlayer(port: again.port, name: "Second")
        _ = try TestPlayer(port: again.port, name: "Third")
        #expect(again.process.isRunning)
    }

    @Test(.tags(.shell), .tags(.shell)) func aStateDirectoryOthersCanWriteIsRefused() throws {
        let state = try DaemonProcess.temporaryDirectory()
        chmod(state.path, 0o777)
        let run = try SpydRun.run([
            "--host", "--bind", "127.0.0.1", "--port", "0", "--state-dir", state.path,
        ])
        #expect(run.status == 69)
        #expect(run.standardError.contains("cannot start: the state directory \(state.path) is writable by group"))
        #expect(run.standardError.contains("chmod 700"))
    }

    @Test(.tags(.shell), .tags(.shell)) func anUnreadableStateFileStopsTheStart() throws {
        let state = try privateDirectory()
        let path = state.appendingPathComponent("room-KFRW.json").path
        // Root reads any file whatever its mode; a directory in the file's place cannot be read by anyone.
        #expect(mkdir(path, 0o700) == 0)
        let run = try SpydRun.run([
            "--host", "--bind", "127.0.0.1", "--port", "0", "--state-dir", state.path,
        ])
        #expect(run.status == 69)
        #expect(run.standardError.contains("state file \(path) exists but cannot be read"))
        #expect(FileManager.default.fileExists(atPath: path))
    }
}

/// The same promise on a really full disk: a tiny tmpfs mounted in a mount namespace of the host's own.
@Suite struct FullDiskTests {
    /// Whether this machine lets a test mount a tmpfs in a namespace of its own (root with `unshare`).
    static let canMount: Bool = {
        guard geteuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else { return false }
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        probe.arguments = ["--mount", "--propagation", "private", "/bin/sh", "-c", "mount -t tmpfs tmpfs /mnt"]
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return false }
        probe.waitUntilExit()
        return probe.terminationStatus == 0
    }()

    @Test(.tags(.shell), .tags(.shell), .enabled(if: FullDiskTests.canMount))
    func aFullTmpfsRefusesMovesUntilSpaceComesBack() throws {
        let state = try DaemonProcess.temporaryDirectory()
        chmod(state.path, 0o700)
        let mountAndRun = "mount -t tmpfs -o size=256k,mode=0700 tmpfs \"$0\" && exec \"$@\""
        let daemon = try DaemonProcess(
            stateDirectory: state,
            launcher: [
                "/usr/bin/unshare", "--mount", "--propagation", "private", "/bin/sh", "-c", mountAndRun, state.path,
            ])
        // The tmpfs is visible only inside the host's namespace, which /proc/PID/root leads into.
        let inside = "/proc/\(daemon.process.processIdentifier)/root\(state.path)"
        #expect(FileManager.default.fileExists(atPath: inside))
        let owner = try TestPlayer(port: daemon.port, name: "Owner")
        let other = try TestPlayer(port: daemon.port, name: "Other")
        try owner.waitForView("both seated") { $0.seats.count == 2 }

        let filler = open(inside + "/filler", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        try #require(filler >= 0)
        let chunk = [UInt8](repeating: 0x46, count: 4_096)
        while chunk.withUnsafeBytes({ write(filler, $0.baseAddress, $0.count) }) > 0 {}
        #expect(errno == ENOSPC)
        close(filler)

        // Appends fill the journal's last page first: moves go through until one needs a page the disk lacks.
        var maxPlayers = 10
        var refused = false
        for _ in 0..<200 where !refused {
            maxPlayers = maxPlayers == 10 ? 9 : 10
            try owner.send(.settings(.init(maxPlayers: maxPlayers)))
            let answer = try owner.waitFor("the change or a refusal") { message in
                if case .error(let error) = message { return error.code == .hostStorage }
                if case .room(let view) = message { return view.settings.maxPlayers == maxPlayers }
                return false
            }
            if case .error = answer { refused = true }
        }
        #expect(refused)
        try other.waitForError(.hostStorage)
        #expect(daemon.waitForLine(containing: "No space left on device") != nil)
        let lastSeen = other.view?.settings.maxPlayers
        #expect(lastSeen != maxPlayers)

        #expect(unlink(inside + "/filler") == 0)
        #expect(daemon.waitForLine(containing: "room \(owner.room): saving works again", timeout: 20) != nil)
        try owner.send(.settings(.init(spies: 2)))
        try other.waitForView("the change") { $0.settings.spies == 2 }
        #expect(try StorageTests.journalRooms(inside).first?.room.settings.spies == 2)
    }
}
