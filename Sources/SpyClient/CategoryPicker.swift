import SpyProtocol

/// The owner's choice of what the table plays: language, party pairs and categories, picked from the list of
/// categories the host sent in `welcome`, and sent as one `settings` change.
struct CategoryPicker: Equatable, Sendable {
    var language: BankLanguage
    var allowParty: Bool
    /// Chosen category names; empty means every category.
    var chosen: [String]
    /// Row under the cursor.
    var cursor = 0

    init(settings: GameSettings) {
        language = settings.language
        allowParty = settings.allowParty
        chosen = settings.categories
    }

    /// The categories offered in the picker's language (a mixed table offers both of its languages).
    func rows(_ all: [BankCategory]) -> [BankCategory] {
        all.filter { language.deals($0.language) }
    }

    func isChosen(_ name: String) -> Bool {
        let key = TextFold.key(name)
        return chosen.contains { TextFold.key($0) == key }
    }

    /// Pairs the choice leaves, as the host will count them.
    func pairCount(_ all: [BankCategory]) -> Int {
        rows(all).filter { chosen.isEmpty || isChosen($0.name) }
            .reduce(0) { $0 + (allowParty ? $1.pairs : $1.pairs - $1.partyPairs) }
    }

    var change: SettingsChange {
        SettingsChange(language: language, allowParty: allowParty, categories: chosen)
    }
}

extension ClientState {
    /// Fewest pairs the host accepts for a choice (docs/BANK.md); below it the picker warns before sending.
    static let minimumPairs = 5

    /// Opens the picker on the room's current settings (owner, lobby or game over).
    mutating func openCategoryPicker() {
        guard let room else { return }
        prompt = .categories(CategoryPicker(settings: room.settings))
    }

    /// A key while the picker is open.
    mutating func categoryKey(_ key: Key, _ picker: CategoryPicker) -> Reaction {
        var picker = picker
        let rows = picker.rows(bankCategories)
        switch key {
        case .up: picker.cursor = rows.isEmpty ? 0 : (picker.cursor + rows.count - 1) % rows.count
        case .down, .tab: picker.cursor = rows.isEmpty ? 0 : (picker.cursor + 1) % rows.count
        case .character(" "), .character("x"):
            guard rows.indices.contains(picker.cursor) else { break }
            let name = rows[picker.cursor].name
            if picker.isChosen(name) {
                picker.chosen.removeAll { TextFold.key($0) == TextFold.key(name) }
            } else {
                picker.chosen.append(name)
            }
        case .character("a"): picker.chosen = []
        case .character("p"): picker.allowParty.toggle()
        case .character("l"):
            let languages = BankLanguage.allCases
            let next = (languages.firstIndex(of: picker.language) ?? 0) + 1
            picker.language = languages[next % languages.count]
            // Categories of the other language are no longer on the list, so they are no longer chosen.
            let offered = picker.rows(bankCategories)
            picker.chosen.removeAll { name in !offered.contains { TextFold.key($0.name) == TextFold.key(name) } }
            picker.cursor = 0
        case .enter:
            prompt = .none
            return Reaction(messages: [.settings(picker.change)])
        case .escape, .character("q"):
            prompt = .none
            return Reaction()
        default:
            break
        }
        prompt = .categories(picker)
        return Reaction()
    }
}

/// The picker drawn over the whole screen: what is chosen at the top, the categories in the middle, the count of
/// pairs and the keys at the bottom.
enum CategoryPickerView {
    static func render(
        _ picker: CategoryPicker, categories: [BankCategory], columns: Int, rows: Int, language: Language,
        color: Bool
    ) -> ScreenFrame {
        let text = Strings(language: language)
        let columns = max(columns, 20)
        let rows = max(rows, 6)
        let offered = picker.rows(categories)
        var top = [StyledLine(" " + text.pickerTitle, .header)]
        top.append(
            StyledLine(
                " [l] " + text.bankLanguage(picker.language) + "   [p] " + text.partyPairs(picker.allowParty)
                    + "   [a] " + (picker.chosen.isEmpty ? text.allCategories : text.chosenCount(picker.chosen.count)),
                .bold))
        top.append(StyledLine(String(repeating: "─", count: columns), .dim))
        let count = picker.pairCount(categories)
        var total = StyledLine(" " + text.pairsLeft(count))
        if count < ClientState.minimumPairs { total.append("  " + text.tooFewPairs(ClientState.minimumPairs), .error) }
        let bottom = [
            StyledLine(String(repeating: "─", count: columns), .dim), total, StyledLine(" " + text.pickerHelp, .dim),
        ]
        let space = max(1, rows - top.count - bottom.count)
        var list: [StyledLine] = []
        if offered.isEmpty {
            list.append(StyledLine(" " + text.noCategories, .dim))
        } else {
            // A window of the list that keeps the cursor in view.
            let first = min(max(0, picker.cursor - space / 2), max(0, offered.count - space))
            for index in first..<min(offered.count, first + space) {
                let category = offered[index]
                let usable = picker.allowParty ? category.pairs : category.pairs - category.partyPairs
                var line = StyledLine(index == picker.cursor ? " ▸ " : "   ")
                let box = picker.isChosen(category.name) ? "[x] " : "[ ] "
                let tag = picker.language.isMixed ? " (\(category.language.rawValue))" : ""
                let party = category.partyPairs > 0 ? " · " + text.partyTag : ""
                line.append(
                    box + category.name + tag + " · " + text.pairsLeft(usable) + party,
                    index == picker.cursor ? .selected : usable == 0 ? .dim : .plain)
                list.append(line)
            }
        }
        let filler = Array(repeating: StyledLine(), count: max(0, rows - top.count - list.count - bottom.count))
        let all = Array((top + list + filler + bottom).prefix(rows))
        return ScreenFrame(lines: all.map { $0.fitted(to: columns).rendered(color: color) }, cursor: nil)
    }
}

