import CPlatform

#if canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#else
    import Glibc
#endif

/// Keeps private keys out of core files and away from other processes. Called first thing at start-up, before
/// any credential is read: RLIMIT_CORE 0 (soft and hard, so nothing later raises it) and, on Linux, not
/// dumpable (PR_SET_DUMPABLE 0: no core even with a core_pattern pipe, and /proc/PID/mem and ptrace closed to
/// other processes of the same user). Two system calls; nothing measurable at start-up.
public enum CoreDumps {
    /// Turns core files off for the rest of the process's life.
    public static func disable() {
        var none = rlimit(rlim_cur: 0, rlim_max: 0)
        #if canImport(Glibc)
            _ = setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &none)
        #else
            _ = setrlimit(RLIMIT_CORE, &none)
        #endif
        // Darwin has no dumpable switch; its cores need RLIMIT_CORE (now 0) and are off by default anyway.
        _ = CPlatform_disableDumping()
    }
}
