import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension Process {
    /// Starts the process as an interactive shell would: no signal blocked, and every signal at its default action.
    ///
    /// Foundation's `run()` hands the child the signal mask of the thread that calls it, and the test runner's
    /// threads block nearly every signal: a server started from one never saw the SIGTERM of `terminate()`,
    /// outlived its test, and held the test runner's output open. It also hands on the signals this process
    /// ignores, and an ignored signal stays ignored across exec:
    /// - this process ignores SIGPIPE and SIGXFSZ, as `main` does, where a user's shell never does, so a doc
    ///   example's pipeline would run unlike the user's;
    /// - a runner started in the background (`nohup make test`, `make test &` from a script) ignores SIGINT and
    ///   SIGQUIT, and apnsctl keeps an ignored SIGINT ignored, as `nohup` asks: every test that interrupts a send
    ///   would wait for an interrupt that never comes.
    ///
    /// `posix_spawn` can reset them (`SpawnedProcess` resets the two apnsctl ignores, for the product's children),
    /// but Foundation's `Process` offers no way to, so the child goes through `env --default-signal`, which resets
    /// them all and execs the program (its pid stays the child's). Foundation's start stays: it closes every other
    /// descriptor of this process in the child, which a server outliving its test must not hold.
    public func runAsAShellWould() throws {
        #if os(Linux)
            if let executable = executableURL?.path {
                executableURL = URL(fileURLWithPath: "/usr/bin/env")
                arguments = ["--default-signal", "--", executable] + (arguments ?? [])
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
