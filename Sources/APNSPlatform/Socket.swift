import APNSCore

#if canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#else
    import Glibc
#endif

/// Why a TCP connection or listener could not be set up; the CLI maps these to exit 69.
public enum SocketError: Error, Equatable, Sendable, CustomStringConvertible {
    case resolve(host: String, failure: ResolveFailure)
    case connect(host: String, port: Int, reason: String)
    case timeout(host: String, port: Int, seconds: Double)
    case listen(host: String, port: Int, reason: String)
    /// A signal arrived while connecting (the caller decides what that means).
    case interrupted

    /// `host:port`, an IPv6 address in brackets (`[::1]:2197`), as a URL writes it.
    public static func place(_ host: String, _ port: Int) -> String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    public var description: String {
        switch self {
        case .resolve(let h, let f): return "cannot resolve \(h): \(f)"
        case .connect(let h, let p, let r): return "cannot connect to \(Self.place(h, p)): \(r)"
        case .timeout(let h, let p, let s):
            return "connecting to \(Self.place(h, p)) timed out after \(SecondsText.of(s))"
        case .listen(let h, let p, let r): return "cannot listen on \(Self.place(h, p)): \(r)"
        case .interrupted: return "interrupted while connecting"
        }
    }

    /// Whether more time could have helped: a timeout, or a resolver that did not answer (or answered "try
    /// again"); not a name that does not exist, which no `--timeout` changes.
    public var mayPassWithMoreTime: Bool {
        switch self {
        case .timeout: return true
        case .resolve(_, .noAnswer), .resolve(_, .resolver(code: EAI_AGAIN)): return true
        default: return false
        }
    }
}

/// Why a host name gave no address, kept as the resolver's code so that callers decide by it, not by its text.
public enum ResolveFailure: Equatable, Sendable, CustomStringConvertible {
    /// The resolver did not answer within the timeout (the connect's, or a `socks5://` tunnel's).
    case noAnswer(within: Double)
    /// `getaddrinfo` failed with this `EAI_*` code.
    case resolver(code: Int32)
    /// The lookup succeeded but listed no address.
    case noAddress

    public var description: String {
        switch self {
        case .noAnswer(let seconds): return "no answer from the resolver within \(SecondsText.of(seconds))"
        case .resolver(let code): return gai_strerror(code).map { String(cString: $0) } ?? "error \(code)"
        case .noAddress: return "no address"
        }
    }
}

/// One resolved socket address, copied out of `getaddrinfo`'s list so it outlives it.
public struct SocketAddress: Sendable, Equatable {
    /// `AF_INET` or `AF_INET6`.
    public let family: Int32
    /// The `sockaddr` bytes.
    let bytes: [UInt8]

    /// Whether this is an IPv6 address (RFC 8305 interleaves the families).
    public var isIPv6: Bool { family == AF_INET6 }

    /// The numeric address, e.g. `::1` or `127.0.0.1`.
    public var numericHost: String {
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        let rc = bytes.withUnsafeBytes { raw -> Int32 in
            guard let base = raw.baseAddress else { return -1 }
            return getnameinfo(
                base.assumingMemoryBound(to: sockaddr.self), socklen_t(raw.count), &host, socklen_t(host.count),
                nil, 0, NI_NUMERICHOST)
        }
        guard rc == 0 else { return "?" }
        return host.withUnsafeBufferPointer { p in p.baseAddress.map { String(cString: $0) } ?? "?" }
    }

    /// The raw IP address: 4 bytes (IPv4) or 16 (IPv6), as a SOCKS5 request carries it.
    public var ipBytes: [UInt8] {
        isIPv6 ? Array(bytes.dropFirst(8).prefix(16)) : Array(bytes.dropFirst(4).prefix(4))
    }

    /// `reason` with the address it concerns, when a host has several: `::1: Connection refused`.
    func describe(_ reason: String) -> String { "\(numericHost): \(reason)" }
}

