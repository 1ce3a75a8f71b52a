import Foundation
import Glibc
import SpyProtocol
import SpyTestSupport
import Testing

@testable import SpyClient

/// The spyd to play against: `SPY_CLIENT_TEST_SPYD` when set, else the one built beside spy-client.
let spydPath =
    ProcessInfo.processInfo.environment["SPY_CLIENT_TEST_SPYD"]
    ?? productsDirectory().appendingPathComponent("spyd").path

/// Whether a real `spyd` is there (it is built separately; until then this suite is skipped).
let realHostAvailable: Bool = {
    guard FileManager.default.isExecutableFile(atPath: spydPath),
        let program = try? RunningProgram(spydPath, ["--help"], environment: ["PATH": "/usr/bin:/bin"]),
        (try? program.waitForExit()) == 0
    else { return false }
    return program.stdout.contains("--port-file") && program.stdout.contains("--clues")
}()

/// Four real spy-client processes in line mode play a typed game to the end on a real spyd over loopback.
@Suite(.serialized, .enabled(if: realHostAvailable, "spyd is not built yet"))
final class RealHostEndToEndTests {
    final class Player {
        let name: String
        let environment: [String: String]
        var program: RunningProgram
        /// Every program this player ran (a restart adds one), for the secrecy check.
        var runs: [RunningProgram]
        var handled = 0
        var word: String??
        var finished = false
        var cluesGiven = 0

        init(name: String, environment: [String: String], arguments: [String]) throws {
            self.name = name
            self.environment = environment
            program = try RunningProgram("spy-client", arguments, environment: environment)
            runs = [program]
        }

