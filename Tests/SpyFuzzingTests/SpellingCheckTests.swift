import SpyProtocol
import Testing

@testable import SpyFuzzing

/// The room targets compare the writer with the `Encodable` path on a sample of the messages; these pin the sample.
@Suite struct SpellingCheckTests {
    /// Records which messages were compared, and spells them as the writer does so that no comparison fails.
    final class Recorder {
        var compared: [ServerMessage] = []
    }

    static func check(_ recorder: Recorder) -> SpellingCheck {
        SpellingCheck { message in
            recorder.compared.append(message)
            return WireCodec.encodePayload(message)
        }
    }

    @Test func theFirstAndTheLastMessageOfEachTypeAreCompared() {
        let recorder = Recorder()
        var check = Self.check(recorder)
        let pongs = (1...5).map { ServerMessage.pong(.init(id: $0)) }
        let byes = ["a", "b", "c"].map { ServerMessage.bye(.init(reason: $0)) }
        for (pong, bye) in zip(pongs, byes + byes) {
            check.check(pong)
            check.check(bye)
        }
        #expect(recorder.compared == [pongs[0], byes[0]])
        check.finish()
        #expect(recorder.compared.count == 4)
        #expect(recorder.compared.contains(pongs[4]))
        #expect(recorder.compared.contains(byes[1]), "the last bye of the five checked")
        check.finish()
        #expect(recorder.compared.count == 4, "a second finish compares nothing new")
    }

    @Test func aTypeSeenOnceIsComparedOnce() {
        let recorder = Recorder()
        var check = Self.check(recorder)
        check.check(.ping(.init(id: 7)))
        check.check(.ping(.init(id: 7)))
        check.finish()
        #expect(recorder.compared == [.ping(.init(id: 7))])
    }
}
