#if canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#else
    import Glibc
#endif

/// A condition variable used with a `Lock`, for a thread that waits for work or for a queue to drain (the
/// mock's log writer). Its `pthread_cond_t` lives in heap memory it owns, for the reason `Lock` gives.
public final class Condition: @unchecked Sendable {
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    public init() { condition = PThreadStorage.make(pthread_cond_t()) { pthread_cond_init($0, nil) } }

    deinit { PThreadStorage.free(condition) { pthread_cond_destroy($0) } }

    /// Waits for a signal; the caller holds `lock`, which is released while waiting and held again on return.
    /// Wake-ups may be spurious: call it in a loop that rechecks what it waits for.
    public func wait(holding lock: Lock) {
        pthread_cond_wait(condition, lock.mutex)
    }

    /// `wait(holding:)` that gives up at `deadline` (a `Condition.deadline(afterMilliseconds:)`); false when
    /// the deadline passed.
    public func wait(holding lock: Lock, until deadline: timespec) -> Bool {
        var deadline = deadline
        return pthread_cond_timedwait(condition, lock.mutex, &deadline) != ETIMEDOUT
    }

    /// The wall-clock moment `milliseconds` from now, as `pthread_cond_timedwait` wants it.
    public static func deadline(afterMilliseconds milliseconds: Int) -> timespec {
        var deadline = timespec()
        clock_gettime(CLOCK_REALTIME, &deadline)
        let nanoseconds = Int(deadline.tv_nsec) + milliseconds * 1_000_000
        deadline.tv_sec += nanoseconds / 1_000_000_000
        deadline.tv_nsec = nanoseconds % 1_000_000_000
        return deadline
    }

    /// Wakes one waiter.
    public func signal() { pthread_cond_signal(condition) }

    /// Wakes every waiter.
    public func broadcast() { pthread_cond_broadcast(condition) }
}
