import APNSPlatform

/// Interrupts a test delivers to one command run in-process (`deliver(SIGINT)`), standing in for the signals
/// the binary gets: the run stops as after the first SIGINT or SIGTERM, and runs side by side never see each
/// other's. A second signal's exit at once is the process's own and stays with the binary's tests.
public final class DeliveredInterrupts: InterruptSource, @unchecked Sendable {
    private let pipe: WakePipe
    private let first = LockedValue<Int32?>(nil)
    private let owed = LockedValue(0)
    /// How many times a command asked for its interrupts (a send asks once, when its requests are ready).
    private let asked = LockedValue(0)

    public init() throws {
        guard let pipe = WakePipe() else {
            throw TestSupportError("no pipe for the interrupts: \(FileSystem.errnoText())")
        }
        self.pipe = pipe
    }

    public var fd: Int32 { pipe.readFD }

    /// Delivers `signal` (SIGINT or SIGTERM) as the first signal would arrive.
    public func deliver(_ signal: Int32) {
        first.withLock { if $0 == nil { $0 = signal } }
        pipe.write(byte: UInt8(truncatingIfNeeded: signal))
    }

    public func take() -> Int32? { pipe.readByte().map { Int32($0) } }
    public func stopForLostOutput() { pipe.write(byte: UInt8(truncatingIfNeeded: InterruptSignals.outputLost)) }
    public var receivedSignal: Int32? { first.current }
    public var owedResults: Int {
        get { owed.current }
        set { owed.withLock { $0 = newValue } }
    }

    /// The source to hand a world: counts the asks, so a test knows the requests are about to go out.
    public func source() -> any InterruptSource {
        asked.withLock { $0 += 1 }
        return self
    }

    /// Every note a command left for a second signal's exit at once (`noteForExitingAtOnce`), in order; "" clears.
    private let notes = LockedValue<[String]>([])
    public func noteForExitingAtOnce(_ text: String) { notes.withLock { $0.append(text) } }
    public var exitNotes: [String] { notes.current }

    /// Whether a command asked for its interrupts yet.
    public var wasAsked: Bool { asked.current > 0 }
}
