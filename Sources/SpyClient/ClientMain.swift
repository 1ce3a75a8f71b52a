import Foundation
import Glibc

/// The `spy-client` program: the executable's `main` only calls this and exits with the status it returns. It lives
/// in the library so that the client's parts (the state a host's messages build, the screen drawn from it, the
/// session itself) can be fuzzed and tested in the test's own process.
public enum ClientMain {
    public static func run(arguments: [String], environment: [String: String]) -> Int32 {
        switch ClientOptions.parse(Array(arguments.dropFirst()), environment: environment) {
        case .failure(let error):
            Output.error("spy-client: \(error.message)\n" + "try: spy-client --help")
            return EX_USAGE
        case .success(.show(let text)):
            Output.line(text)
            return 0
        case .success(.run(var options)):
            let interactive = Terminal.isInteractive
            if !interactive { options.plain = true }
            if let path = options.wordsFile, let problem = WordFile.problem(path) {
                // Said before any connection: a word file the host could not take is better fixed first.
                Output.error(
                    "spy-client: --words \(path): " + Strings(language: options.language).wordFileProblem(problem))
                return EX_USAGE
            }
            if options.listHosts { return HostChoice.list(options) }
            if options.findHost {
                guard let found = HostChoice.resolve(options) else { return HostChoice.noHostStatus }
                options.address = found.address
                options.room = found.room ?? options.room
            }
            let store = TokenStore.standard(environment: environment)
            let saved = store.entry(TokenStore.key(address: options.address, room: options.room))
            var name = options.name ?? saved?.name ?? ""
            if options.name == nil && saved == nil && !options.plain {
                let offered = environment["USER"].flatMap { $0.isEmpty || $0 == "root" ? nil : $0 } ?? "玩家"
                name =
                    Prompting.ask(Strings(language: options.language).askName(default: offered), default: offered)
                    ?? offered
            }
            let interface: PlayerInterface =
                options.plain ? LineInterface() : FullScreenInterface(color: options.color)
            SignalPipe.install()
            guard
                let session = Session(
                    options: options, name: name, store: store, token: saved?.token, interface: interface,
                    mayAsk: !options.plain, signals: SignalPipe.readEnd)
            else {
                Output.error("spy-client: cannot create an event loop (errno \(errno))")
                return 1
            }
            return session.run()
        }
    }
}
