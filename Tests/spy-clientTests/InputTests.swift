import Testing

@testable import SpyClient

@Suite struct LineEditorTests {
    @Test func backspaceRemovesWholeCharacters() {
        var editor = LineEditor()
        editor.insert("蘋果e\u{301}👍🏽")
        #expect(editor.characters.count == 4)
        editor.backspace()
        #expect(editor.text == "蘋果e\u{301}")
        editor.backspace()
        #expect(editor.text == "蘋果")
        editor.backspace()
        #expect(editor.text == "蘋")
        #expect(Array(editor.text.utf8) == Array("蘋".utf8))
    }

    @Test func insertsAtTheCursorAndMoves() {
        var editor = LineEditor(text: "紅色")
        editor.moveLeft()
        editor.insert("的")
        #expect(editor.text == "紅的色")
        editor.moveToStart()
        editor.insert("很")
        #expect(editor.text == "很紅的色")
        editor.moveToEnd()
        editor.moveRight()
        editor.insert("!")
        #expect(editor.text == "很紅的色!")
        editor.moveToStart()
        editor.deleteForward()
        #expect(editor.text == "紅的色!")
        editor.moveRight()
        editor.clearToStart()
        #expect(editor.text == "的色!")
        #expect(editor.cursor == 0)
    }

    @Test func dropsControlCharactersAndStopsAtTheLimit() {
        var editor = LineEditor(limit: 3)
        editor.insert("a\u{1B}[31mb\nc\td")
        #expect(editor.text == "a[3")
        #expect(editor.submit() == "a[3")
        #expect(editor.isEmpty)
    }

    @Test func windowKeepsTheCursorVisibleWithoutSplittingWideCharacters() {
        let editor = LineEditor(text: String(repeating: "中", count: 30))
        let window = editor.window(columns: 11)
        #expect(window.cursorColumn <= 10)
        #expect(window.text.allSatisfy { $0 == "中" })
        #expect(window.text.count * 2 <= 11)
        #expect(window.text.count * 2 == window.cursorColumn)
        var start = editor
        start.moveToStart()
        #expect(start.window(columns: 11).cursorColumn == 0)
        #expect(start.window(columns: 11).text.count == 5)
    }
}

@Suite struct KeyDecoderTests {
    func decode(_ chunks: [[UInt8]]) -> [Key] {
        var decoder = KeyDecoder()
        return chunks.flatMap { decoder.feed($0) }
    }

    @Test func plainKeysAndControls() {
        #expect(
            decode([Array("ab".utf8) + [0x0D, 0x0A, 0x7F, 0x08, 0x03, 0x04, 0x09, 0x15, 0x0C, 0x01]]) == [
                .character("a"), .character("b"), .enter, .enter, .backspace, .backspace, .interrupt, .endOfInput, .tab,
                .clearLine, .redraw, .unknown,
            ])
    }

    @Test func escapeSequences() {
        let bytes: [UInt8] = Array(
            "\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D\u{1B}OA\u{1B}[H\u{1B}[F\u{1B}[3~\u{1B}[1;5C\u{1B}[200~".utf8)
        #expect(decode([bytes]) == [.up, .down, .right, .left, .up, .home, .end, .delete, .right, .unknown])
    }

    @Test func aLoneEscapeIsTheEscapeKey() {
        #expect(decode([[0x1B]]) == [.escape])
        #expect(decode([[0x1B, UInt8(ascii: "x")]]) == [.escape, .character("x")])
    }

    @Test func sequencesSplitAcrossReads() {
        #expect(decode([[0x1B, UInt8(ascii: "[")], [UInt8(ascii: "A")]]) == [.up])
        let word = Array("蘋".utf8)
        #expect(decode([[word[0]], [word[1]], [word[2]]]) == [.character("蘋")])
        #expect(decode([Array("中文".utf8)]) == [.character("中"), .character("文")])
    }

    @Test func brokenUTF8IsSkipped() {
        #expect(decode([[0xE4, 0x41, 0xFF, 0x42]]) == [.character("A"), .character("B")])
    }
}

@Suite struct OptionTests {
    func run(_ arguments: [String], _ environment: [String: String] = [:]) -> ClientOptions? {
        if case .success(.run(let options)) = ClientOptions.parse(arguments, environment: environment) {
            return options
        }
        return nil
    }

