import CEpoll
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

/// Readiness through epoll(7): a descriptor is registered once, and a wait returns only the ready ones.
///
/// `poll(2)` takes the whole interest list on every wait, so each wake would cost time in proportion to the
/// connections held; with thousands of players taking turns that cost, not the game, filled the host's CPU. Here a
/// wake costs in proportion to the peers that are ready. Level-triggered, so a peer left with unread input (a read
/// budget ran out) is reported again on the next wait, as with `poll`.
public final class Epoll {
    private let epollFD: Int32
    private let wakeReadFD: Int32
    /// Write one byte here (from anywhere, even a signal handler) to end a wait.
    public let wakeWriteFD: Int32
    private var events: [epoll_event]
    /// Token of the wake-up pipe; callers' tokens must differ.
    private static let wakeToken = UInt64.max

    /// `maxEventsPerWait` bounds how many ready descriptors one wait returns; the rest stay ready for the next.
    public init(maxEventsPerWait: Int = 1024) throws(SocketError) {
        epollFD = epoll_create1(cepoll_cloexec())
        guard epollFD >= 0 else { throw SocketError("epoll_create1") }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            let error = SocketError("pipe")
            Glibc.close(epollFD)
            throw error
        }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        wakeReadFD = fds[0]
        wakeWriteFD = fds[1]
        events = Array(repeating: epoll_event(), count: max(1, maxEventsPerWait))
        try control(EPOLL_CTL_ADD, fd: wakeReadFD, token: Self.wakeToken, read: true, write: false)
    }

    deinit {
        Glibc.close(epollFD)
        Glibc.close(wakeReadFD)
        Glibc.close(wakeWriteFD)
    }

    /// Starts watching `fd` under `token`.
    public func add(fd: Int32, token: UInt64, read: Bool = true, write: Bool = false) throws(SocketError) {
        try control(EPOLL_CTL_ADD, fd: fd, token: token, read: read, write: write)
    }

    /// Changes what `fd` is watched for.
    public func modify(fd: Int32, token: UInt64, read: Bool = true, write: Bool = false) throws(SocketError) {
        try control(EPOLL_CTL_MOD, fd: fd, token: token, read: read, write: write)
    }

    /// Stops watching `fd`. Call before closing it.
    public func remove(fd: Int32) {
        var unused = epoll_event()
        _ = epoll_ctl(epollFD, EPOLL_CTL_DEL, fd, &unused)
    }

    /// Ends a wait in progress (or the next one) early.
    public func wake() {
        var byte: UInt8 = 1
        _ = Glibc.write(wakeWriteFD, &byte, 1)
    }

    /// Waits up to `timeoutMs` (-1: no limit) and returns the ready descriptors, at most `maxEvents` of them (and
    /// never more than `maxEventsPerWait`); the others stay ready for the next wait. `woken` tells whether the
    /// wake-up pipe fired (its bytes are drained). An interrupted wait returns nothing ready.
    public func wait(timeoutMs: Int32, maxEvents: Int? = nil) throws(SocketError) -> (
        ready: [PollReadiness], woken: Bool
    ) {
        let count = events.withUnsafeMutableBufferPointer { buffer in
            let limit = min(buffer.count, max(1, maxEvents ?? buffer.count))
            return epoll_wait(epollFD, buffer.baseAddress, Int32(limit), timeoutMs)
        }
        if count < 0 {
            if errno == EINTR { return ([], false) }
            throw SocketError("epoll_wait")
        }
        var ready: [PollReadiness] = []
        ready.reserveCapacity(Int(count))
        var woken = false
        let readMask = cepoll_in() | cepoll_rdhup()
        let failMask = cepoll_err() | cepoll_hup()
        for index in 0..<Int(count) {
            let event = events[index]
            let token = event.data.u64
            if token == Self.wakeToken {
                woken = true
                drainWakePipe()
                continue
            }
            ready.append(
                PollReadiness(
                    token: token, readable: event.events & readMask != 0, writable: event.events & cepoll_out() != 0,
                    failed: event.events & failMask != 0))
        }
        return (ready, woken)
    }

    private func control(_ operation: Int32, fd: Int32, token: UInt64, read: Bool, write: Bool) throws(SocketError) {
        var event = epoll_event()
        event.events = (read ? cepoll_in() | cepoll_rdhup() : 0) | (write ? cepoll_out() : 0)
        event.data.u64 = token
        guard epoll_ctl(epollFD, operation, fd, &event) == 0 else { throw SocketError("epoll_ctl") }
    }

    private func drainWakePipe() {
        var buffer = [UInt8](repeating: 0, count: 256)
        while Glibc.read(wakeReadFD, &buffer, buffer.count) > 0 {}
    }
}

@available(*, unavailable)
extension Epoll: Sendable {}
