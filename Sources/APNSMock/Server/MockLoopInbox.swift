import APNSCore
import APNSPlatform

/// A socket the acceptor took, with its accept number, on its way to an event loop.
struct AcceptedSocket: Sendable {
    let socket: Socket
    /// 0-based, in accept order across the server.
    let number: Int
    /// Whether the configured faults apply to it.
    let faulty: Bool
}

/// Connections handed from the acceptor thread to one event loop, and the pipe that wakes that loop: the loop
/// polls `readFD` beside its connections, so a new client is served at once, however busy or idle the loop is.
/// Plain `Sendable`: the queue lives in a `LockedValue` (taken once per accepted batch, never per request).
final class MockLoopInbox: Sendable {
    private let pending = LockedValue<[AcceptedSocket]>([])
    private let pipe: WakePipe

    init() throws(MockServerError) {
        guard let pipe = WakePipe() else { throw .resources("cannot create a pipe: \(FileSystem.errnoText())") }
        self.pipe = pipe
    }

    /// The descriptor the loop polls for readability.
    var readFD: Int32 { pipe.readFD }

    /// Queues `sockets` and wakes the loop.
    func push(_ sockets: [AcceptedSocket]) {
        guard !sockets.isEmpty else { return }
        pending.withLock { $0.append(contentsOf: sockets) }
        pipe.signal()
    }

    /// Everything queued so far; empties the wake pipe first, so a push after it wakes the loop again.
    func take() -> [AcceptedSocket] {
        pipe.drain()
        return pending.withLock { pending in
            let taken = pending
            pending.removeAll()
            return taken
        }
    }
}
