import Foundation
import Glibc
import SpyProtocol
import Testing

@testable import SpyClient

/// A `Session` run in the test's own process against a scripted host: its way out is the status `run` returns,
/// which `spy-client`'s `main` exits with.
@Suite struct SessionTests {
    /// What a session showed, for the test's thread to read while the session's thread plays.
    final class RecordingInterface: PlayerInterface, @unchecked Sendable {
        private let lock = NSCondition()
        private var words: [String] = []
        private var began = false
        private var ended = false

        func begin() { lock.withLock { began = true } }

        /// `q` gives the seat up, as the line mode's `quit` does.
        func input(_ bytes: [UInt8], state: inout ClientState, now: Millis) -> [Reaction] {
            String(decoding: bytes, as: UTF8.self).split(separator: "\n").map { line in
                line == "q" ? Reaction(messages: [.leave], action: .quit(leave: true)) : Reaction()
            }
        }

        func show(_ state: ClientState, now: Millis) {
            guard let word = state.dealt?.word else { return }
            lock.withLock {
                if words.last != word { words.append(word) }
                lock.broadcast()
            }
        }

        /// The words shown so far, once there is one or `seconds` have passed.
        func waitForAWord(seconds: Double = 10) -> [String] {
            let deadline = Date(timeIntervalSinceNow: seconds)
            return lock.withLock {
                while words.isEmpty, lock.wait(until: deadline) {}
                return words
            }
        }

        func resized() {}

        func end() { lock.withLock { ended = true } }

        var beganAndEnded: (Bool, Bool) { lock.withLock { (began, ended) } }
    }

    /// The status a session's thread returned, once it did.
    final class Outcome: @unchecked Sendable {
        private let condition = NSCondition()
        private var status: Int32?

        func finished(_ value: Int32) {
            condition.withLock {
                status = value
                condition.broadcast()
            }
        }

        func wait(seconds: Double = 10) -> Int32? {
            let deadline = Date(timeIntervalSinceNow: seconds)
            return condition.withLock {
                while status == nil, condition.wait(until: deadline) {}
                return status
            }
        }
    }

    /// Starts a session for `address` on a thread of its own, its keys read from `input`.
    private func start(
        _ address: String, name: String, directory: URL, input: Int32, interface: RecordingInterface
    ) throws -> Outcome {
        let environment = ["XDG_STATE_HOME": directory.path, "LANG": "en_US.UTF-8"]
        guard
            case .success(.run(let options)) = ClientOptions.parse(
                [address, "--plain", "--name", name], environment: environment)
        else { throw EndToEndError("the options were refused") }
        let outcome = Outcome()
        Thread.detachNewThread {
            let session = Session(
                options: options, name: name, store: TokenStore.standard(environment: environment), token: nil,
                interface: interface, mayAsk: false, input: input)
            outcome.finished(session?.run() ?? -1)
        }
        return outcome
    }

    private func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "spy-session-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test func quittingGivesTheSeatUpAndReturnsZero() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let host = try FakeHost()
        var keys: [Int32] = [0, 0]
        #expect(pipe(&keys) == 0)
        defer {
            close(keys[0])
            close(keys[1])
        }
        let interface = RecordingInterface()
        let outcome = try start(
            "127.0.0.1:\(host.port)", name: "Amy", directory: directory, input: keys[0], interface: interface)

        let connection = try host.accept()
        guard case .hello(let hello) = try connection.receive() else { throw EndToEndError("no hello") }
        #expect(hello.name == "Amy" && hello.token == nil)
        connection.send(
            .welcome(.init(you: "p2", token: "token-one", room: "KXPT")),
            .room(
                RoomView(
                    room: "KXPT", phase: .describing, game: 1, round: 1, settings: GameSettings(clueMode: .typed),
                    seats: [
                        SeatView(id: "p1", seat: 1, name: "Ben", owner: true), SeatView(id: "p2", seat: 2, name: "Amy"),
                    ],
                    turn: "p1")),
            .deal(.init(game: 1, word: "apple")))
        #expect(interface.waitForAWord() == ["apple"])
        let store = TokenStore.standard(environment: ["XDG_STATE_HOME": directory.path])
        #expect(store.load().values.contains { $0.token == "token-one" })

        _ = "q\n".withCString { write(keys[1], $0, 2) }
        #expect(try connection.receive() == .leave)
        #expect(outcome.wait() == 0)
        #expect(interface.beganAndEnded == (true, true))
        #expect(!store.load().values.contains { $0.token != nil })
    }

    @Test func aHostThatCannotBeReachedReturnsOne() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let host = try FakeHost()
        let port = host.port
        host.stopListening()
        var keys: [Int32] = [0, 0]
        #expect(pipe(&keys) == 0)
        defer {
            close(keys[0])
            close(keys[1])
        }
        let interface = RecordingInterface()
        let outcome = try start(
            "127.0.0.1:\(port)", name: "Amy", directory: directory, input: keys[0], interface: interface)
        #expect(outcome.wait() == 1)
        #expect(interface.beganAndEnded == (false, true))
    }
}
