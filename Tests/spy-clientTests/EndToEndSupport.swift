import Foundation
import Glibc
import SpyProtocol
import SpyTestSupport
import Synchronization

@testable import SpyClient

/// Why an end-to-end step failed.
struct EndToEndError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// How long any one wait in an end-to-end test may take before it fails. Generous on purpose: it only bounds a
/// failure, and the machine may be busy building; a passing run never waits for it.
let testPatience: Millis = 30_000

/// Milliseconds left until `deadline` (monotonic), at least 0.
func millisLeft(_ deadline: Millis) -> Int32 { Int32(clamping: max(0, deadline - monotonicNow())) }

func monotonicNow() -> Millis {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Millis(time.tv_sec) * 1000 + Millis(time.tv_nsec / 1_000_000)
}

/// Starts `path` with the given standard streams and nothing else: every other descriptor of this process is
/// closed in the child.
///
/// Tests run in parallel in one process. A child that inherited another test's socket or pipe (or the descriptor
/// Foundation's `Process` uses to notice its own children exit) would keep it open, and that test would wait for
/// a close that never comes. Foundation's `Process` is not used here for the same reason.
func spawnIsolated(
    _ path: String, _ arguments: [String], environment: [String: String]?, stdin: Int32, stdout: Int32,
    stderr: Int32
) throws -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, stdin, 0)
    posix_spawn_file_actions_adddup2(&actions, stdout, 1)
    posix_spawn_file_actions_adddup2(&actions, stderr, 2)
    let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd"))?.compactMap { Int32($0) } ?? []
    // A descriptor closed meanwhile makes its close fail with EBADF in the child, which posix_spawn ignores.
    for descriptor in open where descriptor > 2 { posix_spawn_file_actions_addclose(&actions, descriptor) }
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    let envp = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
    defer { envp?.forEach { free($0) } }
    // Test code runs on worker threads that block most signals; a child would inherit that mask and never see
    // SIGTERM, SIGINT or SIGCHLD. Start it with no signal blocked and every disposition at its default.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    var allSignals = sigset_t()
    sigfillset(&allSignals)
    posix_spawnattr_setsigdefault(&attributes, &allSignals)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var pid: pid_t = 0
    let result =
        envp.map { posix_spawn(&pid, path, &actions, &attributes, argv, $0) }
        ?? posix_spawn(&pid, path, &actions, &attributes, argv, environ)
    guard result == 0 else { throw EndToEndError("cannot start \(path): error \(result)") }
    return pid
}

/// A pipe whose two ends close on exec (children get their end through `dup2`, which clears the flag).
func closeOnExecPipe() throws -> (read: Int32, write: Int32) {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { throw EndToEndError("pipe failed") }
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    return (ends[0], ends[1])
}

