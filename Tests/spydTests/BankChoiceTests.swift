import Foundation
import SpyBank
import SpyGame
import SpyNet
import SpyProtocol
import Testing

@testable import spyd

/// The table chooses what it plays: the language from the host's locale or `--language`, categories from the
/// bank (`--categories`, or the owner from the list the `welcome` carries), refused with the reason when too
/// few pairs are left.
@Suite struct BankChoiceOptionTests {
    private func parse(_ arguments: [String], environment: [String: String] = [:]) throws -> HostOptions {
        try HostCommand.options(from: HostCommand.spec.parse(["--host"] + arguments), environment: environment)
    }

    @Test func theLanguageFollowsTheLocale() throws {
        #expect(try parse([], environment: ["LANG": "zh_TW.UTF-8"]).settings.language == .zhTW)
        #expect(try parse([], environment: ["LANG": "zh_CN.UTF-8"]).settings.language == .zhHans)
        #expect(try parse([], environment: ["LANG": "zh_SG.UTF-8"]).settings.language == .zhHans)
        #expect(try parse([], environment: ["LANG": "zh_Hans_CN"]).settings.language == .zhHans)
        #expect(try parse([], environment: ["LANG": "zh"]).settings.language == .zhHans)
        #expect(try parse([], environment: ["LANG": "zh_HK.UTF-8"]).settings.language == .zhTW)
        #expect(try parse([], environment: ["LANG": "zh_MO"]).settings.language == .zhTW)
        #expect(try parse([], environment: ["LANG": "zh_Hant"]).settings.language == .zhTW)
        #expect(try parse([], environment: ["LANG": "POSIX"]).settings.language == .en)
        #expect(try parse([], environment: ["LANG": "en_GB.UTF-8"]).settings.language == .en)
        #expect(try parse([], environment: ["LANG": "C"]).settings.language == .en)
        #expect(try parse([], environment: [:]).settings.language == .en)
        // POSIX order: LC_ALL, then LC_MESSAGES, then LANG.
        let mixed = try parse([], environment: ["LC_ALL": "zh_TW.UTF-8", "LANG": "en_US.UTF-8"])
        #expect(mixed.settings.language == .zhTW && mixed.languageSource == "LC_ALL=zh_TW.UTF-8")
        #expect(try parse([], environment: ["LC_MESSAGES": "en_US", "LANG": "zh_TW"]).settings.language == .en)
        #expect(try parse([], environment: ["LC_ALL": "", "LANG": "zh_TW"]).settings.language == .zhTW)
    }

