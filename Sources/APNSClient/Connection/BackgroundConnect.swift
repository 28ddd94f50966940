import APNSCrypto
import APNSPlatform
import Synchronization

/// Opens a connection on a thread of its own while the sender keeps moving bytes on the connections it
/// has: the next connection after GOAWAY, or the spare kept ready once a server has shown it sends GOAWAY,
/// would otherwise stall every stream for a TCP and TLS handshake (two or three round trips). The sender
/// polls `fd`; once it is readable, `take()` hands over the connection or the failure, exactly once.
final class BackgroundConnect: Sendable {
    /// Which connection of the state machine this is.
    let id: Int
    private let wake: WakePipe
    /// The outcome, moved in by the connecting thread and out by the sender: a `Mutex` passes a
    /// non-Sendable connection from one thread to the other without either keeping it.
    private let outcome = Mutex<Result<PushConnection, TransportFailure>?>(nil)

    private init(id: Int, wake: WakePipe) {
        self.id = id
        self.wake = wake
    }

    /// Starts opening connection `id`; nil when no thread or pipe could be had (the caller connects inline).
    /// Signals are the sender's business: it abandons the job on an interrupt, so the thread does not watch them.
    static func start(
        id: Int, endpoint: PushEndpoint, proxy: ProxyServer?, context: TLSContext, resuming session: TLSSession?,
        timeout: Double, using resolver: NameLookup
    ) -> BackgroundConnect? {
        guard let wake = WakePipe() else { return nil }
        let job = BackgroundConnect(id: id, wake: wake)
        let thread = OSThread()
        // The thread keeps `job` (and so the pipe) alive until it has written, even if the sender gave up on it.
        let started = thread.start {
            job.outcome.withLock {
                $0 = Self.open(
                    endpoint: endpoint, proxy: proxy, context: context, session: session, timeout: timeout,
                    using: resolver)
            }
            job.wake.signal()
        }
        guard started else { return nil }
        thread.detach()
        return job
    }

    private static func open(
        endpoint: PushEndpoint, proxy: ProxyServer?, context: TLSContext, session: TLSSession?,
        timeout: Double, using resolver: NameLookup
    ) -> sending Result<PushConnection, TransportFailure> {
        do throws(TransportFailure) {
            return .success(
                try PushConnection.open(
                    endpoint: endpoint, proxy: proxy, context: context, resuming: session, timeout: timeout,
                    interruptFD: nil, using: resolver))
        } catch {
            return .failure(error)
        }
    }

    /// Readable once the outcome is there.
    var fd: Int32 { wake.readFD }

    /// The connection or why it failed, once (nil before it is done, and after it was taken).
    func take() -> Result<PushConnection, TransportFailure>? {
        outcome.withLock { value -> sending Result<PushConnection, TransportFailure>? in
            let taken = value.take()
            return taken
        }
    }
}