        func restart(_ arguments: [String]) throws {
            program.killHard()
            program = try RunningProgram("spy-client", arguments, environment: environment)
            runs.append(program)
            handled = 0
        }
    }

    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "spy-client-real-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    func startHost(port wanted: Int = 0, locale: String? = nil) throws -> (RunningProgram, Int) {
        let portFile = directory.appendingPathComponent("port").path
        unlink(portFile)
        let host = try RunningProgram(
            spydPath,
            [
                "--host", "--bind", "127.0.0.1", "--port", "\(wanted)", "--port-file", portFile, "--clues", "typed",
                "--seed", "7",
                "--state-dir",
                directory.appendingPathComponent("spyd").path,
            ],
            environment: ["XDG_STATE_HOME": directory.path, "HOME": directory.path, "PATH": "/usr/bin:/bin"].merging(
                locale.map { ["LANG": $0] } ?? [:]
            ) { $1 })
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
            // Drain its log while waiting; the port file appears once it listens.
            _ = RunningProgram.pump([host], until: monotonicNow() + 20)
        }
    }

    @Test func fourClientsPlayATypedGameWithARestartAndNoLeaks() throws {
        let (host, port) = try startHost()
        defer { kill(host.pid, SIGTERM) }
        let proxy = try RecordingProxy(upstreamPort: port)
        defer { proxy.stop() }
        let names = ["王小明", "Amy", "李大華", "陳美玲"]
        var players: [Player] = []
        for (index, name) in names.enumerated() {
            let home = directory.appendingPathComponent("player\(index)")
            let environment = [
                "XDG_STATE_HOME": home.path, "HOME": home.path, "LANG": "en_US.UTF-8", "PATH": "/usr/bin:/bin",
            ]
            // Amy goes through the recording proxy, so what her client sends is seen frame by frame.
            let target = index == 1 ? proxy.port : port
            let player = try Player(
                name: name, environment: environment, arguments: ["127.0.0.1:\(target)", "--plain", "--name", name])
            try player.program.waitFor("# Room")
            players.append(player)
        }
        let owner = players[0]
        try owner.program.waitFor("陳美玲 joined")
        owner.program.type("start")

        // Everyone asks for their word (from memory) once the game starts.
        for player in players {
            try player.program.waitFor("Game 1 starts")
            player.program.type("word")
        }
        for player in players {
            let output = try player.program.waitFor("Your word: ", orAlso: "You are the blank")
            player.word = Self.word(in: output)
        }
        let words = Set(players.compactMap { $0.word ?? nil })
        #expect(words.count == 2, "civilians share one word, the spy has another")

        // 李大華's terminal dies; running spy-client again (no name given) gets the seat and the same word back.
        let restarted = players[2]
        try restarted.restart(["127.0.0.1:\(port)", "--plain"])
        try restarted.program.waitFor("李大華 you")
        restarted.program.type("word")
        let again = try restarted.program.waitFor("Your word: ", orAlso: "You are the blank")
        #expect(Self.word(in: again) == restarted.word)

        var recallChecked = false
        var recallMark: Int?
        let deadline = monotonicNow() + 120_000
        while !players.allSatisfy(\.finished) {
            guard RunningProgram.pump(players.map(\.program) + [host], until: deadline) || monotonicNow() < deadline
            else {
                let outputs = players.map { "\($0.name):\n\($0.program.stdout)\n\($0.program.stderr)" }
                throw EndToEndError("the game did not finish:\n" + outputs.joined(separator: "\n"))
            }
            if let mark = recallMark, !recallChecked {
                let sent = proxy.received
                if sent.count > mark {
                    // `word` went out as nothing: the next frame at the host's door is the clue typed after it.
                    guard case .clue = sent[mark] else {
                        throw EndToEndError("a frame other than the clue followed `word`: \(sent[mark])")
                    }
                    recallChecked = true
                }
            }
            for (seatIndex, player) in players.enumerated() {
                let lines = player.program.lines
                while player.handled < lines.count {
                    let line = lines[player.handled]
                    player.handled += 1
                    if line.hasPrefix("» Your turn") {
                        player.cluesGiven += 1
                        if seatIndex == 1 && recallMark == nil {
                            recallMark = proxy.received.count
                            player.program.type("word")
                        }
                        player.program.type("clue zq-\(seatIndex + 1)-\(player.cluesGiven)")
                    } else if line.hasPrefix("» "), let range = line.range(of: "vote N: ") {
                        let choice = line[range.upperBound...].prefix { $0.isNumber }
                        player.program.type("vote \(choice)")
                    } else if line.hasPrefix("» You are out") {
                        player.program.type("guess 不知道")
                    } else if line.contains(" win!") {
                        player.finished = true
                    }
                }
            }
        }
        #expect(recallChecked || players[1].cluesGiven == 0)

        // Secrecy: before its game-over line, no client ever printed a word other than its own.
        for player in players {
            let others = words.subtracting([player.word ?? nil].compactMap { $0 })
            for run in player.runs {
                let beforeReveal = run.stdout.components(separatedBy: " win!")[0]
                for word in others {
                    #expect(!beforeReveal.contains(word), "\(player.name) saw \(word) before the reveal")
                }
            }
            #expect(player.program.stdout.contains("Civilian word: "))
        }
        if ProcessInfo.processInfo.environment["SPY_CLIENT_TEST_VERBOSE"] != nil {
            for player in players {
                for run in player.runs { print("=== \(player.name)\n\(run.stdout)") }
            }
            print("=== frames from Amy: \(proxy.received.map(\.type))")
        }
        for player in players {
            player.program.type("quit")
            #expect(try player.program.waitForExit() == 0)
        }
    }

    /// A mainland table: host and players under `LANG=zh_CN.UTF-8`, line mode, a whole game. Nothing any client
    /// prints, from the room line to the reveal, holds a Traditional-only character.
    @Test func aMainlandTablePlaysAWholeGameInSimplifiedChinese() throws {
        let (host, port) = try startHost(locale: "zh_CN.UTF-8")
        defer { kill(host.pid, SIGTERM) }
        let names = ["王小明", "Amy", "李大华", "陈美玲"]
        var players: [Player] = []
        for (index, name) in names.enumerated() {
            let home = directory.appendingPathComponent("mainland\(index)")
            let environment = [
                "XDG_STATE_HOME": home.path, "HOME": home.path, "LANG": "zh_CN.UTF-8", "PATH": "/usr/bin:/bin",
            ]
            let player = try Player(
                name: name, environment: environment, arguments: ["127.0.0.1:\(port)", "--plain", "--name", name])
            try player.program.waitFor("# 房间")
            players.append(player)
        }
        try players[0].program.waitFor("陈美玲 加入了")
        players[0].program.type("开始")
        let deadline = monotonicNow() + 120_000
        while !players.allSatisfy(\.finished) {
            guard RunningProgram.pump(players.map(\.program) + [host], until: deadline) || monotonicNow() < deadline
            else {
                let outputs = players.map { "\($0.name):\n\($0.program.stdout)\n\($0.program.stderr)" }
                throw EndToEndError("the game did not finish:\n" + outputs.joined(separator: "\n"))
            }
            for (seatIndex, player) in players.enumerated() {
                let lines = player.program.lines
                while player.handled < lines.count {
                    let line = lines[player.handled]
                    player.handled += 1
                    if line.hasPrefix("» 轮到你了") {
                        player.cluesGiven += 1
                        player.program.type("clue zq-\(seatIndex + 1)-\(player.cluesGiven)")
                    } else if line.hasPrefix("» "), let range = line.range(of: "vote N: ") {
                        let choice = line[range.upperBound...].prefix { $0.isNumber }
                        player.program.type("投 \(choice)")
                    } else if line.hasPrefix("» 你被投出局了") {
                        player.program.type("猜 不知道")
                    } else if line.contains("获胜！") {
                        player.finished = true
                    }
                }
            }
        }
        for player in players {
            let output = player.program.stdout
            #expect(output.contains("平民词："), "\(player.name) saw the reveal")
            let foreign = ScriptTables.foreignCharacters(in: output, simplified: true)
            #expect(foreign.isEmpty, "\(player.name) saw \(foreign):\n\(output)")
            player.program.type("离开")
            #expect(try player.program.waitForExit() == 0)
        }
    }

    @Test func clientsComeBackByThemselvesWhenTheHostIsKilledAndRestarted() throws {
        var (host, port) = try startHost()
        defer { kill(host.pid, SIGTERM) }
        var players: [Player] = []
        for (index, name) in ["王小明", "Amy", "李大華", "陳美玲"].enumerated() {
            let home = directory.appendingPathComponent("player\(index)")
            let environment = [
                "XDG_STATE_HOME": home.path, "HOME": home.path, "LANG": "en_US.UTF-8", "PATH": "/usr/bin:/bin",
            ]
            let player = try Player(
                name: name, environment: environment, arguments: ["127.0.0.1:\(port)", "--plain", "--name", name])
            try player.program.waitFor("# Room")
            players.append(player)
        }
        try players[0].program.waitFor("陳美玲 joined")
        players[0].program.type("start")
        for player in players {
            try player.program.waitFor("Game 1 starts")
            player.program.type("word")
            player.word = Self.word(in: try player.program.waitFor("Your word: ", orAlso: "You are the blank"))
        }

        // kill -9 mid-game, then the same host again on the same port and state directory.
        host.killHard()
        for player in players { try player.program.waitFor("Lost the host; reconnecting") }
        (host, port) = try startHost(port: port)
        for player in players { try player.program.waitFor("Reconnected", timeout: 45_000) }
        for player in players {
            let before = player.program.stdout.count
            player.program.type("word")
            let after = try player.program.waitFor("Your word: ", orAlso: "You are the blank", after: before)
            #expect(Self.word(in: String(after.dropFirst(before))) == player.word)
        }
        // The game carries on where it was, to the end: the turn or vote is announced again on resume.
        for player in players { player.handled = player.program.lines.lastIndex { $0.contains("Reconnected") } ?? 0 }
        let deadline = monotonicNow() + 120_000
        while !players.allSatisfy(\.finished) {
            guard monotonicNow() < deadline else {
                let outputs = players.map { "\($0.name):\n\($0.program.stdout)" }
                throw EndToEndError("the game did not finish after the restart:\n" + outputs.joined(separator: "\n"))
            }
            _ = RunningProgram.pump(players.map(\.program) + [host], until: monotonicNow() + 50)
            for (index, player) in players.enumerated() { Self.act(player, seat: index + 1) }
        }
        for player in players { player.program.type("quit") }
    }

    /// A host down for a while (long enough for a growing pause to have grown) is found again within 2 s of
    /// listening: the client's pause between tries stays short.
    @Test func aClientIsBackWithinTwoSecondsOfTheHostListeningAgain() throws {
        var (host, port) = try startHost()
        defer { kill(host.pid, SIGTERM) }
        let home = directory.appendingPathComponent("comeback")
        let environment = [
            "XDG_STATE_HOME": home.path, "HOME": home.path, "LANG": "en_US.UTF-8", "PATH": "/usr/bin:/bin",
        ]
        let player = try Player(
            name: "Amy", environment: environment, arguments: ["127.0.0.1:\(port)", "--plain", "--name", "Amy"])
        try player.program.waitFor("# Room")
        host.killHard()
        try player.program.waitFor("Lost the host; reconnecting")
        // Eight seconds away: a pause doubling from 0.5 s to 15 s would next try 7.5 s after the host is back.
        let downUntil = monotonicNow() + 8_000
        while monotonicNow() < downUntil { _ = RunningProgram.pump([player.program], until: downUntil) }
        (host, port) = try startHost(port: port)
        let listening = monotonicNow()
        try player.program.waitFor("Reconnected", timeout: 20_000)
        let back = monotonicNow() - listening
        #expect(back <= 2_000, "back \(back) ms after the host listened again")
        player.program.type("quit")
    }

    /// Answers the prompts a line-mode player printed since the last call.
    static func act(_ player: Player, seat: Int) {
        let lines = player.program.lines
        while player.handled < lines.count {
            let line = lines[player.handled]
            player.handled += 1
            if line.hasPrefix("» Your turn") {
                player.cluesGiven += 1
                player.program.type("clue zq-\(seat)-\(player.cluesGiven)")
            } else if line.hasPrefix("» "), let range = line.range(of: "vote N: ") {
                player.program.type("vote \(line[range.upperBound...].prefix { $0.isNumber })")
            } else if line.hasPrefix("» You are out") {
                player.program.type("guess 不知道")
            } else if line.contains(" win!") {
                player.finished = true
            }
        }
    }

    @Test(.enabled(if: Tmux.isAvailable, "tmux is not installed"))
    func aFullScreenPlayerInATerminalPlaysWithThreeOthers() throws {
        let (host, port) = try startHost()
        defer { kill(host.pid, SIGTERM) }
        let tmux = Tmux()
        let home = directory.appendingPathComponent("screen")
        let binary = productsDirectory().appendingPathComponent("spy-client").path
        // The full-screen player talks through the recording proxy: what `f` sends is checked at the host's door.
        let proxy = try RecordingProxy(upstreamPort: port)
        defer { proxy.stop() }
        try tmux.run([
            "new-session", "-d", "-s", "main", "-x", "100", "-y", "30",
            "env XDG_STATE_HOME=\(home.path) LANG=zh_TW.UTF-8 \(binary) 127.0.0.1:\(proxy.port) --name 阿明; read line",
        ])
        try tmux.waitForScreen("the lobby") { $0.contains("阿明") && $0.contains("★") }
        var players: [Player] = []
        for (index, name) in ["Amy", "李大華", "陳美玲"].enumerated() {
            let playerHome = directory.appendingPathComponent("line\(index)")
            let environment = [
                "XDG_STATE_HOME": playerHome.path, "HOME": playerHome.path, "LANG": "en_US.UTF-8",
                "PATH": "/usr/bin:/bin",
            ]
            let player = try Player(
                name: name, environment: environment, arguments: ["127.0.0.1:\(port)", "--plain", "--name", name])
            try player.program.waitFor("# Room")
            players.append(player)
        }
        // The owner starts from the keyboard; the dealt word shows until a key.
        try tmux.waitForScreen("all four seats") { $0.contains("陳美玲") }
        try tmux.keys("s")
        let dealt = try tmux.waitForScreen("the dealt word") { $0.contains("你的詞：") || $0.contains("你是白板") }
        let myWord = dealt.range(of: "你的詞：").map { String(dealt[$0.upperBound...].prefix { $0 != " " && $0 != "\n" }) }
        try tmux.keys("x")
        for player in players {
            try player.program.waitFor("Game 1 starts")
            player.program.type("word")
            player.word = Self.word(in: try player.program.waitFor("Your word: ", orAlso: "You are the blank"))
        }

        var screens: [String] = []
        var recallMark: Int?
        var typedThisTurn = false
        var votedThisVote = false
        var screenDone = false
        let deadline = monotonicNow() + 120_000
        while !(screenDone && players.allSatisfy(\.finished)) {
            guard monotonicNow() < deadline else {
                throw EndToEndError("the game did not finish; screen:\n\(screens.last ?? "")")
            }
            _ = RunningProgram.pump(players.map(\.program) + [host], until: monotonicNow() + 20)
            for (index, player) in players.enumerated() { Self.act(player, seat: index + 2) }
            let screen = tmux.capture()
            screens.append(screen)
            if screen.contains("獲勝") {
                screenDone = true
            } else if screen.contains("輪到你了：按 Enter 輸入描述") {
                if !typedThisTurn {
                    typedThisTurn = true
                    if recallMark == nil {
                        // Forgot the word: `f` shows it from memory, and the next frame out is the clue.
                        recallMark = proxy.received.count
                        try tmux.keys("f")
                        try tmux.waitForScreen("the recalled word") { $0.contains("你的詞：") || $0.contains("你是白板") }
                        try tmux.keys("x")
                        try tmux.waitForScreen("the word hidden") { $0.contains("按 f 看你的詞") }
                    }
                    try tmux.keys("Enter")
                    try tmux.run(["send-keys", "-t", "main", "-l", "zq-screen"])
                    try tmux.keys("Enter")
                }
            } else if screen.contains("選一位投出局") {
                if !votedThisVote {
                    votedThisVote = true
                    try tmux.keys("Enter")
                    try tmux.waitForScreen("the confirmation") { $0.contains("確定要讓") }
                    try tmux.keys("y")
                }
            } else {
                typedThisTurn = false
                if !screen.contains("你投了") { votedThisVote = false }
            }
        }
        let words = Set(players.compactMap { $0.word ?? nil } + [myWord].compactMap { $0 })
        let others = words.subtracting([myWord].compactMap { $0 })
        for screen in screens where !screen.contains("獲勝") {
            for word in others { #expect(!screen.contains(word), "the screen showed \(word) before the reveal") }
        }
        #expect(screens.last?.contains("平民詞：") == true)
        let sent = proxy.received
        if let recallMark {
            #expect(sent.count > recallMark)
            #expect(sent.dropFirst(recallMark).first == .clue(.init(text: "zq-screen")), "\(sent.map(\.type))")
        } else {
            Issue.record("the full-screen player never had a turn")
        }
        if ProcessInfo.processInfo.environment["SPY_CLIENT_TEST_VERBOSE"] != nil {
            print("=== \(screens.count) screens; last:\n\(screens.last ?? "")\n=== Amy\n\(players[0].program.stdout)")
        }
        try tmux.keys("q")
        for player in players { player.program.type("quit") }
    }

    static func word(in output: String) -> String?? {
        if let range = output.range(of: "Your word: ", options: .backwards) {
            let line = String(output[range.upperBound...].prefix { $0 != "\n" })
            // The deal's line carries how to see the word again after it.
            return .some(line.components(separatedBy: " (type word").first ?? line)
        }
        return output.contains("You are the blank") ? .some(nil) : nil
    }
}

extension RunningProgram {
    /// Waits for either text to appear in stdout.
    @discardableResult
    func waitFor(_ text: String, orAlso other: String, after offset: Int = 0, timeout: Millis = testPatience) throws
        -> String
    {
        let deadline = monotonicNow() + timeout
        func seen() -> Bool {
            let fresh = stdout.dropFirst(offset)
            return fresh.contains(text) || fresh.contains(other)
        }
        while !seen() {
            guard Self.pump([self], until: deadline) else {
                throw EndToEndError("neither \"\(text)\" nor \"\(other)\" in output:\n\(stdout)\nstderr:\n\(stderr)")
            }
        }
        return stdout
    }
}
