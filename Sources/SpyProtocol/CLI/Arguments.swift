/// A command-line mistake. The executable prints `message` (and a hint to use `--help`) to stderr and exits 64.
public struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// BSD `EX_USAGE`: the command was used incorrectly.
    public static let exitCode: Int32 = 64

    /// One sentence naming the argument at fault.
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}

/// One option a command accepts.
public struct OptionSpec: Sendable, Equatable {
    /// Whether the option stands alone or needs a value.
    public enum Kind: Sendable, Equatable {
        /// Present or absent, such as `--verbose`.
        case flag
        /// Needs a value, such as `--port 7777`; `placeholder` names the value in the help text.
        case value(placeholder: String)
    }

    /// Name without the leading dashes, such as `port` for `--port`.
    public var long: String
    /// One-letter alias without the dash, such as `p` for `-p`.
    public var short: Character?
    /// Flag or value option.
    public var kind: Kind
    /// Whether the option may be given more than once (each value is kept, in order).
    public var repeatable: Bool
    /// One line for `--help`.
    public var help: String
    /// Shown in `--help` as "(default: …)"; the accessors take their own fallback.
    public var defaultDescription: String?

    public init(
        _ long: String, short: Character? = nil, kind: Kind, repeatable: Bool = false, help: String,
        defaultDescription: String? = nil
    ) {
        precondition(!long.isEmpty && !long.hasPrefix("-"), "option names are given without dashes")
        self.long = long
        self.short = short
        self.kind = kind
        self.repeatable = repeatable
        self.help = help
        self.defaultDescription = defaultDescription
    }

    /// A flag option.
    public static func flag(_ long: String, short: Character? = nil, repeatable: Bool = false, help: String)
        -> OptionSpec
    {
        OptionSpec(long, short: short, kind: .flag, repeatable: repeatable, help: help)
    }

    /// An option that takes a value.
    public static func value(
        _ long: String, short: Character? = nil, placeholder: String, repeatable: Bool = false, help: String,
        defaultDescription: String? = nil
    ) -> OptionSpec {
        OptionSpec(
            long, short: short, kind: .value(placeholder: placeholder), repeatable: repeatable, help: help,
            defaultDescription: defaultDescription)
    }

    var takesValue: Bool {
        if case .value = kind { return true }
        return false
    }

    /// `-p, --port PORT` as shown in the help text.
    var synopsis: String {
        var text = short.map { "-\($0), " } ?? "    "
        text += "--\(long)"
        if case .value(let placeholder) = kind { text += " \(placeholder)" }
        return text
    }
}

/// One positional argument a command accepts, in declaration order.
public struct PositionalSpec: Sendable, Equatable {
    /// Name shown in the usage line and used by `ParsedArguments.positional(_:)`, such as `HOST[:PORT]`.
    public var name: String
    /// One line for `--help`.
    public var help: String
    /// Whether the argument may be left out. Only trailing positionals may be optional.
    public var optional: Bool
    /// Whether the argument takes every remaining positional (only the last one may).
    public var variadic: Bool

    public init(_ name: String, help: String, optional: Bool = false, variadic: Bool = false) {
        self.name = name
        self.help = help
        self.optional = optional
        self.variadic = variadic
    }
}

/// What a command accepts, and the parser for it. Pure: no process state is read or written.
public struct CommandSpec: Sendable {
    /// Executable name for the usage line and the version line.
    public var name: String
    /// One paragraph under the usage line.
    public var summary: String
    /// Declared options; `--help`/`-h` and `--version` are added unless declared here.
    public private(set) var options: [OptionSpec]
    /// Declared positionals, in order.
    public var positionals: [PositionalSpec]
    /// Lines printed after the options, such as examples.
    public var epilogue: String

    /// Long name of the built-in help option.
    public static let helpOption = "help"
    /// Long name of the built-in version option.
    public static let versionOption = "version"

    public init(
        name: String, summary: String, options: [OptionSpec], positionals: [PositionalSpec] = [],
        epilogue: String = ""
    ) {
        var all = options
        if !all.contains(where: { $0.long == Self.helpOption }) {
            let shortHelpFree = !all.contains(where: { $0.short == "h" })
            all.append(.flag(Self.helpOption, short: shortHelpFree ? "h" : nil, help: "Show this help and exit."))
        }
        if !all.contains(where: { $0.long == Self.versionOption }) {
            all.append(.flag(Self.versionOption, help: "Show the version and exit."))
        }
        let longs = all.map(\.long)
        precondition(Set(longs).count == longs.count, "duplicate long option in \(name)")
        let shorts = all.compactMap(\.short)
        precondition(Set(shorts).count == shorts.count, "duplicate short option in \(name)")
        for (index, positional) in positionals.enumerated() {
            precondition(!positional.variadic || index == positionals.count - 1, "only the last positional is variadic")
            if index > 0, positionals[index - 1].optional {
                precondition(positional.optional, "a required positional cannot follow an optional one")
            }
        }
        self.name = name
        self.summary = summary
        self.options = all
        self.positionals = positionals
        self.epilogue = epilogue
    }

