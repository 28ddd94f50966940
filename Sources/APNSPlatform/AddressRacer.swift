/// The order and timing of connection attempts when a host has several addresses (RFC 8305, "Happy
/// Eyeballs", as curl does it): families interleaved, a new attempt every `staggerNs` while earlier ones
/// are pending, a failed attempt starting the next at once, everything within one deadline. So a
/// broken IPv6 route costs one stagger, not a timeout. Pure: time and outcomes come in as values.
public struct AddressRacer: Sendable {
    /// What the connecting loop does next.
    public enum Action: Equatable, Sendable {
        /// Start connecting to address `index`.
        case start(index: Int)
        /// Wait for a pending attempt to finish, at most until `until` (monotonic ns).
        case wait(until: UInt64)
        /// Every attempt failed (`timedOut` false) or the deadline passed (`timedOut` true).
        case giveUp(timedOut: Bool)
    }

    /// Curl's and RFC 8305's "Connection Attempt Delay".
    public static let defaultStaggerNs: UInt64 = 250_000_000

    private let count: Int
    private let staggerNs: UInt64
    private let deadline: UInt64
    private var nextIndex = 0
    private var pending = 0
    private var lastStart: UInt64 = 0

    /// A race over `count` addresses (already in the order to try) that must finish by `deadline`.
    public init(count: Int, deadline: UInt64, staggerNs: UInt64 = AddressRacer.defaultStaggerNs) {
        self.count = count
        self.deadline = deadline
        self.staggerNs = staggerNs
    }

    /// The next step at time `now`.
    public mutating func next(now: UInt64) -> Action {
        if now >= deadline { return .giveUp(timedOut: true) }
        if nextIndex < count && (pending == 0 || now >= lastStart &+ staggerNs) {
            lastStart = now
            pending += 1
            nextIndex += 1
            return .start(index: nextIndex - 1)
        }
        if pending == 0 { return .giveUp(timedOut: false) }
        let until = nextIndex < count ? min(deadline, lastStart &+ staggerNs) : deadline
        return .wait(until: until)
    }

    /// A started attempt failed (refused, unreachable): the next one may start at once.
    public mutating func attemptFailed() {
        if pending > 0 { pending -= 1 }
    }

    /// RFC 8305 §4: alternate address families, starting with the family the resolver listed first.
    public static func interleaved<A>(_ addresses: [A], isIPv6: (A) -> Bool) -> [A] {
        guard let first = addresses.first else { return [] }
        let firstFamily = isIPv6(first)
        var preferred = addresses.filter { isIPv6($0) == firstFamily }
        var other = addresses.filter { isIPv6($0) != firstFamily }
        var out: [A] = []
        out.reserveCapacity(addresses.count)
        preferred.reverse()
        other.reverse()
        while !preferred.isEmpty || !other.isEmpty {
            if let a = preferred.popLast() { out.append(a) }
            if let b = other.popLast() { out.append(b) }
        }
        return out
    }
}
