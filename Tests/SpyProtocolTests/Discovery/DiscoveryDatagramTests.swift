import Foundation
import SpyProtocol
import Testing

@Suite struct DiscoveryDatagramTests {
    let sample = DiscoveryAnswer(
        name: "Amy's laptop 誰是臥底", port: 7777, protocol: 1, password: false,
        rooms: [
            .init(code: "KFRW", seated: 3, free: 7, playing: false),
            .init(code: "QXPT", seated: 6, free: 4, playing: true),
        ])

    @Test func theProbeIsMagicVersionAndZeros() {
        let probe = Discovery.probe()
        #expect(probe.count == 1_200)
        #expect(Array(probe.prefix(9)) == Array("SPYDISC?".utf8) + [1])
        #expect(probe.dropFirst(9).allSatisfy { $0 == 0 })
        #expect(Discovery.isProbe(probe))
        #expect(Discovery.isProbe(Discovery.probe(length: 1_472)))
    }

    @Test func malformedOrOversizeProbesAreRefused() {
        var nonZero = Discovery.probe()
        nonZero[700] = 1
        var otherVersion = Discovery.probe()
        otherVersion[8] = 2
        var otherMagic = Discovery.probe()
        otherMagic[0] = UInt8(ascii: "X")
        let refused: [[UInt8]] = [
            [], Array(Discovery.probe().prefix(1_199)), Discovery.probe(length: 1_473), nonZero, otherVersion,
            otherMagic, Discovery.answerMagic + [1] + [UInt8](repeating: 0, count: 1_191),
        ]
        for datagram in refused { #expect(!Discovery.isProbe(datagram)) }
    }

    @Test func anAnswerRoundTrips() throws {
        let datagram = try #require(sample.encoded(limit: 1_200))
        #expect(Array(datagram.prefix(9)) == Array("SPYDISC!".utf8) + [1])
        #expect(DiscoveryAnswer.decode(datagram) == sample)
        let json = String(decoding: datagram.dropFirst(9), as: UTF8.self)
        #expect(json.hasPrefix("{\"more\":0,\"name\":\"Amy's laptop 誰是臥底\",\"password\":false,\"port\":7777"))
    }

    @Test func anAnswerIsNeverLongerThanItsProbeNorTheCap() throws {
        let rooms = (0..<300).map { index in
            DiscoveryAnswer.Room(
                code: String((0..<4).map { Character(UnicodeScalar(UInt8(65 + (index >> ($0 * 2)) % 26))) }),
                seated: index % 20, free: 20 - index % 20, playing: index % 2 == 0)
        }
        let big = DiscoveryAnswer(
            name: String(repeating: "名", count: 40), port: 7777, protocol: 1, password: false, rooms: rooms)
        for limit in [60, 100, 200, 1_000, 1_200, 1_472, 5_000] {
            guard let datagram = big.encoded(limit: limit) else {
                #expect(limit < 147, "only a limit below the bare answer (no rooms) leaves no room for it")
                continue
            }
            #expect(datagram.count <= min(limit, Discovery.maximumAnswerBytes))
            let decoded = try #require(DiscoveryAnswer.decode(datagram))
            #expect(decoded.rooms.count + decoded.more == rooms.count, "every room is listed or counted")
            #expect(decoded.rooms == Array(rooms.prefix(decoded.rooms.count)))
            #expect(decoded.name.utf8.count <= Discovery.maximumNameBytes)
        }
    }

    /// The answer keeps a prefix of rooms that fits, never fewer than the widest rooms possible would leave (rooms
    /// are counted from the bytes left, not searched for), whatever rooms were already counted in `more`.
    @Test func theRoomsKeptAreAsManyAsTheWidestRoomsWouldLeave() throws {
        let rooms = (0..<120).map { index in
            DiscoveryAnswer.Room(code: "ABCD", seated: index * 7 % 1_000, free: index % 3, playing: index % 2 == 0)
        }
        let widest = DiscoveryAnswer.Room(code: "WWWW", seated: 1_000, free: 1_000, playing: false)
        for more in [0, 9, 99_000] {
            let answer = DiscoveryAnswer(
                name: "Host", port: 7777, protocol: 1, password: true, rooms: rooms, more: more)
            for limit in stride(from: 100, through: 1_300, by: 13) {
                var reference = answer
                reference.rooms = Array(repeating: widest, count: rooms.count)
                var widestThatFit: Int?
                while widestThatFit == nil {
                    let json = try JSONEncoder.sortedWithoutEscapingSlashes.encode(reference)
                    if Discovery.answerMagic.count + 1 + json.count <= min(limit, Discovery.maximumAnswerBytes) {
                        widestThatFit = reference.rooms.count
                    } else if reference.rooms.isEmpty {
                        break
                    } else {
                        reference.rooms.removeLast()
                        reference.more += 1
                    }
                }
                guard let widestThatFit else {
                    #expect(answer.encoded(limit: limit) == nil, "limit \(limit)")
                    continue
                }
                let datagram = try #require(answer.encoded(limit: limit), "limit \(limit), more \(more)")
                #expect(datagram.count <= min(limit, Discovery.maximumAnswerBytes))
                let decoded = try #require(DiscoveryAnswer.decode(datagram))
                #expect(decoded.rooms == Array(rooms.prefix(decoded.rooms.count)))
                #expect(decoded.rooms.count + decoded.more == rooms.count + more)
                #expect(decoded.rooms.count >= widestThatFit, "limit \(limit), more \(more)")
                #expect(decoded.rooms.count <= DiscoveryAnswer.maximumRooms)
            }
        }
    }

    @Test func theNameIsCutAtACharacterAndLosesControlCharacters() throws {
        var answer = sample
        answer.name = "a\u{7}b" + String(repeating: "臥", count: 30)
        let datagram = try #require(answer.encoded(limit: 1_200))
        let decoded = try #require(DiscoveryAnswer.decode(datagram))
        #expect(decoded.name.hasPrefix("ab臥"))
        #expect(decoded.name.utf8.count == 2 + 3 * 20)
    }

    @Test func theProtocolPagesExampleAnswerDecodes() throws {
        let document = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/PROTOCOL.md"),
            encoding: .utf8)
        let start = try #require(document.range(of: "```discovery answer\n"))
        let end = try #require(document.range(of: "\n```", range: start.upperBound..<document.endIndex))
        let json = String(document[start.upperBound..<end.lowerBound])
        let answer = try #require(
            DiscoveryAnswer.decode(Discovery.answerMagic + [Discovery.version] + Array(json.utf8)))
        #expect(answer == sample.withName("Amy's laptop"))
        #expect(document.contains("`SPYDISC?`") && document.contains("`SPYDISC!`"))
        #expect(document.contains("at least 1,200 bytes") && document.contains("1,472"))
    }

    @Test func malformedAnswersAreRefused() {
        func datagram(_ json: String) -> [UInt8] { Array("SPYDISC!".utf8) + [1] + Array(json.utf8) }
        let good = #"{"more":0,"name":"a","password":false,"port":7777,"protocol":1,"rooms":[]}"#
        #expect(DiscoveryAnswer.decode(datagram(good)) != nil)
        let bad = [
            #"{"more":0,"name":"","password":false,"port":7777,"protocol":1,"rooms":[]}"#,
            #"{"more":0,"name":"a\u0007","password":false,"port":7777,"protocol":1,"rooms":[]}"#,
            #"{"more":0,"name":"a","password":false,"port":0,"protocol":1,"rooms":[]}"#,
            #"{"more":0,"name":"a","password":false,"port":70000,"protocol":1,"rooms":[]}"#,
            #"{"more":-1,"name":"a","password":false,"port":7777,"protocol":1,"rooms":[]}"#,
            #"{"more":0,"name":"a","password":false,"port":7777,"protocol":1,"rooms":[{"code":"ab","seated":1,"free":1,"playing":false}]}"#,
            #"{"more":0,"name":"a","password":false,"port":7777,"protocol":1,"rooms":[{"code":"ABCD","seated":-1,"free":1,"playing":false}]}"#,
            #"{"name":"a"}"#, "not json",
        ]
        for json in bad { #expect(DiscoveryAnswer.decode(datagram(json)) == nil, "\(json)") }
        var otherVersion = datagram(good)
        otherVersion[8] = 2
        #expect(DiscoveryAnswer.decode(otherVersion) == nil)
        #expect(DiscoveryAnswer.decode(Discovery.probe()) == nil)
        #expect(DiscoveryAnswer.decode(datagram(good + String(repeating: " ", count: 1_500))) == nil)
    }
}

