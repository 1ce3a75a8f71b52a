import Foundation
import SpyBank
import SpyGame
import SpyNet
import SpyProtocol
import SpyStorage

/// The `spyd` program, the shell around the host: argument handling, bank loading, signals, storage, the loop.
enum Spyd {
    /// Runs with the full argument vector (program name first); returns the exit status.
    static func run(_ argv: [String], environment: [String: String]) -> Int32 {
        if argv.count >= 2 && argv[1] == "bank" {
            return BankCommand.run(Array(argv.dropFirst(2)), version: HostCommand.version)
        }
        if argv.count >= 2 && argv[1] == "state" {
            return StateCommand.run(Array(argv.dropFirst(2)), environment: environment)
        }
        var options: HostOptions
        switch HostCommand.spec.resolve(Array(argv.dropFirst()), version: HostCommand.version) {
        case .exit(let code, let standardOutput, let standardError):
            if !standardOutput.isEmpty { Log.writeStandardOutput(standardOutput) }
            if !standardError.isEmpty { Log.writeStandardError(standardError) }
            return code
        case .run(let parsed):
            do {
                options = try HostCommand.options(from: parsed, environment: environment)
            } catch {
                Log.writeStandardError(HostCommand.spec.usageErrorText(error))
                return UsageError.exitCode
            }
        }
        let log = Log(level: options.logLevel, label: "spyd")
        guard let report = loadBank(options, log: log) else { return 69 }
        let bank = report.pairs
        switch settle(&options, bank: bank) {
        case .failure(let error):
            Log.writeStandardError("spyd: \(error.message)\n")
            return UsageError.exitCode
        case .success(let note):
            if let note { log.warning(note) }
        }
        let status = ProcessSetup.isTerminal(1) ? StatusScreen() : nil
        let loop: EventLoop
        let server: Server
        do {
            let descriptorLimit = ProcessSetup.raiseDescriptorLimit()
            loop = try EventLoop(maxEventsPerWait: maxEventsPerWake)
            ProcessSetup.installSignalHandlers(wakeDescriptor: loop.wakeWriteFD)
            let clock = loop.clock
            let store = try options.stateDirectory.map {
                try DurableRooms(directory: $0, now: clock.wallMs()) { log.warning($0) }
            }
            server = try Server(
                options: options, bank: bank, log: log, loop: loop, clock: clock, store: store,
                descriptorLimit: descriptorLimit)
        } catch {
            log.error("cannot start: \(error)")
            return 69
        }
        if let portFile = options.portFile {
            do {
                try AtomicFile.write(Array("\(server.port)\n".utf8), to: portFile)
            } catch {
                log.error("cannot write the port file: \(error)")
                return 73
            }
        }
        let bindText = options.bind.map { $0.contains(":") ? "[\($0)]" : $0 } ?? "0.0.0.0"
        let language = languageLine(options, bank: bank)
        log.info(
            "listening on \(bindText):\(server.port) with \(server.rooms.count) room(s); bank: \(report.inUse); "
                + "pairs dealt: \(language)")
        let (ways, _) = joinWays(server: server, options: options)
        for way in ways {
            log.info("join: \(way.terminal)  or  \(way.browser)")
        }
        if let warning = loopbackWarning(ways) { log.warning(warning.joined(separator: " ")) }
        if let status {
            status.banner(banner(server: server, options: options, bankName: report.inUse, language: language))
        }
        if options.quickStart, let directory = BankCache.defaultDirectory(),
            report.outcomes.contains(where: { $0.isRemote })
        {
            refreshInBackground(options, cacheDirectory: directory, log: log)
        }
        return serve(server, loop: loop, status: status, log: log)
    }

    /// Ready connections one wake serves before it writes its answers. A join costs the host about 0.1 ms (the
    /// welcome, the room's view to every seat), so a burst of a thousand joins is served in wakes of about 10 ms,
    /// each writing its answers, and a ping read in the burst waits no longer than that for its pong.
    static let maxEventsPerWake = 128

