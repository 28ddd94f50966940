#if canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#else
    import Glibc
#endif

/// Wall-clock and monotonic time without Foundation.
public enum SystemClock {
    /// Seconds since the UNIX epoch.
    public static func now() -> Int64 { Int64(time(nil)) }

    /// Milliseconds since the UNIX epoch.
    public static func nowMilliseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
    }

    /// Monotonic nanoseconds, for durations and timeouts (immune to clock changes).
    public static func monotonicNanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }
}
