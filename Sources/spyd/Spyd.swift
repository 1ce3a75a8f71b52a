import Foundation
import SpyBank
import SpyGame
import SpyNet
import SpyProtocol

/// The `spyd` program: argument handling, bank loading, then the event loop.
enum Spyd {
    /// Runs with the full argument vector (program name first); returns the exit status.
    static func run(_ argv: [String], environment: [String: String]) -> Int32 {
        if argv.count >= 2 && argv[1] == "bank" {
            return BankCommand.run(Array(argv.dropFirst(2)), version: HostCommand.version)
        }
        let options: HostOptions
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
        guard let (bank, bankName) = loadBank(options, log: log) else { return 69 }
        let status = ProcessSetup.isTerminal(1) ? StatusScreen() : nil
        let server: Server
        do {
            server = try Server(
                options: options, bank: bank, pairsFor: { BankFilter.pairs(bank, for: $0) }, log: log, status: status)
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
        log.info("listening on \(bindText):\(server.port) with \(server.rooms.count) room(s); bank: \(bankName)")
        if let status {
            status.banner(banner(server: server, options: options, bankName: bankName))
        }
        return server.run()
    }

    /// The pairs to play with and a short description, or `nil` (after logging why) when none could be loaded.
    static func loadBank(_ options: HostOptions, log: Log) -> ([WordPair], String)? {
        if options.bankSources.isEmpty && options.sheets.isEmpty {
            return (EmbeddedBank.pairs, "embedded, \(EmbeddedBank.pairs.count) pairs")
        }
        // The seed app locked its screen behind a spinner while the sheet loaded; on a terminal the host shows one
        // too, with the source and the bytes received, and keeps its log lines above it.
        let indicator = FetchIndicator.standardError()
        let report = BankLoader.load(
            sources: options.bankSources, sheets: options.sheets, cacheDirectory: BankCache.defaultDirectory(),
            timeout: 10, maxBytes: 8 << 20,
            progress: { line in if log.enabled(.info) { indicator.line(log.line(.info, "bank: \(line)")) } },
            transfer: indicator.transfer)
        indicator.finish()
        guard !report.pairs.isEmpty else {
            log.error("no word pairs could be loaded from the given sources")
            return nil
        }
        let names = (options.bankSources + options.sheets.map { "sheet \($0)" }).joined(separator: ", ")
        return (report.pairs, "\(names), \(report.pairs.count) pairs")
    }

    static func banner(server: Server, options: HostOptions, bankName: String) -> [String] {
        let suffix = server.port == 7777 ? "" : ":\(server.port)"
        var lines = ["誰是臥底 · Who is the Spy — the host is ready", ""]
        let addresses = options.bind.map { [$0] } ?? ProcessSetup.lanAddresses()
        if addresses.isEmpty {
            lines.append("  No network address found; on this machine type:  spy-client 127.0.0.1\(suffix)")
        } else {
            lines.append("  Players type:")
            for address in addresses { lines.append("    spy-client \(address)\(suffix)") }
        }
        if let style = options.bannerQR,
            let url = addresses.first.flatMap({ BannerQR.url(address: $0, port: server.port) })
        {
            lines += [""] + BannerQR.lines(url: url, style: style)
        }
        let codes = server.roomOrder.joined(separator: ", ")
        lines.append("  Room\(server.roomOrder.count == 1 ? "" : "s"): \(codes)")
        if options.password != nil { lines.append("  A password is required to join.") }
        if options.bots > 0 { lines.append("  Bots: \(options.bots), seated when the first player joins.") }
        lines.append("  Bank: \(bankName)")
        lines.append("  Stop with Ctrl-C; rooms are \(options.stateDirectory == nil ? "not saved" : "saved").")
        return lines
    }
}
