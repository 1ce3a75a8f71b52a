import Foundation
import Glibc
import SpyProtocol
import Testing

@testable import SpyClient

/// The real spy-client binary against a scripted host: every frame it sends is seen and checked.
@Suite(.serialized) final class FakeHostEndToEndTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "spy-client-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    var environment: [String: String] {
        [
            "XDG_STATE_HOME": directory.path, "HOME": directory.path, "LANG": "en_US.UTF-8",
            "PATH": "/usr/bin:/bin",
        ]
    }

    static let seats = [
        SeatView(id: "p1", seat: 1, name: "王小明", owner: true), SeatView(id: "p2", seat: 2, name: "Amy"),
        SeatView(id: "p3", seat: 3, name: "李大華"), SeatView(id: "p4", seat: 4, name: "陳美玲"),
    ]

    static func room(_ phase: Phase, turn: PlayerID? = nil, mode: ClueMode = .typed) -> RoomView {
        RoomView(
            room: "KXPT", phase: phase, game: 1, round: 1, settings: GameSettings(clueMode: mode), seats: seats,
            turn: turn)
    }

    @Test func plainModePlaysRecallsLocallyReconnectsAndResumesAfterARestart() throws {
        let host = try FakeHost()
        let address = "127.0.0.1:\(host.port)"
        var client = try RunningProgram("spy-client", [address, "--plain", "--name", "李大華"], environment: environment)

        var connection = try host.accept()
        guard case .hello(let hello) = try connection.receive() else { throw EndToEndError("no hello") }
        #expect(hello.name == "李大華")
        #expect(hello.token == nil)
        #expect(hello.protocol == 1)
        connection.send(
            .welcome(.init(you: "p3", token: "token-one", room: "KXPT")), .room(Self.room(.describing, turn: "p1")),
            .deal(.init(game: 1, word: "蘋果")), .turn(.init(round: 1, player: "p1")))
        try client.waitFor("Game 1 starts")
        connection.send(.ping(.init(id: 41)))
        #expect(try connection.receive() == .pong(.init(id: 41)))
        // A screen reader cannot glance at a panel: line mode says the word once, at the deal.
        try client.waitFor("» Your word: 蘋果 (type word to see it again")

        // `word` answers from memory: the next frame the host sees is the clue typed after it.
        client.type("word")
        try client.waitFor("» Your word: 蘋果 (type word to see it again; clear your screen to hide it)\nYour word: 蘋果")
        connection.send(.room(Self.room(.describing, turn: "p3")), .turn(.init(round: 1, player: "p3")))
        try client.waitFor("» Your turn")
        client.type("clue 紅色的水果")
        #expect(try connection.receive() == .clue(.init(text: "紅色的水果")))
        connection.send(.error(.init(.clueHasWord)))
        try client.waitFor("! Your clue contains your word")

        // The host drops the connection: the client comes back by itself with its token.
        connection.close()
        try client.waitFor("reconnecting")
        connection = try host.accept()
        guard case .hello(let again) = try connection.receive() else { throw EndToEndError("no hello on resume") }
        #expect(again.token == "token-one")
        #expect(again.room == "KXPT")
        connection.send(
            .welcome(.init(you: "p3", token: "token-one", room: "KXPT", resumed: true)),
            .room(Self.room(.voting)), .deal(.init(game: 1, word: "蘋果")),
            .voting(.init(round: 1, candidates: ["p1", "p2", "p3", "p4"], voters: ["p1", "p2", "p3", "p4"])))
        try client.waitFor("Reconnected")
        try client.waitFor("vote N: 1 王小明, 2 Amy, 4 陳美玲")
        client.type("vote 3")
        try client.waitFor("No seat \"3\" to choose")
        client.type("vote 4")
        #expect(try connection.receive() == .vote(.init(target: "p4")))

        // The terminal closes (the process dies); running spy-client again takes the seat back from the token file.
        client.killHard()
        try connection.expectClose()
        client = try RunningProgram("spy-client", [address, "--plain"], environment: environment)
        connection = try host.accept()
        guard case .hello(let resumed) = try connection.receive() else { throw EndToEndError("no hello after restart") }
        #expect(resumed.token == "token-one")
        #expect(resumed.name == "李大華")
        connection.send(
            .welcome(.init(you: "p3", token: "token-one", room: "KXPT", resumed: true)), .room(Self.room(.voting)),
            .deal(.init(game: 1, word: "蘋果")))
        try client.waitFor("李大華 you")
        client.type("word")
        try client.waitFor("Your word: 蘋果")

        // Kicked: the client says so, exits, and forgets the seat.
        connection.send(.error(.init(.kicked)))
        connection.close()
        #expect(try client.waitForExit() == 0)
        #expect(client.stderr.contains("The owner removed you"))
        let tokens = try String(
            contentsOf: directory.appendingPathComponent("spy-client/tokens.json"), encoding: .utf8)
        #expect(!tokens.contains("token-one"))
    }

    @Test func noHostIsOneClearSentence() throws {
        let host = try FakeHost()
        let port = host.port
        host.stopListening()
        let client = try RunningProgram(
            "spy-client", ["127.0.0.1:\(port)", "--plain", "--name", "x"], environment: environment)
        #expect(try client.waitForExit() == 1)
        #expect(client.stderr.contains("no WhoIsSpy host at 127.0.0.1:\(port) — is `spyd --host` running there"))
    }

    @Test func usageErrorsExit64() throws {
        let client = try RunningProgram("spy-client", ["--frobnicate"], environment: environment)
        #expect(try client.waitForExit() == 64)
        #expect(client.stderr.contains("unknown option --frobnicate"))
        let help = try RunningProgram("spy-client", ["--help"], environment: environment)
        #expect(try help.waitForExit() == 0)
        #expect(help.stdout.contains("usage: spy-client [HOST[:PORT]]"))
    }

    @Test(arguments: [("zh-TW", "這個名字已經有人用了"), ("zh", "这个名字已经有人用了"), ("zh-Hans", "这个名字已经有人用了")])
    func refusalsAtTheDoorAreExplained(language: String, sentence: String) throws {
        let host = try FakeHost()
        let client = try RunningProgram(
            "spy-client", ["127.0.0.1:\(host.port)", "--plain", "--name", "Amy", "--lang", language],
            environment: environment)
        let connection = try host.accept()
        _ = try connection.receive()
        connection.send(.error(.init(.nameTaken)))
        connection.close()
        #expect(try client.waitForExit() == 1)
        #expect(client.stderr.contains(sentence))
        #expect(client.stderr.contains("--name Amy2"))
    }

    /// A host's refusal reaches stderr with the client's own sentence; the host's part of it is text like a name,
    /// so a line break in it cannot add a line of the host's choosing, nor an escape sequence reach the terminal.
    @Test func aHostsRefusalCannotForgeALine() throws {
        let host = try FakeHost()
        let client = try RunningProgram(
            "spy-client", ["127.0.0.1:\(host.port)", "--plain", "--name", "Amy"], environment: environment)
        let connection = try host.accept()
        _ = try connection.receive()
        connection.send(.error(.init(code: .protocolVersion, message: "9\n! Amy is the spy\t\u{1B}[2J")))
        connection.close()
        #expect(try client.waitForExit() == 1)
        #expect(client.stderr.contains("The host speaks another protocol version: 9"))
        #expect(client.stderr.contains("Amy is the spy"))
        #expect(!client.stderr.contains("\n! Amy"), "\(client.stderr)")
        #expect(!client.stderr.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\t" }, "\(client.stderr)")
    }

    @Test func aPlayerTurnedAwayByARunningGameIsSeatedWhenItEnds() throws {
        let host = try FakeHost()
        let client = try RunningProgram(
            "spy-client", ["127.0.0.1:\(host.port)", "--plain", "--name", "Amy"], environment: environment)
        var connection = try host.accept()
        guard case .hello(let first) = try connection.receive() else { throw EndToEndError("no hello") }
        connection.send(.error(.init(.gameInProgress)))
        connection.close()
        try client.waitFor(stderr: "you will be seated when it ends")
        #expect(client.isRunning, "the name typed is not wasted: the client waits")
        connection = try host.accept()
        guard case .hello(let second) = try connection.receive() else { throw EndToEndError("no second hello") }
        #expect(second.name == first.name)
        connection.send(.welcome(.init(you: "p5", token: "t", room: "KXPT")), .room(Self.room(.gameOver)))
        try client.waitFor("# Room KXPT")
        client.type("quit")
        #expect(try connection.receive() == .leave)
        #expect(try client.waitForExit() == 0)
    }

    @Test func aStaleTokenJoinsAfresh() throws {
        let host = try FakeHost()
        let store = TokenStore(file: directory.appendingPathComponent("spy-client/tokens.json"))
        let address = HostAddress("127.0.0.1:\(host.port)")!
        store.set(TokenStore.key(address: address, room: nil), .init(token: "old", name: "Amy", room: "KXPT"))
        let client = try RunningProgram("spy-client", ["\(address)", "--plain"], environment: environment)
        var connection = try host.accept()
        guard case .hello(let first) = try connection.receive() else { throw EndToEndError("no hello") }
        #expect(first.token == "old")
        connection.send(.error(.init(.badToken)))
        connection.close()
        connection = try host.accept()
        guard case .hello(let second) = try connection.receive() else { throw EndToEndError("no second hello") }
        #expect(second.token == nil)
        #expect(second.name == "Amy")
        connection.send(.welcome(.init(you: "p2", token: "new", room: "KXPT")), .room(Self.room(.lobby)))
        try client.waitFor("Amy you")
        #expect(store.entry(TokenStore.key(address: address, room: nil))?.token == "new")
        client.type("quit")
        #expect(try connection.receive() == .leave)
        #expect(try client.waitForExit() == 0)
        #expect(client.stderr.contains("your seat is given up"))
        let kept = store.entry(TokenStore.key(address: address, room: nil))
        #expect(kept?.token == nil, "the seat's token is forgotten")
        #expect(kept?.name == "Amy", "the name is offered next time")
    }

    @Test(.enabled(if: Tmux.isAvailable, "tmux is not installed"))
    func onATerminalATakenNameIsOfferedAnother() throws {
        let host = try FakeHost()
        let tmux = Tmux()
        let binary = productsDirectory().appendingPathComponent("spy-client").path
        try tmux.run([
            "new-session", "-d", "-s", "main", "-x", "80", "-y", "24",
            "env XDG_STATE_HOME=\(directory.path) LANG=en_US.UTF-8 USER=amy \(binary) 127.0.0.1:\(host.port); read line",
        ])
        try tmux.waitForScreen("the name question") { $0.contains("Your name [amy]:") }
        try tmux.run(["send-keys", "-t", "main", "-l", "Amy"])
        try tmux.keys("Enter")
        var connection = try host.accept()
        guard case .hello(let first) = try connection.receive() else { throw EndToEndError("no hello") }
        #expect(first.name == "Amy")
        connection.send(.error(.init(.nameTaken)))
        connection.close()
        try tmux.waitForScreen("another name offered") { $0.contains("\"Amy\" is taken; another name [Amy2]:") }
        try tmux.keys("Enter")
        connection = try host.accept()
        guard case .hello(let second) = try connection.receive() else { throw EndToEndError("no second hello") }
        #expect(second.name == "Amy2")
        connection.send(.welcome(.init(you: "p2", token: "t", room: "KXPT")), .room(Self.room(.lobby)))
        try tmux.waitForScreen("the lobby") { $0.contains("Room KXPT") }
        try tmux.keys("q")
        #expect(try connection.receive() == .leave)
    }

    @Test(.enabled(if: Tmux.isAvailable, "tmux is not installed"))
    func fullScreenInTmuxRecallsWithoutAFrameAndRestoresTheTerminal() throws {
        let host = try FakeHost()
        let tmux = Tmux()
        let binary = productsDirectory().appendingPathComponent("spy-client").path
        let command =
            "env XDG_STATE_HOME=\(directory.path) LANG=zh_TW.UTF-8 \(binary) 127.0.0.1:\(host.port) --name 李大華; "
            + "echo EXIT=$?; stty -a | tr ' ' '\\n' | grep -x -e icanon -e -icanon -e echo -e -echo | tr '\\n' ' '; "
            + "echo; read line"
        try tmux.run(["new-session", "-d", "-s", "main", "-x", "80", "-y", "24", command])
        let connection = try host.accept()
        _ = try connection.receive()
        connection.send(
            .welcome(.init(you: "p3", token: "t", room: "KXPT")),
            .room(Self.room(.describing, turn: "p3", mode: .spoken)),
            .deal(.init(game: 1, word: "蘋果")), .turn(.init(round: 1, player: "p3")))
        try tmux.waitForScreen("the dealt word") { $0.contains("你的詞：蘋果") && $0.contains("▶ 3 李大華") }
        // A smaller window (SIGWINCH): the screen is drawn again at the new width, the connection state still at
        // the right end of the header.
        try tmux.run(["resize-window", "-t", "main", "-x", "60", "-y", "16"])
        try tmux.waitForScreen("a 60-column redraw") { screen in
            let header = screen.split(separator: "\n").first.map(String.init) ?? ""
            let trimmed = String(header.reversed().drop { $0 == " " }.reversed())
            return trimmed.hasSuffix("已連線") && DisplayWidth.of(trimmed) == 59
        }
        try tmux.keys("x")
        try tmux.waitForScreen("the hidden word") { $0.contains("按 f 看你的詞") && !$0.contains("蘋果") }
        try tmux.keys("f")
        try tmux.waitForScreen("the recalled word") { $0.contains("你的詞：蘋果") }
        try tmux.keys("Enter")
        try tmux.waitForScreen("the word hidden again") { !$0.contains("蘋果") }
        try tmux.keys("Enter")
        // Nothing went out for `f`: the first frame after the hello is the pass.
        #expect(try connection.receive() == .pass)
        try tmux.keys("C-c")
        let after = try tmux.waitForScreen("the shell again") { $0.contains("EXIT=") && $0.contains("canon") }
        #expect(after.contains("EXIT=0"))
        #expect(after.contains("icanon") && !after.contains("-icanon"), "raw mode left on:\n\(after)")
        #expect(after.contains("echo") && !after.contains("-echo"))
        #expect(after.contains("你的座位保留著"))
        try connection.expectClose()
    }
}
