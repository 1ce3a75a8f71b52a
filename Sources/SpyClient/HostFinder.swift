import SpyNet
import SpyProtocol

/// A host that answered a discovery probe: where it is and what it said about itself.
struct FoundHost: Equatable, Sendable {
    var address: HostAddress
    var answer: DiscoveryAnswer
}

/// Looks for hosts on the local network: a probe to the broadcast address of every IPv4 interface that is up and
/// to 255.255.255.255, on the default port, then every answer that arrives within the wait.
enum HostFinder {
    /// Probes and collects answers for `waitMs` milliseconds (the probe is sent again a third of the way in, in
    /// case the first was lost). Hosts are sorted by name, then address. The search runs on an event loop of its
    /// own, the socket registered with it and both moments as its timers, as every other socket of the programs.
    static func search(port: UInt16 = UInt16(HostAddress.defaultPort), waitMs: Int) -> [FoundHost] {
        guard let socket = try? DatagramSocket.bind(host: nil, port: 0, broadcast: true) else { return [] }
        defer { socket.close() }
        guard let loop = try? EventLoop() else { return [] }
        let targets = probeTargets(port: port)
        let probe = Discovery.probe()
        func sendProbes() { for target in targets { socket.send(probe, to: target) } }
        var found: [FoundHost] = []
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Discovery.maximumDatagramBytes + 1, alignment: 8)
        defer { buffer.deallocate() }
        guard
            let registration = try? loop.register(
                fd: socket.fd,
                handler: { _ in
                    while let (length, source) = socket.receive(into: buffer) {
                        guard length <= Discovery.maximumDatagramBytes, source.port == port,
                            let answer = DiscoveryAnswer.decode(Array(buffer[0..<length])),
                            let address = HostAddress("\(source.host):\(answer.port)"),
                            !found.contains(where: { $0.address == address })
                        else { continue }
                        found.append(FoundHost(address: address, answer: answer))
                    }
                })
        else { return [] }
        defer { loop.unregister(registration) }
        var searching = true
        sendProbes()
        _ = loop.arm(afterMs: Int64(waitMs / 3)) { sendProbes() }
        _ = loop.arm(afterMs: Int64(waitMs)) { searching = false }
        while searching {
            do { try loop.runOnce() } catch { break }
        }
        return found.sorted {
            ($0.answer.name, $0.address.description) < ($1.answer.name, $1.address.description)
        }
    }

    /// Each interface's broadcast address and the limited broadcast; loopback when there is no network at all, so
    /// a host on this very machine is still found.
    static func probeTargets(port: UInt16) -> [DatagramAddress] {
        var texts: [String] = []
        for interface in InterfaceAddress.ipv4() where !interface.isLoopback {
            if let broadcast = interface.broadcast, !texts.contains(broadcast) { texts.append(broadcast) }
        }
        texts.append(texts.isEmpty ? "127.0.0.1" : "255.255.255.255")
        return texts.compactMap { DatagramAddress(ipv4: $0, port: port) }
    }
}
