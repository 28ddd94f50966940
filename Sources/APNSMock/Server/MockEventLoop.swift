import APNSCore
import APNSCrypto

/// One event-loop thread: polls the stop pipe, the shared listener (when this loop is among the least loaded)
/// and its own connections, and services whichever are ready. After the stop pipe fires it stops accepting,
/// sends GOAWAY to every connection, lets open streams finish, and ends within `drainMilliseconds`.
final class MockEventLoop {
    let index: Int
    let shared: MockServerShared
    private var connections: [MockConnection] = []
    private let context: LoopContext
    private var stopping = false
    private var stopDeadline: UInt64 = 0
    /// No accepting before this (monotonic ns): set when the process ran out of descriptors, because the
    /// listener then stays readable and polling it again at once would spin a core until a slot frees up.
    private var acceptPausedUntil: UInt64 = 0

    /// How long accepting pauses after `EMFILE`/`ENFILE` (waiting clients stay in the listen backlog).
    static let acceptPauseMilliseconds: UInt64 = 100

    /// Time allowed for open streams after a stop request (SIGTERM must exit within a second).
    static let drainMilliseconds: UInt64 = 700

    init(index: Int, shared: MockServerShared) {
        self.index = index
        self.shared = shared
        self.context = LoopContext(log: MockLog(writer: shared.logWriter))
    }

    /// Runs until stopped and drained.
    func run() {
        var fds: [pollfd] = []
        while true {
            let accepting = !stopping && SystemClock.monotonicNanoseconds() >= acceptPausedUntil && shared.mayAccept(loop: index)
            fds.removeAll(keepingCapacity: true)
            fds.append(pollfd(fd: stopping ? -1 : shared.stop.readFD, events: Poll.readable, revents: 0))
            fds.append(pollfd(fd: accepting ? shared.listener.fd : -1, events: Poll.readable, revents: 0))
            for c in connections { fds.append(pollfd(fd: c.fd, events: c.pollEvents, revents: 0)) }

            _ = Poll.wait(&fds, timeoutMs: pollTimeout())
            let now = SystemClock.monotonicNanoseconds()
            context.nowSeconds = SystemClock.now()

            if !stopping && fds[0].revents != 0 { beginStop(now: now) }
            if accepting && fds[1].revents != 0 { acceptConnections(now: now) }
            // Connections accepted just now are not in `fds` yet; they were serviced once on accept.
            for i in 0..<min(connections.count, fds.count - 2) where fds[i + 2].revents != 0 {
                connections[i].service(revents: fds[i + 2].revents, context: context)
            }
            for c in connections { c.checkHandshakeDeadline(now: now) }
            let before = connections.count
            connections.removeAll { $0.isClosed }
            if connections.count != before { shared.setLoad(connections.count, loop: index) }
            context.log.flush()

            if stopping && (connections.isEmpty || now >= stopDeadline) { break }
        }
        for c in connections { c.close() }
        connections.removeAll()
        shared.setLoad(0, loop: index)
        context.log.flush()
    }

    /// Wakes for the nearest handshake deadline or the stop deadline, and at least every 250 ms so a loop
    /// that skipped the listener re-checks whether it should accept.
    private func pollTimeout() -> Int32 {
        let now = SystemClock.monotonicNanoseconds()
        var nearest = now + 250_000_000
        if stopping { nearest = min(nearest, stopDeadline) }
        if acceptPausedUntil > now { nearest = min(nearest, acceptPausedUntil) }
        for c in connections where c.phase == .handshaking { nearest = min(nearest, c.handshakeDeadline) }
        return nearest <= now ? 0 : Int32((nearest - now) / 1_000_000) + 1
    }

    private func beginStop(now: UInt64) {
        stopping = true
        stopDeadline = now + Self.drainMilliseconds * 1_000_000
        for c in connections { c.beginShutdown() }
    }

    /// Accepts a few waiting clients and starts their handshakes.
    private func acceptConnections(now: UInt64) {
        for _ in 0..<4 {
            guard let socket = shared.listener.accept() else {
                let failure = errno
                if failure == EMFILE || failure == ENFILE || failure == ENOBUFS || failure == ENOMEM {
                    acceptPausedUntil = now + Self.acceptPauseMilliseconds * 1_000_000
                    shared.noteAcceptFailure(failure)
                }
                break
            }
            let (number, faulty) = shared.nextConnectionNumber()
            let context = faulty ? (shared.http1Context ?? shared.context) : shared.context
            guard let tls = try? TLSConnection.server(socket: socket, context: context) else { continue }
            let connection = MockConnection(number: number + 1, tls: tls, shared: shared, faulty: faulty, now: now)
            connections.append(connection)
            connection.advanceHandshake(context: self.context)
        }
        shared.setLoad(connections.count, loop: index)
    }
}
