import Glibc
import SpyProtocol

/// The client's one loop: waits on the keyboard, the host and signals at once, keeps the seat through dropped
/// connections, and leaves the terminal as it found it on every way out.
final class Session {
    /// Ping the host this often so an idle table keeps its connections.
    static let pingEvery: Millis = 15_000
    /// Nothing heard for this long means the link is dead even if TCP has not noticed.
    static let silenceLimit: Millis = 45_000
    /// Keep trying to get back for this long (the host keeps a seat for 5 minutes).
    static let reconnectFor: Millis = 300_000
    static let connectTimeout: Millis = 5_000
    /// A host answers `hello` at once; something silent on that port is not a WhoIsSpy host.
    static let joinTimeout: Millis = 10_000
    /// How long a claim of an away seat may wait for its approval, and a little more for the answer to arrive.
    static let claimTimeout: Millis = 65_000
    /// How often a player turned away by a running game asks again.
    static let gameRunningRetry: Millis = 3_000

    private enum Stage {
        /// TCP connect under way.
        case connecting
        /// `hello` sent, waiting for `welcome`.
        case joining
        /// Seated and playing.
        case joined
        /// Between reconnection attempts.
        case waiting
    }

    private let options: ClientOptions
    private let store: TokenStore
    private var name: String
    private var token: String?
    private var state: ClientState
    private let interface: PlayerInterface
    private let mayAsk: Bool

    private var stage = Stage.waiting
    private var link: HostLink?
    private var addresses: [ResolvedAddress] = []
    private var addressIndex = 0
    private var everJoined = false
    private var started = false
    private var attempt = 0
    private var droppedAt: Millis?
    private var retryAt: Millis?
    /// When the TCP connect or the wait for `welcome` gives up.
    private var connectDeadline: Millis?
    private var lastHeard: Millis = 0
    private var nextPing: Millis = 0
    private var pingID = 0
    private var inputOpen = true
    /// Set when the host ended the seat for good (kicked, replaced, room closed): exit once the link closes.
    private var finalWord: String?
    /// Turned away because a game is running, and asking again until it ends.
    private var waitingForGame = false

    init(
        options: ClientOptions, name: String, store: TokenStore, token: String?, interface: PlayerInterface,
        mayAsk: Bool
    ) {
        self.options = options
        self.name = name
        self.store = store
        self.token = token
        self.interface = interface
        self.mayAsk = mayAsk
        self.state = ClientState(language: options.language)
    }

    private var text: Strings { Strings(language: options.language) }
    private var storeKey: String { TokenStore.key(address: options.address, room: options.room) }

