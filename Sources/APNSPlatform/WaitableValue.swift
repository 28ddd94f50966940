#if canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#else
    import Glibc
#endif

/// A value several threads share, reachable only while its lock is held, with a condition to wait on until it
/// changes: `LockedValue` for a thread that waits for work or for a queue to drain (the mock's log writer).
public final class WaitableValue<Value> {
    private let lock = Lock()
    private let condition = Condition()
    private var value: Value

    public init(_ value: Value) { self.value = value }

    /// Runs `body` with the value, holding the lock; changes made through `inout` are kept.
    public func withLock<T>(_ body: (inout Value) -> T) -> T {
        lock.withLock { body(&value) }
    }

    /// Waits while `blocked(value)` holds (at most until `deadline`, a `Condition.deadline(afterMilliseconds:)`),
    /// then runs `body` with the value, all under the lock. `body`'s `Bool` says the deadline passed first.
    public func wait<T>(
        while blocked: (Value) -> Bool, until deadline: timespec? = nil,
        then body: (inout Value, Bool) -> T
    ) -> T {
        lock.withLock {
            var timedOut = false
            while blocked(value) {
                if let deadline {
                    if !condition.wait(holding: lock, until: deadline) {
                        timedOut = true
                        break
                    }
                } else {
                    condition.wait(holding: lock)
                }
            }
            return body(&value, timedOut)
        }
    }

    /// Wakes one waiter (after a change made with `withLock`).
    public func signal() { condition.signal() }

    /// Wakes every waiter.
    public func broadcast() { condition.broadcast() }
}

/// Sendable when what it guards is, as `LockedValue`.
extension WaitableValue: @unchecked Sendable where Value: Sendable {}
