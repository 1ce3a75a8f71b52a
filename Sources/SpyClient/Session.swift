import Glibc
import SpyNet
import SpyProtocol

/// The client on the shared event loop: the keyboard, the host and signals are registered with it and every
/// deadline is one of its timers; keeps the seat through dropped connections, and leaves the terminal as it found it
/// on every way out.
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

    /// The pause before the `attempt`th reconnection try (1, 2, …): 0.25 s doubling to at most 1.5 s. A try at a
    /// host that is down costs one refused connection on the LAN, so a host listening again is found within 1.5 s
    /// however long it was down.
    static func retryPause(attempt: Int) -> Millis {
        min(1_500, 250 << min(max(attempt, 1) - 1, 3))
    }

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
    /// The descriptor the player's keys come from, and the one signals are reported on (none: no signals watched).
    private let input: Int32
    private let signals: Int32?
    /// The exit status, once the session is over.
    private var status: Int32?

    private var stage = Stage.waiting
    private let loop: EventLoop
    private var connectionIDs = ConnectionIDGenerator()
    private var link: HostLink?
    private var addresses: [Socket.Address] = []
    private var addressIndex = 0
    private var everJoined = false
    private var started = false
    private var attempt = 0
    private var droppedAt: Millis?
    // Each deadline arms a timer of the loop when it is set, so the loop wakes exactly when one falls due.
    private var retryAt: Millis? {
        didSet { rearm(&timers.retry, at: retryAt) { session, now in session.retryIfDue(now: now) } }
    }
    /// When the TCP connect or the wait for `welcome` gives up.
    private var connectDeadline: Millis? {
        didSet { rearm(&timers.connect, at: connectDeadline) { session, now in session.connectIfOverdue(now: now) } }
    }
    private var lastHeard: Millis = 0 {
        didSet {
            rearm(&timers.silence, at: lastHeard + Self.silenceLimit + 1) { session, now in
                session.dropIfSilent(now: now)
            }
        }
    }
    private var nextPing: Millis = 0 {
        didSet { rearm(&timers.ping, at: nextPing) { session, now in session.pingIfDue(now: now) } }
    }
    private var timers = Timers()
    private var pingID = 0
    private var inputOpen = true
    /// Set when the host ended the seat for good (kicked, replaced, room closed): exit once the link closes.
    private var finalWord: String?
    /// Turned away because a game is running, and asking again until it ends.
    private var waitingForGame = false

    /// A session that reads the player's keys from `input` and watches `signals` (`SignalPipe.readEnd` once
    /// `SignalPipe.install` ran), if given; nil when no event loop can be made.
    init?(
        options: ClientOptions, name: String, store: TokenStore, token: String?, interface: PlayerInterface,
        mayAsk: Bool, input: Int32 = STDIN_FILENO, signals: Int32? = nil
    ) {
        self.options = options
        self.name = name
        self.store = store
        self.token = token
        self.interface = interface
        self.mayAsk = mayAsk
        self.input = input
        self.signals = signals
        self.state = ClientState(language: options.language)
        state.wordsFile = options.wordsFile
        guard let loop = try? EventLoop() else { return nil }
        self.loop = loop
    }

    private var text: Strings { Strings(language: options.language) }
    /// Now on the loop's clock, which every deadline of the session is set on.
    private func clockMs() -> Millis { loop.clock.nowMs() }
    private var storeKey: String { TokenStore.key(address: options.address, room: options.room) }

    /// Plays until the session is over (the player quits, the seat ends, the host cannot be reached, a signal);
    /// returns the exit status. The terminal is given back first, and the last words are on standard error.
    func run() -> Int32 {
        if let signals {
            do {
                try loop.register(fd: signals) { [unowned self] _ in self.handleSignals() }
            } catch {
                fail("cannot watch signals (\(error))")
            }
        }
        if status == nil { startAttempt(now: clockMs()) }
        while status == nil {
            let now = clockMs()
            // The countdown and the recalled word redraw on their own; nothing else needs to happen then.
            rearm(&timers.redraw, at: state.nextWake(after: now)) { _, _ in }
            do {
                try loop.runOnce()
            } catch {
                fail("poll failed (\(error))")
            }
            guard status == nil else { break }
            let after = clockMs()
            state.tick(now: after)
            interface.show(state, now: after)
        }
        for timer in [timers.retry, timers.connect, timers.silence, timers.ping, timers.redraw, timers.input] {
            loop.cancel(timer)
        }
        return status ?? 1
    }

    /// The timers of the session's deadlines.
    private struct Timers {
        var retry: TimerID?
        var connect: TimerID?
        var silence: TimerID?
        var ping: TimerID?
        var redraw: TimerID?
        var input: TimerID?
    }

    /// Replaces `timer` by one for `deadline` (none when `nil`) that runs `action` with the time it fired.
    private func rearm(
        _ timer: inout TimerID?, at deadline: Millis?, _ action: @escaping (Session, Millis) -> Void
    ) {
        loop.cancel(timer)
        timer = deadline.map {
            loop.arm(at: $0) { [unowned self] in
                if self.status == nil { action(self, self.clockMs()) }
            }
        }
    }

    /// Watches the keyboard from the first seat on. A file on standard input cannot be watched (it is always
    /// ready): it is read on every wake instead, as `poll` would report it.
    private func watchInput() {
        do {
            try loop.register(fd: input) { [unowned self] _ in self.readInput(now: self.clockMs()) }
        } catch {
            readInputEveryWake()
        }
    }

    private func readInputEveryWake() {
        timers.input = loop.arm(afterMs: 0) { [unowned self] in
            guard self.status == nil else { return }
            self.readInput(now: self.clockMs())
            if self.inputOpen { self.readInputEveryWake() }
        }
    }

    // MARK: Connecting

    private func startAttempt(now: Millis) {
        retryAt = nil
        let port = UInt16(exactly: options.address.port)
        addresses = port.flatMap { try? Socket.addresses(host: options.address.host, port: $0) } ?? []
        addressIndex = 0
        tryNextAddress(now: now)
    }

    private func tryNextAddress(now: Millis) {
        while addressIndex < addresses.count {
            if let candidate = HostLink(addresses[addressIndex], loop: loop, ids: &connectionIDs) {
                candidate.onEvent = { [unowned self, unowned candidate] event in
                    self.handleLink(candidate, event, now: self.clockMs())
                }
                link = candidate
                stage = .connecting
                connectDeadline = now + Self.connectTimeout
                if candidate.isOpen { connected(now: now) }
                return
            }
            addressIndex += 1
        }
        link = nil
        guard everJoined else { return fail(text.noHost(options.address.description)) }
        scheduleRetry(now: now)
    }

    private func connected(now: Millis) {
        connectDeadline = now + Self.joinTimeout
        stage = .joining
        lastHeard = now
        let hello = ClientMessage.Hello(
            name: name, room: options.room ?? state.roomCode, token: token, password: options.password,
            create: options.create && token == nil && !everJoined ? true : nil, language: text.language.rawValue)
        link?.send(.hello(hello))
    }

    private func scheduleRetry(now: Millis) {
        stage = .waiting
        connectDeadline = nil
        let since = droppedAt ?? now
        droppedAt = since
        guard now - since < Self.reconnectFor else { return fail(text.gaveUp(options.address.description)) }
        attempt += 1
        state.linkChanged(.reconnecting(attempt: attempt))
        retryAt = now + Self.retryPause(attempt: attempt)
    }

    /// The connection broke: either the seat is over (the host said why) or we try to get it back.
    private func linkLost(now: Millis) {
        link?.close()
        link = nil
        connectDeadline = nil
        if let finalWord { return finish(status: 0, message: finalWord) }
        guard everJoined else {
            if stage == .connecting {
                addressIndex += 1
                tryNextAddress(now: now)
                return
            }
            return fail(text.noHost(options.address.description))
        }
        scheduleRetry(now: now)
    }

    // MARK: Events

    private func handleLink(_ current: HostLink, _ event: LoopConnection.Event, now: Millis) {
        guard link === current else { return }
        switch event {
        case .connected:
            connected(now: now)
            return
        case .failed where stage == .connecting:
            current.close()
            link = nil
            addressIndex += 1
            tryNextAddress(now: now)
            return
        case .failed:
            linkLost(now: now)
            return
        case .readable:
            break
        }
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
        if let path = state.wordsFileDue() { uploadWords(from: path) }
        if let (path, pairs) = state.takeWordsToSave() { saveWords(pairs, to: path) }
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
            if inputOpen { watchInput() }
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
            else { return fail(text.problem(.nameTaken, message: error.message) + " (--name \(suggestion))") }
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
        guard status == nil else { return }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(input, &buffer, buffer.count)
        if count < 0 && (errno == EINTR || errno == EAGAIN) { return }
        guard count > 0 else {
            // End of input: a script finished or the terminal went away. The seat stays for a later run.
            inputOpen = false
            return finish(status: 0, message: options.plain || !Terminal.isInteractive ? nil : text.seatKept)
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
            case .exportHistory(let paths):
                exportHistory(to: paths)
            case .uploadWords(let path):
                uploadWords(from: path)
            case .quit(let leave):
                if leave {
                    link?.drain(milliseconds: 1000)
                    forgetSeat()
                    return finish(status: 0, message: text.seatGivenUp)
                }
                return finish(status: 0, message: text.seatKept)
            }
        }
    }

    /// Writes the history the host sent to each file, each in the format its name ends with.
    private func exportHistory(to paths: [String]) {
        for path in paths {
            let bytes = HistoryExport.bytes(state.history, room: state.roomCode, as: HistoryExport.format(of: path))
            do {
                try AtomicFile.write(bytes, to: path)
            } catch {
                state.historyExported(paths, failure: (path, String(cString: strerror(error.code))))
                return
            }
        }
        state.historyExported(paths, failure: nil)
    }

    /// Reads a word file and sends it as the room's own list; a file the host would refuse is not sent.
    private func uploadWords(from path: String) {
        switch BoundedFile.read(path, maxBytes: WordFile.maxBytes) {
        case .success(let bytes):
            guard let text = WordFile.text(bytes) else {
                state.wordsFileProblem(path, text.wordFileProblem(.notText))
                return
            }
            link?.send(.words(.init(text: text)))
        case .failure(.tooLarge):
            state.wordsFileProblem(path, text.wordFileProblem(.tooLarge))
        case .failure(let error):
            state.wordsFileProblem(path, text.wordFileProblem(.unreadable(error.reason)))
        }
    }

    private func saveWords(_ pairs: [ListedPair], to path: String) {
        do {
            try AtomicFile.write(WordListFile.csv(pairs), to: path)
            state.wordsSaved(path, count: pairs.count)
        } catch {
            state.wordsFileProblem(path, String(cString: strerror(error.code)))
        }
    }

    private func handleSignals() {
        guard status == nil else { return }
        for number in SignalPipe.drain() {
            if number == SIGWINCH {
                interface.resized()
            } else {
                return finish(status: 128 + number, message: everJoined ? text.seatKept : nil)
            }
        }
    }

    private func retryIfDue(now: Millis) {
        if let retryAt, now >= retryAt { startAttempt(now: now) }
    }

    private func connectIfOverdue(now: Millis) {
        guard let connectDeadline, now >= connectDeadline else { return }
        if stage == .joining {
            linkLost(now: now)
        } else if stage == .connecting {
            link?.close()
            link = nil
            addressIndex += 1
            tryNextAddress(now: now)
        }
    }

    private func dropIfSilent(now: Millis) {
        if stage == .joined || stage == .joining, now - lastHeard > Self.silenceLimit { linkLost(now: now) }
    }

    private func pingIfDue(now: Millis) {
        guard stage == .joined, now >= nextPing else { return }
        pingID += 1
        link?.send(.ping(.init(id: pingID)))
        nextPing = now + Self.pingEvery
    }

    // MARK: Ways out

    // The last words may carry the host's text (a refusal's message, a bye's reason): one line, no layout kept.
    /// Ends the session with `status` (the first end counts): the terminal is given back, the link closed, and
    /// `message` said.
    private func finish(status: Int32, message: String?) {
        guard self.status == nil else { return }
        self.status = status
        interface.end()
        link?.close()
        link = nil
        if let message { Output.error(TerminalText.printable(message)) }
    }

    private func fail(_ message: String) {
        finish(status: 1, message: "spy-client: " + message)
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