    func run() -> Never {
        SignalPipe.install()
        startAttempt(now: monotonicMillis())
        while true {
            var descriptors = [pollfd(fd: SignalPipe.readEnd, events: Int16(POLLIN), revents: 0)]
            if started && inputOpen { descriptors.append(pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)) }
            let polledLink = link
            if let link {
                let events = Int16(POLLIN) | (link.wantsWrite ? Int16(POLLOUT) : 0)
                descriptors.append(pollfd(fd: link.descriptor, events: events, revents: 0))
            }
            let now = monotonicMillis()
            let timeout = nextDeadline(now: now).map { Int32(clamping: max(0, $0 - now)) } ?? -1
            let ready = poll(&descriptors, nfds_t(descriptors.count), timeout)
            if ready < 0 && errno != EINTR { fail("poll failed (errno \(errno))") }
            let after = monotonicMillis()
            for entry in descriptors where entry.revents != 0 {
                if entry.fd == SignalPipe.readEnd {
                    handleSignals()
                } else if entry.fd == STDIN_FILENO {
                    readInput(now: after)
                } else if let link, link === polledLink, entry.fd == link.descriptor {
                    // Only the connection that was polled: a key may have replaced it, maybe on the same number.
                    handleLink(link, events: entry.revents, now: after)
                }
            }
            handleTimers(now: after)
            if let link, !link.flush() { linkLost(now: after) }
            state.tick(now: after)
            interface.show(state, now: after)
        }
    }

    // MARK: Connecting

    private func startAttempt(now: Millis) {
        retryAt = nil
        addresses = ResolvedAddress.resolve(options.address)
        addressIndex = 0
        tryNextAddress(now: now)
    }

    private func tryNextAddress(now: Millis) {
        while addressIndex < addresses.count {
            if let candidate = HostLink(addresses[addressIndex]) {
                link = candidate
                stage = .connecting
                connectDeadline = now + Self.connectTimeout
                if candidate.isOpen { connected(now: now) }
                return
            }
            addressIndex += 1
        }
        link = nil
        guard everJoined else { fail(text.noHost(options.address.description)) }
        scheduleRetry(now: now)
    }

    private func connected(now: Millis) {
        connectDeadline = now + Self.joinTimeout
        stage = .joining
        lastHeard = now
        let hello = ClientMessage.Hello(
            name: name, room: options.room ?? state.roomCode, token: token, password: options.password,
            create: options.create && token == nil && !everJoined ? true : nil)
        link?.send(.hello(hello))
    }

    private func scheduleRetry(now: Millis) {
        stage = .waiting
        connectDeadline = nil
        let since = droppedAt ?? now
        droppedAt = since
        guard now - since < Self.reconnectFor else { fail(text.gaveUp(options.address.description)) }
        attempt += 1
        state.linkChanged(.reconnecting(attempt: attempt))
        retryAt = now + min(15_000, 500 << min(attempt - 1, 5))
    }

    /// The connection broke: either the seat is over (the host said why) or we try to get it back.
    private func linkLost(now: Millis) {
        link?.close()
        link = nil
        connectDeadline = nil
        if let finalWord { finish(status: 0, message: finalWord) }
        guard everJoined else {
            if stage == .connecting {
                addressIndex += 1
                tryNextAddress(now: now)
                return
            }
            fail(text.noHost(options.address.description))
        }
        scheduleRetry(now: now)
    }

    // MARK: Events

    private func handleLink(_ current: HostLink, events: Int16, now: Millis) {
        if stage == .connecting {
            guard events & Int16(POLLOUT | POLLERR | POLLHUP) != 0 else { return }
            if current.finishConnect() == 0 {
                connected(now: now)
            } else {
                current.close()
                link = nil
                addressIndex += 1
                tryNextAddress(now: now)
            }
            return
        }
        guard events & Int16(POLLIN | POLLERR | POLLHUP) != 0 else { return }
        let read = current.receive()
        if !read.messages.isEmpty { lastHeard = now }
        for message in read.messages {
            receive(message, now: now)
            guard link === current else { return }
        }
        if read.closed { linkLost(now: now) }
    }

    private func receive(_ message: ServerMessage, now: Millis) {
        if stage == .joining {
            switch message {
            case .welcome(let welcome):
                joined(welcome, now: now)
            case .claimPending:
                // The name points at our own away seat: the table approves, which may take up to a minute.
                Output.error(text.claimWaiting)
                connectDeadline = now + Self.claimTimeout
            case .error(let error):
                refusedAtJoin(error, now: now)
                return
            default:
                break
            }
        }
        state.apply(message, now: now)
        switch message {
        case .ping(let ping):
            link?.send(.pong(.init(id: ping.id)))
        case .error(let error) where error.code.isFatal:
            switch error.code {
            case .hostClosing, .idleTimeout, .slowConsumer, .tooManyConnections:
                break
            default:
                finalWord = text.problem(error.code, message: error.message)
                if error.code == .kicked { forgetSeat() }
            }
        case .bye(let bye):
            if bye.reason != "host_closing" { finalWord = text.bye(bye.reason) }
            if bye.reason == "kicked" || bye.reason == "left" { forgetSeat() }
        default:
            break
        }
    }

    private func joined(_ welcome: ServerMessage.Welcome, now: Millis) {
        stage = .joined
        connectDeadline = nil
        everJoined = true
        attempt = 0
        droppedAt = nil
        token = welcome.token
        nextPing = now + Self.pingEvery
        let entry = TokenStore.Entry(token: welcome.token, name: name, room: welcome.room)
        store.set(storeKey, entry)
        if options.room == nil { store.set(TokenStore.key(address: options.address, room: welcome.room), entry) }
        if !started {
            started = true
            interface.begin()
        }
    }

    private func refusedAtJoin(_ error: ServerMessage.ErrorMessage, now: Millis) {
        link?.close()
        link = nil
        switch error.code {
        case .badToken:
            // The seat expired: take a new one under the same name.
            token = nil
            forgetSeat()
            state.record(.problem(code: .badToken, message: error.message))
            startAttempt(now: now)
        case .nameTaken where !everJoined:
            let suggestion = Self.suggestion(for: name)
            guard mayAsk, let newName = Prompting.ask(text.nameTaken(name, suggestion: suggestion), default: suggestion)
            else { fail(text.problem(.nameTaken, message: error.message) + " (--name \(suggestion))") }
            name = newName
            startAttempt(now: now)
        case .hostClosing where everJoined, .tooManyConnections where everJoined:
            scheduleRetry(now: now)
        case .gameInProgress where !everJoined:
            // The name is already chosen: rather than send the player away, take the seat when the game ends.
            if !waitingForGame { Output.error(text.waitingForGame) }
            waitingForGame = true
            stage = .waiting
            connectDeadline = nil
            retryAt = now + Self.gameRunningRetry
        default:
            fail(text.problem(error.code, message: error.message))
        }
    }

    /// The seat is gone for good: forget its token under every key it was saved, keeping the name for next time.
    private func forgetSeat() {
        store.forgetToken(storeKey)
        if let code = state.roomCode { store.forgetToken(TokenStore.key(address: options.address, room: code)) }
    }

    static func suggestion(for name: String) -> String {
        let digits = name.reversed().prefix { $0.isASCII && $0.isNumber }
        let stem = name.dropLast(digits.count)
        let number = Int(String(digits.reversed())).map { $0 + 1 } ?? 2
        return DisplayWidth.truncate(String(stem), toColumns: 14) + String(number)
    }

    private func readInput(now: Millis) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(STDIN_FILENO, &buffer, buffer.count)
        if count < 0 && (errno == EINTR || errno == EAGAIN) { return }
        guard count > 0 else {
            // End of input: a script finished or the terminal went away. The seat stays for a later run.
            inputOpen = false
            finish(status: 0, message: options.plain || !Terminal.isInteractive ? nil : text.seatKept)
        }
        for reaction in interface.input(Array(buffer[0..<count]), state: &state, now: now) {
            if stage == .joined {
                reaction.messages.forEach { link?.send($0) }
            } else if !reaction.messages.isEmpty {
                // Not seated right now: the move is dropped rather than sent late into a changed game.
                state.notice = .link(state.link)
                state.record(.link(state.link))
            }
            switch reaction.action {
            case .none:
                break
            case .quit(let leave):
                if leave {
                    link?.drain(milliseconds: 1000)
                    forgetSeat()
                    finish(status: 0, message: text.seatGivenUp)
                }
                finish(status: 0, message: text.seatKept)
            }
        }
    }

    private func handleSignals() {
        for number in SignalPipe.drain() {
            if number == SIGWINCH {
                interface.resized()
            } else {
                finish(status: 128 + number, message: everJoined ? text.seatKept : nil)
            }
        }
    }

    private func handleTimers(now: Millis) {
        if let retryAt, now >= retryAt { startAttempt(now: now) }
        if stage == .joining, let connectDeadline, now >= connectDeadline { linkLost(now: now) }
        if stage == .connecting, let connectDeadline, now >= connectDeadline {
            link?.close()
            link = nil
            addressIndex += 1
            tryNextAddress(now: now)
        }
        if stage == .joined || stage == .joining, now - lastHeard > Self.silenceLimit { linkLost(now: now) }
        if stage == .joined, now >= nextPing {
            pingID += 1
            link?.send(.ping(.init(id: pingID)))
            nextPing = now + Self.pingEvery
        }
    }

    private func nextDeadline(now: Millis) -> Millis? {
        var candidates = [retryAt, state.nextWake(after: now)]
        if stage == .connecting || stage == .joining { candidates.append(connectDeadline) }
        if stage == .joined || stage == .joining { candidates.append(lastHeard + Self.silenceLimit + 1) }
        if stage == .joined { candidates.append(nextPing) }
        return candidates.compactMap { $0 }.min()
    }

    // MARK: Ways out

    // The last words may carry the host's text (a refusal's message, a bye's reason): one line, no layout kept.
    private func finish(status: Int32, message: String?) -> Never {
        interface.end()
        link?.close()
        if let message { Output.error(TerminalText.printable(message)) }
        exit(status)
    }

    private func fail(_ message: String) -> Never {
        interface.end()
        link?.close()
        Output.error(TerminalText.printable("spy-client: " + message))
        exit(1)
    }
}

/// Questions asked on the terminal before the full screen starts.
enum Prompting {
    /// Prints `question`, reads a line; empty means `defaultValue`. Nil at end of input.
    static func ask(_ question: String, default defaultValue: String) -> String? {
        Output.write(question)
        guard let line = readLine() else { return nil }
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? defaultValue : trimmed
    }
}
