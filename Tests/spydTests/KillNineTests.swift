import Foundation
import Glibc
import SpyGame
import SpyProtocol
import SpyTestSupport
import Testing

/// `kill -9` under load, again and again: after every restart each room holds every move its client saw
/// acknowledged, and at most the one move that was in flight when the host died.
@Suite struct KillNineTests {
    /// One client streaming settings changes at a room of its own.
    private final class Streamer {
        var client: FrameClient
        let token: String
        /// The turn timer of the last acknowledged change, and of the change in flight (sent, not acknowledged).
        var acknowledged: Int
        var inFlight: Int?
        var count = 0

        init(client: FrameClient, token: String, turnSeconds: Int) {
            self.client = client
            self.token = token
            self.acknowledged = turnSeconds
        }

        func sendNext() throws {
            count += 1
            let next = 10 + count % 591
            inFlight = next
            try client.send(.settings(.init(turnSeconds: next)))
        }

        /// Waits for the change in flight to be acknowledged (the room's view showing it).
        func awaitAcknowledgement() throws {
            guard let expected = inFlight else { return }
            let seen = try client.waitFor(deadline: .after(seconds: 20)) { message in
                if case .room(let view) = message { return view.settings.turnSeconds == expected }
                if case .error = message { return true }
                return false
            }
            guard case .room? = seen else {
                throw DaemonError(description: "no acknowledgement: \(String(describing: seen))")
            }
            acknowledged = expected
            inFlight = nil
        }
    }

    /// The rooms' journal kills: `SPYD_KILL_ROUNDS` (24 by default; `scripts/kill-nine.sh` runs 200).
    @Test(.tags(.shell), .tags(.shell)) func everyAcknowledgedMoveSurvivesKillNineAtRandomMoments() throws {
        let state = try DaemonProcess.temporaryDirectory()
        chmod(state.path, 0o700)
        defer { try? FileManager.default.removeItem(at: state) }
        let environment = ProcessInfo.processInfo.environment
        let rounds = environment["SPYD_KILL_ROUNDS"].flatMap(Int.init) ?? 24
        var random = SplitMix64(seed: environment["SPYD_KILL_SEED"].flatMap(UInt64.init) ?? 1)
        let limits = ["--max-rooms-per-address", "0", "--rooms-per-minute", "0", "--max-per-address", "0"]
        var daemon = try DaemonProcess(limits, stateDirectory: state)
        var streamers: [Streamer] = []
        for index in 0..<8 {
            let client = try daemon.connect()
            try client.send(.hello(.init(name: "K\(index)", create: true)))
            let welcome = try client.waitFor(deadline: .after(seconds: 20)) {
                if case .welcome = $0 { return true }
                return false
            }
            guard case .welcome(let seat)? = welcome else { throw DaemonError(description: "no welcome") }
            streamers.append(Streamer(client: client, token: seat.token, turnSeconds: 0))
        }
        for round in 0..<rounds {
            // A random stretch of acknowledged moves from every client at once, then one more from each, and the
            // host dies while those are in flight, some read and committed, some not, some acknowledged.
            for _ in 0..<random.next(below: 6) {
                for streamer in streamers { try streamer.sendNext() }
                for streamer in streamers { try streamer.awaitAcknowledgement() }
            }
            for streamer in streamers { try streamer.sendNext() }
            let waitFor = random.next(below: streamers.count + 1)
            for streamer in streamers.prefix(waitFor) { try streamer.awaitAcknowledgement() }
            daemon.stop(signal: SIGKILL)

            daemon = try DaemonProcess(limits, stateDirectory: state)
            for streamer in streamers {
                streamer.client = try daemon.connect()
                try streamer.client.send(.hello(.init(name: "K", token: streamer.token)))
                let room = try streamer.client.waitFor(deadline: .after(seconds: 20)) {
                    if case .room = $0 { return true }
                    if case .error = $0 { return true }
                    return false
                }
                guard case .room(let view)? = room else {
                    Issue.record("round \(round): the room did not come back: \(String(describing: room))")
                    return
                }
                let found = view.settings.turnSeconds
                if let inFlight = streamer.inFlight, found == inFlight {
                    // Committed before the kill, its acknowledgement lost with the host: the one move allowed.
                    streamer.acknowledged = inFlight
                } else {
                    #expect(found == streamer.acknowledged, "round \(round): acknowledged \(streamer.acknowledged)")
                }
                streamer.inFlight = nil
            }
        }
        #expect(daemon.stop() == 0)
    }
}
