import APNSCore
import APNSCrypto
import APNSPlatform

/// The local APNs, in process: `start()` binds and returns the port, an acceptor thread deals connections to
/// event-loop threads that serve them in the background, `stop()` sends GOAWAY `{"reason":"Shutdown"}` everywhere, lets open streams finish and returns.
/// Tests start one on port 0 per test; `apnsctl mock` runs one until SIGINT/SIGTERM.
///
///     let server = try MockServer(configuration: MockConfiguration(identity: identity, faults: MockFaults(goAwayAfterStreams: 2)))
///     let port = try server.start()
///     defer { server.stop() }
public final class MockServer: Sendable {
    public let configuration: MockConfiguration
    private let stopPipe: WakePipe
    /// What `start()` sets up and `wait()` tears down; any thread may call either.
    private let state = LockedValue(State())

    private struct State: Sendable {
        var shared: MockServerShared?
        var threads: [OSThread] = []
        var port = 0
        /// Log lines dropped or left unwritten, once `wait()` has stopped the log writer.
        var lostLogLines: Int?
    }

    /// The bound port (the real one when configured with 0); 0 before `start()`.
    public var port: Int { state.withLock { $0.port } }

    public init(configuration: MockConfiguration) throws(MockServerError) {
        self.configuration = configuration
        guard let stopPipe = WakePipe() else { throw .resources("cannot create a pipe: \(FileSystem.errnoText())") }
        self.stopPipe = stopPipe
    }

    deinit { stop() }

    /// Binds the listener, starts the event-loop threads and returns the port. Throws when the address is
    /// unusable (e.g. the port is in use) or TLS cannot be set up from the identity.
    /// SIGPIPE is ignored from here on (process-wide): OpenSSL and the log writer use write(2), and a client
    /// that resets its connection or a log reader that goes away must cost an EPIPE, not the process.
    @discardableResult
    public func start() throws(MockServerError) -> Int {
        try state.withLock { (state: inout State) throws(MockServerError) -> Int in
            guard state.shared == nil else { throw .alreadyStarted }
            let (shared, threads) = try startLoops()
            state = State(shared: shared, threads: threads, port: shared.listener.localPort)
            return state.port
        }
    }

    /// Binds, then starts the log writer and the event loops; on failure, what was started is stopped again.
    private func startLoops() throws(MockServerError) -> (MockServerShared, [OSThread]) {
        ProcessSignals.ignoreBrokenPipe()
        let listener: Socket
        do {
            listener = try Socket.listen(host: configuration.host, port: configuration.port)
        } catch let failure {
            throw .listen(failure)
        }
        let shared = try MockServerShared(configuration: configuration, listener: listener, stop: stopPipe)
        if let writer = shared.logWriter {
            let warnings = configuration.warningDescriptor
            writer.onFirstDrop = { why in
                MockServer.warnWithoutBlocking(
                    "apnsctl mock: \(why); dropping notification log lines (the server keeps answering)", to: warnings)
            }
            guard writer.start() else { throw .resources("cannot start the log writer thread") }
        }
        var inboxes: [MockLoopInbox] = []
        for _ in 0..<configuration.threads { inboxes.append(try MockLoopInbox()) }
        var started: [OSThread] = []
        /// Starts one thread; on failure, stops the ones already running.
        func launch(_ body: sending @escaping () -> Void) throws(MockServerError) {
            let thread = OSThread()
            guard thread.start(body) else {
                stopPipe.signal()
                for t in started { t.join() }
                shared.logWriter?.finish(waitingAtMost: 0)
                throw .resources("cannot start an event-loop or acceptor thread")
            }
            started.append(thread)
        }
        let acceptor = MockAcceptor(shared: shared, inboxes: inboxes)
        try launch { acceptor.run() }
        for (index, inbox) in inboxes.enumerated() {
            let loop = MockEventLoop(index: index, shared: shared, inbox: inbox)
            try launch { loop.run() }
        }
        return (shared, started)
    }

    /// Asks every loop to stop (GOAWAY, finish open streams) and waits for them; safe to call more than once.
    public func stop() {
        stopPipe.signal()
        wait()
    }

    /// Blocks until the loops have ended (after `stop()` or a stop signal), then gives the log writer a
    /// moment to write what is queued (a reader that never reads cannot hold the stop up).
    public func wait() {
        let (running, writer) = state.withLock { state -> ([OSThread], MockLogWriter?) in
            defer { state.threads.removeAll() }
            return (state.threads, state.shared?.logWriter)
        }
        for t in running { t.join() }
        guard !running.isEmpty, let writer else { return }
        let lost = writer.finish(waitingAtMost: Self.logDrainMilliseconds)
        state.withLock { $0.lostLogLines = lost }
    }

    /// Time the log writer gets after the loops end (SIGTERM must exit within a second, loops drain for 700 ms).
    static let logDrainMilliseconds = 200

    /// Log lines dropped or left unwritten because the log's reader did not keep up (known after `wait()`).
    public var droppedLogLines: Int {
        let (lost, writer) = state.withLock { ($0.lostLogLines, $0.shared?.logWriter) }
        return lost ?? writer?.droppedLines ?? 0
    }

    /// Whether the server has nothing in hand: no connection open and every log line written (or dropped). A
    /// client that closed its connections leaves the server quiet once it has read them to their end, so the log
    /// then holds every line those connections will ever make: what a reader waits for, instead of for time.
    var isQuiet: Bool {
        guard let shared = state.withLock({ $0.shared }) else { return true }
        return shared.openConnections == 0 && (shared.logWriter?.isIdle ?? true)
    }

    /// The `errno` of a failed write of the log (not a slow reader): the mock exits 74 when stopped.
    public var logWriteError: Int32? { state.withLock { $0.shared }?.logWriter?.writeError }

    /// A warning on `fd` (stderr, `MockConfiguration.warningDescriptor`) only if it can be written at once: stderr
    /// may be the same stalled pipe.
    public static func warnWithoutBlocking(_ message: String, to fd: Int32) {
        // Messages may quote a file name or a client's bytes: escaped like every other message.
        let bytes = Array(("warning: " + PrintableText.escapingControls(message) + "\n").utf8.prefix(512))
        StandardStreams.writeIfReady(fd: fd, bytes)
    }

    /// Makes SIGINT and SIGTERM stop this server (the handler only writes a byte to the stop pipe), and end the
    /// process within a second whatever its main thread waits on: past `forcedStopMilliseconds` (the orderly
    /// stop takes at most `logDrainMilliseconds` after the loops' 700 ms), `lastly` runs and the process exits 0.
    public func stopOnTerminationSignals(lastly: @escaping @Sendable () -> Void = {}) {
        ProcessSignals.wakeOnTermination(stopPipe, endingWithin: Self.forcedStopMilliseconds, lastly: lastly)
    }

    /// When a stop signal ends the process even if the orderly stop has not finished.
    static let forcedStopMilliseconds = 900
}
