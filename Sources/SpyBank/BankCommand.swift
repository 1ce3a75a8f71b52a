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

    /// The overview printed for `spyd bank --help` and after a missing or unknown command.
    public static let usage = """
        Usage: spyd bank check [options] [SOURCE…]
               spyd bank export [options]

        check   reads each SOURCE (http/https URL or file) and each --sheet fresh, without the cache, and prints
                the format found, the pairs loaded, the rows skipped with their line numbers and the categories;
                exits 1 when a source is unusable.
        export  prints the embedded default bank as CSV (civilian,spy,category,language,label), ready to paste
                into a spreadsheet.

        Try 'spyd bank check --help' or 'spyd bank export --help' for their options.
        """

    static let checkSpec = CommandSpec(
        name: "spyd bank check",
        summary: "Reads each source fresh (never from the cache) and reports what a host would get from it.",
        options: [
            .value(
                "sheet", placeholder: "ID[#gid]", repeatable: true,
                help: "A Google Sheet shared with anyone with the link, by spreadsheet ID."),
            .value(
                "timeout", placeholder: "SECONDS", help: "Give up on a source after this long.",
                defaultDescription: "10"),
            .value(
                "max-bytes", placeholder: "BYTES", help: "Refuse a source larger than this.",
                defaultDescription: "8388608"),
        ],
        positionals: [
            PositionalSpec("SOURCE", help: "An http:// or https:// URL or a file.", optional: true, variadic: true)
        ],
        epilogue: "Exit status: 0 when every source is usable, 1 when one is not, 64 for a usage error.")

    static let exportSpec = CommandSpec(
        name: "spyd bank export",
        summary: "Prints the embedded default bank as CSV with the header civilian,spy,category,language,label.",
        options: [
            .value(
                "language", placeholder: "LANGUAGE",
                help: "zh-TW, zh-Hans, en, both (zh-TW and en) or zh-Hans+en.", defaultDescription: "both")
        ])

    /// Runs the command with `arguments` (those after "bank"), writing to standard output and standard error.
    public static func run(_ arguments: [String], version: String = "") -> Int32 {
        let indicator = FetchIndicator.standardError()
        defer { indicator.finish() }
        return run(
            arguments, version: version,
            output: { line in
                // The spinner is on standard error, the report on standard output: same terminal, so clear first.
                indicator.clear()
                FileHandle.standardOutput.write(Data((line + "\n").utf8))
            },
            errors: indicator.line,
            transfer: indicator.transfer)
    }

    /// Runs the command with the given outputs; `output` and `errors` each receive one line at a time, without
    /// its line end.
    public static func run(
        _ arguments: [String], version: String = "", output: (String) -> Void, errors: (String) -> Void,
        transfer: (@Sendable (TransferStatus) -> Void)? = nil
    ) -> Int32 {
        guard let command = arguments.first else {
            errors("spyd bank: missing command (check or export)")
            lines(of: usage).forEach(errors)
            return usageError
        }
        let rest = Array(arguments.dropFirst())
        let spec: CommandSpec
        switch command {
        case "-h", "--help", "help":
            lines(of: usage).forEach(output)
            return success
        case "check": spec = checkSpec
        case "export": spec = exportSpec
        default:
            errors("spyd bank: unknown command '\(command)' (expected check or export)")
            lines(of: usage).forEach(errors)
            return usageError
        }
        switch spec.resolve(rest, version: version) {
        case .exit(let code, let standardOutput, let standardError):
            lines(of: standardOutput).forEach(output)
            lines(of: standardError).forEach(errors)
            return code
        case .run(let parsed):
            do {
                if command == "check" { return try check(parsed, say: output, transfer: transfer) }
                return try export(parsed, say: output)
            } catch {
                lines(of: spec.usageErrorText(error)).forEach(errors)
                return usageError
            }
        }
    }

    private static func check(
        _ arguments: ParsedArguments, say: (String) -> Void, transfer: (@Sendable (TransferStatus) -> Void)?
    ) throws(UsageError) -> Int32 {
        var limits = FetchLimits()
        if let text = arguments.string("timeout") {
            guard let seconds = TimeInterval(text), seconds > 0, seconds <= 600 else {
                throw UsageError("--timeout: \"\(text)\" is not a number of seconds between 0 and 600")
            }
            limits.timeout = seconds
        }
        limits.maxBytes = try arguments.int("max-bytes", default: limits.maxBytes, in: 1...(1 << 30))
        let specs =
            arguments.positionalList("SOURCE").map { ($0, false) } + arguments.all("sheet").map { ($0, true) }
        guard !specs.isEmpty else { throw UsageError("name at least one SOURCE or --sheet ID") }
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
            switch BankLoader.fetchAndParse(source, limits: limits, minimum: 0, transfer: transfer) {
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
                let clued = bank.pairs.filter { !$0.civilianClues.isEmpty || !$0.spyClues.isEmpty }.count
                if clued > 0 || !bank.droppedClues.isEmpty {
                    say("  pairs with clues: \(clued); clues dropped: \(bank.droppedClues.count)")
                    for row in bank.droppedClues { say("    \(row)") }
                }
                let categories = BankFilter.categories(of: bank.pairs)
                say("  categories: \(categories.isEmpty ? "(none)" : categories.joined(separator: ", "))")
                if bank.pairs.count < BankLoader.minimumPairs {
                    let failure = SourceFailure.tooFewPairs(found: bank.pairs.count, minimum: BankLoader.minimumPairs)
                    say("  unusable: \(failure)")
                    unusable += 1
                }
            }
        }
        return unusable == 0 ? success : unusableSource
    }

    private static func export(_ arguments: ParsedArguments, say: (String) -> Void) throws(UsageError) -> Int32 {
        let language = try arguments.choice("language", as: BankLanguage.self) ?? .both
        let csv = BankExport.csv(BankExport.withEmbeddedClues(EmbeddedBank.pairs(in: language)))
        for line in csv.split(separator: "\n", omittingEmptySubsequences: false).dropLast() { say(String(line)) }
        return success
    }

    private static func lines(of text: String) -> [String] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }
}
