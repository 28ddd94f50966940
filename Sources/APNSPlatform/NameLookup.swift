/// How a host name becomes addresses: the system resolver (`getaddrinfo`, which reads /etc/hosts and
/// resolv.conf) in the binary. A port of its own so a command run in-process can be given the answers (both
/// families, in either order) or a resolver that never answers, without a private /etc in a mount namespace.
/// An IP literal never reaches it. It may block: `Resolver` runs it on a thread of its own, bounded by the deadline
/// and the interrupt (inline only when no thread or pipe can be had).
public struct NameLookup: Sendable {
    /// Every TCP address of `host:port`, in the resolver's order.
    public var addresses: @Sendable (_ host: String, _ port: Int) throws(SocketError) -> [SocketAddress]

    public init(addresses: @escaping @Sendable (_ host: String, _ port: Int) throws(SocketError) -> [SocketAddress]) {
        self.addresses = addresses
    }

    /// `getaddrinfo`.
    public static let system = NameLookup { (host, port) throws(SocketError) in
        try Socket.resolveAll(host: host, port: port)
    }
}
