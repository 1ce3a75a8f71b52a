import Glibc
import SpyGame
import SpyHost
import SpyNet
import SpyProtocol

/// Answers LAN discovery probes on UDP, on the TCP port's number, from the event loop's thread.
///
/// Without `--bind` one socket on 0.0.0.0 hears unicast and broadcast probes. With an IPv4 `--bind` address a
/// socket on that address hears unicast probes, and a second one (shared, so several hosts on one network can
/// each have it) on that interface's broadcast address hears broadcast probes; answers always leave from the
/// unicast socket so their source is an address a client can connect to. Anything but a well-formed probe from
/// the local network, within the rate limit, is dropped without a word.
final class DiscoveryResponder {
    private struct Endpoint {
        let socket: DatagramSocket
        let replyVia: DatagramSocket
        let registration: EventLoop.Registration
    }

    private let loop: EventLoop
    private var endpoints: [Endpoint] = []
    private var limiter = DiscoveryRateLimiter()
    private var answers = DiscoveryAnswerCache()
    private let log: Log
    private let buffer = UnsafeMutableRawBufferPointer.allocate(
        byteCount: Discovery.maximumDatagramBytes + 1, alignment: 8)

    /// Opens the sockets and registers them with `loop`; a socket that cannot be opened is logged and left out.
    /// `describe` tells what an answer says now.
    init(bind: String?, port: UInt16, loop: EventLoop, log: Log, describe: @escaping () -> DiscoveryAnswer?) {
        self.log = log
        self.loop = loop
        let wildcard = bind == nil || bind == "0.0.0.0" || bind == "::" || bind?.isEmpty == true
        var opened: [(DatagramSocket, DatagramSocket?)] = []
        do {
            let unicast = try DatagramSocket.bind(host: wildcard ? nil : bind, port: port)
            opened.append((unicast, nil))
            if !wildcard, let bind,
                let broadcast = InterfaceAddress.ipv4().first(where: { $0.address == bind })?.broadcast
            {
                do {
                    opened.append((try DatagramSocket.bind(host: broadcast, port: port, shared: true), unicast))
                } catch {
                    log.warning("discovery: cannot hear broadcasts on \(broadcast):\(port) (\(error))")
                }
            }
        } catch {
            log.warning("discovery is off: \(error)")
        }
        for (socket, replyVia) in opened {
            do {
                let registration = try loop.register(fd: socket.fd) { [weak self] _ in
                    self?.readable(socket: socket, replyVia: replyVia ?? socket, describe: describe)
                }
                endpoints.append(Endpoint(socket: socket, replyVia: replyVia ?? socket, registration: registration))
            } catch {
                log.warning("discovery: cannot watch a socket (\(error))")
                socket.close()
            }
        }
        if !endpoints.isEmpty { log.info("answering discovery probes on UDP port \(port)") }
    }

    deinit {
        buffer.deallocate()
    }

    /// Reads the waiting datagrams of one socket (a bounded number, so TCP peers are not starved) and answers the
    /// probes that deserve it with `describe()`, encoded only when it says something new.
    private func readable(socket: DatagramSocket, replyVia: DatagramSocket, describe: () -> DiscoveryAnswer?) {
        var answer: [UInt8]??
        for _ in 0..<64 {
            guard let (length, source) = socket.receive(into: buffer) else { return }
            guard length <= Discovery.maximumDatagramBytes,
                Discovery.isProbe(UnsafeRawBufferPointer(rebasing: buffer[0..<length])), source.port != 0,
                DiscoverySource.isAllowed(source.ipBytes)
            else {
                log.debug("discovery: dropped \(length) bytes from \(source)")
                continue
            }
            guard limiter.allow(source.host, nowMs: loop.clock.nowMs()) else {
                log.debug("discovery: rate limit for \(source.host)")
                continue
            }
            if answer == nil { answer = describe().flatMap { answers.datagram(for: $0) } }
            // Never longer than the probe: a probe is at least as long as the longest answer.
            if let datagram = answer ?? nil, datagram.count <= length {
                replyVia.send(datagram, to: source)
            }
        }
    }

    func close() {
        for endpoint in endpoints {
            loop.unregister(endpoint.registration)
            endpoint.socket.close()
        }
        endpoints.removeAll()
    }
}

@available(*, unavailable)
extension DiscoveryResponder: Sendable {}

/// The last answer datagram and what it said: a flood of probes between two changes of the rooms costs one
/// encoding, not one a probe.
struct DiscoveryAnswerCache {
    private var said: DiscoveryAnswer?
    private var datagram: [UInt8]?
    /// Answers encoded so far (tests read it).
    private(set) var encodings = 0

    /// The datagram that says `answer`, at most `Discovery.maximumAnswerBytes` long.
    mutating func datagram(for answer: DiscoveryAnswer) -> [UInt8]? {
        if let said, said == answer { return datagram }
        said = answer
        datagram = answer.encoded(limit: Discovery.maximumAnswerBytes)
        encodings += 1
        return datagram
    }
}

extension Server {
    /// This host as a discovery answer describes it: only the first rooms, as many as an answer can ever hold, so
    /// an answer costs the same with 1 room or 2,000.
    func discoveryAnswer() -> DiscoveryAnswer {
        let shown = roomOrder.prefix(DiscoveryAnswer.maximumRooms).compactMap { rooms[$0] }
        return DiscoveryAnswer(
            name: options.hostName, port: port, password: options.password != nil, rooms: shown,
            more: roomOrder.count - shown.count, now: clock.wallMs())
    }
}

extension DiscoveryAnswer {
    /// What the host tells a passer-by about its rooms: codes, seats, whether a game runs; nothing secret.
    init(name: String, port: UInt16, password: Bool, rooms: [RoomHost], more: Int = 0, now: Int64) {
        let described = rooms.map { host in
            let view = host.room.view(now: now)
            let seated = view.seats.count
            return Room(
                code: host.code, seated: seated, free: max(0, host.room.settings.maxPlayers - seated),
                playing: view.phase != .lobby && view.phase != .gameOver)
        }
        self.init(
            name: name, port: Int(port), protocol: supportedProtocolVersions.max() ?? 1, password: password,
            rooms: described, more: more)
    }

    /// The machine's host name, for `--name`'s default.
    static func machineName() -> String {
        systemHostName() ?? "spyd"
    }

    /// The system's host name, if it has one.
    static func systemHostName() -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? nil : name
    }
}
