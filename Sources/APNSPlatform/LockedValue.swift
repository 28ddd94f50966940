/// A value that several threads read and change, reachable only while its lock is held: the type system then
/// carries the "guarded by" rule that a comment next to a `var` could not.
public final class LockedValue<Value> {
    private let lock = Lock()
    private var value: Value

    public init(_ value: Value) { self.value = value }

    /// Runs `body` with the value, holding the lock; changes made through `inout` are kept.
    public func withLock<T, E: Error>(_ body: (inout Value) throws(E) -> T) throws(E) -> T {
        try lock.withLock { () throws(E) -> T in try body(&value) }
    }

    /// A copy of the value as it is now.
    public var current: Value { withLock { $0 } }
}

/// Sendable when what it guards is: a lock makes access exclusive, but a non-Sendable value could still leave
/// through `withLock`'s result and be used on two threads.
extension LockedValue: @unchecked Sendable where Value: Sendable {}