/// The directory holding the built products (spy-client, spyd).
func productsDirectory() -> URL { BuiltProducts.directory }

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

    private var listening = true

    deinit { stopListening() }

    /// Closes the listening socket (once): connecting to `port` is then refused. A second `close` of the number
    /// would close whatever descriptor another test has opened under it since.
    func stopListening() {
        guard listening else { return }
        listening = false
        close(listener)
    }

    /// The next client connection, waiting at most `timeout` milliseconds.
    func accept(timeout: Millis = testPatience) throws -> FakeConnection {
        let deadline = monotonicNow() + timeout
        var descriptor: Int32 = -1
        while descriptor < 0 {
            let left = deadline - monotonicNow()
            var entry = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            let ready = left > 0 ? poll(&entry, 1, Int32(left)) : 0
            if ready < 0 && errno == EINTR { continue }
            guard ready == 1 else { throw EndToEndError("no client connected in time") }
            descriptor = Glibc.accept(listener, nil, nil)
            if descriptor < 0 && errno != EINTR && errno != EAGAIN && errno != ECONNABORTED {
                throw EndToEndError("accept failed: \(String(cString: strerror(errno)))")
            }
        }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
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
    func receive(timeout: Millis = testPatience) throws -> ClientMessage {
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
    func expectClose(timeout: Millis = testPatience) throws {
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
    let pid: pid_t
    private let input: Int32
    let output: Int32
    let errors: Int32
    private var status: Int32?
    private(set) var stdout = ""
    private(set) var stderr = ""

    init(_ executable: String, _ arguments: [String], environment: [String: String]) throws {
        // A line typed to a program that just died must not kill the test process.
        signal(SIGPIPE, SIG_IGN)
        let path = executable.hasPrefix("/") ? executable : productsDirectory().appendingPathComponent(executable).path
        let stdinPipe = try closeOnExecPipe()
        let stdoutPipe = try closeOnExecPipe()
        let stderrPipe = try closeOnExecPipe()
        defer { [stdinPipe.read, stdoutPipe.write, stderrPipe.write].forEach { close($0) } }
        input = stdinPipe.write
        output = stdoutPipe.read
        errors = stderrPipe.read
        pid = try spawnIsolated(
            path, arguments, environment: environment, stdin: stdinPipe.read, stdout: stdoutPipe.write,
            stderr: stderrPipe.write)
    }

    deinit {
        if isRunning { killHard() }
        [input, output, errors].forEach { close($0) }
    }

    /// Whether the program still runs (reaps it once it has exited).
    var isRunning: Bool {
        guard status == nil else { return false }
        var raw: Int32 = 0
        if waitpid(pid, &raw, WNOHANG) == pid { status = raw }
        return status == nil
    }

    /// Exit status, or 128 + signal number.
    var terminationStatus: Int32 {
        guard let status else { return -1 }
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }

    func type(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
    }

    /// Reads output until `text` appears in stdout, or fails after `timeout` milliseconds.
    @discardableResult
    func waitFor(_ text: String, timeout: Millis = testPatience) throws -> String {
        let deadline = monotonicNow() + timeout
        while !stdout.contains(text) {
            guard pump(until: deadline) else {
                throw EndToEndError("no \"\(text)\" in output:\n\(stdout)\nstderr:\n\(stderr)")
            }
        }
        return stdout
    }

    /// Reads output until `text` appears in stderr, or fails after `timeout` milliseconds.
    @discardableResult
    func waitFor(stderr text: String, timeout: Millis = testPatience) throws -> String {
        let deadline = monotonicNow() + timeout
        while !stderr.contains(text) {
            guard pump(until: deadline) else {
                throw EndToEndError("no \"\(text)\" in stderr:\n\(stderr)\nstdout:\n\(stdout)")
            }
        }
        return stderr
    }

    /// Reads whatever arrives on stdout or stderr; false at the deadline or when both have ended.
    private func pump(until deadline: Millis) -> Bool { Self.pump([self], until: deadline) }

    private var stdoutBytes: [UInt8] = []
    private var stderrBytes: [UInt8] = []

    private var stdoutEnded = false
    private var stderrEnded = false

    /// Waits until any of `programs` writes something (or ends an output), and takes it in. False only at the
    /// deadline or once every output has ended; an interrupted wait is not an end.
    static func pump(_ programs: [RunningProgram], until deadline: Millis) -> Bool {
        var entries: [pollfd] = []
        var owners: [(RunningProgram, isStdout: Bool)] = []
        for program in programs {
            if !program.stdoutEnded {
                entries.append(pollfd(fd: program.output, events: Int16(POLLIN), revents: 0))
                owners.append((program, true))
            }
            if !program.stderrEnded {
                entries.append(pollfd(fd: program.errors, events: Int16(POLLIN), revents: 0))
                owners.append((program, false))
            }
        }
        guard !entries.isEmpty else { return false }
        let ready = poll(&entries, nfds_t(entries.count), millisLeft(deadline))
        if ready < 0 { return errno == EINTR && monotonicNow() < deadline }
        guard ready > 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 16_384)
        for (index, entry) in entries.enumerated() where entry.revents != 0 {
            let (program, isStdout) = owners[index]
            let count = read(entry.fd, &buffer, buffer.count)
            if count < 0 { continue }
            if count == 0 {
                if isStdout { program.stdoutEnded = true } else { program.stderrEnded = true }
                continue
            }
            // Decode only whole UTF-8 text so a character split between two reads is not mangled.
            if isStdout {
                program.stdoutBytes += buffer[0..<count]
                program.stdout = String(decoding: program.stdoutBytes, as: UTF8.self)
            } else {
                program.stderrBytes += buffer[0..<count]
                program.stderr = String(decoding: program.stderrBytes, as: UTF8.self)
            }
        }
        return true
    }

    /// Complete lines of stdout so far.
    var lines: [String] {
        var all = stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        all.removeLast()
        return all
    }

    /// Waits for the program to exit and returns its status, reading its remaining output.
    func waitForExit(timeout: Millis = testPatience) throws -> Int32 {
        let deadline = monotonicNow() + timeout
        while isRunning {
            guard monotonicNow() < deadline else { throw EndToEndError("the program did not exit") }
            // Short waits: the exit itself is not a readable event.
            _ = pump(until: min(deadline, monotonicNow() + 20))
        }
        while pump(until: monotonicNow()) {}
        return terminationStatus
    }

    func killHard() {
        kill(pid, SIGKILL)
        var raw: Int32 = 0
        // SIGKILL cannot be caught, so this wait is short.
        if status == nil, waitpid(pid, &raw, 0) == pid { status = raw }
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
        let output = open(outputPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer {
            close(output)
            close(null)
        }
        // The tmux server forked by the first command lives on: it must hold nothing of this process.
        let pid = try spawnIsolated(
            Self.path, ["-u", "-L", socketName, "-f", "/dev/null"] + arguments, environment: nil, stdin: null,
            stdout: output, stderr: output)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    }

    /// The visible screen of the pane.
    func capture() -> String { (try? run(["capture-pane", "-p", "-t", "main"])) ?? "" }

    /// Polls the pane until `condition` holds, or fails after `timeout` milliseconds.
    @discardableResult
    func waitForScreen(timeout: Millis = testPatience, _ what: String, _ condition: (String) -> Bool) throws -> String {
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

    deinit {
        _ = try? run(["kill-server"])
        // tmux leaves its socket file behind.
        let directory = ProcessInfo.processInfo.environment["TMUX_TMPDIR"] ?? "/tmp"
        unlink("\(directory)/tmux-\(getuid())/\(socketName)")
    }
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
                _ = fcntl(client, F_SETFD, FD_CLOEXEC)
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
