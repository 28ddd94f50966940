import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension Process {
    /// Starts the process with no signal blocked, as a shell would. Foundation's `run()` hands the child the
    /// signal mask of the thread that calls it, and the test runner's threads block nearly every signal: a
    /// server started from one never saw the SIGTERM of `terminate()`, outlived its test, and held the test
    /// runner's output open, so `swift test` waited for it to end on its own (a minute for one of them).
    public func runWithSignalsUnblocked() throws {
        var none = sigset_t()
        var previous = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        try run()
    }
}