    /// Runs the loop until SIGINT, SIGTERM or SIGHUP, then shuts the host down; returns the exit status.
    static func serve(_ server: Server, loop: EventLoop, status: StatusScreen?, log: Log) -> Int32 {
        while ProcessSetup.stopSignal == 0 {
            status?.refresh(summary: server.statusSummary())
            do {
                // Input that arrives while a wake's batch is served is served too before anything is written.
                try loop.runOnce(maxWaitMs: status?.isActive == true ? 1000 : nil, morePolls: 2)
            } catch {
                log.error("epoll_wait failed: \(error)")
                return 70
            }
        }
        server.shutDown()
        status?.finish()
        return 0
    }

    /// The bank to play with, or `nil` (after logging why) when none could be loaded.
    static func loadBank(_ options: HostOptions, log: Log) -> LoadReport? {
        if options.bankSources.isEmpty && options.sheets.isEmpty {
            return BankLoader.load(sources: [], sheets: [], cacheDirectory: nil)
        }
        // A sheet can take seconds to load: on a terminal the host shows a spinner with the source and the bytes
        // received, so a slow network does not look like a hang, and keeps its log lines above it.
        let indicator = FetchIndicator.standardError()
        let report = BankLoader.load(
            sources: options.bankSources, sheets: options.sheets, cacheDirectory: BankCache.defaultDirectory(),
            timeout: options.fetchSeconds, maxBytes: 8 << 20, mode: options.quickStart ? .cachedOnly : .fetch,
            progress: { note in
                let level: Log.Level = note.isWarning ? .warning : .info
                if log.enabled(level) { indicator.line(log.line(level, "bank: \(note.text)")) }
            },
            transfer: indicator.transfer)
        indicator.finish()
        guard !report.pairs.isEmpty else {
            log.error("no word pairs could be loaded from the given sources")
            return nil
        }
        return report
    }

    /// Fits the starting language and categories to the bank. A language that came from the locale gives way to
    /// one the bank has (with a note to log); a choice the host made that leaves too few pairs is a usage error.
    static func settle(_ options: inout HostOptions, bank: [WordPair]) -> Result<String?, UsageError> {
        let unknown = BankCatalog.unknownCategories(options.settings.categories, in: bank)
        if !unknown.isEmpty {
            let valid = BankFilter.categories(of: bank)
            return .failure(
                UsageError(
                    "--categories: not in the bank: \(unknown.joined(separator: ", ")); "
                        + (valid.isEmpty
                            ? "the bank has no categories" : "choose from: \(valid.joined(separator: ", "))")))
        }
        guard let problem = BankCatalog.choiceProblem(options.settings, in: bank) else { return .success(nil) }
        if options.languageSource != "--language" {
            // The locale only suggests: another language may be what this bank or these categories hold (English
            // categories chosen on a Chinese machine, an English-only sheet, a Taiwanese sheet on a mainland one).
            let wanted = options.settings.language
            for language in fallbacks(from: wanted) {
                var relaxed = options.settings
                relaxed.language = language
                guard BankCatalog.choiceProblem(relaxed, in: bank) == nil else { continue }
                let what = options.settings.categories.isEmpty ? "the bank has" : "the chosen categories have"
                options.settings.language = language
                options.languageSource = "\(what) too few \(wanted.rawValue) pairs"
                return .success(
                    "the locale asks for \(wanted.rawValue) pairs but \(what) too few; dealing \(language.rawValue)")
            }
        }
        return .failure(UsageError(problem))
    }

    /// What a host tries, in order, when the language its locale asked for has too few pairs: a Chinese reader
    /// reads the other Chinese script before English, then the mixed tables.
    static func fallbacks(from wanted: BankLanguage) -> [BankLanguage] {
        let order: [BankLanguage]
        switch wanted {
        case .zhHans, .bothHans: order = [.zhTW, .en, .bothHans, .both]
        case .zhTW, .both: order = [.zhHans, .en, .both, .bothHans]
        case .en: order = [.zhTW, .zhHans, .both, .bothHans]
        }
        return order.filter { $0 != wanted }
    }

