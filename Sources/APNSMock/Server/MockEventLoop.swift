import APNSCore
import APNSCrypto
import APNSPlatform

/// One event-loop thread: polls the stop pipe, its inbox (connections the acceptor deals it) and its own
/// connections, and services whichever are ready. It never touches the listener, so it sleeps until something
/// happens or a connection's deadline comes. After the stop pipe fires it sends GOAWAY to every connection,
/// lets open streams finish, and ends within `drainMilliseconds`.
final class MockEventLoop {
    let index: Int
    let shared: MockServerShared
    let inbox: MockLoopInbox
    private var connections: [MockConnection] = []
    private let context: LoopContext
    private var stopping = false
    private var stopDeadline: UInt64 = 0

    /// Time allowed for open streams after a stop request (SIGTERM must exit within a second).
    static let drainMilliseconds: UInt64 = 700

    init(index: Int, shared: MockServerShared, inbox: MockLoopInbox) {
        self.index = index
        self.shared = shared
        self.inbox = inbox
        self.context = LoopContext(log: MockLog(writer: shared.logWriter), onAnswer: shared.configuration.onAnswer)
    }

    /// Runs until stopped and drained.
    func run() {
        var fds: [pollfd] = []
        while true {
            fds.removeAll(keepingCapacity: true)
            fds.append(pollfd(fd: stopping ? -1 : shared.stop.readFD, events: Poll.readable, revents: 0))
            fds.append(pollfd(fd: inbox.readFD, events: Poll.readable, revents: 0))
            for c in connections { fds.append(pollfd(fd: c.fd, events: c.pollEvents, revents: 0)) }

            _ = Poll.wait(&fds, timeoutMs: pollTimeout())
            let now = SystemClock.monotonicNanoseconds()
            context.nowSeconds = SystemClock.now()

            if !stopping && fds[0].revents != 0 { beginStop(now: now) }
            // Connections taken from the inbox now are not in `fds` yet; they were serviced once on arrival.
            let polled = connections.count
            if fds[1].revents != 0 { takeNewConnections(now: now) }
            for i in 0..<min(polled, fds.count - 2) where fds[i + 2].revents != 0 {
                connections[i].service(revents: fds[i + 2].revents, context: context)
            }
            for c in connections { c.checkDeadlines(now: now, context: context) }
            let before = connections.count
            connections.removeAll { $0.isClosed }
            if connections.count != before { shared.connectionClosed(count: before - connections.count) }
            context.log.flush()

            if stopping && (connections.isEmpty || now >= stopDeadline) { break }
        }
        for c in connections { c.close() }
        shared.connectionClosed(count: connections.count)
        connections.removeAll()
        // Connections dealt to this loop after it stopped are closed unserved.
        shared.connectionClosed(count: inbox.take().count)
        context.log.flush()
    }

    /// Sleeps until the nearest connection deadline or the stop deadline; with none, until something happens.
    private func pollTimeout() -> Int32 {
        let now = SystemClock.monotonicNanoseconds()
        var nearest = UInt64.max
        if stopping { nearest = stopDeadline }
        for c in connections { if let d = c.nextDeadline { nearest = min(nearest, d) } }
        if nearest == .max { return -1 }
        return nearest <= now ? 0 : Int32(min(UInt64(Int32.max), (nearest - now) / 1_000_000 + 1))
    }

    private func beginStop(now: UInt64) {
        stopping = true
        stopDeadline = now + Self.drainMilliseconds * 1_000_000
        for c in connections { c.beginShutdown(context: context) }
    }

    /// Starts the handshakes of the connections the acceptor dealt this loop.
    private func takeNewConnections(now: UInt64) {
        for accepted in inbox.take() {
            if stopping { shared.connectionClosed(); continue }
            let tlsContext = accepted.faulty ? (shared.http1Context ?? shared.context) : shared.context
            guard let tls = try? TLSConnection.server(socket: accepted.socket, context: tlsContext) else {
                shared.connectionClosed()
                continue
            }
            let connection = MockConnection(number: accepted.number + 1, tls: tls, shared: shared, faulty: accepted.faulty, now: now)
            connections.append(connection)
            connection.advanceHandshake(context: context)
        }
    }
}
