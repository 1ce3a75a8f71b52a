import Foundation
import SpyProtocol
import Testing

/// The languages a table may choose, what each deals, and the one a host or client takes from its locale.
@Suite struct BankLanguageTests {
    @Test func theWireKeepsItsOldValuesAndAddsSimplifiedChinese() throws {
        #expect(BankLanguage.allCases.map(\.rawValue) == ["zh-TW", "en", "both", "zh-Hans", "zh-Hans+en"])
        // `both` is what saved rooms and older clients have always meant: Traditional Chinese and English.
        #expect(BankLanguage.both.dealtLanguages == [.zhTW, .en])
        #expect(BankLanguage.bothHans.dealtLanguages == [.zhHans, .en])
        for language in BankLanguage.allCases {
            for pair in BankLanguage.pairLanguages {
                #expect(language.deals(pair) == language.dealtLanguages.contains(pair), "\(language) \(pair)")
            }
        }
        #expect(!BankLanguage.both.deals(.zhHans) && !BankLanguage.bothHans.deals(.zhTW))
        // As the host reads a client's `settings`.
        for language in BankLanguage.allCases {
            let text = #"{"type":"settings","settings":{"language":"\#(language.rawValue)"}}"#
            let message = try WireCodec.decode(ClientMessage.self, from: Array(text.utf8))
            #expect(message == .settings(SettingsChange(language: language)), "\(language)")
        }
        #expect(throws: MessageError.self) {
            try WireCodec.decode(
                ClientMessage.self, from: Array(#"{"type":"settings","settings":{"language":"zh"}}"#.utf8))
        }
    }

    @Test(arguments: [
        ("zh_CN.UTF-8", BankLanguage.zhHans), ("zh_CN", .zhHans), ("zh_CN.GB18030", .zhHans), ("zh_SG.UTF-8", .zhHans),
        ("zh_Hans", .zhHans), ("zh_Hans_CN.UTF-8", .zhHans), ("zh-Hans-SG", .zhHans), ("zh", .zhHans),
        ("zh.UTF-8", .zhHans), ("ZH_cn.utf8", .zhHans), ("zh_MY.UTF-8", .zhHans),
        ("zh_TW.UTF-8", .zhTW), ("zh_TW", .zhTW), ("zh_TW.Big5", .zhTW), ("zh_HK.UTF-8", .zhTW), ("zh_MO", .zhTW),
        ("zh_Hant", .zhTW), ("zh_Hant_TW.UTF-8", .zhTW), ("zh-Hant-HK", .zhTW), ("zh_Hant_CN", .zhTW),
        ("zh.Big5", .zhTW), ("zh_TW@euro", .zhTW),
        ("C", .en), ("POSIX", .en), ("C.UTF-8", .en), ("en_US.UTF-8", .en), ("fr_FR", .en), ("zhx", .en),
    ])
    func aLocaleValueNamesItsLanguage(_ value: String, _ language: BankLanguage) {
        #expect(BankLanguage.locale(value) == language, "\(value)")
    }

    @Test func theFirstLocaleVariableSetDecidesAsForEveryPOSIXProgram() {
        #expect(BankLanguage.locale(environment: [:]) == (.en, nil))
        #expect(BankLanguage.locale(environment: ["LANG": "zh_CN.UTF-8"]) == (.zhHans, "LANG=zh_CN.UTF-8"))
        #expect(
            BankLanguage.locale(environment: ["LC_ALL": "zh_TW.UTF-8", "LC_MESSAGES": "en_US", "LANG": "zh_CN"])
                == (.zhTW, "LC_ALL=zh_TW.UTF-8"))
        #expect(
            BankLanguage.locale(environment: ["LC_MESSAGES": "zh_SG", "LANG": "en_US.UTF-8"])
                == (.zhHans, "LC_MESSAGES=zh_SG"))
        #expect(BankLanguage.locale(environment: ["LC_ALL": "", "LANG": "zh_HK"]) == (.zhTW, "LANG=zh_HK"))
        #expect(BankLanguage.locale(environment: ["LC_ALL": "C", "LANG": "zh_CN.UTF-8"]) == (.en, "LC_ALL=C"))
    }
}
