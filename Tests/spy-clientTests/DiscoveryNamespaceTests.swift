import Foundation
import Glibc
import SpyProtocol
import Testing

@testable import SpyClient

/// Two network namespaces joined by a veth pair, made by the test and removed at its end: a private /24 where
/// broadcasts go from one to the other and nowhere else.
final class NamespacePair {
    static let ipPath = ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }
    /// Root and `ip` are needed; under `CI=true` (where the runner is root) the tests run regardless, and fail
    /// rather than skip when something is missing.
    static let shouldRun = (getuid() == 0 && ipPath != nil) || ProcessInfo.processInfo.environment["CI"] == "true"

    let hostSide: String
    let clientSide: String
    let subnet: String
    private var programs: [RunningProgram] = []
    private var created: [String] = []

    init() {
        let tag = "\(getpid())-\(UInt16.random(in: 0...UInt16.max))"
        hostSide = "spyh-\(tag)"
        clientSide = "spyc-\(tag)"
        subnet = "10.77.\(Int.random(in: 1...250))"
    }

    /// Creates both namespaces, the veth pair and the addresses: `hostAddresses` (last octets) on the host's
    /// side, .9 on the client's.
    func create(hostAddresses: [Int] = [1]) throws {
        for namespace in [hostSide, clientSide] {
            try ip(["netns", "add", namespace])
            created.append(namespace)
            try ip(["-n", namespace, "link", "set", "lo", "up"])
        }
        try ip(["-n", hostSide, "link", "add", "vh", "type", "veth", "peer", "name", "vc", "netns", clientSide])
        for last in hostAddresses {
            try ip(["-n", hostSide, "addr", "add", "\(subnet).\(last)/24", "brd", "+", "dev", "vh"])
        }
        try ip(["-n", clientSide, "addr", "add", "\(subnet).9/24", "brd", "+", "dev", "vc"])
        try ip(["-n", hostSide, "link", "set", "vh", "up"])
        try ip(["-n", clientSide, "link", "set", "vc", "up"])
    }

    /// Stops every program started in the namespaces, then deletes them (which removes the veth pair too).
    func remove() {
        for program in programs where program.isRunning { program.killHard() }
        for namespace in created { _ = try? ip(["netns", "del", namespace]) }
        created.removeAll()
    }

    deinit { remove() }

    @discardableResult
    func ip(_ arguments: [String]) throws -> String {
        guard let ipPath = NamespacePair.ipPath else { throw EndToEndError("`ip` (iproute2) is not installed") }
        let program = try RunningProgram(ipPath, arguments, environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"])
        let status = try program.waitForExit()
        guard status == 0 else {
            throw EndToEndError("ip \(arguments.joined(separator: " ")) failed (\(status)): \(program.stderr)")
        }
        return program.stdout
    }

    /// Starts `executable` inside `namespace`.
    func start(in namespace: String, _ executable: String, _ arguments: [String], environment: [String: String])
        throws -> RunningProgram
    {
        guard let ipPath = NamespacePair.ipPath else { throw EndToEndError("`ip` (iproute2) is not installed") }
        let program = try RunningProgram(
            ipPath, ["netns", "exec", namespace, executable] + arguments, environment: environment)
        programs.append(program)
        return program
    }

    /// Starts a spyd on the host's side and waits until it listens.
    func startHost(_ arguments: [String]) throws -> RunningProgram {
        let host = try start(
            in: hostSide, spydPath, ["--host", "--no-state"] + arguments, environment: ["PATH": "/usr/bin:/bin"])
        let deadline = monotonicNow() + testPatience
        while !host.stderr.contains("listening on") {
            guard host.isRunning, RunningProgram.pump([host], until: deadline) || monotonicNow() < deadline else {
                throw EndToEndError("spyd did not start:\n\(host.stderr)")
            }
        }
        return host
    }

    /// Starts spy-client on the client's side, with its own home.
    func startClient(_ arguments: [String], language: String = "en_US.UTF-8") throws -> RunningProgram {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("spy-ns-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        return try start(
            in: clientSide, productsDirectory().appendingPathComponent("spy-client").path, arguments,
            environment: ["HOME": home.path, "XDG_STATE_HOME": home.path, "LANG": language, "PATH": "/usr/bin:/bin"])
    }
}

