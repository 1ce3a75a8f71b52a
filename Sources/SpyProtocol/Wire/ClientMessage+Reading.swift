/// The host's decoder for client messages: reads the payload's bytes directly, without Foundation.
///
/// Same messages, error codes and (nearly always) details as `WireCodec.decode(ClientMessage.self, …)`, which
/// goes through `JSONDecoder` and stays the reference the tests compare this with. Fields are read in the order
/// the `Codable` conformance declares them, so the first bad field reported is the same one. A new field is one
/// line below, next to its message.
extension ClientMessage {
    /// Decodes a payload, classifying failures as `bad_frame`, `unknown_type` or `bad_message`.
    public static func read(from payload: [UInt8]) throws(MessageError) -> ClientMessage {
        try payload.withUnsafeBufferPointer { bytes throws(MessageError) in
            let (fields, type) = try JSONPayloadReader.read(bytes)
            return try read(type: type, fields)
        }
    }

    private static func read(type: String, _ fields: JSONObjectFields) throws(MessageError) -> ClientMessage {
        switch type {
        case "hello":
            return .hello(
                Hello(
                    protocol: try fields.required("protocol"),
                    name: try fields.required("name"),
                    room: try fields.optional("room"),
                    token: try fields.optional("token"),
                    password: try fields.optional("password"),
                    create: try fields.optional("create"),
                    watch: try fields.optional("watch"),
                    claim: try fields.optional("claim"),
                    language: try fields.optional("language")))
        case "ping": return .ping(Ping(id: try fields.required("id")))
        case "pong": return .pong(Pong(id: try fields.required("id")))
        case "settings": return .settings(try SettingsChange.read(try fields.required("settings")))
        case "start": return .start
        case "clue": return .clue(Clue(text: try fields.required("text")))
        case "pass": return .pass
        case "vote": return .vote(Vote(target: try fields.required("target")))
        case "guess": return .guess(Guess(word: try fields.required("word")))
        case "kick": return .kick(Kick(player: try fields.required("player")))
        case "leave": return .leave
        case "words": return .words(Words(text: try fields.required("text"), replace: try fields.optional("replace")))
        case "words_clear": return .wordsClear
        case "words_export": return .wordsExport
        case "moderator": return .moderator(ModeratorChoice(player: try fields.optional("player")))
        case "moderator_answer": return .moderatorAnswer(ModeratorAnswer(accept: try fields.required("accept")))
        case "moderator_pair":
            return .moderatorPair(
                ListedPair(civilian: try fields.required("civilian"), spy: try fields.required("spy")))
        case "pause": return .pause
        case "resume": return .resume
        case "pass_turn": return .passTurn
        case "claim_answer":
            return .claimAnswer(ClaimAnswer(player: try fields.required("player"), allow: try fields.required("allow")))
        default: throw MessageError(.unknownType, "unknown message type \"\(type.prefix(40))\"")
        }
    }
}

extension SettingsChange {
    fileprivate static func read(_ fields: JSONObjectFields) throws(MessageError) -> SettingsChange {
        SettingsChange(
            maxPlayers: try fields.optional("maxPlayers"),
            spies: try fields.optional("spies"),
            blank: try fields.optional("blank"),
            clueMode: try fields.optional("clueMode"),
            turnSeconds: try fields.optional("turnSeconds"),
            voteSeconds: try fields.optional("voteSeconds"),
            tieRule: try fields.optional("tieRule"),
            revealOut: try fields.optional("revealOut"),
            blankRule: try fields.optional("blankRule"),
            language: try fields.optional("language"),
            allowParty: try fields.optional("allowParty"),
            categories: try fields.optional("categories"),
            spyWin: try fields.optional("spyWin"),
            spyLastChance: try fields.optional("spyLastChance"),
            wordSource: try fields.optional("wordSource"))
    }
}

extension ClueMode: JSONFieldValue {}
extension TieRule: JSONFieldValue {}
extension BlankRule: JSONFieldValue {}
extension BankLanguage: JSONFieldValue {}
extension SpyWin: JSONFieldValue {}
extension WordSource: JSONFieldValue {}
