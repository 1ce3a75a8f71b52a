import Foundation
import Glibc
import SpyBank
import SpyGame
import SpyHost
import SpyNet
import SpyProtocol
import SpyStorage
import SpyWeb

/// The host's shell: the listener and its accepting, one `LoopConnection` per connection, the journal, and a loop
/// that feeds the `HostCore` what happened and does what it decides.
///
/// Every read, end of stream, failed write and due timer becomes an input of the wake being gathered; at the end of
/// each wake (`endOfWake`, before the loop flushes) the core takes it, stamped with the injected clock's time
/// and with the bytes each connection still holds unwritten, saves the rooms the wake changed and hands out the
/// wake's bytes, shutdowns, closes and timers, which the shell carries out. The
/// connections held per address, the cap on connections and the pause of accepting stay here, with the sockets.
final class Server {
    let options: HostOptions
    let limits: ServerLimits
    let log: Log
    let loop: EventLoop
    let clock: any Clock
    private let listener: Socket
    private var stopped = false
    private var listenerRegistration: EventLoop.Registration?
    /// The port listened on.
    let port: UInt16
    /// The host's decisions.
    let core: HostCore
    /// The rooms' journal, when the host keeps its rooms (`--state-dir`).
    private let store: DurableRooms?
    private var discovery: DiscoveryResponder?

    private var connectionIDs = ConnectionIDGenerator()
    /// The open connections, by the id the core knows them by.
    private let table = LinkTable()
    private var connectionsPerAddress: [String: Int] = [:]
    /// The core's timers, armed on the loop.
    @exclusivity(unchecked) private var timers: [HostTimer: TimerID] = [:]
    private let maxConnections: Int
    /// What happened in this wake, for the core at its end.
    @exclusivity(unchecked) private var wake = HostWake()
    /// Connections written to since they were last found drained: the only ones that can hold unwritten bytes.
    @exclusivity(unchecked) private var writtenTo: [UInt64] = []

    /// Listens (on `options`' address and port) and registers with `loop`, whose clock the host's times follow;
    /// resumes the rooms `store` holds and opens the host's own. `descriptorLimit` is the process's limit on open
    /// descriptors, which caps the connections held.
    init(
        options: HostOptions, bank: [WordPair], log: Log, loop: EventLoop, clock: any Clock, store: DurableRooms?,
        descriptorLimit: Int = 1 << 20
    ) throws {
        self.options = options
        self.limits = options.limits
        self.log = log
        self.loop = loop
        self.clock = clock
        self.store = store
        self.maxConnections = max(1, min(limits.maxConnections, descriptorLimit - 64))
        (listener, port) = try Server.listen(options)
        let webSite = WebSite(
            hostNames: HostNames(machineName: DiscoveryAnswer.systemHostName(), publicNames: options.publicNames))
        core = HostCore.assemble(
            config: options.hostConfiguration, bank: bank, log: log.hostLog, kept: store?.kept, webSite: webSite,
            randomness: HostRandomness(token: { ResumeToken.make() }, seed: { SecureRandom.seed() }),
            at: HostTime(mono: clock.nowMs(), wall: clock.wallMs()))
        listenerRegistration = try loop.register(fd: listener.fd) { [weak self] _ in self?.acceptConnections() }
        if options.discovery {
            discovery = DiscoveryResponder(bind: options.bind, port: port, loop: loop, log: log) { [weak self] in
                self?.discoveryAnswer()
            }
        }
        loop.beforeFlush = { [weak self] in self?.endOfWake() }
        loop.finishIteration()
    }

    deinit {
        if !stopped {
            listener.close()
            discovery?.close()
        }
    }

    /// The rooms, by code.
    var rooms: [String: RoomHost] { core.rooms }

    /// Room codes in the order the rooms opened.
    var roomOrder: [String] { core.roomOrder }

    /// A word-free summary of the rooms for the live status line.
    func statusSummary() -> String { core.statusSummary(at: now) }

    private var now: HostTime { HostTime(mono: clock.nowMs(), wall: clock.wallMs()) }

