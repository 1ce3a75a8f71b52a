import SpyProtocol
import Testing

@testable import SpyClient

/// The owner chooses language, categories and party pairs from the list the host sent in `welcome`: with a picker
/// in full-screen mode, with `set` in line mode.
@Suite struct CategoryPickerTests {
    static let now = Fixtures.now
    static let categories = [
        BankCategory(name: "食物", language: .zhTW, pairs: 40, partyPairs: 0),
        BankCategory(name: "派對", language: .zhTW, pairs: 3, partyPairs: 3),
        BankCategory(name: "Food", language: .en, pairs: 38, partyPairs: 0),
        BankCategory(name: "Games and Hobbies", language: .en, pairs: 4, partyPairs: 0),
        BankCategory(name: "Party", language: .en, pairs: 12, partyPairs: 12),
    ]

    /// The lobby of `Fixtures`, as its owner, with a host that sent categories.
    static func owner(_ language: Language = .en, me: PlayerID = "p1") -> ClientState {
        var state = ClientState(language: language)
        state.apply(.welcome(.init(you: me, token: "t", room: "KXPT", categories: categories)), now: now)
        var room = Fixtures.room(.lobby, game: 0, round: 0)
        room.settings.language = .zhTW
        state.apply(.room(room), now: now)
        return state
    }

    @Test func theWelcomeListIsKept() {
        #expect(Self.owner().bankCategories == Self.categories)
        var old = ClientState(language: .en)
        old.apply(.welcome(.init(you: "p1", token: "t", room: "KXPT")), now: Self.now)
        #expect(old.bankCategories.isEmpty)
    }

    @Test func theOwnerPicksAndSendsOneChange() {
        var state = Self.owner()
        #expect(state.handle(.character("c"), now: Self.now).messages.isEmpty)
        guard case .categories(let opened) = state.prompt else {
            Issue.record("c opens the picker")
            return
        }
        #expect(opened.language == .zhTW && opened.rows(state.bankCategories).map(\.name) == ["食物", "派對"])
        _ = state.handle(.character(" "), now: Self.now)  // 食物
        _ = state.handle(.character("l"), now: Self.now)  // English: 食物 is no longer on the list
        guard case .categories(let english) = state.prompt else { return }
        #expect(english.chosen.isEmpty && english.rows(state.bankCategories).map(\.name).first == "Food")
        _ = state.handle(.down, now: Self.now)
        _ = state.handle(.character(" "), now: Self.now)  // Games and Hobbies
        _ = state.handle(.up, now: Self.now)
        _ = state.handle(.character(" "), now: Self.now)  // Food
        _ = state.handle(.character("p"), now: Self.now)
        let sent = state.handle(.enter, now: Self.now).messages
        #expect(
            sent == [
                .settings(SettingsChange(language: .en, allowParty: true, categories: ["Games and Hobbies", "Food"]))
            ])
        #expect(state.prompt == .none)
    }

    @Test func escapeSendsNothingAndGuestsCannotOpenIt() {
        var state = Self.owner()
        _ = state.handle(.character("c"), now: Self.now)
        _ = state.handle(.character(" "), now: Self.now)
        #expect(state.handle(.escape, now: Self.now).messages.isEmpty)
        #expect(state.prompt == .none)
        var guest = Self.owner(me: "p2")
        _ = guest.handle(.character("c"), now: Self.now)
        #expect(guest.prompt == .none)
    }

    @Test func thePickerClosesWhenTheGameStarts() {
        var state = Self.owner()
        _ = state.handle(.character("c"), now: Self.now)
        state.apply(.room(Fixtures.room(.describing, turn: "p1")), now: Self.now)
        #expect(state.prompt == .none)
    }

    @Test func theScreenShowsTheChoiceAndWarnsWhenTooFewPairsAreLeft() {
        var state = Self.owner(.zhTW)
        _ = state.handle(.character("c"), now: Self.now)
        _ = state.handle(.down, now: Self.now)
        _ = state.handle(.character(" "), now: Self.now)  // 派對, party pairs off: nothing left
        for size in SnapshotTests.sizes {
            let lines = Screen.render(
                state, columns: size.columns, rows: size.rows, language: .zhTW, color: false, now: Self.now
            ).lines
            #expect(lines.count == size.rows)
            #expect(lines.allSatisfy { DisplayWidth.of($0) == size.columns })
            let text = lines.joined(separator: "\n")
            #expect(text.contains("[x] 派對 · 0 組"), "\(text)")
            #expect(text.contains("[ ] 食物 · 40 組"), "\(text)")
            #expect(text.contains("太少了，至少要 5 組"), "\(text)")
        }
        _ = state.handle(.character("p"), now: Self.now)
        let english = Screen.render(state, columns: 80, rows: 20, language: .en, color: false, now: Self.now).lines
        #expect(english.joined().contains("3 pairs  too few: at least 5"), "\(english)")
    }

    @Test func aRefusalShowsTheHostsReason() {
        var state = Self.owner(.zhTW)
        let reason = "The chosen categories hold only party zh-TW pairs: turn party pairs on."
        state.apply(.error(.init(code: .badSettings, message: reason)), now: Self.now)
        let lines = Screen.render(state, columns: 120, rows: 30, language: .zhTW, color: false, now: Self.now).lines
        #expect(lines.joined().contains("設定不行：" + reason))
    }

    @Test func lineModeSetsLanguageCategoriesAndParty() {
        let cases: [(String, SettingsChange)] = [
            ("set categories Games and Hobbies, Food", SettingsChange(categories: ["Games and Hobbies", "Food"])),
            ("set categories 食物，派對", SettingsChange(categories: ["食物", "派對"])),
            ("set categories all", SettingsChange(categories: [])),
            ("設定 類別 全部", SettingsChange(categories: [])),
            ("set language zh-TW", SettingsChange(language: .zhTW)),
            ("set lang EN", SettingsChange(language: .en)),
            ("set language both", SettingsChange(language: .both)),
            ("set party on", SettingsChange(allowParty: true)),
            ("set party off", SettingsChange(allowParty: false)),
        ]
        for (line, change) in cases {
            #expect(PlainMode.parse(line) == .success(.settings(change)), "\(line)")
        }
        for line in ["set categories", "set categories  , ", "set language fr"] {
            guard case .failure(.badArgument) = PlainMode.parse(line) else {
                Issue.record("accepted \(line)")
                continue
            }
        }
        #expect(PlainMode.parse("categories") == .success(.categories))
        var state = Self.owner()
        let (reaction, lines) = state.perform(.categories, now: Self.now)
        #expect(reaction.messages.isEmpty)
        #expect(lines.first == "  食物 (zh-TW) · 40 pairs" && lines.contains("  Party (en) · 12 pairs · party 12"))
    }
}
