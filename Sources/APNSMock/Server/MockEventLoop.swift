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
        var poller = PollSet()
        while true {
            poller.removeAll()
            poller.add(stopping ? nil : shared.stop.readFD, .readable)
            poller.add(inbox.readFD, .readable)
            for c in connections { poller.add(c.fd, c.pollInterest) }

            _ = poller.wait(until: nextWake())
            let now = SystemClock.monotonicNanoseconds()
            context.nowSeconds = shared.configuration.clock()

            if !stopping && poller.events(at: 0).any { beginStop(now: now) }
            // Connections taken from the inbox now are not in the poll set yet; they were serviced once on arrival.
            let polled = connections.count
            if poller.events(at: 1).any { takeNewConnections(now: now) }
            for i in 0..<min(polled, poller.count - 2) {
                let events = poller.events(at: i + 2)
                if events.any { connections[i].service(events: events, context: context) }
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

    /// The nearest connection deadline or the stop deadline; nil: sleep until something happens.
    private func nextWake() -> UInt64? {
        var nearest: UInt64? = stopping ? stopDeadline : nil
        for c in connections { if let d = c.nextDeadline { nearest = min(nearest ?? d, d) } }
        return nearest
    }

    private func beginStop(now: UInt64) {
        stopping = true
        stopDeadline = now + Self.drainMilliseconds * 1_000_000
        for c in connections { c.beginShutdown(context: context) }
    }

    /// Starts the handshakes of the connections the acceptor dealt this loop.
    private func takeNewConnections(now: UInt64) {
        for accepted in inbox.take() {
            if stopping {
                shared.connectionClosed()
                continue
            }
            let tlsContext = accepted.faulty ? (shared.http1Context ?? shared.context) : shared.context
            guard let tls = try? TLSConnection.server(socket: accepted.socket, context: tlsContext) else {
                shared.connectionClosed()
                continue
            }
            let connection = MockConnection(
                number: accepted.number + 1, tls: tls, shared: shared, faulty: accepted.faulty, now: now)
            connections.append(connection)
            connection.advanceHandshake(context: context)
        }
    }
}
