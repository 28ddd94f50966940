#if canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#else
    import Glibc
#endif

/// A mutex for the few places threads share state (the mock's event loops and log writer, OpenSSL's provider
/// load, a memoised passphrase). The `pthread_mutex_t` lives in heap memory this class owns: Swift promises no
/// stable address for a stored property, so `pthread_mutex_lock(&property)` may lock a temporary copy. The same
/// shape as NIO's `NIOLock`.
public final class Lock: @unchecked Sendable {
    /// Allocated and initialised in `init`, destroyed in `deinit`; lent to `Condition` only while locked.
    let mutex: UnsafeMutablePointer<pthread_mutex_t>

    public init() { mutex = PThreadStorage.make(pthread_mutex_t()) { pthread_mutex_init($0, nil) } }

    deinit { PThreadStorage.free(mutex) { pthread_mutex_destroy($0) } }

    /// Takes the lock; pair with `unlock()` (prefer `withLock`).
    public func lock() { pthread_mutex_lock(mutex) }

    /// Releases the lock taken by `lock()`.
    public func unlock() { pthread_mutex_unlock(mutex) }

    /// Runs `body` holding the lock, so it cannot be left locked by an early return or a throw.
    public func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}