    @Test func bothLanguagesOnlyWhenAsked() throws {
        let both = try parse(["--language", "both"], environment: ["LANG": "zh_TW.UTF-8"])
        #expect(both.settings.language == .both && both.languageSource == "--language")
        #expect(try parse(["--language=en"], environment: ["LANG": "zh_TW.UTF-8"]).settings.language == .en)
        #expect(try parse(["--lang", "zh-TW"]).settings.language == .zhTW)
        #expect(
            try parse(["--language", "zh-Hans"], environment: ["LANG": "zh_TW.UTF-8"]).settings.language == .zhHans)
        let mainland = try parse(["--language", "zh-Hans+en"], environment: ["LANG": "zh_CN.UTF-8"])
        #expect(mainland.settings.language == .bothHans && mainland.languageSource == "--language")
        #expect(throws: UsageError.self) { try parse(["--language", "fr"]) }
    }

    @Test func categoriesPartyTimeoutAndQuickStart() throws {
        let options = try parse([
            "--categories", " 食物, Drinks ,", "--party", "--fetch-timeout", "2.5", "--quick-start",
        ])
        #expect(options.settings.categories == ["食物", "Drinks"] && options.settings.allowParty)
        #expect(options.fetchSeconds == 2.5 && options.quickStart)
        let plain = try parse([])
        #expect(plain.fetchSeconds == 10 && !plain.quickStart && plain.settings.categories.isEmpty)
        for bad in [["--categories", ","], ["--fetch-timeout", "0"], ["--fetch-timeout", "x"]] {
            #expect(throws: UsageError.self) { try parse(bad) }
        }
        let tooMany = (0...BankLoader.maxSources).flatMap { ["--bank", "s\($0).csv"] }
        #expect(throws: UsageError.self) { try parse(tooMany) }
    }

    @Test func aLocaleLanguageTheBankLacksGivesWayButAChosenOneIsAnError() throws {
        let english = (0..<6).map { WordPair(civilian: "a\($0)", spy: "b\($0)", category: "Food", language: .en) }
        var fromLocale = try parse([], environment: ["LANG": "zh_TW.UTF-8"])
        guard case .success(let note) = Spyd.settle(&fromLocale, bank: english) else {
            Issue.record("a locale default must not stop the host")
            return
        }
        #expect(note != nil && fromLocale.settings.language == .en)
        var englishCategory = try parse(["--categories", "Food"], environment: ["LANG": "zh_TW.UTF-8"])
        let mixed = english + [WordPair(civilian: "牛奶", spy: "豆漿", category: "飲料")]
        guard case .success = Spyd.settle(&englishCategory, bank: mixed) else {
            Issue.record("English categories on a Chinese machine deal English")
            return
        }
        #expect(englishCategory.settings.language == .en)
        var chosen = try parse(["--language", "zh-TW"])
        guard case .failure(let error) = Spyd.settle(&chosen, bank: english) else {
            Issue.record("an explicit language the bank lacks is a usage error")
            return
        }
        #expect(error.message.contains("no zh-TW pairs"))
        var unknown = try parse(["--language", "en", "--categories", "Food,Nope"])
        guard case .failure(let unknownError) = Spyd.settle(&unknown, bank: english) else {
            Issue.record("an unknown category is a usage error")
            return
        }
        #expect(unknownError.message == "--categories: not in the bank: Nope; choose from: Food")
    }

    @Test func aMainlandLocaleOnATraditionalSheetDealsTraditionalBeforeEnglish() throws {
        let traditional = (0..<6).map { WordPair(civilian: "貓\($0)", spy: "狗\($0)", language: .zhTW) }
        let english = (0..<6).map { WordPair(civilian: "a\($0)", spy: "b\($0)", language: .en) }
        var mainland = try parse([], environment: ["LANG": "zh_CN.UTF-8"])
        guard case .success(let note) = Spyd.settle(&mainland, bank: traditional + english) else {
            Issue.record("a locale default must not stop the host")
            return
        }
        #expect(mainland.settings.language == .zhTW)
        #expect(note == "the locale asks for zh-Hans pairs but the bank has too few; dealing zh-TW")
        var taiwan = try parse([], environment: ["LANG": "zh_TW.UTF-8"])
        let simplified = (0..<6).map { WordPair(civilian: "猫\($0)", spy: "狗\($0)", language: .zhHans) }
        guard case .success = Spyd.settle(&taiwan, bank: simplified + english) else { return }
        #expect(taiwan.settings.language == .zhHans)
        var englishHost = try parse([], environment: ["LANG": "en_US.UTF-8"])
        guard case .success = Spyd.settle(&englishHost, bank: simplified) else { return }
        #expect(englishHost.settings.language == .zhHans)
    }

    /// `LANG=zh_CN.UTF-8 spyd --host` deals the embedded Simplified Chinese pairs: options, bank and the line the
    /// host logs, as `Spyd.run` puts them together.
    @Test func aMainlandLocaleDealsTheEmbeddedSimplifiedPairs() throws {
        var options = try parse([], environment: ["LANG": "zh_CN.UTF-8"])
        let bank = EmbeddedBank.pairs
        guard case .success(let note) = Spyd.settle(&options, bank: bank) else {
            Issue.record("the embedded bank has zh-Hans pairs")
            return
        }
        #expect(note == nil && options.settings.language == .zhHans)
        let dealt = BankFilter.pairs(bank, for: options.settings)
        #expect(!dealt.isEmpty && dealt.allSatisfy { $0.language == .zhHans })
        #expect(Spyd.languageLine(options, bank: bank).hasPrefix("zh-Hans, "))
        #expect(Spyd.languageLine(options, bank: bank).hasSuffix(" (from LANG=zh_CN.UTF-8)"))
    }

    @Test func theOwnerChoosesFromTheListTheWelcomeCarries() throws {
        let host = try CoreHost(["--language", "zh-TW", "--categories", "食物"])
        let owner = try TestPlayer(on: host, name: "Amy")
        guard case .welcome(let welcome)? = owner.history.first else {
            Issue.record("no welcome first")
            return
        }
        let categories = try #require(welcome.categories)
        #expect(categories == BankCatalog.categories(of: EmbeddedBank.pairs))
        // 食物 is spelled alike in both Chinese banks: one entry per language.
        let food = try #require(categories.first { $0.name == "食物" })
        #expect(food.language == .zhTW && food.pairs == EmbeddedBank.pairs(in: .zhTW).count { $0.category == "食物" })
        let mainlandFood = try #require(categories.first { $0.name == "食物" && $0.language == .zhHans })
        #expect(mainlandFood.pairs == EmbeddedBank.pairs(in: .zhHans).count { $0.category == "食物" })
        #expect(categories.contains { $0.partyPairs > 0 && $0.partyPairs == $0.pairs })
        try owner.waitForView("starting settings") { $0.settings.categories == ["食物"] }

        try owner.send(.settings(SettingsChange(categories: ["Nope"])))
        guard case .error(let unknown) = try owner.waitForError(.badSettings) else { return }
        #expect(unknown.message.contains("No category \"Nope\""), "\(unknown.message)")

        try owner.send(.settings(SettingsChange(categories: ["派對"])))
        guard case .error(let party) = try owner.waitForError(.badSettings) else { return }
        #expect(party.message.contains("only party"), "\(party.message)")

        try owner.send(.settings(SettingsChange(language: .en, categories: ["食物"])))
        guard case .error(let language) = try owner.waitForError(.badSettings) else { return }
        #expect(language.message.contains("no en pairs"), "\(language.message)")

        try owner.send(.settings(SettingsChange(language: .en, categories: ["Food", "Drinks"])))
        try owner.waitForView("English food and drinks") {
            $0.settings.language == .en && $0.settings.categories == ["Food", "Drinks"]
        }
        try owner.send(.settings(SettingsChange(allowParty: true, categories: ["Party"])))
        try owner.waitForView("party pairs") { $0.settings.allowParty && $0.settings.categories == ["Party"] }
    }
}

