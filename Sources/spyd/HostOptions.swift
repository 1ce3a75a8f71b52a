import Foundation
import SpyBank
import SpyGame
import SpyHost
import SpyNet
import SpyProtocol
import SpyWeb

/// Everything the command line decides about a daemon run.
struct HostOptions: Sendable {
    /// Address to listen on; `nil` for every interface.
    var bind: String?
    /// Port to listen on; 0 for an ephemeral one.
    var port: UInt16 = 7777
    /// Where to write the bound port once listening.
    var portFile: String?
    /// Rooms opened at start (kept open while empty).
    var rooms = 1
    /// Password every joiner must give; `nil` for none.
    var password: String?
    /// Settings of the rooms opened at start and by clients.
    var settings = GameSettings()
    /// Seed of every random choice except tokens; `nil` for a random one.
    var seed: UInt64?
    /// Directory of the room snapshots; `nil` when state is not kept.
    var stateDirectory: String?
    /// Bank sources (files or URLs) instead of the embedded bank.
    var bankSources: [String] = []
    /// Spreadsheet ids to fetch as bank sources.
    var sheets: [String] = []
    /// Seconds each bank source may take to fetch (all are fetched at the same time).
    var fetchSeconds: Double = 10
    /// Serve at once on the cached copies (or the embedded bank) and refresh the cache in the background.
    var quickStart = false
    /// Where the starting language came from: `--language`, or the host's locale.
    var languageSource = "--language"
    /// The starting language came from a locale that names none (`C`, `POSIX`, or none set).
    var localeNamesNoLanguage = false
    /// Bot seats added to the first room once its first player joins.
    var bots = 0
    /// How well the bots play.
    var botLevel = BotLevel.normal
    /// Lowest log level written.
    var logLevel = Log.Level.info
    /// Limits and timers.
    var limits = ServerLimits()
    /// How the banner draws the QR code of the browser address; `nil` for no code.
    var bannerQR: BannerQR.Style? = .colour
    /// Whether LAN discovery probes are answered (UDP, same port number).
    var discovery = true
    /// The name discovery answers show.
    var hostName = "spyd"
    /// Names besides its addresses and the machine's name that browsers may reach the host by.
    var publicNames: [String] = []
}

/// The command line of `spyd`.
enum HostCommand {
    static let version = "1.0.0"

