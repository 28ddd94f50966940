/// What stops a send when no interrupt can be watched (the process could not route its signals to a pipe, or a
/// caller running the command hands it none): only lost output, so a run whose standard output is gone (a reader
/// that exited, a full disk) stops and leaves the rest unsent exactly as it does with its signals watched.
public final class LostOutputStop: InterruptSource, Sendable {
    private let pipe: WakePipe
    private let owed = LockedValue(0)

    /// Nil when the system refuses a pipe (out of descriptors).
    public init?() {
        guard let pipe = WakePipe() else { return nil }
        self.pipe = pipe
    }

    public var fd: Int32 { pipe.readFD }
    public func take() -> Int32? { pipe.readByte().map { Int32($0) } }
    public func stopForLostOutput() { pipe.write(byte: UInt8(truncatingIfNeeded: InterruptSignals.outputLost)) }
    /// Never a signal: none is watched.
    public var receivedSignal: Int32? { nil }
    public var owedResults: Int {
        get { owed.current }
        set { owed.withLock { $0 = newValue } }
    }
}
