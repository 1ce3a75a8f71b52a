import Foundation
import SpyProtocol
import Testing

@testable import SpyGame

/// A bot's reasoning, fed with exactly the messages a room sends that bot's seat.
@Suite struct BotMindTests {
    static let material: [String: [BotClue]] = [
        "coffee": [
            .init(text: "wakes you up", fitsPartner: true),
            .init(text: "brewed from roasted beans", fitsPartner: false),
            .init(text: "espresso shot", fitsPartner: false), .init(text: "hot drink in a mug", fitsPartner: true),
            .init(text: "latte art", fitsPartner: false),
        ],
        "tea": [
            .init(text: "wakes you up", fitsPartner: true), .init(text: "steeped leaves", fitsPartner: false),
            .init(text: "green or black", fitsPartner: false), .init(text: "hot drink in a mug", fitsPartner: true),
            .init(text: "served in a pot with a cosy", fitsPartner: false),
        ],
    ]
    static let knowledge = BotKnowledge(
        material: { material[$0] ?? [] }, category: { _ in "Drinks" }, guessable: { _ in ["coffee", "tea"] })

    /// Plays one room to its first vote; returns every seat's messages, as the room addressed them.
    static func inbox(seed: UInt64, players: Int = 5, clues: [String: String] = [:]) -> (
        Room, [PlayerID: [ServerMessage]]
    ) {
        var room = Room(code: "KFRW", settings: GameSettings(clueMode: .typed), seed: seed)
        var inbox: [PlayerID: [ServerMessage]] = [:]
        func deliver(_ result: Result<[RoomEffect], Rejection>) {
            guard case .success(let effects) = result else { return }
            for effect in effects {
                switch effect {
                case .send(let player, let message): inbox[player, default: []].append(message)
                case .broadcast(let message): for id in room.playerIDs { inbox[id, default: []].append(message) }
                default: break
                }
            }
        }
        for number in 1...players { deliver(room.apply(.join(name: "P\(number)", bot: false), now: 0)) }
        deliver(
            room.apply(.start(by: "p1", pairs: [WordPair(civilian: "coffee", spy: "tea", category: "Drinks")]), now: 0))
        return (room, inbox)
    }