    static let spec = CommandSpec(
        name: "spyd",
        summary: """
            Hosts games of 誰是臥底 / 谁是卧底 (Who is the Spy) on the local network. Players connect with spy-client.
            `spyd bank …` manages the question bank (see `spyd bank --help`); `spyd state check [DIR]` verifies
            a state directory (see `spyd state --help`).
            """,
        options: [
            .flag("host", help: "Open the room(s) and serve players."),
            .value("bind", placeholder: "ADDRESS", help: "Address to listen on.", defaultDescription: "all"),
            .value(
                "port", short: "p", placeholder: "PORT", help: "TCP port; 0 picks a free one.",
                defaultDescription: "7777"),
            .value("port-file", placeholder: "PATH", help: "Write the port listened on to this file."),
            .value("rooms", placeholder: "N", help: "Rooms to open at start.", defaultDescription: "1"),
            .value("password", placeholder: "TEXT", help: "Password players must give to join."),
            .value("max-players", placeholder: "N", help: "Seats per room (4–20).", defaultDescription: "10"),
            .value("spies", placeholder: "N", help: "Spies per game (1–3).", defaultDescription: "1"),
            .flag("blank", help: "Deal one player the blank card (白板)."),
            .value("clues", placeholder: "spoken|typed", help: "How clues are given.", defaultDescription: "spoken"),
            .value(
                "spy-win", placeholder: "three|parity",
                help: "Spies win with three players left, or also once as many as the others.",
                defaultDescription: "three"),
            .value(
                "turn-seconds", placeholder: "N", help: "Seconds per turn; 0 for no timer.",
                defaultDescription: "0"),
            .value(
                "vote-seconds", placeholder: "N", help: "Seconds the vote stays open; 0 for no timer.",
                defaultDescription: "0"),
            .value(
                "language", placeholder: "zh-TW|zh-Hans|en|both|zh-Hans+en",
                help: "Language of the word pairs dealt; both is zh-TW and en at one table.",
                defaultDescription:
                    "from LC_ALL/LC_MESSAGES/LANG: zh_TW, zh_HK, zh_MO, zh_Hant → zh-TW; other zh → zh-Hans; else en"
            ),
            .value("lang", placeholder: "LANGUAGE", help: "Same as --language."),
            .value(
                "categories", placeholder: "A,B,…",
                help: "Categories of the bank to draw from (names as `spyd bank check` lists them).",
                defaultDescription: "all"),
            .flag("party", help: "Allow party (adult) pairs."),
            .value("seed", placeholder: "N", help: "Seed for reproducible deals and room codes."),
            .value(
                "state-dir", placeholder: "PATH", help: "Where rooms are saved to survive a restart.",
                defaultDescription: "$XDG_STATE_HOME/spyd or ~/.local/state/spyd"),
            .flag("no-state", help: "Keep no state on disk."),
            .flag("no-qr", help: "Draw no QR code of the address in the banner."),
            .value(
                "name", placeholder: "TEXT", help: "Name players see when their client finds this host.",
                defaultDescription: "the host name"),
            .flag("no-discovery", help: "Do not answer clients looking for hosts (UDP, same port)."),
            .value(
                "public-name", placeholder: "NAME", repeatable: true,
                help: "A DNS name browsers reach this host by, besides its addresses, localhost and the machine's "
                    + "own name (NAME.local too); any other name in a request is refused (421)."),
            .value(
                "bank", placeholder: "SOURCE", repeatable: true,
                help: "Word pairs from a file or URL (CSV, JSON) instead of the embedded bank."),
            .value("sheet", placeholder: "ID", repeatable: true, help: "Word pairs from a Google Sheet."),
            .value(
                "fetch-timeout", placeholder: "SECONDS", help: "Give up on a bank source after this long.",
                defaultDescription: "10"),
            .flag(
                "quick-start",
                help: "Serve at once on the cached copies of the sources (or the embedded bank); fetch them in the "
                    + "background for the next start."),
            .value("bots", placeholder: "N", help: "Bot players in the first room.", defaultDescription: "0"),
            .value(
                "bot-level", placeholder: "easy|normal|hard",
                help: "easy: plain clues, random votes; normal: blends in, reasoned votes; hard: bluffs with the "
                    + "other word's clues, firmer votes.", defaultDescription: "normal"),
            .value(
                "log-level", placeholder: "LEVEL", help: "debug, info, warning or error.",
                defaultDescription: "info"),
            .value(
                "hello-seconds", placeholder: "N", help: "Seconds a new connection has to say hello.",
                defaultDescription: "10"),
            .value(
                "ping-seconds", placeholder: "N", help: "Seconds of silence before a connection is probed.",
                defaultDescription: "30"),
            .value(
                "idle-seconds", placeholder: "N", help: "Seconds of silence before a connection is closed.",
                defaultDescription: "60"),
            .value(
                "grace-seconds", placeholder: "N", help: "Seconds a dropped player's seat is kept.",
                defaultDescription: "300"),
            .value(
                "empty-room-seconds", placeholder: "N", help: "Seconds an empty client-opened room lives.",
                defaultDescription: "600"),
            .value(
                "max-connections", placeholder: "N", help: "Connections held at once.",
                defaultDescription: "16384"),
            .value(
                "max-per-address", placeholder: "N", help: "Connections from one address; 0 for no limit.",
                defaultDescription: "64"),
            .value("max-rooms", placeholder: "N", help: "Rooms open at once.", defaultDescription: "2000"),
            .value(
                "max-rooms-per-address", placeholder: "N",
                help: "Client-opened rooms open at once per address; 0 for no limit.", defaultDescription: "4"),
            .value(
                "rooms-per-minute", placeholder: "N", help: "Rooms one address may open a minute; 0 for no limit.",
                defaultDescription: "10"),
            .value(
                "unused-room-seconds", placeholder: "N",
                help: "Seconds an empty client-opened room nobody else joined lives.", defaultDescription: "30"),
            .value(
                "max-partial-kb", placeholder: "N",
                help: "KiB of unfinished frames held for all connections together.", defaultDescription: "16384"),
            .value(
                "max-output-kb", placeholder: "N", help: "Unsent KiB per connection before it is cut off.",
                defaultDescription: "1024"),
            .value(
                "socket-buffer-kb", placeholder: "N", help: "Kernel send buffer per connection; 0 for default.",
                defaultDescription: "0"),
            .value(
                "bot-delay-ms", placeholder: "N", help: "Milliseconds a bot thinks before it moves.",
                defaultDescription: "700"),
        ],
        epilogue: """
            Examples:
              spyd --host
              spyd --host --bots 3 --clues typed
              spyd --host --clues typed --spies 2 --blank --bots 3 --bot-level hard
              spyd --host --rooms 3 --password secret --state-dir /var/lib/spyd
            """)

