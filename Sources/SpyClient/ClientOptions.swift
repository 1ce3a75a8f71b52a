import Foundation
import SpyProtocol

/// The host and port a player typed, parsed by the shared `HostPort` rules.
struct HostAddress: Equatable, Sendable, CustomStringConvertible {
    static let defaultPort = HostPort.defaultPort

    var host: String
    var port: Int

    init(_ parsed: HostPort) {
        host = parsed.host
        port = parsed.port
    }

    /// Reads `HOST`, `HOST:PORT`, `IPv4:PORT`, `[IPv6]:PORT` or a bare IPv6 address.
    init?(_ text: String) {
        guard let parsed = try? HostPort.parse(text) else { return nil }
        self.init(parsed)
    }

    var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

/// What the command line asked for.
struct ClientOptions: Equatable, Sendable {
    static let version = "spy-client 1.0.0 (protocol \(supportedProtocolVersions[0]))"

    var address = HostAddress("127.0.0.1")!
    var name: String?
    var room: String?
    var password: String?
    var create = false
    var language: Language = .en
    var plain = false
    var color = true
    /// No address was given: look for hosts on the local network.
    var findHost = false
    /// `--list`: print the hosts found and exit.
    var listHosts = false
    /// Milliseconds to wait for hosts to answer.
    var searchMs = 1000
    /// `--words FILE`: the room's own word list, sent when this player owns the room between games.
    var wordsFile: String?

    /// What the command line resolved to.
    enum Outcome: Equatable {
        /// Run with these options.
        case run(ClientOptions)
        /// Print this text to stdout and exit 0 (help, version).
        case show(String)
    }

    /// The options and the host argument, for the shared parser; `--help` prints `usage(_:)` in the player's
    /// language instead of the parser's English help.
    static let command = CommandSpec(
        name: "spy-client", summary: "Join a WhoIsSpy host on the local network.",
        options: [
            .value("name", placeholder: "NAME", help: "Your nickname (asked when missing)."),
            .value("room", placeholder: "CODE", help: "Room code (when the host runs several rooms)."),
            .value("password", placeholder: "TEXT", help: "Room password."),
            .flag("create", help: "Open a new room."),
            .value("lang", placeholder: "zh-TW|zh-Hans|en", help: "Interface language (default from LANG)."),
            .flag("plain", help: "Line mode (screen readers, logs, scripts)."),
            .flag("no-color", help: "No colours (NO_COLOR is honoured too)."),
            .flag("no-colour", help: "Same as --no-color."),
            .flag("list", help: "List the hosts on the local network and exit."),
            .value("search-ms", placeholder: "N", help: "Milliseconds to wait for hosts to answer."),
            .value("words", placeholder: "FILE", help: "The room's own word list, one pair a line (owner)."),
        ],
        positionals: [PositionalSpec("HOST[:PORT]", help: "IPv4, [IPv6] or a host name.", optional: true)])

