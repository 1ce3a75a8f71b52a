/// Who may be answered: addresses of the local network only.
public enum DiscoverySource {
    /// Whether a probe from `address` (4 bytes for IPv4, 16 for IPv6, network order) may be answered: loopback,
    /// private (10/8, 172.16/12, 192.168/16, fc00::/7) or link-local (169.254/16, fe80::/10). IPv4-mapped IPv6
    /// addresses are judged as the IPv4 address they carry.
    public static func isAllowed(_ address: [UInt8]) -> Bool {
        switch address.count {
        case 4:
            let (a, b) = (address[0], address[1])
            return a == 127 || a == 10 || (a == 172 && (16...31).contains(b)) || (a == 192 && b == 168)
                || (a == 169 && b == 254)
        case 16:
            if address[0..<10].allSatisfy({ $0 == 0 }) && address[10] == 0xFF && address[11] == 0xFF {
                return isAllowed(Array(address[12..<16]))
            }
            if address[0..<15].allSatisfy({ $0 == 0 }) && address[15] == 1 { return true }  // ::1
            if address[0] & 0xFE == 0xFC { return true }  // fc00::/7, unique local
            return address[0] == 0xFE && address[1] & 0xC0 == 0x80  // fe80::/10, link-local
        default:
            return false
        }
    }
}

/// Token buckets per source address and one for all sources together: a host answers each source a few times a
/// second at most, and everyone together a bounded number of times, whatever arrives.
public struct DiscoveryRateLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updatedMs: Int64
    }

    public let burst: Double
    public let perSecond: Double
    public let totalPerSecond: Double
    public let maximumSources: Int
    private var buckets: [String: Bucket] = [:]
    private var total: Bucket

    /// Each source may be answered `burst` times at once and `perSecond` times a second after that; all sources
    /// together `totalPerSecond` times a second; at most `maximumSources` sources are remembered.
    public init(burst: Int = 8, perSecond: Double = 4, totalPerSecond: Double = 200, maximumSources: Int = 4_096) {
        self.burst = Double(burst)
        self.perSecond = perSecond
        self.totalPerSecond = totalPerSecond
        self.maximumSources = maximumSources
        total = Bucket(tokens: totalPerSecond, updatedMs: .min)
    }

    /// Whether `source` may be answered now; takes a token from its bucket and the total when it may.
    public mutating func allow(_ source: String, nowMs: Int64) -> Bool {
        refill(&total, capacity: totalPerSecond, rate: totalPerSecond, nowMs: nowMs)
        var bucket = buckets[source] ?? Bucket(tokens: burst, updatedMs: nowMs)
        refill(&bucket, capacity: burst, rate: perSecond, nowMs: nowMs)
        if buckets[source] == nil && buckets.count >= maximumSources {
            forgetFullBuckets(nowMs: nowMs)
            guard buckets.count < maximumSources else { return false }
        }
        guard bucket.tokens >= 1, total.tokens >= 1 else {
            buckets[source] = bucket
            return false
        }
        bucket.tokens -= 1
        total.tokens -= 1
        buckets[source] = bucket
        return true
    }

    /// Sources remembered now (bounded by `maximumSources`).
    public var sourceCount: Int { buckets.count }

    private func refill(_ bucket: inout Bucket, capacity: Double, rate: Double, nowMs: Int64) {
        if bucket.updatedMs == .min {
            bucket.updatedMs = nowMs
            return
        }
        let elapsed = Double(max(0, nowMs - bucket.updatedMs)) / 1000
        bucket.tokens = min(capacity, bucket.tokens + elapsed * rate)
        bucket.updatedMs = nowMs
    }

    /// Drops the sources whose bucket has refilled: forgetting them changes nothing.
    private mutating func forgetFullBuckets(nowMs: Int64) {
        let fullAfterMs = Int64(burst / perSecond * 1000)
        buckets = buckets.filter { nowMs - $0.value.updatedMs < fullAfterMs }
    }
}
