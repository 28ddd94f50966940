import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension Process {
    /// Starts the process as a shell would: no signal blocked, and SIGPIPE and SIGXFSZ at their default actions.
    ///
    /// Foundation's `run()` hands the child the signal mask of the thread that calls it, and the test runner's
    /// threads block nearly every signal: a server started from one never saw the SIGTERM of `terminate()`,
    /// outlived its test, and held the test runner's output open. It also hands on the signals this process
    /// ignores (it ignores SIGPIPE and SIGXFSZ, as `main` does), and an ignored signal stays ignored across exec
    /// where a user's shell never ignores them: a doc example's pipeline would run unlike the user's.
    /// `posix_spawn` can reset both (`SpawnedProcess` does, for the product's children), but Foundation's
    /// `Process` offers no way to, so the child goes through `env --default-signal`, which resets the two and
    /// execs the program (its pid stays the child's). Foundation's start stays: it closes every other
    /// descriptor of this process in the child, which a server outliving its test must not hold.
    public func runAsAShellWould() throws {
        #if os(Linux)
            if let executable = executableURL?.path {
                executableURL = URL(fileURLWithPath: "/usr/bin/env")
                arguments = ["--default-signal=PIPE,XFSZ", "--", executable] + (arguments ?? [])
            }
        #endif
        var none = sigset_t()
        var previous = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        try run()
    }
}
