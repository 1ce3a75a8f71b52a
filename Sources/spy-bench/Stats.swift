import Foundation

/// Latency samples in nanoseconds, summarised as percentiles.
struct LatencySamples {
    private(set) var values: [UInt64] = []

    mutating func add(_ nanoseconds: UInt64) { values.append(nanoseconds) }

    var count: Int { values.count }

    /// The value at quantile `q` (0…1) by the nearest-rank method, in milliseconds; 0 with no samples.
    func percentileMs(_ q: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let rank = min(sorted.count - 1, max(0, Int((q * Double(sorted.count)).rounded(.up)) - 1))
        return Double(sorted[rank]) / 1_000_000
    }

    var maxMs: Double { Double(values.max() ?? 0) / 1_000_000 }
}

/// CPU time and memory of a process, read from /proc.
struct ProcessUsage: Equatable {
    var cpuSeconds: Double
    var peakRSSBytes: Int

    /// Reads `/proc/PID/stat` (utime + stime) and `/proc/PID/status` (VmHWM); `nil` when the process is gone.
    static func read(pid: Int32) -> ProcessUsage? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        else { return nil }
        return parse(stat: stat, status: status, ticksPerSecond: Double(sysconf(Int32(_SC_CLK_TCK))))
    }

    /// Parses the two /proc files; split out so it can be tested on fixed text.
    static func parse(stat: String, status: String, ticksPerSecond: Double) -> ProcessUsage? {
        // The command name in field 2 may hold spaces; the fields that matter come after its closing parenthesis.
        guard let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After ")" the fields start at field 3 (state); utime is field 14, stime field 15.
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        var peak = 0
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            if parts.count >= 2, let kilobytes = Int(parts[1]) { peak = kilobytes * 1024 }
        }
        return ProcessUsage(cpuSeconds: (user + system) / ticksPerSecond, peakRSSBytes: peak)
    }
}