extension Strings {
    private func say(_ zhTW: String, _ zhHans: String, _ en: String) -> String { language.pick(zhTW, zhHans, en) }

    var pickerTitle: String {
        say("選擇題庫：語言、類別、派對題", "选择题库：语言、类别、派对题", "Choose what the table plays: language, categories, party pairs")
    }
    var pickerHelp: String {
        say(
            "↑↓ 移動  空白 選取  a 全部類別  l 語言  p 派對題  Enter 送出  Esc 取消",
            "↑↓ 移动  空格 选择  a 全部类别  l 语言  p 派对题  Enter 发送  Esc 取消",
            "↑↓ move  space pick  a all categories  l language  p party  Enter send  Esc cancel")
    }
    func bankLanguage(_ language: BankLanguage) -> String {
        switch language {
        case .zhTW: return say("繁體中文題", "繁体中文题", "Traditional Chinese pairs")
        case .zhHans: return say("簡體中文題", "简体中文题", "Simplified Chinese pairs")
        case .en: return say("英文題", "英文题", "English pairs")
        case .both: return say("繁體中文和英文", "繁体中文和英文", "Traditional Chinese and English")
        case .bothHans: return say("簡體中文和英文", "简体中文和英文", "Simplified Chinese and English")
        }
    }
    func partyPairs(_ on: Bool) -> String {
        on ? say("派對題：開", "派对题：开", "party pairs on") : say("派對題：關", "派对题：关", "party pairs off")
    }
    var allCategories: String { say("全部類別", "全部类别", "all categories") }
    func chosenCount(_ count: Int) -> String { say("已選 \(count) 類", "已选 \(count) 类", "\(count) chosen") }
    func pairsLeft(_ count: Int) -> String { say("\(count) 組", "\(count) 组", count == 1 ? "1 pair" : "\(count) pairs") }
    func tooFewPairs(_ minimum: Int) -> String {
        say("太少了，至少要 \(minimum) 組", "太少了，至少要 \(minimum) 组", "too few: at least \(minimum)")
    }
    var partyTag: String { say("含派對題", "含派对题", "party") }
    var noCategories: String {
        say("這個題庫沒有分類，只能全部一起玩", "这个题库没有分类，只能全部一起玩", "This bank has no categories: all pairs are played")
    }
    /// The room's bank choice in a few words, for the settings lines.
    func bankChoice(_ settings: GameSettings) -> String {
        let short: String
        switch settings.language {
        case .zhTW: short = say("繁中", "繁中", "zh-TW")
        case .zhHans: short = say("簡中", "简中", "zh-Hans")
        case .en: short = say("英文", "英文", "en")
        case .both: short = say("繁中+英", "繁中+英", "zh-TW+en")
        case .bothHans: short = say("簡中+英", "简中+英", "zh-Hans+en")
        }
        var parts = [short]
        parts.append(settings.categories.isEmpty ? allCategories : settings.categories.joined(separator: ","))
        if settings.allowParty { parts.append(partyPairs(true)) }
        return parts.joined(separator: " ")
    }
    /// The categories of the host's bank, one line each, for line mode's `categories`.
    func categoryLines(_ categories: [BankCategory]) -> [String] {
        guard !categories.isEmpty else { return [noCategories] }
        return categories.map { category in
            "  \(category.name) (\(category.language.rawValue)) · \(pairsLeft(category.pairs))"
                + (category.partyPairs > 0 ? " · \(partyTag) \(category.partyPairs)" : "")
        }
    }
}
