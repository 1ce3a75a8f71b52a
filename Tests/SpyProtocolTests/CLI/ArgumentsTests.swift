import SpyProtocol
import Testing

private enum Mode: String, CaseIterable {
    case spoken
    case typed
}

private enum Shape: String {
    case round
}

private let spec = CommandSpec(
    name: "spy-test",
    summary: "Exercises the parser.",
    options: [
        .value("port", short: "p", placeholder: "PORT", help: "Port to use.", defaultDescription: "7777"),
        .value("name", short: "n", placeholder: "NAME", help: "Display name."),
        .value("mode", placeholder: "MODE", help: "Clue mode."),
        .value("shape", placeholder: "SHAPE", help: "Shape."),
        .value("bank", placeholder: "URL", repeatable: true, help: "Question bank source."),
        .flag("verbose", short: "v", repeatable: true, help: "Say more."),
        .flag("plain", help: "Line mode."),
    ],
    positionals: [
        PositionalSpec("HOST[:PORT]", help: "Where the host runs.", optional: true),
        PositionalSpec("EXTRA", help: "Anything else.", optional: true, variadic: true),
    ])

private func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
    try spec.parse(arguments)
}

private func usageError(_ arguments: [String]) -> String? {
    do {
        _ = try parse(arguments)
        return nil
    } catch {
        return error.message
    }
}

struct ArgumentsTests {
    @Test(
        "value spellings",
        arguments: [
            ["--port", "8000"], ["--port=8000"], ["-p", "8000"], ["--name", "x", "--port", "8000"],
            ["-v", "-p", "8000", "--plain"], ["host", "--port", "8000"],
        ])
    func valueSpellings(arguments: [String]) throws {
        let parsed = try parse(arguments)
        #expect(parsed.string("port") == "8000")
        #expect(try parsed.int("port", in: 1...65_535) == 8000)
    }

    @Test func absentOptionsUseFallbacks() throws {
        let parsed = try parse([])
        #expect(parsed.string("port") == nil)
        #expect(try parsed.int("port", default: 7777, in: 1...65_535) == 7777)
        #expect(parsed.string("name", default: "Amy") == "Amy")
        #expect(!parsed.flag("plain"))
        #expect(parsed.all("bank").isEmpty)
        #expect(parsed.positional("HOST[:PORT]") == nil)
    }

    @Test func inlineValueMayBeEmptyOrContainEquals() throws {
        #expect(try parse(["--name="]).string("name") == "")
        #expect(try parse(["--name=a=b"]).string("name") == "a=b")
        #expect(try parse(["--name=--port"]).string("name") == "--port")
    }

    @Test func valueMayStartWithDashWhenItIsNoOption() throws {
        #expect(try parse(["--name", "-x"]).string("name") == "-x")
        #expect(try parse(["--name", "-"]).string("name") == "-")
        #expect(try parse(["--name", "-5"]).string("name") == "-5")
    }

    @Test func flagsAndRepeats() throws {
        let parsed = try parse(["-v", "--plain", "--verbose", "--bank", "a.csv", "--bank=b.json", "-v"])
        #expect(parsed.flag("plain"))
        #expect(parsed.flag("verbose"))
        #expect(parsed.count("verbose") == 3)
        #expect(parsed.all("bank") == ["a.csv", "b.json"])
        #expect(parsed.string("bank") == "b.json")
    }

    @Test func positionalsAndEndOfOptions() throws {
        let parsed = try parse(["host.lan:7000", "--plain", "--", "--port", "-v", "-"])
        #expect(parsed.positional("HOST[:PORT]") == "host.lan:7000")
        #expect(parsed.positionalList("EXTRA") == ["--port", "-v", "-"])
        #expect(parsed.flag("plain"))
        #expect(!parsed.flag("verbose"))
        #expect(parsed.string("port") == nil)
    }

    @Test(
        "usage errors",
        arguments: [
            (["--nope"], "unknown option --nope"),
            (["--nope=3"], "unknown option --nope"),
            (["-x"], "unknown option -x"),
            (["-pv"], "unknown option -pv"),
            (["--port"], "--port needs a value"),
            (["-p"], "-p needs a value"),
            (["--name", "--port", "1"], "--name needs a value"),
            (["--name", "--"], "--name needs a value"),
            (["--plain=yes"], "--plain does not take a value"),
            (["--port", "1", "--port", "2"], "--port may be given only once"),
            (["--plain", "--plain"], "--plain may be given only once"),
            (["--port", "1", "-p=2"], "unknown option -p=2"),
        ])
    func usageErrors(arguments: [String], message: String) {
        #expect(usageError(arguments) == message)
    }

    @Test func firstMistakeIsReported() {
        #expect(usageError(["--a", "--b"]) == "unknown option --a")
    }