    @Test func aBotNeverSaysALineThatIsOnlyItsCategory() {
        // A sheet's clue column (or a careless line of material) may hold the category's name: that is filler.
        let knowledge = BotKnowledge(
            material: { word in
                word == "coffee"
                    ? [.init(text: "Drinks", fitsPartner: true), .init(text: "espresso shot", fitsPartner: false)]
                    : []
            }, category: { _ in "Drinks" }, guessable: { _ in ["coffee"] })
        var mind = BotMind(me: "p1", level: .easy, knowledge: knowledge)
        mind.observe(.deal(.init(game: 1, word: "coffee")))
        var random = SplitMix64(seed: 5)
        for _ in 0..<20 { #expect(mind.clue(random: &random) == "espresso shot") }
    }

    @Test func aBotSaysOneOfItsOwnLinesNeverOneAlreadySaid() {
        let (_, inbox) = Self.inbox(seed: 3)
        var random = SplitMix64(seed: 9)
        for (player, messages) in inbox {
            var mind = BotMind(me: player, level: .normal, knowledge: Self.knowledge)
            for message in messages { mind.observe(message) }
            guard let word = mind.word, let lines = Self.material[word]?.map(\.text) else {
                Issue.record("\(player) was dealt no word")
                continue
            }
            for _ in 0..<20 {
                let clue = mind.clue(random: &random)
                #expect(clue.map(lines.contains) == true)
            }
            // Everything but one line already said at the table: that one is the only choice.
            let said = lines.dropLast()
            var heard = mind
            for (index, text) in said.enumerated() {
                heard.observe(.clue(ClueView(player: "p\(index % 5 + 1)", round: 1, text: text)))
            }
            #expect(heard.clue(random: &random) == lines.last)
        }
    }

    @Test func aBotThatHearsOtherWordsBlendsInAndVotesForACivilian() {
        var mind = BotMind(me: "p4", level: .normal, knowledge: Self.knowledge)
        mind.observe(.deal(.init(game: 1, word: "tea")))
        mind.observe(
            .room(
                RoomView(room: "KFRW", phase: .describing, game: 1, round: 1, settings: GameSettings(clueMode: .typed)))
        )
        for (player, text) in [("p1", "espresso shot"), ("p2", "latte art"), ("p3", "brewed from roasted beans")] {
            mind.observe(.clue(ClueView(player: player, round: 1, text: text)))
        }
        #expect(mind.likelyInMinority)
        var random = SplitMix64(seed: 1)
        for _ in 0..<20 {
            let clue = mind.clue(random: &random)
            #expect(clue == "wakes you up" || clue == "hot drink in a mug")
        }
        // A civilian bot holding coffee hears one tea clue among coffee clues and votes for its giver.
        var civilian = BotMind(me: "p1", level: .hard, knowledge: Self.knowledge)
        civilian.observe(.deal(.init(game: 1, word: "coffee")))
        for (player, text) in [
            ("p1", "espresso shot"), ("p2", "latte art"), ("p3", "steeped leaves"), ("p4", "brewed from roasted beans"),
        ] {
            civilian.observe(.clue(ClueView(player: player, round: 1, text: text)))
        }
        civilian.observe(
            .voting(.init(round: 1, candidates: ["p1", "p2", "p3", "p4"], voters: ["p1", "p2", "p3", "p4"])))
        #expect(!civilian.likelyInMinority)
        for _ in 0..<10 { #expect(civilian.vote(random: &random) == "p3") }
    }

    /// A mind dealt `word` that heard `clues` (player, text) in round 1, in that order.
    static func mind(_ me: PlayerID, word: String?, heard clues: [(String, String)], level: BotLevel = .normal)
        -> BotMind
    {
        var mind = BotMind(me: me, level: level, knowledge: Self.knowledge)
        mind.observe(.deal(.init(game: 1, word: word)))
        mind.observe(
            .room(
                RoomView(room: "KFRW", phase: .describing, game: 1, round: 1, settings: GameSettings(clueMode: .typed)))
        )
        for (player, text) in clues { mind.observe(.clue(ClueView(player: player, round: 1, text: text))) }
        return mind
    }

    @Test func oneOddClueIsNotEnoughToSwitchSidesTwoAre() {
        var random = SplitMix64(seed: 4)
        let tea = Self.material["tea"]?.map(\.text) ?? []
        // One coffee clue might be the spy's: a tea bot keeps describing tea.
        let once = Self.mind("p3", word: "tea", heard: [("p1", "wakes you up"), ("p2", "espresso shot")])
        #expect(!once.likelyInMinority)
        for _ in 0..<20 { #expect(tea.contains(once.clue(random: &random) ?? "")) }
        // Two players describing coffee: the tea bot is outnumbered and says only lines that fit both words.
        let twice = Self.mind("p3", word: "tea", heard: [("p1", "espresso shot"), ("p2", "latte art")])
        #expect(twice.likelyInMinority)
        for _ in 0..<20 {
            let clue = twice.clue(random: &random)
            #expect(clue == "wakes you up" || clue == "hot drink in a mug")
        }
        // A line of its own word heard: no reason to hide, so it says what sets its word apart.
        let civilian = Self.mind("p3", word: "coffee", heard: [("p1", "wakes you up"), ("p2", "espresso shot")])
        #expect(!civilian.likelyInMinority)
        for _ in 0..<20 {
            let clue = civilian.clue(random: &random)
            #expect(clue == "brewed from roasted beans" || clue == "latte art")
        }
    }

    @Test func twoVoicesForTheOtherWordAreWhatTwoSpiesSoundLikeHoweverFewAreStillIn() {
        // Eight players, two spies, four still in. Three players now out described coffee, one still in said a line
        // that fits both words, and the two still in who described tea are as many as there are spies: the coffee
        // bot keeps describing coffee, though they are two of the three others still in.
        let pairs = ["coffee": ["tea"], "tea": ["coffee"]]
        let knowledge = BotKnowledge(
            material: { Self.material[$0] ?? [] }, category: { _ in "Drinks" }, guessable: { _ in ["coffee"] },
            partners: { pairs[$0] ?? [] })
        var settings = GameSettings(clueMode: .typed)
        settings.spies = 2
        let alive: Set<PlayerID> = ["p2", "p6", "p7", "p8"]
        let seats = (1...8).map { SeatView(id: "p\($0)", seat: $0, name: "P\($0)", alive: alive.contains("p\($0)")) }
        let heard = [
            ("p1", "espresso shot"), ("p2", "wakes you up"), ("p3", "latte art"), ("p4", "brewed from roasted beans"),
            ("p6", "steeped leaves"), ("p8", "green or black"),
        ]
        func mind(_ word: String) -> BotMind {
            var mind = BotMind(me: "p7", level: .normal, knowledge: knowledge)
            mind.observe(.deal(.init(game: 1, word: word)))
            mind.observe(
                .room(
                    RoomView(
                        room: "KFRW", phase: .describing, game: 1, round: 3, settings: settings, seats: seats)))
            for (player, text) in heard { mind.observe(.clue(ClueView(player: player, round: 1, text: text))) }
            return mind
        }
        let civilian = mind("coffee")
        #expect(!civilian.likelyInMinority)
        var random = SplitMix64(seed: 21)
        for _ in 0..<10 { #expect(civilian.clue(random: &random) == "hot drink in a mug") }
        // A tea bot hearing the same is outnumbered: three players described coffee, more than there are spies.
        #expect(mind("tea").likelyInMinority)
    }

    @Test(arguments: BotLevel.allCases)
    func whoeverOpensTheGameSaysALineThatFitsBothWords(level: BotLevel) {
        var random = SplitMix64(seed: 17)
        for word in ["coffee", "tea"] {
            let opener = Self.mind("p1", word: word, heard: [], level: level)
            for _ in 0..<20 {
                let clue = opener.clue(random: &random)
                #expect(clue == "wakes you up" || clue == "hot drink in a mug", "\(level) \(word): \(clue ?? "pass")")
            }
        }
    }

    @Test(arguments: BotLevel.allCases)
    func aBotThatRanOutOfLinesRepeatsOneOfItsOwnNeverFillerOrAPass(level: BotLevel) {
        let coffee = Self.material["coffee"]?.map(\.text) ?? []
        // Every coffee line said, two of them by this bot.
        var heard = coffee.enumerated().map { ("p\($0.offset % 3 + 1)", $0.element) }
        heard[0].0 = "p4"
        heard[2].0 = "p4"
        let mind = Self.mind("p4", word: "coffee", heard: heard, level: level)
        var random = SplitMix64(seed: 23)
        for _ in 0..<20 {
            let clue = mind.clue(random: &random)
            #expect(clue == coffee[0] || clue == coffee[2], "\(level): \(clue ?? "pass")")
        }
    }

    @Test func passesAndFillerAreNeutralInAVote() {
        // p2 passed, p3 said a stock phrase, p4 described tea: a coffee bot suspects p4, not the quiet ones.
        var mind = Self.mind(
            "p1", word: "coffee",
            heard: [("p3", "Easy to spot"), ("p4", "steeped leaves"), ("p5", "espresso shot"), ("p6", "Drinks")],
            level: .hard)
        mind.observe(.clue(ClueView(player: "p2", round: 1, text: nil)))
        let everyone: [PlayerID] = ["p1", "p2", "p3", "p4", "p5", "p6"]
        mind.observe(.voting(.init(round: 1, candidates: everyone, voters: everyone)))
        #expect(mind.isFiller(nil) && mind.isFiller("Easy to spot") && mind.isFiller("Drinks"))
        #expect(!mind.isFiller("steeped leaves"))
        var random = SplitMix64(seed: 8)
        for _ in 0..<20 { #expect(mind.vote(random: &random) == "p4") }
    }

    @Test func afterTwoTiesThatChangedNothingBotsAgreeOnOnePlayer() {
        // Rounds 1 to 3 were spoken by the same five players: two votes in a row eliminated nobody.
        var heard: [ClueView] = []
        let lines = ["wakes you up", "espresso shot", "steeped leaves", "latte art", "green or black"]
        for round in 1...3 {
            for (index, text) in lines.enumerated() {
                heard.append(ClueView(player: "p\(index + 1)", round: round, text: "\(text) \(round)"))
            }
        }
        let everyone: [PlayerID] = ["p1", "p2", "p3", "p4", "p5"]
        var votes: [PlayerID: Int] = [:]
        var random = SplitMix64(seed: 31)
        for (me, word) in [("p1", "coffee"), ("p2", "coffee"), ("p3", "tea"), ("p4", "coffee")] {
            var mind = BotMind(me: me, level: .normal, knowledge: Self.knowledge)
            mind.observe(.deal(.init(game: 1, word: word)))
            mind.recall(heard)
            mind.observe(.voting(.init(round: 3, candidates: everyone, voters: everyone)))
            #expect(mind.stalledRounds(before: 3) == 2)
            if let target = mind.vote(random: &random) { votes[target, default: 0] += 1 }
        }
        // Only the chosen player itself, if it votes, must pick someone else.
        #expect(votes.values.max() ?? 0 >= 3, "\(votes)")
    }

    @Test func aFullSnapshotDoesNotMakeABotForgetEarlierClues() {
        var mind = Self.mind("p2", word: "coffee", heard: [("p1", "latte art")])
        var record = [ClueView(player: "p1", round: 1, text: "latte art")]
        for index in 0..<Rules.cluesInView + 5 {
            let clue = ClueView(player: "p\(index % 5 + 1)", round: index / 5 + 1, text: "line \(index)")
            mind.observe(.clue(clue))
            record.append(clue)
        }
        let snapshot = RoomView(
            room: "KFRW", phase: .describing, game: 1, round: 10, settings: GameSettings(clueMode: .typed),
            clues: Array(record.suffix(Rules.cluesInView)))
        mind.observe(.room(snapshot))
        #expect(mind.clues == record)
        var random = SplitMix64(seed: 5)
        for _ in 0..<20 { #expect(mind.clue(random: &random) != "latte art") }
    }

    @Test func aBotWithNoSharedLineLeftLeansOnWhatWasSaid() {
        let mind = Self.mind(
            "p4", word: "tea",
            heard: [
                ("p1", "espresso shot"), ("p2", "wakes you up"), ("p3", "latte art"), ("p5", "hot drink in a mug"),
                ("p6", "black and bitter"),
            ])
        #expect(mind.likelyInMinority)
        var random = SplitMix64(seed: 6)
        for _ in 0..<20 { #expect(mind.clue(random: &random) == "green or black") }
    }

    @Test func aBotInTheMinorityVotesWithTheMajoritysLikelyTarget() {
        // Tea among coffee: p3 said the one line that fits both words, so coffee players find p3 (and p4) the
        // least consistent. A tea bot that knows it is outnumbered joins them against p3 rather than sparing the
        // one player who sounded like itself.
        var mind = Self.mind(
            "p4", word: "tea",
            heard: [
                ("p1", "espresso shot"), ("p2", "latte art"), ("p3", "wakes you up"), ("p4", "hot drink in a mug"),
                ("p5", "brewed from roasted beans"),
            ], level: .hard)
        mind.observe(
            .voting(
                .init(round: 1, candidates: ["p1", "p2", "p3", "p4", "p5"], voters: ["p1", "p2", "p3", "p4", "p5"])))
        #expect(mind.likelyInMinority)
        var random = SplitMix64(seed: 8)
        for _ in 0..<10 { #expect(mind.vote(random: &random) == "p3") }
    }

    @Test func aBotThatHearsTheOtherWordOfItsPairDescribesItToo() {
        let pairs = ["coffee": ["tea"], "tea": ["coffee"]]
        let knowledge = BotKnowledge(
            material: { Self.material[$0] ?? [] }, category: { _ in "Drinks" }, guessable: { _ in ["coffee"] },
            partners: { pairs[$0] ?? [] })
        func mind(_ level: BotLevel, heard: [(String, String)]) -> BotMind {
            var mind = BotMind(me: "p6", level: level, knowledge: knowledge)
            mind.observe(.deal(.init(game: 1, word: "tea")))
            for (player, text) in heard { mind.observe(.clue(ClueView(player: player, round: 1, text: text))) }
            return mind
        }
        var random = SplitMix64(seed: 12)
        // Two of coffee's telling lines heard: the tea bot takes the third rather than a line of its own.
        for level in [BotLevel.normal, .hard] {
            let heard = mind(level, heard: [("p1", "espresso shot"), ("p2", "latte art")])
            for _ in 0..<10 {
                let clue = heard.clue(random: &random)
                #expect(clue == "brewed from roasted beans", "\(level): \(clue ?? "pass")")
            }
        }
        // Without the bank's pairing it never describes a word it was not dealt.
        var unpaired = BotMind(me: "p6", level: .hard, knowledge: Self.knowledge)
        unpaired.observe(.deal(.init(game: 1, word: "tea")))
        unpaired.observe(.clue(ClueView(player: "p1", round: 1, text: "espresso shot")))
        unpaired.observe(.clue(ClueView(player: "p2", round: 1, text: "latte art")))
        for _ in 0..<10 {
            #expect(Self.material["tea"]?.map(\.text).contains(unpaired.clue(random: &random) ?? "") == true)
        }
    }

    @Test func onlyAHardBotBluffsWithTheOtherWordsLinesBeforeHearingOne() {
        // Outnumbered by two clues about coffee that are none of coffee's lines: a normal bot plays safe with a line
        // that fits both words; a hard one bluffs with coffee's own lines from the bank's pairing. Never a template.
        let pairs = ["coffee": ["tea"], "tea": ["coffee"]]
        let knowledge = BotKnowledge(
            material: { Self.material[$0] ?? [] }, category: { _ in "Drinks" }, guessable: { _ in ["coffee"] },
            partners: { pairs[$0] ?? [] })
        let heard = [("p1", "roasted beans from Brazil"), ("p2", "an espresso machine at work")]
        var random = SplitMix64(seed: 14)
        for level in [BotLevel.normal, .hard] {
            var mind = BotMind(me: "p4", level: level, knowledge: knowledge)
            mind.observe(.deal(.init(game: 1, word: "tea")))
            for (player, text) in heard { mind.observe(.clue(ClueView(player: player, round: 1, text: text))) }
            #expect(mind.likelyInMinority)
            let expected =
                level == .hard
                ? ["brewed from roasted beans", "espresso shot", "latte art"] : ["wakes you up", "hot drink in a mug"]
            for _ in 0..<10 {
                let clue = mind.clue(random: &random) ?? "pass"
                #expect(expected.contains(clue), "\(level): \(clue)")
            }
        }
    }

    @Test func aHardBotVotesFirmlyOnlyForAPlayerWhoStandsOut() {
        func votes(_ heard: [(String, String)]) -> Set<PlayerID> {
            var mind = Self.mind("p6", word: "coffee", heard: heard, level: .hard)
            let players = heard.map(\.0) + ["p6"]
            mind.observe(.voting(.init(round: 1, candidates: players, voters: players)))
            var random = SplitMix64(seed: 3)
            return Set((0..<40).compactMap { _ in mind.vote(random: &random) })
        }
        let telling = [("p1", "espresso shot"), ("p2", "latte art"), ("p3", "brewed from roasted beans")]
        // One tea line among coffee's telling lines: that player, every time.
        #expect(votes(telling + [("p5", "steeped leaves")]) == ["p5"])
        // Beside it a player who said only a line that fits both words sounds nearly as odd: it hesitates.
        #expect(votes(telling + [("p4", "wakes you up"), ("p5", "steeped leaves")]) == ["p4", "p5"])
    }

    @Test func theMemoryOfFoldedTextsStaysWithinItsCapacityAndFoldsAlike() {
        let forms = TextForms(capacity: 3)
        for text in ["Latte Art", "latte  art", "拿鐵拉花", "steeped leaves", "espresso shot"] {
            #expect(forms.form(text).fold == BotMind.computeFold(text))
            #expect(forms.form(text).tokens == BotMind.computeTokens(text))
            #expect(forms.count <= 3)
        }
        #expect(forms.form("Latte Art").fold == forms.form("latte art").fold)
    }

    @Test func theBlankSaysALineOfTheWordItGuessesAndGuessesIt() {
        var blank = BotMind(me: "p5", level: .hard, knowledge: Self.knowledge)
        blank.observe(.deal(.init(game: 1, word: nil)))
        let heard = ["roasted beans", "espresso shot", "beans from Brazil"]
        for (index, text) in heard.enumerated() {
            blank.observe(.clue(ClueView(player: "p\(index + 1)", round: 1, text: text)))
        }
        var random = SplitMix64(seed: 2)
        for _ in 0..<10 {
            let clue = blank.clue(random: &random)
            #expect(clue == "wakes you up" || clue == "hot drink in a mug", "\(clue ?? "pass")")
        }
        #expect(blank.guess(random: &random) == "coffee")
    }

    @Test func theSameMessagesGiveTheSameMovesWhateverTheHiddenState() {
        // Two rooms dealt from different seeds: a seat that got the same deal and heard the same messages decides
        // the same, because a mind holds nothing but those messages.
        let (_, first) = Self.inbox(seed: 3)
        for (player, messages) in first {
            var a = BotMind(me: player, level: .hard, knowledge: Self.knowledge)
            var b = BotMind(me: player, level: .hard, knowledge: Self.knowledge)
            for message in messages {
                a.observe(message)
                b.observe(message)
            }
            var randomA = SplitMix64(seed: 5)
            var randomB = SplitMix64(seed: 5)
            #expect(a.clue(random: &randomA) == b.clue(random: &randomB))
        }
    }
}