/// Broadcast discovery between two network namespaces: nothing typed but a name, nothing leaves the machine.
@Suite(.serialized, .enabled(if: NamespacePair.shouldRun && realHostAvailable, "needs root, `ip` and a built spyd"))
struct DiscoveryNamespaceTests {
    @Test func theClientFindsTheOnlyHostThenJoinsAndPlaysWithoutAnAddress() throws {
        let network = NamespacePair()
        defer { network.remove() }
        try network.create()
        _ = try network.startHost([
            "--name", "Party host", "--bots", "3", "--bot-delay-ms", "0", "--clues", "typed", "--seed", "11",
        ])

        let list = try network.startClient(["--list", "--search-ms", "3000"])
        #expect(try list.waitForExit() == 0)
        let lines = list.lines
        #expect(lines.count == 1, "\(list.stdout)")
        let fields = lines.first?.split(separator: "\t").map(String.init) ?? []
        #expect(fields.count == 4)
        #expect(fields.first == "\(network.subnet).1:7777")
        #expect(fields.dropFirst().first == "Party host")
        #expect(fields.dropFirst(2).first?.hasSuffix(" 0/10 lobby") == true)
        #expect(fields.last == "open")

        let player = try network.startClient(["--name", "X", "--plain", "--search-ms", "3000"])
        try player.waitFor("Found Party host at \(network.subnet).1:7777; joining")
        try player.waitFor("Bot 3 joined")
        player.type("start")
        try player.waitFor("Game 1 starts")
        var handled = 0
        var clues = 0
        let deadline = monotonicNow() + 120_000
        // Answer what is already printed before waiting for more: the prompt may have come with the last read.
        while true {
            let lines = player.lines
            while handled < lines.count {
                let line = lines[handled]
                handled += 1
                if line.hasPrefix("» Your turn") {
                    clues += 1
                    player.type("clue zq-\(clues)")
                } else if line.hasPrefix("» "), let range = line.range(of: "vote N: ") {
                    player.type("vote \(line[range.upperBound...].prefix { $0.isNumber })")
                } else if line.hasPrefix("» You are out") {
                    player.type("guess 不知道")
                }
            }
            if player.stdout.contains(" win!") { break }
            guard RunningProgram.pump([player], until: deadline) || monotonicNow() < deadline, player.isRunning else {
                throw EndToEndError("the game did not finish:\n\(player.stdout)\n\(player.stderr)")
            }
        }
        player.type("quit")
        _ = try player.waitForExit()
    }

    @Test func twoHostsAreListedAndThePlayerPicksOne() throws {
        let network = NamespacePair()
        defer { network.remove() }
        try network.create(hostAddresses: [1, 2])
        _ = try network.startHost(["--bind", "\(network.subnet).1", "--name", "Host A"])
        _ = try network.startHost(["--bind", "\(network.subnet).2", "--name", "Host B", "--password", "pw"])

        let list = try network.startClient(["--list", "--search-ms", "3000"])
        #expect(try list.waitForExit() == 0)
        let rows = list.lines.map { $0.split(separator: "\t").map(String.init) }
        #expect(
            rows.map { $0.prefix(2) } == [
                ["\(network.subnet).1:7777", "Host A"], ["\(network.subnet).2:7777", "Host B"],
            ])
        #expect(rows.map(\.last) == ["open", "password"])
        let roomOfB = try #require(rows.last?.dropFirst(2).first?.prefix(4))

        let player = try network.startClient(["--name", "Y", "--plain", "--password", "pw", "--search-ms", "3000"])
        try player.waitFor("Pick a host (1–2): ")
        #expect(player.stdout.contains("Found 2 hosts:"))
        #expect(player.stdout.contains("  1) Host A — \(network.subnet).1:7777 — room "))
        #expect(player.stdout.contains("  2) Host B — \(network.subnet).2:7777 — room \(roomOfB)"))
        player.type("2")
        try player.waitFor("Found Host B at \(network.subnet).2:7777; joining")
        try player.waitFor("# ")
        #expect(player.stdout.contains(String(roomOfB)))
        player.type("quit")
        _ = try player.waitForExit()
    }

    @Test func noHostAnsweringIsSaidClearly() throws {
        let network = NamespacePair()
        defer { network.remove() }
        try network.create()
        // A host that does not answer probes is as good as none for discovery.
        _ = try network.startHost(["--no-discovery"])

        let list = try network.startClient(["--list"])
        #expect(try list.waitForExit() == 69)
        #expect(list.stdout.isEmpty)
        #expect(list.stderr.contains("no host found on this network — ask the host for the address printed by spyd"))

        let player = try network.startClient(["--name", "Z", "--plain"])
        #expect(try player.waitForExit() == 69)
        #expect(player.stderr.contains("no host found on this network"))

        let chinese = try network.startClient(["--name", "Z", "--plain"], language: "zh_TW.UTF-8")
        #expect(try chinese.waitForExit() == 69)
        #expect(chinese.stderr.contains("這個網路上找不到主機"))
    }
}
