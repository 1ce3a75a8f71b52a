import Foundation
import Glibc
import SpyNet
import SpyProtocol
import SpyTestSupport
import Testing

@testable import spyd

/// A UDP socket of the test on 127.0.0.1 that probes a daemon.
final class ProbeSocket {
    let socket: DatagramSocket
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 8)

    /// Bound to `host`, any address of 127/8 (the rate limit counts per source address).
    init(host: String = "127.0.0.1") throws { socket = try DatagramSocket.bind(host: host, port: 0) }

    deinit {
        socket.close()
        buffer.deallocate()
    }

    func send(_ bytes: [UInt8], to port: UInt16) {
        #expect(socket.send(bytes, to: DatagramAddress(ipv4: "127.0.0.1", port: port)!))
    }

    /// The next datagram, waiting up to `seconds`; nil when none came.
    func receive(seconds: Double = 10) -> [UInt8]? {
        let deadline = Deadline.after(seconds: seconds)
        while true {
            if let (length, _) = socket.receive(into: buffer) { return Array(buffer[0..<min(length, buffer.count)]) }
            guard !deadline.hasPassed else { return nil }
            var entry = pollfd(fd: socket.fd, events: Int16(POLLIN), revents: 0)
            _ = poll(&entry, 1, Int32(clamping: deadline.remainingMs))
        }
    }

    /// A datagram already waiting, without waiting for one.
    func receiveNow() -> [UInt8]? {
        socket.receive(into: buffer).map { Array(buffer[0..<min($0.length, buffer.count)]) }
    }
}