    /// The listening socket; a port already taken is said in words a host can act on.
    private static func listen(_ options: HostOptions) throws -> (Socket, UInt16) {
        let result = Result { () throws(SocketError) in try Socket.listen(host: options.bind, port: options.port) }
        if case .failure(let error) = result, error.code == EADDRINUSE {
            let address = options.bind.map { $0.contains(":") ? "[\($0)]" : $0 } ?? "every interface"
            throw StartupError("port \(options.port) on \(address) is already in use; choose another with --port")
        }
        return try result.get()
    }

    // MARK: Accepting

    private func acceptConnections() {
        for _ in 0..<256 {
            let accepted: (socket: Socket, address: String)?
            do {
                accepted = try listener.accept()
            } catch {
                log.warning("accept failed (\(error)); pausing new connections for 100 ms")
                pauseAccepting(forMs: 100)
                return
            }
            guard let (socket, address) = accepted else { return }
            let sameAddress = connectionsPerAddress[address, default: 0]
            let perAddressFull = limits.maxPerAddress > 0 && sameAddress >= limits.maxPerAddress
            if table.links.count >= maxConnections || perAddressFull {
                if let frame = OutgoingMessage(.error(.init(.tooManyConnections)))?.framed {
                    _ = frame.withUnsafeBytes { try? socket.write($0) }
                }
                socket.close()
                log.warning("refused a connection from \(address): too many connections")
                continue
            }
            socket.setNoDelay()
            if limits.socketBufferBytes > 0 {
                var size = Int32(limits.socketBufferBytes)
                setsockopt(socket.fd, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            }
            // The core keeps the output cap, counting what this outbox still holds.
            let connection = Connection(
                id: connectionIDs.next(), socket: socket, remoteAddress: address, outboxCap: .max)
            let link: LoopConnection
            do {
                link = try LoopConnection(loop: loop, connection: connection)
            } catch {
                log.warning("cannot watch a connection from \(address): \(error)")
                connection.close()
                continue
            }
            let id = connection.id
            link.onEvent = { [weak self] event in
                guard let self, let link = self.table.links[id] else { return }
                self.connectionEvent(event, on: id, link)
            }
            table.links[id] = link
            connectionsPerAddress[address] = sameAddress + 1
            wake.take(.opened(id, address: address))
        }
    }

    /// Leaves the listener out of the wait for a while (the process is out of descriptors, say).
    private func pauseAccepting(forMs delay: Int64) {
        guard let registration = listenerRegistration else { return }
        try? loop.update(registration, read: false, write: false)
        loop.arm(at: clock.nowMs() + delay) { [weak self] in
            guard let self, let registration = self.listenerRegistration else { return }
            try? self.loop.update(registration, read: true, write: false)
        }
    }

    private func connectionEvent(_ event: LoopConnection.Event, on id: UInt64, _ link: LoopConnection) {
        switch event {
        case .readable:
            let outcome: Connection.ReadOutcome
            do {
                outcome = try link.read { self.wake.read(id, $0) }
            } catch {
                wake.take(.failed(id, "read failed: \(error)"))
                return
            }
            if case .endOfStream = outcome { wake.take(.endOfStream(id)) }
        case .failed(let error):
            wake.take(.failed(id, "write failed: \(error)"))
        case .connected:
            break
        }
    }

    /// The end of every wake, before the loop flushes: the core saves what the wake changed and hands out what to
    /// write, shut and close, which is done here; the loop then writes and closes.
    private func endOfWake() {
        perform(handOver())
    }

    /// Gives the core the wake gathered so far (with `last` at its end), with what each connection still holds
    /// unwritten, and returns its actions.
    private func handOver(_ last: HostInput? = nil) -> [HostAction] {
        if let last { wake.take(last) }
        var kept = 0
        for id in writtenTo {
            guard let link = table.links[id], wake.unsent[id] == nil else { continue }
            let unsent = link.connection.pendingOutputCount
            guard unsent > 0 else { continue }
            wake.unsent[id] = unsent
            writtenTo[kept] = id
            kept += 1
        }
        writtenTo.removeSubrange(kept...)
        let actions = core.handle(wake, at: now)
        wake.removeAll()
        return actions
    }

    private func perform(_ actions: [HostAction]) {
        // A connection's bytes come one after another: it is looked up once for them all.
        var last: (id: UInt64, link: LoopConnection?) = (0, nil)
        func link(_ id: UInt64) -> LoopConnection? {
            if last.id != id || last.link == nil { last = (id, table.links[id]) }
            return last.link
        }
        // Bytes handed out ahead of a commit (answers to keep-alives) are written before the commit waits on the disk.
        var sentAhead: [LoopConnection] = []
        for action in actions {
            switch action {
            case .send(let id, let bytes):
                guard let link = link(id) else { continue }
                link.send(bytes, overCap: true)
                if sentAhead.last !== link {
                    sentAhead.append(link)
                    writtenTo.append(id)
                }
            case .shutWriteWhenDrained(let id):
                link(id)?.shutWriteWhenDrained()
            case .close(let id):
                last = (0, nil)
                guard let link = table.links.removeValue(forKey: id) else { continue }
                loop.cancel(timers.removeValue(forKey: .connection(id)))
                link.closeSoon()
                let address = link.connection.remoteAddress
                if let count = connectionsPerAddress[address] {
                    connectionsPerAddress[address] = count > 1 ? count - 1 : nil
                }
            case .arm(let timer, let deadline):
                if let armed = timers[timer], loop.rearm(armed, at: deadline) { continue }
                timers[timer] = loop.arm(at: deadline) { [weak self] in
                    guard let self else { return }
                    self.timers[timer] = nil
                    self.wake.take(.timer(timer))
                }
            case .cancel(let timer):
                loop.cancel(timers.removeValue(forKey: timer))
            case .persist(let records):
                guard let store else { continue }
                for link in sentAhead { link.flushNow() }
                sentAhead.removeAll()
                let outcome = store.commit(records)
                perform(handOver(.committed(outcome)))
                last = (0, nil)
            case .rewrite(let snapshots):
                guard let store else { continue }
                var failure: String?
                do { try store.rewrite(snapshots) } catch { failure = "\(error)" }
                perform(handOver(.rewritten(failure: failure)))
                last = (0, nil)
            }
        }
    }

    // MARK: Shutdown

    /// Says goodbye to every connection, saves every room, and gives the goodbyes a second to leave.
    func shutDown() {
        guard !stopped else { return }
        stopped = true
        loop.beforeFlush = nil
        perform(handOver(.shutDown))
        loop.finishIteration()
        // The kernel takes the last bytes in real time, whatever clock the rules run on.
        let deadline = SystemClock.monotonicMs() + 1000
        for link in table.links.values where link.connection.hasPendingOutput {
            let left = deadline - SystemClock.monotonicMs()
            guard left > 0 else { break }
            link.drain(timeoutMs: Int(left))
        }
        for link in table.links.values { link.close() }
        table.links.removeAll()
        for timer in timers.values { loop.cancel(timer) }
        timers.removeAll()
        if let listenerRegistration { loop.unregister(listenerRegistration) }
        listenerRegistration = nil
        listener.close()
        discovery?.close()
        log.info("stopped")
    }
}

/// The shell's connections, by id.
private final class LinkTable {
    @exclusivity(unchecked) var links: [UInt64: LoopConnection] = [:]
}

extension HostOptions {
    /// What the core needs of the options.
    var hostConfiguration: HostConfiguration {
        var config = HostConfiguration()
        config.limits = limits
        config.password = password
        config.seed = seed
        config.settings = settings
        config.rooms = rooms
        config.bots = bots
        config.botLevel = botLevel
        config.languageFromFirstOwner = localeNamesNoLanguage
        return config
    }
}

extension Log {
    /// This log as the core writes to it.
    var hostLog: HostLog {
        let log = self
        return HostLog(enabled: { log.enabled($0) }) { level, line in log.write(level, line) }
    }
}

@available(*, unavailable)
extension Server: Sendable {}
