import Glibc

/// Readiness of one descriptor after a wait.
public struct PollReadiness: Sendable, Equatable {
    /// What the caller registered the descriptor under.
    public var token: UInt64
    /// Data (or end of stream, or an error to collect) can be read.
    public var readable: Bool
    /// Bytes can be written.
    public var writable: Bool
    /// The peer hung up or the descriptor is in error; a read will say which.
    public var failed: Bool

    public init(token: UInt64, readable: Bool, writable: Bool, failed: Bool) {
        self.token = token
        self.readable = readable
        self.writable = writable
        self.failed = failed
    }
}

/// A `poll(2)` loop helper with a wake-up pipe.
///
/// The interest list is rebuilt before every wait (`reset`, then `watch` for each descriptor): poll takes the
/// whole list each call anyway, and rebuilding keeps the list from ever pointing at a descriptor closed since.
/// The wake-up pipe lets a signal handler or another thread end a wait early.
public final class Poller {
    private var entries: [pollfd] = []
    private var tokens: [UInt64] = []
    private let wakeReadFD: Int32
    /// Write one byte here (from anywhere, even a signal handler) to end a wait.
    public let wakeWriteFD: Int32

    public init() throws(SocketError) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw SocketError("pipe") }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        wakeReadFD = fds[0]
        wakeWriteFD = fds[1]
    }

    deinit {
        Glibc.close(wakeReadFD)
        Glibc.close(wakeWriteFD)
    }

    /// Empties the interest list (the wake-up pipe is always watched).
    public func reset(reservingCapacity capacity: Int = 0) {
        entries.removeAll(keepingCapacity: true)
        tokens.removeAll(keepingCapacity: true)
        entries.reserveCapacity(capacity + 1)
        tokens.reserveCapacity(capacity + 1)
        entries.append(pollfd(fd: wakeReadFD, events: Int16(POLLIN), revents: 0))
        tokens.append(0)
    }

    /// Watches `fd` for reading and, when `write` is true, for writing.
    public func watch(fd: Int32, token: UInt64, read: Bool = true, write: Bool = false) {
        if entries.isEmpty { reset() }
        var events: Int16 = 0
        if read { events |= Int16(POLLIN) }
        if write { events |= Int16(POLLOUT) }
        entries.append(pollfd(fd: fd, events: events, revents: 0))
        tokens.append(token)
    }

    /// Ends a wait in progress (or the next one) early.
    public func wake() {
        var byte: UInt8 = 1
        _ = Glibc.write(wakeWriteFD, &byte, 1)
    }

    /// Waits up to `timeoutMs` (-1: no limit) and returns the ready descriptors. `woken` tells whether the
    /// wake-up pipe fired (its bytes are drained). An interrupted wait returns nothing ready.
    public func wait(timeoutMs: Int32) throws(SocketError) -> (ready: [PollReadiness], woken: Bool) {
        if entries.isEmpty { reset() }
        let count = entries.withUnsafeMutableBufferPointer { buffer in
            poll(buffer.baseAddress, nfds_t(buffer.count), timeoutMs)
        }
        if count < 0 {
            if errno == EINTR { return ([], false) }
            throw SocketError("poll")
        }
        var ready: [PollReadiness] = []
        var woken = false
        guard count > 0 else { return (ready, woken) }
        ready.reserveCapacity(Int(count))
        let readMask = Int16(POLLIN)
        let writeMask = Int16(POLLOUT)
        let failMask = Int16(POLLERR | POLLHUP | POLLNVAL)
        for index in entries.indices where entries[index].revents != 0 {
            let revents = entries[index].revents
            if index == 0 {
                woken = true
                drainWakePipe()
                continue
            }
            ready.append(
                PollReadiness(
                    token: tokens[index], readable: revents & readMask != 0, writable: revents & writeMask != 0,
                    failed: revents & failMask != 0))
        }
        return (ready, woken)
    }

    private func drainWakePipe() {
        var buffer = [UInt8](repeating: 0, count: 256)
        while Glibc.read(wakeReadFD, &buffer, buffer.count) > 0 {}
    }
}

@available(*, unavailable)
extension Poller: Sendable {}
