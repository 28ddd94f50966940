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

    /// Whether the address is taken by another server (the CLI suggests its flag for a free port).
    public var isAddressInUse: Bool {
        guard case .listen(let e) = self, case .listen(_, _, let reason) = e else { return false }
        return reason.lowercased().contains("in use")
    }

    public var description: String {
        switch self {
        case .listen(let e):
            if isAddressInUse, case .listen(let host, let port, _) = e {
                return "cannot listen on \(SocketError.place(host, port)): the port is in use; stop the other server"
            }
            return "\(e)"
        case .tls(let e): return "cannot set up TLS: \(e)"
        case .resources(let m): return m
        case .alreadyStarted: return "the mock server is already running"
        }
    }
}
