import Foundation
import Glibc
import SpyProtocol
import Synchronization

@testable import spy_client

/// Why an end-to-end step failed.
struct EndToEndError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Milliseconds left until `deadline` (monotonic), at least 0.
func millisLeft(_ deadline: Millis) -> Int32 { Int32(clamping: max(0, deadline - monotonicNow())) }

func monotonicNow() -> Millis {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Millis(time.tv_sec) * 1000 + Millis(time.tv_nsec / 1_000_000)
}

/// Sets close-on-exec on every open descriptor above stderr.
///
/// Tests run in parallel in one process: without this, a program one test starts (a client, the long-lived tmux
/// server) inherits another test's sockets and pipes and keeps them open, so that test never sees them close.
/// Children still get their own standard streams, which are duplicated onto 0, 1 and 2 at spawn.
func markAllCloseOnExec() {
    for descriptor in 3..<Int32(4096) {
        let flags = fcntl(descriptor, F_GETFD)
        if flags >= 0 && flags & FD_CLOEXEC == 0 { _ = fcntl(descriptor, F_SETFD, flags | FD_CLOEXEC) }
    }
}

/// The directory holding the built products (spy-client, spyd).
func productsDirectory() -> URL {
    let candidates = [
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
        Bundle.main.bundleURL,
        Bundle.main.bundleURL.deletingLastPathComponent(),
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/debug"),
    ]
    for candidate in candidates
    where FileManager.default.isExecutableFile(atPath: candidate.appendingPathComponent("spy-client").path) {
        return candidate
    }
    return candidates.last!
}

/// A scripted host on 127.0.0.1 with an ephemeral port: the test plays the daemon's part frame by frame and sees
/// every frame the client sends.
final class FakeHost {
    let listener: Int32
    let port: Int

    init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(listener, 8) == 0 else {
            close(listener)
            throw EndToEndError("cannot listen")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(listener) }

    /// The next client connection, waiting at most `timeout` milliseconds.
    func accept(timeout: Millis = 10_000) throws -> FakeConnection {
        var entry = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, Int32(timeout)) == 1 else { throw EndToEndError("no client connected in time") }
        let descriptor = Glibc.accept(listener, nil, nil)
        markAllCloseOnExec()
        guard descriptor >= 0 else { throw EndToEndError("accept failed") }
        return FakeConnection(descriptor)
    }
}

/// One client connection as the fake host sees it.
final class FakeConnection {
    let descriptor: Int32
    private var decoder = FrameDecoder()
    private var pending: [ClientMessage] = []

    init(_ descriptor: Int32) { self.descriptor = descriptor }
    deinit { close() }

    private var closed = false
    func close() {
        guard !closed else { return }
        closed = true
        Glibc.close(descriptor)
    }

    func send(_ messages: ServerMessage...) {
        for message in messages {
            let frame = try! WireCodec.encodeFrame(message)
            _ = frame.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
    }

    /// The next frame from the client (pings skipped), waiting at most `timeout` milliseconds.
    func receive(timeout: Millis = 10_000) throws -> ClientMessage {
        let deadline = monotonicNow() + timeout
        while true {
            while let payload = try decoder.next() {
                let message = try WireCodec.decode(ClientMessage.self, from: payload)
                if case .ping = message { continue }
                return message
            }
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, millisLeft(deadline)) == 1 else { throw EndToEndError("no frame from the client") }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = read(descriptor, &buffer, buffer.count)
            guard count > 0 else { throw EndToEndError("the client closed the connection") }
            decoder.feed(buffer[0..<count])
        }
    }

    /// Waits until the client closes the connection, failing if it sends any frame other than a ping first.
    func expectClose(timeout: Millis = 10_000) throws {
        do {
            let message = try receive(timeout: timeout)
            throw EndToEndError("unexpected frame \(message)")
        } catch let error as EndToEndError where error.description == "the client closed the connection" {
            return
        }
    }
}

