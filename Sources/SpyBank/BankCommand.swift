import Foundation
import SpyProtocol

/// `spyd bank …`: checking a source before a party, and exporting the default bank to start a sheet from.
public enum BankCommand {
    /// Exit code for a usable run.
    public static let success: Int32 = 0
    /// Exit code when a checked source is unusable.
    public static let unusableSource: Int32 = 1
    /// Exit code for a usage error (`EX_USAGE`).
    public static let usageError: Int32 = 64

    public static let usage = """
        usage: spyd bank check [--timeout SECONDS] [--max-bytes BYTES] [--sheet ID[#gid]]... [SOURCE...]
               spyd bank export [--language zh-TW|en|both]

        check   reads each SOURCE (http/https URL or file) and each --sheet fresh, without the cache, and
                prints the format found, the pairs loaded, the rows skipped with their line numbers and the
                categories; exits 1 when a source is unusable.
        export  prints the embedded default bank as CSV (civilian,spy,category,language,label), ready to
                paste into a spreadsheet.
        """

    /// Runs the command with `arguments` (those after "bank"), writing to standard output and standard error.
    public static func run(_ arguments: [String]) -> Int32 {
        let indicator = FetchIndicator.standardError()
        defer { indicator.finish() }
        return run(
            arguments,
            output: { line in FileHandle.standardOutput.write(Data((line + "\n").utf8)) },
            errors: indicator.line,
            transfer: indicator.transfer)
    }

    /// Runs the command with the given outputs; `output` and `errors` each receive one line at a time, without
    /// its line end.
    public static func run(
        _ arguments: [String], output: (String) -> Void, errors: (String) -> Void,
        transfer: (@Sendable (TransferStatus) -> Void)? = nil
    ) -> Int32 {
        let say = output
        guard let command = arguments.first else {
            errors("spyd bank: missing command (check or export)")
            errors(usage)
            return usageError
        }
        let rest = Array(arguments.dropFirst())
        switch command {
        case "-h", "--help", "help":
            say(usage)
            return success
        case "check":
            return check(rest, say: say, errors: errors, transfer: transfer)
        case "export":
            return export(rest, say: say, errors: errors)
        default:
            errors("spyd bank: unknown command '\(command)' (expected check or export)")
            return usageError
        }
    }

    private static func check(
        _ arguments: [String], say: (String) -> Void, errors: (String) -> Void,
        transfer: (@Sendable (TransferStatus) -> Void)?
    ) -> Int32 {
        var options: OptionReader
        do {
            options = try OptionReader(arguments, valued: ["--timeout", "--max-bytes", "--sheet"])
        } catch {
            errors("spyd bank check: \(error)")
            return usageError
        }
        if options.flags.contains("--help") {
            say(usage)
            return success
        }
        var limits = FetchLimits()
        if let text = options.last("--timeout") {
            guard let seconds = TimeInterval(text), seconds > 0, seconds <= 600 else {
                errors("spyd bank check: --timeout wants seconds between 0 and 600, got '\(text)'")
                return usageError
            }
            limits.timeout = seconds
        }
        if let text = options.last("--max-bytes") {
            guard let bytes = Int(text), bytes > 0 else {
                errors("spyd bank check: --max-bytes wants a positive number, got '\(text)'")
                return usageError
            }
            limits.maxBytes = bytes
        }
        let specs = options.positional.map { ($0, false) } + options.all("--sheet").map { ($0, true) }
        guard !specs.isEmpty else {
            errors("spyd bank check: name at least one SOURCE or --sheet ID")
            return usageError
        }
        var unusable = 0
        for (index, (spec, isSheet)) in specs.enumerated() {
            if index > 0 { say("") }
            say("source: \(spec)")
            let source: BankSource
            switch BankSource.parse(spec, sheet: isSheet) {
            case .failure(let error):
                say("  unusable: \(error)")
                unusable += 1
                continue
            case .success(let parsed):
                source = parsed
            }
            if isSheet { say("  url: \(source)") }
            switch BankLoader.fetchAndParse(source, limits: limits, transfer: transfer) {
            case .failure(let failure):
                say("  unusable: \(failure)")
                if case .parse(.noValidRows(_, let skipped)) = failure {
                    for row in skipped { say("    \(row)") }
                }
                unusable += 1
            case .success(let bank):
                say("  format: \(bank.format.rawValue)")
                say("  pairs: \(BankLoader.summary(bank.pairs))")
                say("  skipped: \(bank.skipped.count)")
                for row in bank.skipped { say("    \(row)") }
                let categories = BankFilter.categories(of: bank.pairs)
                say("  categories: \(categories.isEmpty ? "(none)" : categories.joined(separator: ", "))")
            }
        }
        return unusable == 0 ? success : unusableSource
    }

    private static func export(_ arguments: [String], say: (String) -> Void, errors: (String) -> Void) -> Int32 {
        let options: OptionReader
        do {
            options = try OptionReader(arguments, valued: ["--language"])
        } catch {
            errors("spyd bank export: \(error)")
            return usageError
        }
        if options.flags.contains("--help") {
            say(usage)
            return success
        }
        guard options.positional.isEmpty else {
            errors("spyd bank export: unexpected argument '\(options.positional[0])'")
            return usageError
        }
        var language = BankLanguage.both
        if let text = options.last("--language") {
            guard let chosen = BankLanguage(rawValue: text) ?? BankParser.parseLanguage(text) else {
                errors("spyd bank export: --language wants zh-TW, en or both, got '\(text)'")
                return usageError
            }
            language = chosen
        }
        let csv = BankExport.csv(EmbeddedBank.pairs(in: language))
        for line in csv.split(separator: "\n", omittingEmptySubsequences: false).dropLast() { say(String(line)) }
        return success
    }
}

/// `--name value`, `--name=value`, flags and positional arguments; "--" ends the options.
struct OptionReader {
    struct UsageError: Error, CustomStringConvertible {
        var description: String
    }

    private(set) var values: [(String, String)] = []
    private(set) var flags: Set<String> = []
    private(set) var positional: [String] = []

    init(_ arguments: [String], valued: Set<String>, flags knownFlags: Set<String> = ["--help", "-h"]) throws {
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                positional.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            let parts = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            if valued.contains(name) {
                if parts.count == 2 {
                    values.append((name, String(parts[1])))
                } else if index < arguments.count {
                    values.append((name, arguments[index]))
                    index += 1
                } else {
                    throw UsageError(description: "\(name) needs a value")
                }
            } else if knownFlags.contains(name) && parts.count == 1 {
                flags.insert(name == "-h" ? "--help" : name)
            } else {
                throw UsageError(description: "unknown option '\(argument)'")
            }
        }
    }

    func last(_ name: String) -> String? { values.last { $0.0 == name }?.1 }
    func all(_ name: String) -> [String] { values.filter { $0.0 == name }.map(\.1) }
}
