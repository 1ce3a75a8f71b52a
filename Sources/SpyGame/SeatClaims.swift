import SpyProtocol

/// The claims of one room's away seats by players who lost their token, each waiting for a connected player's
/// approval. Pure like `Room`: the host drives it with the room as it stands and the clock, and carries out the
/// changes it reports. Claims live only as long as the claimer's connection, so they are never saved.
public struct SeatClaims: Sendable, Equatable {
    /// One waiting claim.
    public struct Claim: Sendable, Equatable {
        /// The claimed seat.
        public let seat: PlayerID
        /// The name the claimer typed, cleaned like any name (the seat's own name when they typed none).
        public let name: String
        /// The claimer's connection, as the host numbers them.
        public let claimer: UInt64
        /// Who was asked to approve; `nil` while nobody connected can.
        public internal(set) var approver: PlayerID?
        /// When the claim is refused if nobody answered.
        public let expires: Millis
    }

    /// How a claim ended without being answered.
    public enum Ending: Sendable, Equatable {
        /// Nobody answered in time.
        case expired
        /// The seat is no longer away: resumed with its token, given up or kicked.
        case seatTaken
    }

    /// What changed on its own after the room or the clock moved on.
    public enum Change: Sendable, Equatable {
        /// The claim ended: the claimer is refused; `claim.approver`, when set, is told it is done.
        case ended(Claim, Ending)
        /// The claim's approver is no longer connected: `claim.approver` is the next one, who must be asked.
        case asked(Claim)
    }

    /// Waiting claims by seat.
    public private(set) var waiting: [PlayerID: Claim] = [:]

    public init() {}

    public var isEmpty: Bool { waiting.isEmpty }

    /// When the earliest claim runs out, if any waits.
    public var nextDeadline: Millis? { waiting.values.map(\.expires).min() }

    /// Opens a claim of `seat` by the connection `claimer`, who typed `rawName`; on success the claim names the
    /// approver to ask. Refusals: `claim_invalid` (not an away person's seat), `claim_busy` (already claimed),
    /// `claim_unavailable` (nobody connected can approve), `bad_name` (a name no seat could have).
    public mutating func open(
        seat: PlayerID, name rawName: String, claimer: UInt64, room: Room, now: Millis
    ) -> Result<Claim, Rejection> {
        guard room.isAway(seat), let seatName = room.name(of: seat) else { return .failure(Rejection(.claimInvalid)) }
        guard waiting[seat] == nil else { return .failure(Rejection(.claimBusy)) }
        guard let approver = room.claimApprover(for: seat) else { return .failure(Rejection(.claimUnavailable)) }
        var name = seatName
        if !rawName.isEmpty {
            name = PlayerText.normalisedName(rawName)
            if let problem = Rules.checkName(name, raw: rawName) { return .failure(problem) }
        }
        let claim = Claim(
            seat: seat, name: name, claimer: claimer, approver: approver, expires: now + Rules.claimMillis)
        waiting[seat] = claim
        return .success(claim)
    }

    /// Takes the answer of `player` about the claim of `seat`: the claim ends and is returned, for the host to give
    /// the seat or refuse it. Anyone but the approver asked gets `not_allowed`, and the claim waits on.
    public mutating func answer(seat: PlayerID, from player: PlayerID) -> Result<Claim, Rejection> {
        guard let claim = waiting[seat], claim.approver == player else {
            return .failure(Rejection(.notAllowed, "You were not asked about that seat, or its claim has ended."))
        }
        waiting[seat] = nil
        return .success(claim)
    }

    /// The claimer's connection ended: its claim, if one waited, is withdrawn.
    public mutating func withdraw(claimer: UInt64) -> Claim? {
        guard let claim = waiting.values.first(where: { $0.claimer == claimer }) else { return nil }
        waiting[claim.seat] = nil
        return claim
    }

    /// Every waiting claim, ended (for a room that closes).
    public mutating func removeAll() -> [Claim] {
        defer { waiting = [:] }
        return waiting.values.sorted { $0.expires < $1.expires }
    }

    /// Brings the claims up to date with the room and the clock: a claim whose seat stopped being away or whose
    /// time ran out ends; one whose approver is no longer connected goes to the next approver by the same rule.
    public mutating func review(room: Room, now: Millis) -> [Change] {
        var changes: [Change] = []
        for seat in waiting.keys.sorted() {
            guard var claim = waiting[seat] else { continue }
            if !room.isAway(seat) || now >= claim.expires {
                waiting[seat] = nil
                changes.append(.ended(claim, room.isAway(seat) ? .expired : .seatTaken))
                continue
            }
            if let approver = claim.approver, room.isConnected(approver) { continue }
            claim.approver = room.claimApprover(for: seat)
            waiting[seat] = claim
            if claim.approver != nil { changes.append(.asked(claim)) }
        }
        return changes
    }
}