    static func usage(_ language: Language) -> String {
        let lines: [String]
        switch language {
        case .zhTW:
            lines = [
                "用法：spy-client [主機[:連接埠]] [選項]", "",
                "  主機        IPv4、[IPv6] 或主機名稱；連接埠預設 7777；沒給就在這個網路上找主機",
                "  --name 名字       你的暱稱（沒給就會問）",
                "  --room 代碼       房間代碼（主機有好幾個房間時）",
                "  --password 密碼   房間密碼",
                "  --create          開一個新房間",
                "  --lang 語言       介面語言：zh-TW、zh-Hans 或 en（預設看 LANG）",
                "  --plain           逐行模式（螢幕閱讀器、記錄、腳本）",
                "  --no-color        不用顏色（也會看 NO_COLOR）",
                "  --list            列出這個網路上的主機後結束",
                "  --search-ms 毫秒  找主機時等多久（預設 1000）",
                "  --words 檔案      房間自己的詞，一行一組（房主才會送出）",
                "  --help, --version",
            ]
        case .zhHans:
            lines = [
                "用法：spy-client [主机[:端口]] [选项]", "",
                "  主机        IPv4、[IPv6] 或主机名称；默认端口 7777；没给就在这个网络上找主机",
                "  --name 名字       你的昵称（没给就会问）",
                "  --room 代码       房间代码（主机有好几个房间时）",
                "  --password 密码   房间密码",
                "  --create          开一个新房间",
                "  --lang 语言       界面语言：zh-TW、zh-Hans 或 en（默认看 LANG）",
                "  --plain           逐行模式（读屏软件、日志、脚本）",
                "  --no-color        不用颜色（也会看 NO_COLOR）",
                "  --list            列出这个网络上的主机后结束",
                "  --search-ms 毫秒  找主机时等多久（默认 1000）",
                "  --help, --version",
            ]
        case .en:
            lines = [
                "usage: spy-client [HOST[:PORT]] [options]", "",
                "  HOST               IPv4, [IPv6] or a host name; port 7777 by default;",
                "                     without it, the client looks for hosts on this network",
                "  --name NAME        your nickname (asked when missing)",
                "  --room CODE        room code (when the host runs several rooms)",
                "  --password TEXT    room password",
                "  --create           open a new room",
                "  --lang LANGUAGE    interface language: zh-TW, zh-Hans or en (default from LANG)",
                "  --plain            line mode (screen readers, logs, scripts)",
                "  --no-color         no colours (NO_COLOR is honoured too)",
                "  --list             list the hosts on this network and exit",
                "  --search-ms N      how long to wait for hosts to answer (default 1000)",
                "  --words FILE       the room's own word list, one pair a line (sent when you own the room)",
                "  --help, --version",
            ]
        }
        return lines.joined(separator: "\n")
    }

    /// The language the environment asks for: LC_ALL, then LC_MESSAGES, then LANG, as the host reads them.
    static func environmentLanguage(_ environment: [String: String]) -> Language {
        switch BankLanguage.locale(environment: environment).language {
        case .zhTW: .zhTW
        case .zhHans: .zhHans
        default: .en
        }
    }

    /// Reads the arguments (without the program name).
    static func parse(_ arguments: [String], environment: [String: String]) -> Result<Outcome, UsageError> {
        var options = ClientOptions()
        options.language = environmentLanguage(environment)
        options.color = (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
        do throws(UsageError) {
            let parsed = try command.parse(arguments)
            if let text = parsed.string("lang")?.lowercased() {
                guard let language = Language(tag: text) else {
                    throw UsageError("--lang must be zh-TW, zh-Hans or en, not \"\(text)\"")
                }
                options.language = language
            }
            if parsed.flag(CommandSpec.helpOption) { return .success(.show(usage(options.language))) }
            if parsed.flag(CommandSpec.versionOption) { return .success(.show(version)) }
            options.name = parsed.string("name")
            options.room = parsed.string("room")?.uppercased()
            options.password = parsed.string("password")
            options.create = parsed.flag("create")
            options.plain = parsed.flag("plain")
            if parsed.flag("no-color") || parsed.flag("no-colour") { options.color = false }
            options.listHosts = parsed.flag("list")
            options.searchMs = try parsed.int("search-ms", default: options.searchMs, in: 100...10_000)
            options.wordsFile = parsed.string("words")
            if let address = parsed.positional("HOST[:PORT]") {
                guard !options.listHosts else { throw UsageError("--list looks for hosts; give no address with it") }
                options.address = HostAddress(try HostPort.parse(address))
            } else {
                options.findHost = true
            }
            if let name = options.name, TextFold.hasControlCharacters(name) || DisplayWidth.of(name) > 16 {
                throw UsageError("--name must be at most 16 columns with no control characters")
            }
        } catch {
            return .failure(error)
        }
        return .success(.run(options))
    }
}
