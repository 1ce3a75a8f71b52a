import Glibc

/// Set by the signal handler, read by the event loop after the wake-up pipe fires.
nonisolated(unsafe) private var caughtSignal: Int32 = 0
/// The poller's wake-up pipe, written by the signal handler.
nonisolated(unsafe) private var signalWakeDescriptor: Int32 = -1

/// Process-wide setup the daemon needs before it opens sockets.
enum ProcessSetup {
    /// SIGPIPE is ignored (a peer that went away must be an error, not the end of the daemon); SIGINT, SIGTERM and
    /// SIGHUP (the host's terminal closed) write to `wakeDescriptor` so the poll loop ends its wait and shuts down
    /// in order.
    static func installSignalHandlers(wakeDescriptor: Int32) {
        signalWakeDescriptor = wakeDescriptor
        signal(SIGPIPE, SIG_IGN)
        let handler: @convention(c) (Int32) -> Void = { number in
            caughtSignal = number
            var byte: UInt8 = 1
            _ = write(signalWakeDescriptor, &byte, 1)
        }
        signal(SIGINT, handler)
        signal(SIGTERM, handler)
        signal(SIGHUP, handler)
        // A parent may start us with these signals blocked (a blocked mask survives exec); unblock them.
        var stopSignals = sigset_t()
        sigemptyset(&stopSignals)
        sigaddset(&stopSignals, SIGINT)
        sigaddset(&stopSignals, SIGTERM)
        sigaddset(&stopSignals, SIGHUP)
        pthread_sigmask(SIG_UNBLOCK, &stopSignals, nil)
    }

    /// The signal that asked the daemon to stop, 0 when none did.
    static var stopSignal: Int32 { caughtSignal }

    /// Raises the soft limit on open descriptors to the hard limit; returns the limit now in force.
    @discardableResult
    static func raiseDescriptorLimit() -> Int {
        var limit = rlimit()
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        guard getrlimit(resource, &limit) == 0 else { return 1024 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(resource, &raised) == 0 { limit = raised }
        }
        return limit.rlim_cur > rlim_t(Int32.max) ? Int(Int32.max) : Int(limit.rlim_cur)
    }

    /// Whether the descriptor is a terminal.
    static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }

    /// The machine's IPv4 addresses other than loopback, as players would type them.
    static func lanAddresses() -> [String] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return [] }
        defer { freeifaddrs(list) }
        var addresses: [String] = []
        var cursor = list
        while let entry = cursor?.pointee {
            defer { cursor = entry.ifa_next }
            guard let address = entry.ifa_addr, Int32(address.pointee.sa_family) == AF_INET else { continue }
            var buffer = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN) + 1)
            address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { pointer in
                var ip = pointer.pointee.sin_addr
                _ = inet_ntop(AF_INET, &ip, &buffer, socklen_t(buffer.count))
            }
            let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if !text.hasPrefix("127."), !addresses.contains(text) { addresses.append(text) }
        }
        return addresses
    }
}