    @Test func hostAndPortForms() {
        #expect(HostAddress("192.168.1.5") == HostAddress("192.168.1.5:7777"))
        #expect(HostAddress("192.168.1.5:8000")?.port == 8000)
        #expect(HostAddress("[::1]:9000")?.host == "::1")
        #expect(HostAddress("[::1]:9000")?.port == 9000)
        #expect(HostAddress("[fe80::1]")?.port == 7777)
        #expect(HostAddress("fe80::1")?.host == "fe80::1")
        #expect(HostAddress("party.local")?.description == "party.local:7777")
        #expect(HostAddress("[::1]:9000")?.description == "[::1]:9000")
        for bad in ["", "host:", "host:0", "host:70000", "host:x", "[::1", "[::1]x", ":7777", "a b"] {
            #expect(HostAddress(bad) == nil, "\(bad)")
        }
    }

    @Test func optionsBothSpellings() {
        let options = run(["--name", "小明", "--room=kxpt", "h:1234", "--password=pw", "--plain", "--no-color"])
        #expect(options?.name == "小明")
        #expect(options?.room == "KXPT")
        #expect(options?.password == "pw")
        #expect(options?.address == HostAddress("h:1234"))
        #expect(options?.plain == true)
        #expect(options?.color == false)
    }

    @Test func languageAndColourFromTheEnvironment() {
        #expect(run(["h"], ["LANG": "zh_TW.UTF-8"])?.language == .zhTW)
        #expect(run(["h"], ["LC_ALL": "en_US.UTF-8", "LANG": "zh_TW.UTF-8"])?.language == .en)
        #expect(run(["h"], [:])?.language == .en)
        #expect(run(["h", "--lang", "zh-TW"], ["LANG": "C"])?.language == .zhTW)
        #expect(run(["h", "--lang=zh-Hans"], ["LANG": "zh_TW.UTF-8"])?.language == .zhHans)
        // A bare "zh" is Simplified Chinese, as most of the game's players write it.
        #expect(run(["h", "--lang", "zh"], ["LANG": "C"])?.language == .zhHans)
        #expect(run(["h"], ["LANG": "zh_CN.UTF-8"])?.language == .zhHans)
        #expect(run(["h"], ["NO_COLOR": "1"])?.color == false)
        #expect(run(["h"], [:])?.color == true)
    }

    @Test func usageErrors() {
        for arguments in [
            ["--list", "h"], ["--search-ms", "5"], ["--bogus", "h"], ["h", "k"], ["--name"], ["h", "--lang", "fr"],
            ["h:99999"],
            ["h", "--plain=yes"], ["h", "--name", "a\u{7}b"],
        ] {
            guard case .failure = ClientOptions.parse(arguments, environment: [:]) else {
                Issue.record("accepted \(arguments)")
                continue
            }
        }
        guard case .success(.show(let help)) = ClientOptions.parse(["--help"], environment: [:]) else {
            Issue.record("no help")
            return
        }
        #expect(help.contains("HOST[:PORT]"))
    }

    @Test func withoutAnAddressTheClientLooksForHosts() {
        guard case .success(.run(let options)) = ClientOptions.parse([], environment: [:]) else {
            Issue.record("no address must look for hosts")
            return
        }
        #expect(options.findHost && !options.listHosts && options.searchMs == 1000)
        guard case .success(.run(let listing)) = ClientOptions.parse(["--list", "--search-ms=2500"], environment: [:])
        else {
            Issue.record("--list must parse")
            return
        }
        #expect(listing.findHost && listing.listHosts && listing.searchMs == 2500)
        guard case .success(.run(let direct)) = ClientOptions.parse(["10.0.0.5"], environment: [:]) else {
            Issue.record("an address must parse")
            return
        }
        #expect(!direct.findHost && direct.address == HostAddress("10.0.0.5:7777"))
    }

    @Test func nameSuggestions() {
        #expect(Session.suggestion(for: "Amy") == "Amy2")
        #expect(Session.suggestion(for: "Amy2") == "Amy3")
        #expect(Session.suggestion(for: "小明9") == "小明10")
    }
}
