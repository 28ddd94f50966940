#if canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#else
    import Glibc
#endif

/// What a poller waits for on one descriptor.
public struct PollInterest: OptionSet, Sendable, Hashable {
    public let rawValue: Int16
    public init(rawValue: Int16) { self.rawValue = rawValue }

    public static let readable = PollInterest(rawValue: Int16(POLLIN))
    public static let writable = PollInterest(rawValue: Int16(POLLOUT))
}

/// What `poll(2)` reported for one descriptor: the interests that are ready, and the conditions poll
/// reports whether asked or not (an error, the peer hung up, a descriptor that is not open).
public struct PollEvents: OptionSet, Sendable, Hashable {
    public let rawValue: Int16
    public init(rawValue: Int16) { self.rawValue = rawValue }

    public static let readable = PollEvents(rawValue: Int16(POLLIN))
    public static let writable = PollEvents(rawValue: Int16(POLLOUT))
    public static let error = PollEvents(rawValue: Int16(POLLERR))
    public static let hangUp = PollEvents(rawValue: Int16(POLLHUP))
    public static let invalid = PollEvents(rawValue: Int16(POLLNVAL))

    /// Anything at all happened on the descriptor.
    public var any: Bool { !isEmpty }
    /// A read would not block: data, end of file, or an error to collect.
    public var readableOrClosed: Bool { !isDisjoint(with: [.readable, .error, .hangUp]) }
}

/// Why `PollSet.wait` returned.
public enum PollWake: Equatable, Sendable {
    /// A descriptor of the set is ready (see `events(at:)`).
    case ready
    /// The interrupt descriptor is readable (a signal, a stop request); its byte is left for its owner.
    /// Descriptors of the set may be ready too.
    case interrupted
    /// The deadline came and nothing was ready.
    case deadline
}

/// The one wait of apnsctl: "poll these descriptors and the interrupt until this deadline". Every loop
/// that sleeps beside sockets or pipes (connecting, the proxy handshake, the resolver, the sender, the
/// event loops) builds one and calls `wait`, so the deadline is turned into a poll timeout in one place,
/// rounded up: a wait never ends before its deadline (a loop that re-checks the clock then sees it passed,
/// instead of polling again for 0 ms until it has).
///
/// Reusable: `removeAll()` keeps the storage, so an event loop polling thousands of times a second does
/// not allocate for it.
public struct PollSet {
    private var fds: [pollfd] = []
    /// How many descriptors the caller added (the interrupt, if any, sits after them during `wait`).
    public private(set) var count = 0

    public init() {}

    /// Forgets every descriptor, keeping the storage.
    public mutating func removeAll() {
        fds.removeAll(keepingCapacity: true)
        count = 0
    }

    /// Adds `fd` with `interest` and returns its index for `events(at:)`. A nil `fd` takes an index and is
    /// never ready, so indices can stay fixed while a descriptor is left out for a while.
    @discardableResult
    public mutating func add(_ fd: Int32?, _ interest: PollInterest) -> Int {
        fds.append(pollfd(fd: fd ?? -1, events: interest.rawValue, revents: 0))
        count += 1
        return count - 1
    }

    /// What the last `wait` reported for the descriptor at `index` (empty before a wait).
    public func events(at index: Int) -> PollEvents {
        index >= 0 && index < count ? PollEvents(rawValue: fds[index].revents) : []
    }

    /// Sleeps until a descriptor is ready, `interrupt` (if any) is readable, or `deadline` (monotonic ns,
    /// `SystemClock.monotonicNanoseconds()`; nil: no deadline) has come; EINTR resumes the wait with the
    /// time left. A deadline already past polls once without sleeping. A failed poll(2) (out of memory)
    /// returns `.ready` with no events: the caller re-checks its state and clock as after any wake-up.
    public mutating func wait(until deadline: UInt64?, interrupt: Int32? = nil) -> PollWake {
        if let interrupt { fds.append(pollfd(fd: interrupt, events: Int16(POLLIN), revents: 0)) }
        defer { if interrupt != nil { fds.removeLast() } }
        for i in fds.indices { fds[i].revents = 0 }
        while true {
            let timeout = Self.milliseconds(until: deadline, now: SystemClock.monotonicNanoseconds())
            let n = fds.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), timeout) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return .ready }
            if interrupt != nil, let last = fds.last, last.revents != 0 { return .interrupted }
            return n == 0 ? .deadline : .ready
        }
    }

    /// Waits on one descriptor alone: `PollSet` with a single entry, for the short waits that are not a
    /// loop of their own (a handshake step, a full pipe).
    public static func wait(for fd: Int32, _ interest: PollInterest, until deadline: UInt64?) -> PollEvents {
        var set = PollSet()
        set.add(fd, interest)
        _ = set.wait(until: deadline)
        return set.events(at: 0)
    }

    /// The poll(2) timeout for `deadline` at `now`, the one rounding: -1 (forever) without a deadline, 0 when
    /// it has passed, else the milliseconds left rounded up, so the wait never ends before the deadline.
    static func milliseconds(until deadline: UInt64?, now: UInt64) -> Int32 {
        guard let deadline else { return -1 }
        guard deadline > now else { return 0 }
        return Int32(min(UInt64(Int32.max), (deadline - now + 999_999) / 1_000_000))
    }
}