extension DiscoveryAnswer {
    func withName(_ name: String) -> DiscoveryAnswer {
        var copy = self
        copy.name = name
        return copy
    }
}

@Suite struct DiscoverySourceTests {
    func ipv6(_ text: String) -> [UInt8] {
        var address = in6_addr()
        _ = inet_pton(AF_INET6, text, &address)
        return withUnsafeBytes(of: &address) { Array($0) }
    }

    @Test func localNetworkSourcesAreAnswered() {
        for address: [UInt8] in [
            [127, 0, 0, 1], [10, 1, 2, 3], [172, 16, 0, 1], [172, 31, 255, 254], [192, 168, 1, 5], [169, 254, 9, 9],
        ] {
            #expect(DiscoverySource.isAllowed(address), "\(address)")
        }
        for text in ["::1", "fe80::1", "fd12:3456::1", "fc00::5", "::ffff:192.168.1.5"] {
            #expect(DiscoverySource.isAllowed(ipv6(text)), "\(text)")
        }
    }

    @Test func otherSourcesAreIgnored() {
        for address: [UInt8] in [
            [8, 8, 8, 8], [172, 15, 0, 1], [172, 32, 0, 1], [192, 169, 1, 1], [100, 64, 0, 1], [0, 0, 0, 0],
            [255, 255, 255, 255], [1, 2, 3],
        ] {
            #expect(!DiscoverySource.isAllowed(address), "\(address)")
        }
        for text in ["2001:db8::1", "2606:4700::1111", "::ffff:8.8.8.8", "::", "ff02::1", "fec0::1"] {
            #expect(!DiscoverySource.isAllowed(ipv6(text)), "\(text)")
        }
    }
}

