import SpyGame
import SpyProtocol

/// What one benchmark run does, parsed from the command line.
struct BenchOptions: Equatable {
    /// Rooms played at once.
    var rooms = 1
    /// Players (connections) per room.
    var players = 10
    /// Full games played in each room.
    var games = 1
    /// Target an already running host instead of starting one.
    var host: String?
    var port: UInt16 = 7777
    /// The `spyd` binary to start; next to `spy-bench` by default.
    var spydPath: String?
    /// Where the started host saves its rooms, as a real host does; `nil` runs it with `--no-state`.
    var stateDir: String?
    /// Give up after this many seconds.
    var timeoutSeconds = 600
    /// Print one JSON object instead of the table.
    var json = false
    /// Seed for the players' ballots.
    var seed: UInt64 = 1
    /// Milliseconds each bot waits before a move, as a person would; 0 plays as fast as the protocol allows.
    var thinkMs = 0
    /// Play bot-only games in memory (no host, no sockets) and report how reasoning bots fare against random ones.
    var botsOnly = false
    /// Spies in each bot-only game.
    var spies = 1
    /// Whether each bot-only game deals a blank.
    var blank = false
    /// The embedded pairs bot-only games deal: `both` is the Traditional Chinese and English ones.
    var language = BankLanguage.both
    /// Instead of games: settings changes each of `rooms` connections streams, one acknowledged at a time.
    var durableMoves = 0

    static let command = CommandSpec(
        name: "spy-bench",
        summary: "Load the WhoIsSpy host with bot players over real TCP and report throughput and latency.",
        options: [
            .value("rooms", placeholder: "R", help: "Rooms playing at once.", defaultDescription: "1"),
            .value("players", placeholder: "P", help: "Players per room (4–20).", defaultDescription: "10"),
            .value("games", placeholder: "G", help: "Games per room.", defaultDescription: "1"),
            .value("host", placeholder: "HOST", help: "Target a running spyd instead of starting one."),
            .value(
                "port", placeholder: "PORT", help: "Port of the running spyd (with --host).", defaultDescription: "7777"
            ),
            .value(
                "spyd", placeholder: "PATH", help: "The spyd binary to start.", defaultDescription: "next to spy-bench"),
            .value(
                "state-dir", placeholder: "PATH",
                help:
                    "Have the started spyd save its rooms here (every change written and synced, as a real host does)."
            ),
            .value("timeout", placeholder: "SECONDS", help: "Give up after this long.", defaultDescription: "600"),
            .value("seed", placeholder: "N", help: "Seed for the players' choices.", defaultDescription: "1"),
            .value(
                "think-ms", placeholder: "MS", help: "Milliseconds a bot waits before each move.",
                defaultDescription: "0"),
            .flag("json", help: "Print the results as one JSON object."),
            .flag(
                "bots-only",
                help: "Play bot-only games in memory (up to 100000 with --games) and compare bot levels."),
            .value(
                "spies", placeholder: "N",
                help: "Spies in each bot-only game (1–3, as the table allows: 1 below 6 players, 2 up to 9).",
                defaultDescription: "1"),
            .flag("blank", help: "Deal a blank in each bot-only game (civilians must outnumber spies and blank)."),
            .value(
                "language", placeholder: "LANGUAGE",
                help: "Embedded pairs of bot-only games: zh-TW, zh-Hans, en, both (zh-TW and en) or zh-Hans+en.",
                defaultDescription: "both"),
            .value(
                "durable-moves", placeholder: "N",
                help:
                    "Instead of games: each of --rooms connections opens a room and changes its settings N times, "
                    + "each change sent once the last is acknowledged (with --state-dir: durable moves per second)."),
        ],
        epilogue: "Without --host, spy-bench starts its own spyd on 127.0.0.1 with a free port and stops it after."
    )

    /// Parses the arguments after the executable name.
    static func parse(_ parsed: ParsedArguments) throws(UsageError) -> BenchOptions {
        var options = BenchOptions()
        options.rooms = try parsed.int("rooms", default: 1, in: 1...5000)
        options.players = try parsed.int("players", default: 10, in: 4...20)
        options.botsOnly = parsed.flag("bots-only")
        options.games = try parsed.int("games", default: 1, in: 1...(options.botsOnly ? 100_000 : 1000))
        options.host = parsed.string("host")
        options.port = UInt16(try parsed.int("port", default: 7777, in: 1...65535))
        options.spydPath = parsed.string("spyd")
        options.stateDir = parsed.string("state-dir")
        if options.stateDir != nil && options.host != nil {
            throw UsageError("--state-dir is for the spyd that spy-bench starts, not one given with --host")
        }
        options.timeoutSeconds = try parsed.int("timeout", default: 600, in: 1...86_400)
        options.seed = UInt64(try parsed.int("seed", default: 1, in: 0...Int.max))
        options.thinkMs = try parsed.int("think-ms", default: 0, in: 0...60_000)
        options.json = parsed.flag("json")
        options.spies = try parsed.int("spies", default: 1, in: 1...3)
        options.blank = parsed.flag("blank")
        options.language = try parsed.choice("language", as: BankLanguage.self) ?? options.language
        options.durableMoves = try parsed.int("durable-moves", default: 0, in: 0...10_000_000)
        if options.durableMoves > 0 && options.botsOnly {
            throw UsageError("--durable-moves streams moves at a host; --bots-only plays without one")
        }
        if !options.botsOnly && (parsed.flag("spies") || options.blank || parsed.string("language") != nil) {
            throw UsageError("--spies, --blank and --language are for --bots-only games")
        }
        let spyLimit = min(3, GameSettings.maxSpies(forPlayers: options.players))
        if options.spies > spyLimit {
            throw UsageError("--spies: \(options.players) players allow at most \(spyLimit)")
        }
        if options.blank && !Rules.civiliansAreMajority(players: options.players, spies: options.spies, blank: true) {
            throw UsageError(
                "--blank: \(options.spies) \(options.spies == 1 ? "spy" : "spies") and the blank need at least "
                    + "\(2 * (options.spies + 1) + 1) players")
        }
        if let host = options.host, !isLoopback(host) {
            throw UsageError("--host must be a loopback address (127.0.0.0/8, ::1 or localhost): \(host)")
        }
        return options
    }

    /// Load tests only ever target this machine.
    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
    }
}