/// A running spy-client (or spyd) with its standard streams on pipes.
final class RunningProgram {
    let process = Process()
    private let input = Pipe()
    let output = Pipe()
    let errors = Pipe()
    private(set) var stdout = ""
    private(set) var stderr = ""

    init(_ executable: String, _ arguments: [String], environment: [String: String]) throws {
        process.executableURL =
            executable.hasPrefix("/")
            ? URL(fileURLWithPath: executable) : productsDirectory().appendingPathComponent(executable)
        process.arguments = arguments
        process.environment = environment
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        markAllCloseOnExec()
        try process.run()
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    func type(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    func closeInput() { try? input.fileHandleForWriting.close() }

    /// Reads output until `text` appears in stdout, or fails after `timeout` milliseconds.
    @discardableResult
    func waitFor(_ text: String, timeout: Millis = 10_000) throws -> String {
        let deadline = monotonicNow() + timeout
        while !stdout.contains(text) {
            guard pump(until: deadline) else {
                throw EndToEndError("no \"\(text)\" in output:\n\(stdout)\nstderr:\n\(stderr)")
            }
        }
        return stdout
    }

    /// Reads whatever arrives on stdout or stderr; false at the deadline or when both have ended.
    private func pump(until deadline: Millis) -> Bool { Self.pump([self], until: deadline) }

    private var stdoutBytes: [UInt8] = []
    private var stderrBytes: [UInt8] = []

    /// Waits until any of `programs` writes something, and takes it in. False at the deadline or when all ended.
    static func pump(_ programs: [RunningProgram], until deadline: Millis) -> Bool {
        var entries: [pollfd] = []
        for program in programs {
            entries.append(
                pollfd(fd: program.output.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0))
            entries.append(
                pollfd(fd: program.errors.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0))
        }
        guard poll(&entries, nfds_t(entries.count), millisLeft(deadline)) > 0 else { return false }
        var progressed = false
        for (index, entry) in entries.enumerated() where entry.revents != 0 {
            var buffer = [UInt8](repeating: 0, count: 16_384)
            let count = read(entry.fd, &buffer, buffer.count)
            guard count > 0 else { continue }
            progressed = true
            let program = programs[index / 2]
            // Decode only whole UTF-8 text so a character split between two reads is not mangled.
            if index % 2 == 0 {
                program.stdoutBytes += buffer[0..<count]
                program.stdout = String(decoding: program.stdoutBytes, as: UTF8.self)
            } else {
                program.stderrBytes += buffer[0..<count]
                program.stderr = String(decoding: program.stderrBytes, as: UTF8.self)
            }
        }
        return progressed
    }

    /// Complete lines of stdout so far.
    var lines: [String] {
        var all = stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        all.removeLast()
        return all
    }

    /// Waits for the program to exit and returns its status, reading its remaining output.
    func waitForExit(timeout: Millis = 10_000) throws -> Int32 {
        let deadline = monotonicNow() + timeout
        while process.isRunning {
            guard monotonicNow() < deadline else { throw EndToEndError("the program did not exit") }
            // Short waits: the exit itself is not a readable event, and a pipe may be held open by another child.
            _ = pump(until: min(deadline, monotonicNow() + 20))
        }
        // Whatever it wrote before exiting is already in the pipes.
        while pump(until: monotonicNow()) {}
        return process.terminationStatus
    }

    func killHard() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

/// A private tmux server for full-screen tests.
final class Tmux {
    static let path = "/usr/bin/tmux"
    static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: path) }

    let socketName = "spy-client-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"

    /// Runs one tmux command and returns what it printed.
    ///
    /// Spawned directly rather than through `Process`: the tmux server forked by the first command inherits
    /// whatever descriptors `Process` uses to notice the exit, which then never comes.
    @discardableResult
    func run(_ arguments: [String]) throws -> String {
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("\(socketName).out").path
        defer { unlink(outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = ([Self.path, "-u", "-L", socketName, "-f", "/dev/null"] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        // The tmux server lives on: it must not inherit sockets or pipes that other tests wait to see closed.
        markAllCloseOnExec()
        var pid: pid_t = 0
        guard posix_spawn(&pid, Self.path, &actions, nil, argv, environ) == 0 else {
            throw EndToEndError("cannot run tmux")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    }

    /// The visible screen of the pane.
    func capture() -> String { (try? run(["capture-pane", "-p", "-t", "main"])) ?? "" }

    /// Polls the pane until `condition` holds, or fails after `timeout` milliseconds.
    @discardableResult
    func waitForScreen(timeout: Millis = 10_000, _ what: String, _ condition: (String) -> Bool) throws -> String {
        let deadline = monotonicNow() + timeout
        while true {
            let screen = capture()
            if condition(screen) { return screen }
            guard monotonicNow() < deadline else { throw EndToEndError("screen never showed \(what):\n\(screen)") }
            var entry = pollfd(fd: -1, events: 0, revents: 0)
            _ = poll(&entry, 0, 20)
        }
    }

    func keys(_ keys: String...) throws { try run(["send-keys", "-t", "main"] + keys) }

    deinit { _ = try? run(["kill-server"]) }
}

/// A TCP relay between one client and the host that records every frame the client sends, so a test can check
/// at the host's door what went out (and what did not).
final class RecordingProxy: Sendable {
    let port: Int
    private let listener: Int32
    private let upstreamPort: Int
    private let frames = Mutex<[ClientMessage]>([])
    private let stopped = Mutex(false)

    init(upstreamPort: Int) throws {
        let host = try FakeHost()
        // Take the fake host's listening socket over: the relay owns it from now on.
        listener = fcntl(host.listener, F_DUPFD_CLOEXEC, 0)
        port = host.port
        self.upstreamPort = upstreamPort
        let thread = Thread { [self] in relay() }
        thread.start()
    }

    /// Every frame the client sent so far, pings and pongs left out.
    var received: [ClientMessage] {
        frames.withLock {
            $0.filter { message in
                switch message {
                case .ping, .pong: return false
                default: return true
                }
            }
        }
    }

    func stop() { stopped.withLock { $0 = true } }

    private func relay() {
        var client: Int32 = -1
        var server: Int32 = -1
        var decoder = FrameDecoder()
        while !stopped.withLock({ $0 }) {
            var entries = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
            if client >= 0 {
                entries.append(pollfd(fd: client, events: Int16(POLLIN), revents: 0))
                entries.append(pollfd(fd: server, events: Int16(POLLIN), revents: 0))
            }
            // The timeout only lets the relay notice `stop()`; traffic wakes it at once.
            guard poll(&entries, nfds_t(entries.count), 50) > 0 else { continue }
            if entries[0].revents != 0 {
                if client >= 0 {
                    close(client)
                    close(server)
                }
                client = accept(listener, nil, nil)
                markAllCloseOnExec()
                server = Self.connectLoopback(upstreamPort)
                decoder = FrameDecoder()
                continue
            }
            guard client >= 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 16_384)
            for (index, entry) in entries.enumerated().dropFirst() where entry.revents != 0 {
                let from = index == 1 ? client : server
                let to = index == 1 ? server : client
                let count = read(from, &buffer, buffer.count)
                if count <= 0 {
                    close(client)
                    close(server)
                    client = -1
                    server = -1
                    break
                }
                if index == 1 {
                    decoder.feed(buffer[0..<count])
                    while let payload = try? decoder.next() {
                        if let message = try? WireCodec.decode(ClientMessage.self, from: payload) {
                            frames.withLock { $0.append(message) }
                        }
                    }
                }
                _ = buffer.withUnsafeBytes { send(to, $0.baseAddress, count, Int32(MSG_NOSIGNAL)) }
            }
        }
        if client >= 0 {
            close(client)
            close(server)
        }
        close(listener)
    }

    private static func connectLoopback(_ port: Int) -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return descriptor
    }
}
