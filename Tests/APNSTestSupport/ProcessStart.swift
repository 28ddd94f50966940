import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension Process {
    /// Starts the process as a user's shell would: no signal blocked, and SIGPIPE, SIGXFSZ, SIGINT and SIGQUIT at
    /// their default actions.
    ///
    /// Foundation's `run()` hands the child the signal mask of the thread that calls it, and the test runner's
    /// threads block nearly every signal: a server started from one never saw the SIGTERM of `terminate()`,
    /// outlived its test, and held the test runner's output open. It also hands on the signals this process
    /// ignores, and an ignored signal stays ignored across exec:
    /// - this process ignores SIGPIPE and SIGXFSZ, as `main` does, where a user's shell never does, so a doc
    ///   example's pipeline would run unlike the user's;
    /// - the test binary run directly from a shell's background job (`&` without job control) ignores SIGINT and
    ///   SIGQUIT (`swift test` resets them for it, but not every way of running it does), and apnsctl keeps an
    ///   ignored SIGINT ignored, as it should for `nohup`: every test that interrupts a send would wait for an
    ///   interrupt that never comes.
    ///
    /// `posix_spawn` can reset them (`SpawnedProcess` resets the two apnsctl ignores, for the product's children),
    /// but Foundation's `Process` offers no way to, so on Linux the child goes through GNU `env --default-signal`,
    /// which resets those four and execs the program (its pid stays the child's). SIGHUP is left as it came:
    /// under `nohup` the children must outlive a hang-up as the runner does. Foundation's start stays: it closes
    /// every other descriptor of this process in the child, which a server outliving its test must not hold.
    public func runAsAShellWould() throws {
        #if os(Linux)
            if let executable = executableURL?.path {
                executableURL = URL(fileURLWithPath: "/usr/bin/env")
                arguments = ["--default-signal=PIPE,XFSZ,INT,QUIT", "--", executable] + (arguments ?? [])
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