@Suite struct DiscoveryRateLimiterTests {
    @Test func eachSourceGetsItsBurstThenItsRate() {
        var limiter = DiscoveryRateLimiter(burst: 3, perSecond: 2, totalPerSecond: 100)
        let first = (0..<10).filter { _ in limiter.allow("10.0.0.5", nowMs: 1_000) }.count
        #expect(first == 3)
        // Another source has its own bucket.
        let allowed1 = limiter.allow("10.0.0.6", nowMs: 1_000)
        #expect(allowed1)
        // Half a second later one more token has come back (2 per second).
        let allowed2 = limiter.allow("10.0.0.5", nowMs: 1_500)
        #expect(allowed2)
        let allowed3 = limiter.allow("10.0.0.5", nowMs: 1_500)
        #expect(!allowed3)
        // After a long silence the bucket is full again, but no fuller than the burst.
        let later = (0..<10).filter { _ in limiter.allow("10.0.0.5", nowMs: 60_000) }.count
        #expect(later == 3)
    }

    @Test func allSourcesTogetherAreCapped() {
        var limiter = DiscoveryRateLimiter(burst: 8, perSecond: 4, totalPerSecond: 20)
        let answered = (0..<100).filter { limiter.allow("10.0.\($0 / 250).\($0 % 250)", nowMs: 5_000) }.count
        #expect(answered == 20)
        let allowed4 = limiter.allow("10.9.9.9", nowMs: 5_100)
        #expect(allowed4)
    }

    @Test func rememberedSourcesAreBounded() {
        var limiter = DiscoveryRateLimiter(burst: 2, perSecond: 1, totalPerSecond: 1_000_000, maximumSources: 50)
        for index in 0..<200 { _ = limiter.allow("10.1.\(index / 250).\(index % 250)", nowMs: 1_000) }
        #expect(limiter.sourceCount <= 50)
        // Once their buckets have refilled, remembered sources are forgotten to make room for new ones.
        let allowed5 = limiter.allow("10.2.0.1", nowMs: 10_000)
        #expect(allowed5)
        #expect(limiter.sourceCount <= 50)
    }
}

extension JSONEncoder {
    /// The encoder the discovery answer is written with.
    fileprivate static var sortedWithoutEscapingSlashes: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
