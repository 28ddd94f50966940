import APNSPlatform

extension Socket {
    /// Connects to `host:port` within `timeout` seconds as the client does (`PushConnection`'s resolve and
    /// connect phases): a fresh lookup, then the addresses raced with families interleaved (RFC 8305).
    public static func connect(host: String, port: Int, timeout: Double) throws(SocketError) -> Socket {
        let deadline = SystemClock.monotonicNanoseconds() + UInt64(max(0, timeout) * 1e9)
        let found = try lookUp(host: host, port: port, deadline: deadline, timeout: timeout, using: .system)
        return try connect(
            to: AddressRacer.interleaved(found, isIPv6: \.isIPv6), host: host, port: port, timeout: timeout,
            deadline: deadline)
    }
}
