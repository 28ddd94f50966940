internal import COpenSSL

/// OpenSSL's life in a short process. By default OpenSSL registers an atexit handler that frees every
/// algorithm, provider and error string it loaded: work for a process that is about to end anyway, whose
/// memory the kernel reclaims at once. apnsctl writes its output through its own checked layer before it
/// exits, so nothing depends on that clean-up.
public enum OpenSSLLifetime {
    /// Call first thing in `main`, before anything else touches OpenSSL (the flag only counts on the first
    /// initialisation).
    public static func skipCleanupAtExit() {
        _ = OPENSSL_init_crypto(UInt64(OPENSSL_INIT_NO_ATEXIT), nil)
    }
}
