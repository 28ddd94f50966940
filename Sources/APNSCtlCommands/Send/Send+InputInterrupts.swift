import APNSPlatform

/// Ctrl-C while `send` waits on its input (`send -`, `--devices -`, `@-`, a FIFO): the world's interrupts are
/// watched from that wait on, so it ends with CLI.md's `interrupted by SIGINT` line and exit 130, as an interrupt
/// while sending does, instead of the process dying without a word before anything was sent.
extension APNSCtl.Send {
    /// The error for an interrupt that came while `input` (as the user named it) was still being read.
    static func interrupted(_ interrupts: (any InterruptSource)?, reading input: String) -> CLIError {
        let signal = interrupts?.receivedSignal ?? ProcessSignals.interrupt
        let name = signal == ProcessSignals.terminate ? "SIGTERM" : "SIGINT"
        return .interrupted(
            signal: signal, message: "interrupted by \(name): nothing was sent; \(input) was still being read")
    }
}