    @Test func tooManyPositionals() throws {
        let strict = CommandSpec(
            name: "one", summary: "", options: [], positionals: [PositionalSpec("FILE", help: "A file.")])
        #expect(throws: UsageError("missing FILE")) { try strict.parse([]) }
        #expect(throws: UsageError("unexpected argument \"b\"")) { try strict.parse(["a", "b"]) }
        #expect(try strict.parse(["a"]).positional("FILE") == "a")
        #expect(try strict.parse(["--", "-a"]).positional("FILE") == "-a")
    }

    @Test func requiredVariadic() throws {
        let many = CommandSpec(
            name: "many", summary: "", options: [],
            positionals: [PositionalSpec("FILE", help: "Files.", variadic: true)])
        #expect(throws: UsageError("missing FILE")) { try many.parse([]) }
        #expect(try many.parse(["a", "b"]).positionalList("FILE") == ["a", "b"])
    }

    @Test(
        "integer range",
        arguments: [
            ("0", "--port: 0 is not between 1 and 65535"),
            ("65536", "--port: 65536 is not between 1 and 65535"),
            ("seven", "--port: \"seven\" is not a whole number"),
            ("", "--port: \"\" is not a whole number"),
            ("99999999999999999999999", "--port: \"99999999999999999999999\" is not a whole number"),
        ])
    func integerRange(text: String, message: String) throws {
        let parsed = try parse(["--port=\(text)"])
        #expect(throws: UsageError(message)) { try parsed.int("port", in: 1...65_535) }
    }

    @Test func integerBounds() throws {
        #expect(try parse(["--port", "1"]).int("port", in: 1...65_535) == 1)
        #expect(try parse(["--port", "65535"]).int("port", in: 1...65_535) == 65_535)
        #expect(try parse(["--port=-3"]).int("port", in: -5...5) == -3)
    }

    @Test func enumerations() throws {
        #expect(try parse(["--mode", "typed"]).choice("mode", as: Mode.self) == .typed)
        #expect(try parse([]).choice("mode", as: Mode.self) == nil)
        #expect(throws: UsageError("--mode: \"loud\" is not one of: spoken, typed")) {
            try parse(["--mode", "loud"]).choice("mode", as: Mode.self)
        }
        #expect(try parse(["--shape=round"]).choice("shape", as: Shape.self) == .round)
        #expect(throws: UsageError("--shape: \"square\" is not one of the accepted values")) {
            try parse(["--shape=square"]).choice("shape", as: Shape.self)
        }
    }

    @Test func helpAndVersionWinOverMistakes() {
        guard case .exit(0, let help, "") = spec.resolve(["--nope", "--help"], version: "1.2.3") else {
            Issue.record("help did not win")
            return
        }
        #expect(help == spec.helpText())
        guard case .exit(0, "spy-test 1.2.3\n", "") = spec.resolve(["--port", "--version"], version: "1.2.3")
        else {
            Issue.record("version did not win")
            return
        }
        guard case .exit(0, let shortHelp, "") = spec.resolve(["-h"], version: "1") else {
            Issue.record("-h is not help")
            return
        }
        #expect(shortHelp == help)
    }

    @Test func resolveReportsUsageErrorsWithExit64() {
        guard case .exit(let code, "", let standardError) = spec.resolve(["--port"], version: "1") else {
            Issue.record("no usage error")
            return
        }
        #expect(code == 64)
        #expect(UsageError.exitCode == 64)
        #expect(standardError == "spy-test: --port needs a value\nTry 'spy-test --help' for more information.\n")
    }

    @Test func resolveRuns() {
        guard case .run(let parsed) = spec.resolve(["-p", "9"], version: "1") else {
            Issue.record("did not run")
            return
        }
        #expect(parsed.string("port") == "9")
    }

    @Test func helpTextListsEveryDeclaration() {
        let help = spec.helpText()
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "Usage: spy-test [options] [HOST[:PORT]] [EXTRA…]")
        #expect(lines.contains("Exercises the parser."))
        #expect(lines.contains("  -p, --port PORT    Port to use. (default: 7777)"))
        #expect(lines.contains("      --bank URL     Question bank source. May be repeated."))
        #expect(lines.contains("  -h, --help         Show this help and exit."))
        #expect(lines.contains("      --version      Show the version and exit."))
        #expect(lines.contains("  HOST[:PORT]        Where the host runs."))
        for option in spec.options {
            #expect(help.contains("--\(option.long)"))
        }
        #expect(help.hasSuffix("\n"))
    }

    @Test func helpKeepsDeclaredShortH() throws {
        let custom = CommandSpec(
            name: "c", summary: "", options: [.value("host", short: "h", placeholder: "HOST", help: "Host.")])
        #expect(custom.options.first { $0.long == "help" }?.short == nil)
        #expect(try custom.parse(["-h", "x"]).string("host") == "x")
    }
}
