import APNSCore
import APNSPlatform

/// The one thread that accepts: it waits on the listener alone, accepts until the backlog is empty
/// (EAGAIN) on every wake-up, and deals the connections to the event loops in turn. Handshakes and requests
/// happen on the loops, so no client, silent or busy, can delay accepting the next one.
final class MockAcceptor {
    let shared: MockServerShared
    let inboxes: [MockLoopInbox]
    private var nextLoop = 0
    /// No accepting before this (monotonic ns): set when the process ran out of descriptors, because the
    /// listener then stays readable and polling it again at once would spin a core until a slot frees up.
    private var pausedUntil: UInt64 = 0

    /// How long accepting pauses after `EMFILE`/`ENFILE` (waiting clients stay in the listen backlog).
    static let pauseMilliseconds: UInt64 = 100

    init(shared: MockServerShared, inboxes: [MockLoopInbox]) {
        self.shared = shared
        self.inboxes = inboxes
    }

    /// Runs until the stop pipe fires.
    func run() {
        var poller = PollSet()
        while true {
            let paused = SystemClock.monotonicNanoseconds() < pausedUntil
            poller.removeAll()
            poller.add(shared.stop.readFD, .readable)
            poller.add(paused ? nil : shared.listener.fd, .readable)
            _ = poller.wait(until: paused ? pausedUntil : nil)
            if poller.events(at: 0).any { return }
            if !paused && poller.events(at: 1).any { acceptAll() }
        }
    }

    /// Accepts until the backlog is empty, dealing connections round-robin.
    private func acceptAll() {
        var batches = [[AcceptedSocket]](repeating: [], count: inboxes.count)
        accepting: while true {
            let socket: Socket
            switch shared.listener.acceptNext() {
            case .accepted(let s):
                socket = s
            case .retry:
                continue accepting
            case .none:
                break accepting
            case .outOfResources(let why):
                pausedUntil = SystemClock.monotonicNanoseconds() + Self.pauseMilliseconds * 1_000_000
                shared.noteAcceptFailure(why)
                break accepting
            }
            // Over the cap: the connection is closed at once (the socket goes out of scope here).
            guard let (number, faulty) = shared.admitConnection() else { continue }
            batches[nextLoop].append(AcceptedSocket(socket: socket, number: number, faulty: faulty))
            nextLoop = (nextLoop + 1) % inboxes.count
        }
        for (inbox, batch) in zip(inboxes, batches) { inbox.push(batch) }
    }
}