@Suite(.serialized) struct BankChoiceDaemonTests {
    private func run(_ arguments: [String]) throws -> (status: Int32, error: String) {
        let process = Process()
        process.executableURL = DaemonProcess.binary
        process.arguments = arguments
        let error = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = error
        try process.run()
        let text = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: text, as: UTF8.self))
    }

    @Test func unknownCategoriesExitWith64ListingTheValidOnes() throws {
        let result = try run(["--host", "--no-state", "--port", "0", "--categories", "食物,Nope"])
        #expect(result.status == 64)
        #expect(result.error.contains("not in the bank: Nope"), "\(result.error)")
        #expect(result.error.contains("食物") && result.error.contains("Food"), "\(result.error)")
        let party = try run(["--host", "--no-state", "--port", "0", "--categories", "派對", "--language", "zh-TW"])
        #expect(party.status == 64)
        #expect(party.error.contains("only party"), "\(party.error)")
    }

    @Test(.tags(.shell), .tags(.shell)) func theListeningLineSaysWhichBankAndLanguage() throws {
        let directory = try DaemonProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("bank.csv")
        try Data("civilian,spy,category\n牛奶,豆漿,飲料\n咖啡,茶,飲料\n貓,狗,動物\n火車,高鐵,交通\n筆,尺,學校\n".utf8)
            .write(to: file)
        let daemon = try DaemonProcess(["--bank", file.path, "--language", "zh-TW"])
        let line = try #require(daemon.waitForLine(containing: "listening on"))
        #expect(line.contains("bank: \(file.path), read now, 5 pairs (5 zh-TW, 0 en)"), "\(line)")
        #expect(line.contains("pairs dealt: zh-TW, 5 pairs (--language)"), "\(line)")
        _ = daemon.stop()
    }

    @Test(.tags(.shell), .tags(.shell)) func aFailedSourceIsAWarningAndTheFallbackIsNamed() throws {
        // A port that was free a moment ago: connecting to it is refused at once.
        let (listener, closed) = try Socket.listen(host: "127.0.0.1", port: 0)
        listener.close()
        let daemon = try DaemonProcess(["--bank", "http://127.0.0.1:\(closed)/bank.csv", "--fetch-timeout", "5"])
        let line = try #require(daemon.waitForLine(containing: "listening on"))
        #expect(line.contains("bank: embedded fallback (http://127.0.0.1:\(closed)/bank.csv could not be used)"))
        #expect(
            daemon.log.contains("WARNING spyd: bank: http://127.0.0.1:\(closed)/bank.csv: unusable"), "\(daemon.log)")
        #expect(!daemon.log.contains("bank: bank:"))
        _ = daemon.stop()
    }

    /// A server that accepts connections (the kernel completes them) and never answers: a hanging source.
    private func hangingSource() throws -> (Socket, String) {
        let (listener, port) = try Socket.listen(host: "127.0.0.1", port: 0)
        return (listener, "http://127.0.0.1:\(port)/bank.csv")
    }

    @Test(.tags(.shell), .tags(.shell)) func hangingSourcesAreWaitedForOnceAtTheSameTime() throws {
        let cache = try DaemonProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        let (first, firstURL) = try hangingSource()
        let (second, secondURL) = try hangingSource()
        defer {
            first.close()
            second.close()
        }
        let daemon = try DaemonProcess(
            ["--bank", firstURL, "--bank", secondURL, "--fetch-timeout", "3"], timeout: 60,
            environment: ["XDG_CACHE_HOME": cache.path])
        #expect(daemon.log.contains("\(firstURL): unusable: timed out after 3 s"), "\(daemon.log)")
        #expect(daemon.log.contains("\(secondURL): unusable: timed out after 3 s"), "\(daemon.log)")
        let line = try #require(daemon.waitForLine(containing: "listening on"))
        #expect(line.contains("bank: embedded fallback (\(firstURL), \(secondURL) could not be used)"), "\(line)")
        _ = daemon.stop()
    }

    @Test(.tags(.shell), .tags(.shell)) func quickStartServesAtOnceOnTheEmbeddedBankWithoutACachedCopy() throws {
        let cache = try DaemonProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        let (listener, url) = try hangingSource()
        defer { listener.close() }
        // A fetch timeout far longer than the wait for the listening line: only a start that does not wait passes.
        let daemon = try DaemonProcess(
            ["--bank", url, "--fetch-timeout", "600", "--quick-start"], timeout: 60,
            environment: ["XDG_CACHE_HOME": cache.path])
        let line = try #require(daemon.waitForLine(containing: "listening on"))
        #expect(line.contains("bank: embedded fallback (\(url) could not be used)"), "\(line)")
        #expect(daemon.log.contains("not fetched at start (--quick-start); no cached copy"), "\(daemon.log)")
        _ = daemon.stop()
    }

    @Test(.tags(.shell), .tags(.shell)) func aRoomSavedUnderAnotherBankIsRefusedAtStartWithTheReason() throws {
        let state = try DaemonProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: state) }
        let first = try DaemonProcess(["--language", "zh-TW", "--categories", "食物"], stateDirectory: state)
        let owner = try TestPlayer(port: first.port, name: "Amy")
        try owner.waitForView("the saved choice") { $0.settings.categories == ["食物"] }
        _ = first.stop()

        let file = state.appendingPathComponent("english.csv")
        try Data(
            "civilian,spy,category\ncat,dog,Pets\ntea,coffee,Drinks\npen,pencil,School\nbus,tram,Transport\nsun,moon,Sky\n"
                .utf8
        )
        .write(to: file)
        let second = try DaemonProcess(["--bank", file.path, "--language", "en"], stateDirectory: state)
        try owner.resume(port: second.port)
        // A table big enough to start: the bank's refusal comes after the room's own (`too_few_players`).
        let others = try ["Ben", "Cat", "Dan"].map { try TestPlayer(port: second.port, name: $0) }
        try owner.waitForView("four players") { $0.seats.count == 1 + others.count }
        try owner.send(.start)
        guard case .error(let refusal) = try owner.waitForError(.badSettings) else { return }
        #expect(refusal.message.contains("No category \"食物\" in this bank"), "\(refusal.message)")
        _ = second.stop()
    }
}