/// An owned, non-blocking TCP socket. TLS and HTTP/2 run on top of its descriptor; it is closed in `deinit`.
public final class Socket: @unchecked Sendable {
    /// The descriptor; valid for the object's lifetime.
    public let fd: Int32

    /// Takes ownership of `fd`.
    public init(takingOwnership fd: Int32) { self.fd = fd }

    deinit { close(fd) }

    /// `host:port`'s addresses by a lookup bounded by `deadline` (monotonic ns; `timeout` names it in the
    /// message) and abandoned when `interruptFD` becomes readable: the first step of a connection (a fresh DNS
    /// lookup each time, as APNs asks of new connections), which `connect(to:…)` then races. `resolver` answers
    /// for a name (an IP literal is taken as it is).
    public static func lookUp(
        host: String, port: Int, deadline: UInt64, timeout: Double,
        interruptFD: Int32? = nil, using resolver: NameLookup
    ) throws(SocketError) -> [SocketAddress] {
        try Resolver.lookUp(
            host: host, port: port, deadline: deadline, timeout: timeout, interruptFD: interruptFD, using: resolver)
    }

    /// The numeric address of the peer (`17.188.143.34`, `::1`); nil when not connected.
    public var peerNumericHost: String? {
        var storage = sockaddr_storage()
        var len = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let ok = withUnsafeMutablePointer(to: &storage) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &len) }
        }
        guard ok == 0 else { return nil }
        let bytes = withUnsafeBytes(of: &storage) { Array($0.prefix(Int(len))) }
        let host = SocketAddress(family: Int32(storage.ss_family), bytes: bytes).numericHost
        return host == "?" ? nil : host
    }

    /// Races `addresses` (in the order given, `AddressRacer.interleaved` for a lookup's) as RFC 8305 asks: a new
    /// attempt every `staggerNs` (250 ms) while earlier ones are pending, until one connects or `deadline` passes;
    /// `host` and `port` name the destination in messages. When `interruptFD` becomes readable (a signal
    /// arrived), it stops with `.interrupted` and leaves the byte for its owner to read.
    public static func connect(
        to addresses: [SocketAddress], host: String, port: Int, timeout: Double, deadline: UInt64,
        interruptFD: Int32? = nil,
        staggerNs: UInt64 = AddressRacer.defaultStaggerNs
    ) throws(SocketError) -> Socket {
        var racer = AddressRacer(count: addresses.count, deadline: deadline, staggerNs: staggerNs)
        var attempts: [(index: Int, socket: Socket)] = []
        var lastError = SocketError.connect(host: host, port: port, reason: "no address")
        /// With several addresses, a failure says which one it was about.
        func reason(_ index: Int, _ code: Int32) -> String {
            addresses.count > 1 ? addresses[index].describe(FileSystem.errnoText(code)) : FileSystem.errnoText(code)
        }
        while true {
            switch racer.next(now: SystemClock.monotonicNanoseconds()) {
            case .giveUp(let timedOut):
                if timedOut { throw .timeout(host: host, port: port, seconds: timeout) }
                throw lastError
            case .start(let index):
                switch startConnect(to: addresses[index]) {
                case .connected(let sock): return sock
                case .inProgress(let sock): attempts.append((index, sock))
                case .failed(let code):
                    lastError = .connect(host: host, port: port, reason: reason(index, code))
                    racer.attemptFailed()
                }
            case .wait(let until):
                var poller = PollSet()
                for attempt in attempts { poller.add(attempt.socket.fd, .writable) }
                switch poller.wait(until: until, interrupt: interruptFD) {
                case .deadline: continue
                case .interrupted: throw .interrupted
                case .ready: break
                }
                var finished: [Int] = []
                for (slot, attempt) in attempts.enumerated() where poller.events(at: slot).any {
                    let code = attempt.socket.pendingError()
                    if code == 0 {
                        attempt.socket.setNoDelay()
                        return attempt.socket
                    }
                    lastError = .connect(host: host, port: port, reason: reason(attempt.index, code))
                    racer.attemptFailed()
                    finished.append(slot)
                }
                for slot in finished.reversed() { attempts.remove(at: slot) }
            }
        }
    }

    /// How a non-blocking connect started.
    enum ConnectStart {
        case connected(Socket)
        case inProgress(Socket)
        case failed(Int32)
    }

    /// Starts a non-blocking connect to `address`.
    static func startConnect(to address: SocketAddress) -> ConnectStart {
        let fd = SocketFlags.openTCP(family: address.family)
        if fd < 0 { return .failed(errno) }
        let sock = Socket(takingOwnership: fd)
        sock.setNonBlocking()
        let rc = address.bytes.withUnsafeBytes { raw -> Int32 in
            guard let base = raw.baseAddress else { return -1 }
            return cConnect(fd, base.assumingMemoryBound(to: sockaddr.self), socklen_t(raw.count))
        }
        if rc == 0 {
            sock.setNoDelay()
            return .connected(sock)
        }
        return errno == EINPROGRESS ? .inProgress(sock) : .failed(errno)
    }

    /// The outcome of a finished non-blocking connect (`SO_ERROR`): 0 when it connected.
    func pendingError() -> Int32 {
        var code: Int32 = 0
        var len = socklen_t(MemoryLayout<Int32>.size)
        if getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &len) != 0 { return errno }
        return code
    }

    /// Every TCP address of `host:port`, in the resolver's order. `numericOnly` accepts only an IP literal
    /// (no lookup at all, so it cannot block).
    public static func resolveAll(host: String, port: Int, numericOnly: Bool = false) throws(SocketError)
        -> [SocketAddress]
    {
        let list = try resolve(host: host, port: port, flags: numericOnly ? AI_NUMERICHOST : 0)
        defer { freeaddrinfo(list) }
        var out: [SocketAddress] = []
        var cursor = list
        while let ai = cursor {
            cursor = ai.pointee.ai_next
            guard let addr = ai.pointee.ai_addr else { continue }
            let bytes = [UInt8](UnsafeRawBufferPointer(start: addr, count: Int(ai.pointee.ai_addrlen)))
            out.append(SocketAddress(family: ai.pointee.ai_family, bytes: bytes))
        }
        return out
    }

    /// Listens on `host:port` (port 0 picks a free one; see `localPort`).
    public static func listen(host: String, port: Int, backlog: Int32 = 512) throws(SocketError) -> Socket {
        let list = try resolve(host: host, port: port, flags: AI_PASSIVE | AI_NUMERICSERV)
        defer { freeaddrinfo(list) }
        guard let ai = list else { throw .listen(host: host, port: port, reason: "no address") }
        let fd = SocketFlags.openTCP(family: ai.pointee.ai_family)
        if fd < 0 { throw .listen(host: host, port: port, reason: FileSystem.errnoText()) }
        let sock = Socket(takingOwnership: fd)
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        if bind(fd, ai.pointee.ai_addr, ai.pointee.ai_addrlen) != 0 {
            throw .listen(host: host, port: port, reason: FileSystem.errnoText())
        }
        if cListen(fd, backlog) != 0 { throw .listen(host: host, port: port, reason: FileSystem.errnoText()) }
        sock.setNonBlocking()
        return sock
    }

    /// TCP addresses for `host:port` (free the list with `freeaddrinfo`); a lookup failure names the host.
    private static func resolve(host: String, port: Int, flags: Int32) throws(SocketError) -> UnsafeMutablePointer<
        addrinfo
    >? {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = SocketFlags.stream
        hints.ai_protocol = Int32(IPPROTO_TCP)
        hints.ai_flags = flags
        var list: UnsafeMutablePointer<addrinfo>? = nil
        let rc = getaddrinfo(host, String(port), &hints, &list)
        if rc != 0 {
            throw .resolve(host: host, failure: .resolver(code: rc))
        }
        return list
    }

    /// Accepts one pending connection (non-blocking); nil when none is waiting.
    public func accept() -> Socket? {
        if case .accepted(let socket) = acceptNext() { return socket }
        return nil
    }

    /// What one accept(2) on a listener gave.
    public enum Accepted {
        case accepted(Socket)
        /// No connection is waiting (the backlog is empty) or the call failed for a reason not listed below.
        case none
        /// A signal or a client that left before it was taken: try again at once.
        case retry
        /// The process or the system is out of descriptors or memory; the error text names which. Waiting
        /// clients stay in the listen backlog until accepting resumes.
        case outOfResources(String)
    }

    /// accept(2) with its failure told apart, so a server can pause when descriptors run out instead of
    /// spinning on a listener that stays readable.
    public func acceptNext() -> Accepted {
        let client = cAccept(fd)
        if client < 0 {
            let failure = errno
            if failure == EMFILE || failure == ENFILE || failure == ENOBUFS || failure == ENOMEM {
                return .outOfResources(FileSystem.errnoText(failure))
            }
            return failure == EINTR || failure == ECONNABORTED ? .retry : .none
        }
        _ = fcntl(client, F_SETFD, FD_CLOEXEC)
        let sock = Socket(takingOwnership: client)
        sock.setNonBlocking()
        sock.setNoDelay()
        return .accepted(sock)
    }

    /// The port this socket is bound to (the real one after `listen(port: 0)`).
    public var localPort: Int {
        var storage = sockaddr_storage()
        var len = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let ok = withUnsafeMutablePointer(to: &storage) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
        }
        guard ok == 0 else { return 0 }
        if Int32(storage.ss_family) == AF_INET6 {
            return withUnsafePointer(to: &storage) { p in
                p.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin6_port)) }
            }
        }
        return withUnsafePointer(to: &storage) { p in
            p.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
        }
    }

    /// Turns off Nagle: HTTP/2 frames are small and latency matters more than packet count.
    public func setNoDelay() {
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Makes the coming `close` send a TCP RST instead of a FIN (`SO_LINGER` on, 0 s), discarding anything
    /// unsent: the mock's reset fault, which is what a crashed server or a middlebox reset looks like.
    public func setResetOnClose() {
        var option = linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
    }

    /// Bytes written but not yet acknowledged by the peer (Linux `SIOCOUTQ`); 0 when unknown. Zero means the
    /// peer's kernel holds everything sent, so a reset can no longer destroy it in flight.
    public var unacknowledgedByteCount: Int {
        #if os(Linux)
            var count: Int32 = 0
            // 0x5411: SIOCOUTQ, the same number as TIOCOUTQ.
            return ioctl(fd, UInt(0x5411), &count) == 0 ? Int(count) : 0
        #else
            return 0
        #endif
    }

    /// Half-closes the sending side (TCP FIN) and, with `reading`, the receiving side too; the descriptor stays
    /// open until the value goes away.
    public func shutdownSending(reading: Bool = false) {
        _ = shutdown(fd, reading ? Int32(SHUT_RDWR) : Int32(SHUT_WR))
    }

    /// Asks the kernel to acknowledge received data at once instead of delaying the ACK (Linux's
    /// TCP_QUICKACK, which lasts only until the kernel's next decision, so callers set it after reads).
    /// A peer that runs Nagle's algorithm, as many proxies do, otherwise holds its next small segment
    /// until a delayed ACK arrives: up to 40 ms per exchange.
    public func requestQuickAck() {
        #if os(Linux)
            var one: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_QUICKACK, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    /// All I/O is driven by `poll`, so descriptors never block.
    public func setNonBlocking() {
        let flags = fcntl(fd, F_GETFL, 0)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
    }
}

// `connect` and `listen` clash with the static methods above inside the type; these reach the C functions.
@inline(__always)
private func cConnect(_ fd: Int32, _ addr: UnsafePointer<sockaddr>, _ len: socklen_t) -> Int32 {
    connect(fd, addr, len)
}
@inline(__always)
private func cAccept(_ fd: Int32) -> Int32 { accept(fd, nil, nil) }
@inline(__always)
private func cListen(_ fd: Int32, _ backlog: Int32) -> Int32 { listen(fd, backlog) }
