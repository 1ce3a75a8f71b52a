import Glibc

/// Where a datagram came from or goes to: a socket address kept as bytes.
public struct DatagramAddress: Hashable, Sendable, CustomStringConvertible {
    var storage: [UInt8]
    var length: socklen_t

    /// An IPv4 address and port.
    public init?(ipv4 text: String, port: UInt16) {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, text, &address.sin_addr) == 1 else { return nil }
        storage = withUnsafeBytes(of: &address) { Array($0) }
        length = socklen_t(MemoryLayout<sockaddr_in>.size)
    }

    init(storage: sockaddr_storage, length: socklen_t) {
        var copy = storage
        self.storage = withUnsafeBytes(of: &copy) { Array($0.prefix(Int(length))) }
        self.length = length
    }

    private var sockaddrStorage: sockaddr_storage {
        var result = sockaddr_storage()
        withUnsafeMutableBytes(of: &result) { $0.copyBytes(from: storage) }
        return result
    }

    /// The numeric host ("10.0.0.5", "fe80::1"); an IPv4-mapped IPv6 address is shown as IPv4.
    public var host: String {
        var copy = sockaddrStorage
        return Socket.hostText(&copy)
    }

    public var port: UInt16 {
        var copy = sockaddrStorage
        return Socket.port(&copy) ?? 0
    }

    /// The address bytes in network order: 4 for IPv4, 16 for IPv6.
    public var ipBytes: [UInt8] {
        var copy = sockaddrStorage
        switch Int32(copy.ss_family) {
        case AF_INET:
            return withUnsafePointer(to: &copy) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { pointer in
                    withUnsafeBytes(of: pointer.pointee.sin_addr) { Array($0) }
                }
            }
        case AF_INET6:
            return withUnsafePointer(to: &copy) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                    withUnsafeBytes(of: pointer.pointee.sin6_addr) { Array($0) }
                }
            }
        default:
            return []
        }
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

/// A non-blocking, close-on-exec UDP socket.
public struct DatagramSocket: Hashable, Sendable {
    public let fd: Int32

    /// Binds to `host` (a numeric address or name; `nil` for every IPv4 interface) and `port`. `shared` sets
    /// SO_REUSEADDR so several hosts can bind one broadcast address; `broadcast` allows sending to one.
    public static func bind(host: String?, port: UInt16, shared: Bool = false, broadcast: Bool = false)
        throws(SocketError) -> DatagramSocket
    {
        let addresses = try Socket.resolve(host: host ?? "0.0.0.0", port: port, passive: true)
        var lastError = SocketError("bind", code: EADDRNOTAVAIL)
        for address in addresses {
            let fd = Glibc.socket(
                address.family, Int32(SOCK_DGRAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else {
                lastError = SocketError("socket")
                continue
            }
            var one: Int32 = 1
            if shared { setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size)) }
            if broadcast { setsockopt(fd, SOL_SOCKET, SO_BROADCAST, &one, socklen_t(MemoryLayout<Int32>.size)) }
            let bound = address.bytes.withUnsafeBytes { raw in
                Glibc.bind(fd, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), address.length)
            }
            guard bound == 0 else {
                lastError = SocketError("bind udp \(address.text):\(port)")
                Glibc.close(fd)
                continue
            }
            return DatagramSocket(fd: fd)
        }
        throw lastError
    }

    /// Receives one datagram into `buffer`; `nil` when none waits. `length` is the datagram's full length, which
    /// is more than `buffer` holds when it was cut short.
    public func receive(into buffer: UnsafeMutableRawBufferPointer) -> (length: Int, from: DatagramAddress)? {
        while true {
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let count = withUnsafeMutablePointer(to: &storage) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.recvfrom(fd, buffer.baseAddress, buffer.count, Int32(MSG_TRUNC), $0, &length)
                }
            }
            if count >= 0 { return (count, DatagramAddress(storage: storage, length: length)) }
            if errno == EINTR { continue }
            // EAGAIN, or an error queued by an earlier send (ICMP unreachable): nothing to read now either way.
            return nil
        }
    }

    /// Sends one datagram; false when the kernel refused it (no route, buffer full, …).
    @discardableResult
    public func send(_ bytes: [UInt8], to address: DatagramAddress) -> Bool {
        let sent = address.storage.withUnsafeBytes { raw in
            bytes.withUnsafeBytes { data in
                Glibc.sendto(
                    fd, data.baseAddress, data.count, Int32(MSG_NOSIGNAL),
                    raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), address.length)
            }
        }
        return sent == bytes.count
    }

    public func close() { _ = Glibc.close(fd) }
}

/// An IPv4 address of an interface that is up.
public struct InterfaceAddress: Equatable, Sendable {
    public var name: String
    public var address: String
    /// The interface's broadcast address, when it has one (not loopback or point-to-point).
    public var broadcast: String?
    public var isLoopback: Bool

    /// Every IPv4 address of every interface that is up (`getifaddrs`).
    public static func ipv4() -> [InterfaceAddress] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return [] }
        defer { freeifaddrs(list) }
        var result: [InterfaceAddress] = []
        var cursor = list
        while let entry = cursor?.pointee {
            defer { cursor = entry.ifa_next }
            let flags = Int32(bitPattern: entry.ifa_flags)
            guard flags & Int32(IFF_UP) != 0, let address = entry.ifa_addr,
                Int32(address.pointee.sa_family) == AF_INET
            else { continue }
            var broadcast: String?
            // Computed from the netmask: an address added without `brd` reports no broadcast address of its own.
            if flags & Int32(IFF_BROADCAST) != 0, let netmask = entry.ifa_netmask {
                broadcast = text(ipv4: ipv4(address) | ~ipv4(netmask))
            }
            result.append(
                InterfaceAddress(
                    name: String(cString: entry.ifa_name), address: text(address), broadcast: broadcast,
                    isLoopback: flags & Int32(IFF_LOOPBACK) != 0))
        }
        return result
    }

    /// The address in host byte order.
    private static func ipv4(_ address: UnsafeMutablePointer<sockaddr>) -> UInt32 {
        address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt32(bigEndian: $0.pointee.sin_addr.s_addr) }
    }

    private static func text(_ address: UnsafeMutablePointer<sockaddr>) -> String { text(ipv4: ipv4(address)) }

    private static func text(ipv4 value: UInt32) -> String {
        "\(value >> 24).\((value >> 16) & 0xFF).\((value >> 8) & 0xFF).\(value & 0xFF)"
    }
}
