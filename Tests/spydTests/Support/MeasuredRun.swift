import Foundation
import Glibc

/// A program run to its end under GNU time, with the most memory it held.
///
/// The peak is the one GNU time reads for the program it starts (`%M`, from `wait4`): a child spawned by the test
/// process itself would not do, as Linux folds the peak of the memory a process had before `exec` (for a child of
/// the test process, the test process's own) into the peak `wait4` reports. A child of GNU time starts from its
/// few hundred KiB.
struct MeasuredRun {
    var status: Int32
    /// Peak resident set size, in KiB.
    var peakKiB: Int
    /// Its standard output and standard error together.
    var output: String
    var seconds: Double

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The GNU time this measures with.
    static let time = "/usr/bin/time"

    /// Whether GNU time is there to measure with.
    static var canMeasure: Bool { FileManager.default.isExecutableFile(atPath: time) }

    /// Runs `executable` with `arguments` until it exits; once a line of its output contains `stopAt`, it is sent
    /// SIGTERM. A run still going after `timeout` seconds is killed and fails.
    static func run(
        _ executable: String, _ arguments: [String], stopAt: String? = nil, timeout: Double
    ) throws -> MeasuredRun {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw Failure(description: "pipe: \(String(cString: strerror(errno)))") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_adddup2(&actions, fds[1], 2)
        posix_spawn_file_actions_addclose(&actions, fds[0])
        posix_spawn_file_actions_addclose(&actions, fds[1])
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        let argv = ([time, "-f", "\npeak-rss-kib %M", executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let settings: [String] = ["SWIFT_BACKTRACE=enable=no", "PATH=/usr/bin:/bin"]
        let environment = settings.map { strdup($0) } + [nil]
        defer { environment.forEach { free($0) } }
        let started = Date()
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, time, &actions, nil, argv, environment)
        close(fds[1])
        guard spawned == 0 else {
            close(fds[0])
            throw Failure(description: "posix_spawn \(executable): \(String(cString: strerror(spawned)))")
        }
        var output: [UInt8] = []
        var stopped = false
        var chunk = [UInt8](repeating: 0, count: 4096)
        let deadline = started.addingTimeInterval(timeout)
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else {
                kill(pid, SIGKILL)
                var status: Int32 = 0
                waitpid(pid, &status, 0)
                close(fds[0])
                throw Failure(
                    description: "\(executable) ran past \(timeout) s:\n\(String(decoding: output, as: UTF8.self))")
            }
            var poller = pollfd(fd: fds[0], events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(min(left, 1) * 1000)) > 0 else { continue }
            let count = chunk.withUnsafeMutableBytes { read(fds[0], $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            output += chunk[..<count]
            if let stopAt, !stopped, String(decoding: output, as: UTF8.self).contains(stopAt),
                let program = child(of: pid)
            {
                stopped = true
                kill(program, SIGTERM)
            }
        }
        close(fds[0])
        var status: Int32 = 0
        guard waitpid(pid, &status, 0) == pid else {
            throw Failure(description: "waitpid: \(String(cString: strerror(errno)))")
        }
        let text = String(decoding: output, as: UTF8.self)
        guard let line = text.split(separator: "\n").last(where: { $0.hasPrefix("peak-rss-kib ") }),
            let peak = Int(line.dropFirst("peak-rss-kib ".count))
        else { throw Failure(description: "no peak in the output of \(executable):\n\(text)") }
        return MeasuredRun(
            status: (status >> 8) & 0xFF, peakKiB: peak, output: text, seconds: -started.timeIntervalSinceNow)
    }

    /// The process GNU time (`pid`) started, once it has.
    private static func child(of pid: pid_t) -> pid_t? {
        let children = try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)
        return children?.split(separator: " ").first.flatMap { pid_t($0) }
    }
}
