/// Where a running command's interrupts come from: the process's SIGINT and SIGTERM (`InterruptSignals`) in
/// the binary, or whatever a caller running the command in its own process hands it (one per run, so runs side
/// by side never see each other's interrupts). A send polls `fd` beside its sockets and stops in order once it
/// is readable.
public protocol InterruptSource: AnyObject, Sendable {
    /// Readable once an interrupt arrived (or `stopForLostOutput` was called).
    var fd: Int32 { get }
    /// The interrupt that arrived (a signal number), or `InterruptSignals.outputLost`; reading consumes it.
    func take() -> Int32?
    /// Wakes the poll loop as the first interrupt would, with `InterruptSignals.outputLost`.
    func stopForLostOutput()
    /// The first real interrupt (SIGINT or SIGTERM), whether or not `take` consumed it.
    var receivedSignal: Int32? { get }
    /// Results the command has sent and not yet printed (what a second signal's message counts).
    var owedResults: Int { get set }
    /// Words a second signal's message ends with, for what exiting at once leaves undone (`; --unsent u.txt was not
    /// written`). Sources that cannot exit at once ignore it.
    func noteForExitingAtOnce(_ text: String)
}

extension InterruptSource {
    public func noteForExitingAtOnce(_ text: String) {}
}
