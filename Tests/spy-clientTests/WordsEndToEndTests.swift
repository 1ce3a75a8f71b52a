import Foundation
import Glibc
import SpyProtocol
import Testing

@testable import SpyClient

/// `spy-client --words FILE` against a real spyd: the owner's list goes to the host, every refused line comes back
/// with its number, and the list is saved again as CSV.
@Suite(.serialized, .enabled(if: realHostAvailable, "spyd is not built yet"))
final class WordsEndToEndTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "spy-client-words-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    func startHost() throws -> (RunningProgram, Int) {
        let portFile = directory.appendingPathComponent("port").path
        let host = try RunningProgram(
            spydPath,
            ["--host", "--bind", "127.0.0.1", "--port", "0", "--port-file", portFile, "--no-state", "--seed", "3"],
            environment: ["HOME": directory.path, "PATH": "/usr/bin:/bin"])
        let deadline = monotonicNow() + testPatience
        while true {
            if let text = try? String(contentsOfFile: portFile, encoding: .utf8),
                let port = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)), port > 0
            {
                return (host, port)
            }
            guard host.isRunning, monotonicNow() < deadline else {
                throw EndToEndError("spyd wrote no port file:\n\(host.stderr)")
            }
            _ = RunningProgram.pump([host], until: monotonicNow() + 20)
        }
    }

    var environment: [String: String] {
        ["XDG_STATE_HOME": directory.path, "HOME": directory.path, "LANG": "en_US.UTF-8", "PATH": "/usr/bin:/bin"]
    }

    @Test func theOwnersFileGoesToTheHostAndEveryBadLineIsSaid() throws {
        let (host, port) = try startHost()
        defer { kill(host.pid, SIGTERM) }
        let file = directory.appendingPathComponent("wedding.txt")
        try "婚紗,禮服\n伴郎——伴娘\nlonely\n蛋糕/喜餅\n戒指,戒指盒\n禮服,婚紗\nrice\tnoodles\n".write(
            to: file, atomically: true, encoding: .utf8)
        let owner = try RunningProgram(
            "spy-client", ["127.0.0.1:\(port)", "--plain", "--name", "Amy", "--words", file.path],
            environment: environment)
        defer { owner.killHard() }
        try owner.waitFor("Our words: 4 pairs added, 4 in all; 3 lines refused")
        try owner.waitFor("line 3: one word only")
        try owner.waitFor("line 5: one word contains the other")
        try owner.waitFor("line 6: same pair as line 1 (kept once)")
        owner.type("who")
        try owner.waitFor("our words: 4 pairs")
        let saved = directory.appendingPathComponent("saved.csv")
        owner.type("words export \(saved.path)")
        try owner.waitFor("Our words (4 pairs) saved to")
        let csv = try String(contentsOf: saved, encoding: .utf8)
        #expect(csv == "civilian,spy\r\n婚紗,禮服\r\n伴郎,伴娘\r\n蛋糕,喜餅\r\nrice,noodles\r\n")
        // The saved file reads back as the same list.
        owner.type("words \(saved.path)")
        try owner.waitFor("Our words: 0 pairs added, 4 in all; 4 lines refused")
        try owner.waitFor("lines 2–5: already in the list")
    }

    @Test func aFileTheHostCouldNotTakeIsRefusedBeforeConnecting() throws {
        let file = directory.appendingPathComponent("huge.txt")
        try String(repeating: "a,b\n", count: 13_000).write(to: file, atomically: true, encoding: .utf8)
        let client = try RunningProgram(
            "spy-client", ["127.0.0.1:9", "--plain", "--name", "Amy", "--words", file.path], environment: environment)
        #expect(try client.waitForExit() == EX_USAGE)
        #expect(client.stderr.contains("over 48 KiB"))
    }
}

/// A moderator's game in line mode against a real spyd: the moderator plays with four bots' table, sees every word
/// and ballot in their own transcript, and never gets a word of their own.
@Suite(.serialized, .enabled(if: realHostAvailable, "spyd is not built yet"))
final class ModeratorEndToEndTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "spy-client-judge-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    @Test func aModeratorsPlainTranscriptOfAGame() throws {
        let portFile = directory.appendingPathComponent("port").path
        let host = try RunningProgram(
            spydPath,
            [
                "--host", "--bind", "127.0.0.1", "--port", "0", "--port-file", portFile, "--no-state", "--seed", "4",
                "--bots", "4", "--bot-delay-ms", "10", "--clues", "typed",
            ],
            environment: ["HOME": directory.path, "PATH": "/usr/bin:/bin"])
        defer { kill(host.pid, SIGTERM) }
        var port = 0
        let deadline = monotonicNow() + testPatience
        while port == 0 {
            if let text = try? String(contentsOfFile: portFile, encoding: .utf8) {
                port = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
            }
            guard port > 0 || (host.isRunning && monotonicNow() < deadline) else {
                throw EndToEndError("spyd wrote no port file:\n\(host.stderr)")
            }
            _ = RunningProgram.pump([host], until: monotonicNow() + 20)
        }
        let environment = [
            "XDG_STATE_HOME": directory.path, "HOME": directory.path, "LANG": "en_US.UTF-8", "PATH": "/usr/bin:/bin",
        ]
        let judge = try RunningProgram(
            "spy-client", ["127.0.0.1:\(port)", "--plain", "--name", "Judge"], environment: environment)
        defer { judge.killHard() }
        try judge.waitFor("joined")
        judge.type("judge me")
        try judge.waitFor("You are the moderator now")
        judge.type("pair wedding dress/suit")
        try judge.waitFor("⚖ Next game's pair: Civilian word: wedding dress  Spy word: suit")
        judge.type("start")
        try judge.waitFor("⚖ Game 1 · Civilian word:")
        let transcript = try judge.waitFor("The civilians win", orAlso: "The spies win")
        // Every player's role and word, and ballots as they came, only on this terminal; no word of its own.
        #expect(transcript.components(separatedBy: "⚖ Bot").count - 1 >= 4)
        #expect(transcript.contains(" → "))
        #expect(!transcript.contains("Your word"))
        #expect(transcript.contains("wedding dress") && transcript.contains("suit"))
        judge.type("pause")
        try judge.waitFor("Not possible in this phase")
    }
}
