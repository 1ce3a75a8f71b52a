import SpyBank
import SpyGame
import SpyHostHarness
import SpyProtocol
import Testing

@testable import SpyHost

/// A host whose locale names no language (`LANG=C`) lets a new room's words follow its first owner's page or client
/// language; a host whose locale named one keeps it.
@Suite struct FirstOwnerLanguageTests {
    static func languages(in messages: [ServerMessage]) -> [BankLanguage] {
        messages.compactMap { if case .room(let view) = $0 { view.settings.language } else { nil } }
    }

    func join(_ host: EmbeddedHost, _ name: String, language: String?) throws -> UInt64 {
        let id = host.connect()
        try host.send(.hello(.init(name: name, language: language)), on: id)
        return id
    }

    @Test func theFirstOwnersLanguageStartsTheRoomWhenTheLocaleNamesNone() throws {
        let host = EmbeddedHost {
            $0.languageFromFirstOwner = true
            $0.settings.language = .en
        }
        let owner = try join(host, "小明", language: "zh-TW")
        #expect(Self.languages(in: host.messages(on: owner)).last == .zhTW)
        // Only the first owner's: a guest reading English changes nothing.
        let guest = try join(host, "Amy", language: "en")
        #expect(Self.languages(in: host.messages(on: guest)).last == .zhTW)
        #expect(Self.languages(in: host.messages(on: owner)).allSatisfy { $0 == .zhTW })
    }

    @Test func aLocaleThatNamesALanguageKeepsIt() throws {
        let host = EmbeddedHost { $0.settings.language = .en }
        let owner = try join(host, "小明", language: "zh-TW")
        #expect(Self.languages(in: host.messages(on: owner)).last == .en)
    }

    @Test func aLanguageTheHostDoesNotKnowIsIgnored() throws {
        let host = EmbeddedHost {
            $0.languageFromFirstOwner = true
            $0.settings.language = .en
        }
        let owner = try join(host, "Amy", language: "fr")
        let messages = host.messages(on: owner)
        #expect(Self.languages(in: messages).last == .en)
        #expect(EmbeddedHost.errors(in: messages).isEmpty)
    }

    @Test func cAndPosixNameNoLanguage() {
        #expect(BankLanguage.namesNoLanguage(nil))
        #expect(BankLanguage.namesNoLanguage("LANG=C"))
        #expect(BankLanguage.namesNoLanguage("LC_ALL=C.UTF-8"))
        #expect(BankLanguage.namesNoLanguage("LANG=POSIX"))
        #expect(!BankLanguage.namesNoLanguage("LANG=en_US.UTF-8"))
        #expect(!BankLanguage.namesNoLanguage("LANG=zh_TW.UTF-8"))
    }
}
