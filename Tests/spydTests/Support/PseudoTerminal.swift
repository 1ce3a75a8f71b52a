import Foundation
import Glibc

/// A program run with its standard output on a pseudo-terminal, so it draws what it draws for a person.
final class PseudoTerminalProcess {
    let process = Process()
    private let output = OutputCollector()
    private let exited = DispatchSemaphore(value: 0)

    init(_ executable: URL, arguments: [String], environment: [String: String]) throws {
        // posix_openpt and friends are not in Swift's Glibc module: open /dev/ptmx, then TIOCSPTLCK (unlock) and
        // TIOCGPTN (its number), whose values are the same on x86_64 and arm64.
        let primary = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard primary >= 0, ioctl(primary, 0x4004_5431, &unlock) == 0,
            ioctl(primary, 0x8004_5430, &number) == 0
        else {
            throw DaemonError(description: "no pseudo-terminal: errno \(errno)")
        }
        let replica = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        guard replica >= 0 else { throw DaemonError(description: "cannot open /dev/pts/\(number)") }
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = FileHandle(fileDescriptor: replica, closeOnDealloc: false)
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        let exited = self.exited
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        close(replica)
        let output = self.output
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            var pending: [UInt8] = []
            while true {
                let count = read(primary, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                // EIO once the program has ended and the last replica descriptor is closed.
                guard count > 0 else { break }
                pending += buffer[0..<count]
                // Hand on whole UTF-8 characters only: a block glyph split between two reads must not be mangled.
                let cut = PseudoTerminalProcess.completeUTF8Prefix(pending)
                output.append(Data(pending[0..<cut]))
                pending.removeFirst(cut)
            }
            output.append(Data())
            close(primary)
        }
    }

    deinit { stop() }

    /// The length of the longest prefix of `bytes` that does not end inside a UTF-8 sequence.
    static func completeUTF8Prefix(_ bytes: [UInt8]) -> Int {
        var start = bytes.count
        // Step back over continuation bytes (at most three) to the last lead byte.
        while start > 0, bytes.count - start < 4, bytes[start - 1] & 0xC0 == 0x80 { start -= 1 }
        guard start > 0 else { return bytes.count }
        let lead = bytes[start - 1]
        let length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
        return start - 1 + length <= bytes.count ? bytes.count : start - 1
    }

    /// Everything the program wrote, with the terminal's carriage returns taken out.
    var text: String { output.text.replacingOccurrences(of: "\r", with: "") }

    @discardableResult
    func waitForLine(containing text: String, timeout: Double = 20) -> String? {
        output.waitForLine(containing: text, timeout: timeout)
    }

    @discardableResult
    func stop(timeout: Double = 10) -> Int32? {
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        guard exited.wait(timeout: .now() + timeout) == .success else { return nil }
        exited.signal()
        return process.terminationStatus
    }
}
