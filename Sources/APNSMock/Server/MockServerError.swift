import APNSCore
import APNSCrypto
import APNSPlatform

/// Why the mock could not start; the CLI maps each case to an exit code (listen and TLS setup → 69).
public enum MockServerError: Error, Sendable, CustomStringConvertible {
    /// The address could not be bound (in use, not local, not resolvable).
    case listen(SocketError)
    /// The TLS context could not be built from the identity.
    case tls(TLSFailure)
    /// The system refused a thread, pipe or similar.
    case resources(String)
    /// `start()` was called twice.
    case alreadyStarted

    public var description: String {
        switch self {
        case .listen(let e):
            if case .listen(let host, let port, let reason) = e, reason.lowercased().contains("in use") {
                return "cannot listen on \(host):\(port): the port is in use; stop the other server or pass --port 0 for a free port"
            }
            return "\(e)"
        case .tls(let e): return "cannot set up TLS: \(e)"
        case .resources(let m): return m
        case .alreadyStarted: return "the mock server is already running"
        }
    }
}
