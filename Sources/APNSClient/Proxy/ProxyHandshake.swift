/// One side of a proxy's tunnel set-up, as a state machine with no I/O: bytes in, bytes to send or a
/// verdict out. The HTTP CONNECT and SOCKS5 exchanges both fit it, so one driver (`ProxyTunnel`) runs
/// either over a socket and tests run either over byte arrays.
protocol ProxyHandshake {
    /// The bytes to send first.
    mutating func start() -> [UInt8]
    /// Takes bytes the proxy sent and says what happens next.
    mutating func receive(_ bytes: [UInt8]) -> ProxyHandshakeStep
    /// What the exchange is waiting for, for "closed the connection …" messages.
    var waitingFor: String { get }
}

/// What a handshake wants after taking the proxy's bytes.
enum ProxyHandshakeStep: Equatable {
    /// Read more.
    case needMore
    /// Send these bytes, then read.
    case send([UInt8])
    /// The tunnel is open: the next byte on the socket belongs to the APNs server.
    case established(detail: String)
    /// The proxy refused or broke its protocol.
    case failed(ProxyFailure)
}
