import Foundation
import Glibc
import SpyProtocol

/// What the client does when no address was given: find hosts, then join the only one, let the player pick one
/// of several, or say that none answered.
enum HostChoice {
    /// Exit status when no host answered (EX_UNAVAILABLE).
    static let noHostStatus: Int32 = 69

    /// `spy-client --list`: one line per host found, tab-separated (address, name, rooms, password), for scripts.
    static func list(_ options: ClientOptions) -> Int32 {
        let hosts = HostFinder.search(waitMs: options.searchMs)
        guard !hosts.isEmpty else {
            Output.error(HostChoiceText(language: options.language).noneFound)
            return noHostStatus
        }
        for host in hosts {
            let rooms = host.answer.rooms.map { room in
                "\(room.code) \(room.seated)/\(room.seated + room.free) \(room.playing ? "playing" : "lobby")"
            }
            let more = host.answer.more > 0 ? [" +\(host.answer.more) more"] : []
            Output.line(
                [
                    host.address.description, host.answer.name, rooms.joined(separator: ", ") + more.joined(),
                    host.answer.password ? "password" : "open",
                ].joined(separator: "\t"))
        }
        return 0
    }

    /// The address to join and, when the chosen host has several rooms and none was given, the room picked; `nil`
    /// after saying why there is none (no host answered, or no choice was made).
    static func resolve(_ options: ClientOptions) -> (address: HostAddress, room: String?)? {
        guard let host = chooseHost(options) else { return nil }
        let rooms = host.answer.rooms
        guard options.room == nil, !options.create, rooms.count > 1 else { return (host.address, nil) }
        let text = HostChoiceText(language: options.language)
        for (index, room) in rooms.enumerated() { Output.line("  \(index + 1)) " + text.describe(room)) }
        guard let number = ask(text.pickRoom(rooms.count), count: rooms.count) else { return nil }
        return (host.address, rooms[number - 1].code)
    }

    private static func chooseHost(_ options: ClientOptions) -> FoundHost? {
        let text = HostChoiceText(language: options.language)
        if !options.plain { Output.line(text.searching) }
        let hosts = HostFinder.search(waitMs: options.searchMs)
        switch hosts.count {
        case 0:
            Output.error(text.noneFound)
            return nil
        case 1:
            Output.line(text.joining(hosts[0]))
            return hosts[0]
        default:
            Output.line(text.several(hosts.count))
            for (index, host) in hosts.enumerated() { Output.line("  \(index + 1)) " + text.describe(host)) }
            guard let number = ask(text.pickHost(hosts.count), count: hosts.count) else { return nil }
            Output.line(text.joining(hosts[number - 1]))
            return hosts[number - 1]
        }
    }

    /// Asks for a number in 1...count until one is given; `nil` at the end of input.
    private static func ask(_ question: String, count: Int) -> Int? {
        while true {
            Output.write(question)
            guard let line = readLineUnbuffered() else {
                Output.line("")
                return nil
            }
            if let number = Int(line.trimmingCharacters(in: .whitespaces)), (1...count).contains(number) {
                return number
            }
        }
    }

    /// One line of standard input, read a byte at a time so nothing after it is taken from the game's input.
    static func readLineUnbuffered() -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while bytes.count < 256 {
            let count = read(STDIN_FILENO, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            guard count == 1 else { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if byte == UInt8(ascii: "\n") { break }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// The finder's words in the player's language.
struct HostChoiceText {
    var language: Language

    var searching: String {
        language.pick("正在這個網路上找主機…", "正在这个网络上找主机…", "Looking for a host on this network…")
    }

    var noneFound: String {
        language.pick(
            "這個網路上找不到主機——請向主持人要 spyd 印出的位址（spy-client 位址）", "这个网络上找不到主机——请向主持人要 spyd 印出的地址（spy-client 地址）",
            "no host found on this network — ask the host for the address printed by spyd (spy-client ADDRESS)")
    }

    func several(_ count: Int) -> String {
        language.pick("找到 \(count) 台主機：", "找到 \(count) 台主机：", "Found \(count) hosts:")
    }

    func pickHost(_ count: Int) -> String {
        language.pick("選一台主機（1–\(count)）：", "选一台主机（1–\(count)）：", "Pick a host (1–\(count)): ")
    }

    func pickRoom(_ count: Int) -> String {
        language.pick("選一個房間（1–\(count)）：", "选一个房间（1–\(count)）：", "Pick a room (1–\(count)): ")
    }

    func joining(_ host: FoundHost) -> String {
        language.pick(
            "找到 \(host.answer.name)（\(host.address)），加入中…", "找到 \(host.answer.name)（\(host.address)），加入中…",
            "Found \(host.answer.name) at \(host.address); joining…")
    }

    /// One host: name, address, each room's seats and state, and whether a password is needed.
    func describe(_ host: FoundHost) -> String {
        var parts = [host.answer.name, host.address.description]
        parts += host.answer.rooms.map(describe)
        if host.answer.more > 0 {
            parts.append(
                language.pick("還有 \(host.answer.more) 個房間", "还有 \(host.answer.more) 个房间", "+\(host.answer.more) rooms"))
        }
        if host.answer.password { parts.append(language.pick("需要密碼", "需要密码", "password")) }
        return parts.joined(separator: " — ")
    }

    /// One room: code, seats, whether a game is on.
    func describe(_ room: DiscoveryAnswer.Room) -> String {
        let playing = language.pick(
            room.playing ? "遊戲中" : "等待中", room.playing ? "游戏中" : "等待中", room.playing ? "playing" : "lobby")
        return language.pick(
            "房間 \(room.code)：\(room.seated) 人入座、空 \(room.free) 位、\(playing)",
            "房间 \(room.code)：\(room.seated) 人入座、空 \(room.free) 位、\(playing)",
            "room \(room.code): \(room.seated) seated, \(room.free) free, \(playing)")
    }
}