@Suite struct DiscoveryTests {
    /// A flood of probes between two changes of the rooms costs one encoding.
    @Test func anAnswerIsEncodedOncePerChange() {
        var cache = DiscoveryAnswerCache()
        let lobby = DiscoveryAnswer(
            name: "Host", port: 7777, protocol: 1, password: false,
            rooms: [.init(code: "KFRW", seated: 3, free: 7, playing: false)], more: 1_999)
        let first = cache.datagram(for: lobby)
        for _ in 0..<100 { #expect(cache.datagram(for: lobby) == first) }
        #expect(cache.encodings == 1)
        var playing = lobby
        playing.rooms[0].playing = true
        let changed = cache.datagram(for: playing)
        #expect(changed != first && changed.flatMap(DiscoveryAnswer.decode) == playing)
        #expect(cache.encodings == 2)
    }

    @Test(.tags(.shell)) func anAnswerDescribesTheHostAndItsRoomsAndNothingSecret() throws {
        let daemon = try DaemonProcess(
            ["--rooms", "2", "--name", "Test host 測試", "--password", "hunter2", "--bots", "3", "--bot-delay-ms", "0"])
        let probe = try ProbeSocket()
        probe.send(Discovery.probe(), to: daemon.port)
        let first = try #require(probe.receive())
        let before = try #require(DiscoveryAnswer.decode(first))
        #expect(before.name == "Test host 測試")
        #expect(before.port == Int(daemon.port))
        #expect(before.protocol == 1)
        #expect(before.password)
        #expect(before.rooms.count == 2 && before.more == 0)
        #expect(before.rooms.allSatisfy { $0.seated == 0 && $0.free == 10 && !$0.playing })

        let amy = try TestPlayer(port: daemon.port, name: "Amy", room: before.rooms[0].code, password: "hunter2")
        try amy.send(.start)
        try amy.waitFor("the deal") { if case .deal = $0 { return true } else { return false } }
        let deal = try #require(amy.deal)

        probe.send(Discovery.probe(), to: daemon.port)
        let datagram = try #require(probe.receive())
        let during = try #require(DiscoveryAnswer.decode(datagram))
        #expect(during.rooms[0] == .init(code: before.rooms[0].code, seated: 4, free: 6, playing: true))
        #expect(during.rooms[1] == before.rooms[1])
        let text = String(decoding: datagram, as: UTF8.self)
        for secret in ["hunter2", amy.token] + [deal.word].compactMap({ $0 }) {
            #expect(!text.contains(secret), "the answer must not carry \(secret)")
        }
    }

    @Test(.tags(.shell)) func anAnswerIsNeverLongerThanItsProbe() throws {
        let daemon = try DaemonProcess(["--rooms", "120"])
        let probe = try ProbeSocket()
        for length in [1_200, 1_300, 1_472] {
            probe.send(Discovery.probe(length: length), to: daemon.port)
            let datagram = try #require(probe.receive())
            #expect(datagram.count <= min(length, Discovery.maximumAnswerBytes))
            let answer = try #require(DiscoveryAnswer.decode(datagram))
            #expect(answer.more > 0 && answer.rooms.count + answer.more == 120)
        }
    }

    @Test(.tags(.shell)) func malformedOrOversizeProbesGetNoAnswer() throws {
        let daemon = try DaemonProcess()
        var nonZero = Discovery.probe()
        nonZero[1_000] = 0xFF
        var otherVersion = Discovery.probe()
        otherVersion[8] = 9
        let malformed: [[UInt8]] = [
            Array(Discovery.probe().prefix(1_199)), Array(Discovery.probe().prefix(9)), Discovery.probe(length: 1_473),
            Discovery.probe(length: 9_000), nonZero, otherVersion, Array("SPYDISC!".utf8) + [1] + Array("{}".utf8),
            [UInt8](repeating: 0x41, count: 1_200),
        ]
        let senders = try malformed.map { datagram in
            let sender = try ProbeSocket()
            sender.send(datagram, to: daemon.port)
            return sender
        }
        // The host reads its socket in order: once a good probe sent after them is answered, every earlier datagram
        // has been dealt with, and any answer to one would already be waiting.
        let good = try ProbeSocket()
        good.send(Discovery.probe(), to: daemon.port)
        #expect(good.receive().flatMap(DiscoveryAnswer.decode) != nil)
        for (index, sender) in senders.enumerated() {
            #expect(sender.receiveNow() == nil, "malformed probe \(index) was answered")
        }
    }

    @Test(.tags(.shell)) func answersToOneSourceAreRateLimited() throws {
        let daemon = try DaemonProcess()
        let flooder = try ProbeSocket()
        let started = SystemClock.monotonicMs()
        for _ in 0..<60 { flooder.send(Discovery.probe(), to: daemon.port) }
        // Another source is answered even now, and its answer marks the end of the flood's processing.
        let other = try ProbeSocket(host: "127.0.0.2")
        other.send(Discovery.probe(), to: daemon.port)
        #expect(other.receive() != nil)
        let elapsedSeconds = Double(SystemClock.monotonicMs() - started) / 1000
        var answered = 0
        while flooder.receiveNow() != nil { answered += 1 }
        let limiter = DiscoveryRateLimiter()
        #expect(answered >= Int(limiter.burst))
        #expect(Double(answered) <= limiter.burst + limiter.perSecond * elapsedSeconds + 1)
        #expect(answered < 60)
    }

    @Test(.tags(.shell)) func noDiscoveryLeavesTheUDPPortClosed() throws {
        let daemon = try DaemonProcess(["--no-discovery"])
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = daemon.port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        #expect(connected == 0)
        let probe = Discovery.probe()
        #expect(probe.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) } == probe.count)
        // Nothing listens: loopback reports the port unreachable, which a connected socket reads as ECONNREFUSED.
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        #expect(poll(&entry, 1, 10_000) == 1)
        var byte: UInt8 = 0
        #expect(recv(fd, &byte, 1, 0) == -1 && errno == ECONNREFUSED)
    }

    @Test func theNameIsCheckedAndDefaultsToTheMachinesName() throws {
        func parse(_ arguments: [String]) throws -> HostOptions {
            try HostCommand.options(from: HostCommand.spec.parse(arguments), environment: ["HOME": "/home/amy"])
        }
        #expect(try parse(["--host"]).hostName == DiscoveryAnswer.machineName())
        #expect(try parse(["--host"]).discovery)
        #expect(try parse(["--host", "--name=Amy's laptop"]).hostName == "Amy's laptop")
        #expect(try !parse(["--host", "--no-discovery"]).discovery)
        for bad in ["", "a\u{7}b", String(repeating: "名", count: 22)] {
            #expect(throws: UsageError.self) { try parse(["--host", "--name", bad]) }
        }
    }
}