    /// Parses the arguments after the executable name. `--help` and `--version` win over every other mistake.
    public func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments(spec: self)
        var positionalValues: [String] = []
        var pendingError: UsageError?
        var index = 0
        var optionsEnded = false

        func record(_ option: OptionSpec, _ value: String?, as spelled: String) {
            let count = parsed.values[option.long, default: []].count
            if count > 0, !option.repeatable, pendingError == nil {
                pendingError = UsageError("\(spelled) may be given only once")
            }
            parsed.values[option.long, default: []].append(value ?? "")
        }

        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                positionalValues.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            let spelled: String
            let option: OptionSpec?
            var inlineValue: String?
            if argument.hasPrefix("--") {
                let body = argument.dropFirst(2)
                if let equals = body.firstIndex(of: "=") {
                    spelled = "--" + body[..<equals]
                    inlineValue = String(body[body.index(after: equals)...])
                } else {
                    spelled = argument
                }
                option = options.first { "--" + $0.long == spelled }
            } else {
                spelled = argument
                option = argument.count == 2 ? options.first { $0.short == argument.last } : nil
            }
            guard let option else {
                if pendingError == nil { pendingError = UsageError("unknown option \(spelled)") }
                continue
            }
            if !option.takesValue {
                if inlineValue != nil, pendingError == nil {
                    pendingError = UsageError("\(spelled) does not take a value")
                }
                record(option, nil, as: spelled)
                continue
            }
            if let inlineValue {
                record(option, inlineValue, as: spelled)
            } else if index < arguments.count, !looksLikeOption(arguments[index]) {
                record(option, arguments[index], as: spelled)
                index += 1
            } else if pendingError == nil {
                pendingError = UsageError("\(spelled) needs a value")
            }
        }

        if parsed.flag(Self.helpOption) || parsed.flag(Self.versionOption) {
            return parsed
        }
        if let pendingError { throw pendingError }
        try assignPositionals(positionalValues, to: &parsed)
        return parsed
    }

    /// What the executable should do with these arguments: run, or print something and exit.
    public func resolve(_ arguments: [String], version: String) -> CommandOutcome {
        do {
            let parsed = try parse(arguments)
            if parsed.flag(Self.helpOption) { return .exit(code: 0, standardOutput: helpText(), standardError: "") }
            if parsed.flag(Self.versionOption) {
                return .exit(code: 0, standardOutput: versionText(version), standardError: "")
            }
            return .run(parsed)
        } catch {
            return .exit(code: UsageError.exitCode, standardOutput: "", standardError: usageErrorText(error))
        }
    }

    /// The stderr text for a usage error: the message and where to find help.
    public func usageErrorText(_ error: UsageError) -> String {
        "\(name): \(error.message)\nTry '\(name) --help' for more information.\n"
    }

    /// `NAME VERSION` and a newline.
    public func versionText(_ version: String) -> String {
        "\(name) \(version)\n"
    }

    /// The `--help` text, generated from the declarations.
    public func helpText() -> String {
        var usage = "Usage: \(name)"
        if !options.isEmpty { usage += " [options]" }
        for positional in positionals {
            var word = positional.name
            if positional.variadic { word += "…" }
            usage += positional.optional ? " [\(word)]" : " \(word)"
        }
        var lines = [usage]
        if !summary.isEmpty {
            lines += ["", summary]
        }
        let rows =
            positionals.map { ("  " + $0.name, $0.help) }
            + options.map { option in
                var help = option.help
                if let defaultDescription = option.defaultDescription { help += " (default: \(defaultDescription))" }
                if option.repeatable { help += " May be repeated." }
                return ("  " + option.synopsis, help)
            }
        let column = min(rows.map { DisplayWidth.of($0.0) }.max() ?? 0, 30) + 2
        func format(_ row: (String, String)) -> String {
            let width = DisplayWidth.of(row.0)
            if width + 2 > column { return row.0 + "\n" + String(repeating: " ", count: column) + row.1 }
            return DisplayWidth.pad(row.0, toColumns: column) + row.1
        }
        if !positionals.isEmpty {
            lines += ["", "Arguments:"] + rows.prefix(positionals.count).map(format)
        }
        lines += ["", "Options:"] + rows.dropFirst(positionals.count).map(format)
        if !epilogue.isEmpty {
            lines += ["", epilogue]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A following argument is taken as a value unless it names a declared option, so that `--name --port 1`
    /// reports the missing name instead of naming the player "--port". `--name=--port` still works.
    private func looksLikeOption(_ argument: String) -> Bool {
        if argument == "--" { return true }
        if argument.hasPrefix("--") {
            let name = argument.dropFirst(2).prefix { $0 != "=" }
            return options.contains { $0.long == name }
        }
        return argument.count == 2 && argument.hasPrefix("-") && options.contains { $0.short == argument.last }
    }

    private func assignPositionals(_ values: [String], to parsed: inout ParsedArguments) throws(UsageError) {
        var remaining = values[...]
        for positional in positionals {
            if positional.variadic {
                if remaining.isEmpty, !positional.optional { throw UsageError("missing \(positional.name)") }
                parsed.positionalValues[positional.name] = Array(remaining)
                remaining = []
            } else if let value = remaining.popFirst() {
                parsed.positionalValues[positional.name] = [value]
            } else if !positional.optional {
                throw UsageError("missing \(positional.name)")
            }
        }
        if let extra = remaining.first {
            throw UsageError("unexpected argument \"\(extra)\"")
        }
    }
}

/// What `CommandSpec.resolve` asks the executable to do.
public enum CommandOutcome: Sendable {
    /// Go on with these arguments.
    case run(ParsedArguments)
    /// Write the texts to stdout and stderr, then exit with `code` (0 for help and version, 64 for usage errors).
    case exit(code: Int32, standardOutput: String, standardError: String)
}

/// The result of a successful parse, with typed accessors that report bad values as `UsageError`s.
public struct ParsedArguments: Sendable {
    /// The declarations these arguments were parsed against.
    public let spec: CommandSpec
    /// Values per long option name, in the order given; a flag holds one empty string per occurrence.
    fileprivate(set) var values: [String: [String]] = [:]
    /// Values per positional name.
    fileprivate(set) var positionalValues: [String: [String]] = [:]

    fileprivate init(spec: CommandSpec) {
        self.spec = spec
    }

    /// Whether a flag (or any option) was given.
    public func flag(_ long: String) -> Bool {
        !(lookup(long).isEmpty)
    }

    /// How many times a repeatable flag was given, such as `-v -v`.
    public func count(_ long: String) -> Int {
        lookup(long).count
    }

    /// The value of an option, `nil` when it was not given (the last one when repeatable).
    public func string(_ long: String) -> String? {
        lookup(long).last
    }

    /// The value of an option, or `fallback` when it was not given.
    public func string(_ long: String, default fallback: String) -> String {
        string(long) ?? fallback
    }

    /// Every value of a repeatable option, in order.
    public func all(_ long: String) -> [String] {
        lookup(long)
    }

    /// An integer option within `range`, `nil` when not given.
    public func int(_ long: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = string(long) else { return nil }
        return try Self.integer(text, in: range, for: "--\(long)")
    }

    /// An integer option within `range`, or `fallback` when not given.
    public func int(_ long: String, default fallback: Int, in range: ClosedRange<Int>) throws(UsageError) -> Int {
        try int(long, in: range) ?? fallback
    }

    /// An option whose value is one of an enumeration's raw values, `nil` when not given.
    public func choice<Choice: RawRepresentable>(_ long: String, as type: Choice.Type) throws(UsageError) -> Choice?
    where Choice.RawValue == String {
        guard let text = string(long) else { return nil }
        if let value = Choice(rawValue: text) { return value }
        throw UsageError("--\(long): \"\(text)\" is not one of the accepted values")
    }

    /// An option whose value is one of a case-iterable enumeration's raw values; the error lists them.
    public func choice<Choice: RawRepresentable & CaseIterable>(_ long: String, as type: Choice.Type)
        throws(UsageError) -> Choice?
    where Choice.RawValue == String {
        guard let text = string(long) else { return nil }
        if let value = Choice(rawValue: text) { return value }
        let accepted = Choice.allCases.map(\.rawValue).joined(separator: ", ")
        throw UsageError("--\(long): \"\(text)\" is not one of: \(accepted)")
    }

    /// A positional's value, `nil` when an optional one was left out.
    public func positional(_ name: String) -> String? {
        positionalValues[name]?.first
    }

    /// Every value a variadic positional took.
    public func positionalList(_ name: String) -> [String] {
        positionalValues[name] ?? []
    }

    /// Parses `text` as an integer in `range`, naming `what` in the error.
    public static func integer(_ text: String, in range: ClosedRange<Int>, for what: String) throws(UsageError) -> Int {
        guard let value = Int(text) else {
            throw UsageError("\(what): \"\(text)\" is not a whole number")
        }
        guard range.contains(value) else {
            throw UsageError("\(what): \(value) is not between \(range.lowerBound) and \(range.upperBound)")
        }
        return value
    }

    private func lookup(_ long: String) -> [String] {
        precondition(spec.options.contains { $0.long == long }, "--\(long) is not declared for \(spec.name)")
        return values[long] ?? []
    }
}