    /// "zh-TW, 478 pairs (from LANG=zh_TW.UTF-8)".
    static func languageLine(_ options: HostOptions, bank: [WordPair]) -> String {
        let count = BankCatalog.matching(bank, options.settings).count
        var line = "\(options.settings.language.rawValue), \(BankLoader.pairCount(count))"
        if !options.settings.categories.isEmpty {
            line += " in \(options.settings.categories.joined(separator: ", "))"
        }
        if options.settings.allowParty { line += ", party pairs on" }
        return line + " (\(options.languageSource == "--language" ? "--language" : "from " + options.languageSource))"
    }

    /// With `--quick-start`: fetches the sources while the host serves, so the next start has fresh copies.
    static func refreshInBackground(_ options: HostOptions, cacheDirectory: URL, log: Log) {
        let thread = Thread {
            let notes = BankLoader.refreshCache(
                sources: options.bankSources, sheets: options.sheets, cacheDirectory: cacheDirectory,
                timeout: options.fetchSeconds)
            for note in notes {
                if note.isWarning { log.warning("bank: \(note.text)") } else { log.info("bank: \(note.text)") }
            }
        }
        thread.start()
    }

    /// The two ways to join at one address: the terminal client's command and the browser's URL.
    struct JoinWay {
        /// The address players are told, as the host was bound to it or found it.
        var address: String
        var terminal: String
        var browser: String
    }

    /// One way to join per address players can reach: the bound address, or every LAN address when bound to all;
    /// `found` is false when there is none and this machine's loopback stands in.
    static func joinWays(server: Server, options: HostOptions) -> (ways: [JoinWay], found: Bool) {
        let suffix = server.port == 7777 ? "" : ":\(server.port)"
        let bound = options.bind.flatMap { $0 == "0.0.0.0" || $0 == "::" ? nil : [$0] }
        var addresses = bound ?? ProcessSetup.lanAddresses()
        let found = !addresses.isEmpty
        if !found { addresses = ["127.0.0.1"] }
        let ways = addresses.map { address in
            let host = address.contains(":") ? "[\(address)]" : address
            return JoinWay(
                address: address, terminal: "spy-client \(address)\(suffix)", browser: "http://\(host):\(server.port)")
        }
        return (ways, found)
    }

    /// Whether `address` (as `--bind` or the banner gives it) is this machine's loopback, which no phone reaches.
    static func isLoopback(_ address: String) -> Bool {
        let lower = address.lowercased()
        return lower == "localhost" || lower == "::1" || lower == "0:0:0:0:0:0:0:1" || lower.hasPrefix("127.")
    }

    /// The warning for a host that only prints loopback addresses: nobody else on the network can join.
    static func loopbackWarning(_ ways: [JoinWay]) -> [String]? {
        guard !ways.isEmpty, ways.allSatisfy({ isLoopback($0.address) }) else { return nil }
        return [
            "Warning: only a loopback address is served; phones and other machines on the network cannot reach it.",
            "Leave out --bind (or bind a LAN address) so players can join.",
        ]
    }

    static func banner(server: Server, options: HostOptions, bankName: String, language: String) -> [String] {
        let simplified = options.settings.language.chinese == .zhHans
        var lines = ["\(simplified ? "谁是卧底" : "誰是臥底") · Who is the Spy — the host is ready", ""]
        let (ways, found) = joinWays(server: server, options: options)
        if found {
            lines.append("  Players type, or open in a browser (phone or laptop):")
        } else {
            lines.append("  No network address found; join on this machine:")
        }
        for way in ways { lines.append("    \(way.terminal)    \(way.browser)") }
        if let warning = loopbackWarning(ways) { lines += [""] + warning.map { "  " + $0 } }
        if found, let style = options.bannerQR, let url = ways.first?.browser {
            lines += [""] + BannerQR.lines(url: url, style: style, simplified: simplified)
        }
        let codes = server.roomOrder.joined(separator: ", ")
        lines.append("  Room\(server.roomOrder.count == 1 ? "" : "s"): \(codes)")
        if options.password != nil { lines.append("  A password is required to join.") }
        if options.bots > 0 { lines.append("  Bots: \(options.bots), seated when the first player joins.") }
        lines.append("  Bank: \(bankName)")
        lines.append("  Pairs dealt: \(language)")
        lines.append("  Stop with Ctrl-C; rooms are \(options.stateDirectory == nil ? "not saved" : "saved").")
        return lines
    }
}