    /// Turns parsed arguments into options; a bad value is a usage error.
    static func options(from parsed: ParsedArguments, environment: [String: String]) throws(UsageError)
        -> HostOptions
    {
        guard parsed.flag("host") else {
            throw UsageError("nothing to do: give --host to serve players, or `spyd bank …`, or `spyd state check`")
        }
        var options = HostOptions()
        options.bind = parsed.string("bind")
        options.port = UInt16(try parsed.int("port", default: 7777, in: 0...65_535))
        options.portFile = parsed.string("port-file")
        options.rooms = try parsed.int("rooms", default: 1, in: 1...1_000)
        options.password = parsed.string("password")
        var settings = GameSettings()
        settings.maxPlayers = try parsed.int("max-players", default: settings.maxPlayers, in: 4...20)
        settings.spies = try parsed.int("spies", default: settings.spies, in: 1...3)
        settings.blank = parsed.flag("blank")
        settings.clueMode = try parsed.choice("clues", as: ClueMode.self) ?? settings.clueMode
        settings.spyWin = try parsed.choice("spy-win", as: SpyWin.self) ?? settings.spyWin
        settings.turnSeconds = try parsed.int("turn-seconds", default: 0, in: 0...600)
        settings.voteSeconds = try parsed.int("vote-seconds", default: 0, in: 0...600)
        var chosenLanguage = try parsed.choice("language", as: BankLanguage.self)
        if chosenLanguage == nil { chosenLanguage = try parsed.choice("lang", as: BankLanguage.self) }
        if let language = chosenLanguage {
            settings.language = language
        } else {
            let (language, setting) = BankLanguage.locale(environment: environment)
            settings.language = language
            options.languageSource = setting ?? "no locale set"
            options.localeNamesNoLanguage = BankLanguage.namesNoLanguage(setting)
        }
        if let text = parsed.string("categories") {
            settings.categories = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
            guard !settings.categories.isEmpty else { throw UsageError("--categories: name at least one category") }
        }
        settings.allowParty = parsed.flag("party")
        if let problem = Rules.validate(settings, seated: 0) {
            throw UsageError("the game settings do not fit together: \(problem.message)")
        }
        options.settings = settings
        if let text = parsed.string("seed") {
            guard let seed = UInt64(text) else { throw UsageError("--seed: \"\(text)\" is not a whole number") }
            options.seed = seed
        }
        if parsed.flag("no-state") {
            options.stateDirectory = nil
        } else if let directory = parsed.string("state-dir") {
            options.stateDirectory = directory
        } else {
            options.stateDirectory = defaultStateDirectory(environment)
        }
        options.bannerQR = parsed.flag("no-qr") ? nil : BannerQR.style(environment: environment)
        options.discovery = !parsed.flag("no-discovery")
        options.hostName = DiscoveryAnswer.machineName()
        if let name = parsed.string("name") {
            guard !name.isEmpty, !TextFold.hasControlCharacters(name), name.utf8.count <= Discovery.maximumNameBytes
            else {
                throw UsageError("--name must be 1–\(Discovery.maximumNameBytes) bytes with no control characters")
            }
            options.hostName = name
        }
        options.publicNames = parsed.all("public-name")
        if let bad = options.publicNames.first(where: { !HostNames.isValidName($0) }) {
            throw UsageError("--public-name: \"\(bad)\" is not a host name (letters, digits, '-' and '.')")
        }
        options.bankSources = parsed.all("bank")
        options.sheets = parsed.all("sheet")
        guard options.bankSources.count + options.sheets.count <= BankLoader.maxSources else {
            throw UsageError("at most \(BankLoader.maxSources) --bank and --sheet sources")
        }
        if let text = parsed.string("fetch-timeout") {
            guard let seconds = Double(text), seconds > 0, seconds <= 600 else {
                throw UsageError("--fetch-timeout: \"\(text)\" is not a number of seconds between 0 and 600")
            }
            options.fetchSeconds = seconds
        }
        options.quickStart = parsed.flag("quick-start")
        options.bots = try parsed.int("bots", default: 0, in: 0...19)
        if let name = parsed.string("bot-level") {
            guard let level = BotLevel(rawValue: name) else {
                throw UsageError("--bot-level: \"\(name)\" is not one of: easy, normal, hard")
            }
            options.botLevel = level
        }
        if let name = parsed.string("log-level") {
            guard let level = Log.Level(name: name) else {
                throw UsageError("--log-level: \"\(name)\" is not one of: debug, info, warning, error")
            }
            options.logLevel = level
        }
        var limits = ServerLimits()
        limits.helloSeconds = try parsed.int("hello-seconds", default: limits.helloSeconds, in: 1...3_600)
        limits.pingSeconds = try parsed.int("ping-seconds", default: limits.pingSeconds, in: 1...3_600)
        limits.idleSeconds = try parsed.int("idle-seconds", default: limits.idleSeconds, in: 2...7_200)
        guard limits.idleSeconds > limits.pingSeconds else {
            throw UsageError("--idle-seconds must be more than --ping-seconds")
        }
        limits.graceSeconds = try parsed.int("grace-seconds", default: limits.graceSeconds, in: 0...86_400)
        limits.emptyRoomSeconds = try parsed.int(
            "empty-room-seconds", default: limits.emptyRoomSeconds, in: 1...86_400)
        limits.maxConnections = try parsed.int(
            "max-connections", default: limits.maxConnections, in: 1...1_000_000)
        limits.maxPerAddress = try parsed.int("max-per-address", default: limits.maxPerAddress, in: 0...1_000_000)
        limits.maxRooms = try parsed.int("max-rooms", default: limits.maxRooms, in: 1...1_000_000)
        limits.maxRoomsPerAddress = try parsed.int(
            "max-rooms-per-address", default: limits.maxRoomsPerAddress, in: 0...1_000_000)
        limits.roomsPerMinute = try parsed.int("rooms-per-minute", default: limits.roomsPerMinute, in: 0...1_000_000)
        limits.unusedRoomSeconds = try parsed.int(
            "unused-room-seconds", default: limits.unusedRoomSeconds, in: 1...86_400)
        limits.partialFrameBudget = try parsed.int("max-partial-kb", default: 16_384, in: 64...4_194_304) * 1024
        limits.maxOutputBytes = try parsed.int("max-output-kb", default: 1024, in: 4...1_048_576) * 1024
        limits.socketBufferBytes = try parsed.int("socket-buffer-kb", default: 0, in: 0...65_536) * 1024
        limits.botDelayMs = try parsed.int("bot-delay-ms", default: limits.botDelayMs, in: 0...60_000)
        options.limits = limits
        return options
    }

    /// `$XDG_STATE_HOME/spyd`, else `~/.local/state/spyd`.
    static func defaultStateDirectory(_ environment: [String: String]) -> String {
        if let base = environment["XDG_STATE_HOME"], base.hasPrefix("/") {
            return base + "/spyd"
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return home + "/.local/state/spyd"
    }
}
