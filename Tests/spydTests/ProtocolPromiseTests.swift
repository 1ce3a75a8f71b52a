import Foundation
import SpyProtocol
import SpyTestSupport
import Testing

@testable import spyd

/// What docs/PROTOCOL.md promises a client, checked on the host built as `spyd --host` builds it (its bank and the
/// choices it checks against it), in the test's process with a manual clock.
@Suite struct HostProtocolPromiseTests {
    /// During a game a change of settings is the wrong phase, even one the bank would refuse.
    @Test func settingsDuringAGameAreTheWrongPhaseBeforeTheBankIsAsked() throws {
        let host = try InProcessHost(["--seed", "3", "--language", "zh-TW"])
        defer { host.stop() }
        let players = try ["Ann", "Ben", "Cat", "Dan"].map { try TestPlayer(port: host.port, name: $0) }
        try players[0].send(.start)
        try players[0].waitForView("the game") { $0.phase == .describing }
        try players[0].send(.settings(SettingsChange(categories: ["Nope"])))
        guard case .error(let error) = try players[0].waitFor("a refusal", where: { $0.type == "error" }) else {
            return
        }
        #expect(error.code == .wrongPhase, "\(error)")
    }
}
