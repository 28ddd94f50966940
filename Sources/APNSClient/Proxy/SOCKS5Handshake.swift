/// The SOCKS5 exchange (RFC 1928, user/password auth from RFC 1929): greeting, optional
/// authentication, CONNECT, reply. With `socks5h` the APNs host name goes to the proxy (it resolves
/// it: proxy-only networks often have no DNS for outside names); with `socks5` the caller resolved
/// it and the address goes instead, as curl does.
struct SOCKS5Handshake: ProxyHandshake {
    /// How the destination is named in the CONNECT request.
    enum Destination: Equatable {
        case name(String)
        /// 4 (IPv4) or 16 (IPv6) address bytes.
        case address([UInt8])
    }

    private enum Phase { case greeting, authentication, connect, done }

    private let proxy: ProxyServer
    private let destination: Destination
    private let port: Int
    private var phase = Phase.greeting
    private var buffer: [UInt8] = []

    /// A CONNECT to `destination:port` through `proxy`.
    init(proxy: ProxyServer, destination: Destination, port: Int) {
        self.proxy = proxy
        self.destination = destination
        self.port = port
    }

    var waitingFor: String {
        switch phase {
        case .greeting: return "before answering the SOCKS5 greeting"
        case .authentication: return "before answering the user name and password"
        case .connect, .done: return "before answering SOCKS5 CONNECT"
        }
    }

    /// The greeting: no authentication, plus user/password when the URL had a user.
    mutating func start() -> [UInt8] {
        proxy.user == nil ? [5, 1, 0] : [5, 2, 0, 2]
    }

    /// Takes the proxy's bytes; each phase waits until its whole message arrived.
    mutating func receive(_ bytes: [UInt8]) -> ProxyHandshakeStep {
        buffer += bytes
        switch phase {
        case .greeting:
            guard buffer.count >= 2 else { return .needMore }
            guard buffer[0] == 5 else {
                return malformed("version \(buffer[0]) in the method choice (not a SOCKS5 proxy?)")
            }
            let method = buffer[1]
            guard buffer.count == 2 else { return malformed("extra bytes after the method choice") }
            buffer = []
            switch method {
            case 0:
                phase = .connect
                return .send(connectRequest())
            case 2 where proxy.user != nil:
                phase = .authentication
                return .send(authenticationRequest())
            case 2, 0xFF:
                return refused(
                    proxy.user == nil
                        ? "it requires a user name and password; give \(proxy.kind.rawValue)://user:password@host:port"
                        : "no authentication method it accepts")
            default:
                return malformed("authentication method \(method), which was not offered")
            }
        case .authentication:
            guard buffer.count >= 2 else { return .needMore }
            guard buffer.count == 2 else { return malformed("extra bytes after the authentication answer") }
            let status = buffer[1]
            buffer = []
            guard status == 0 else { return refused("wrong user name or password") }
            phase = .connect
            return .send(connectRequest())
        case .connect:
            guard buffer.count >= 5 else { return .needMore }
            guard buffer[0] == 5 else { return malformed("version \(buffer[0]) in the CONNECT reply") }
            if buffer[1] != 0 { return refused(Self.replyText(buffer[1])) }
            let length: Int
            switch buffer[3] {
            case 1: length = 4 + 4 + 2
            case 4: length = 4 + 16 + 2
            case 3: length = 4 + 1 + Int(buffer[4]) + 2
            default: return malformed("address type \(buffer[3]) in the CONNECT reply")
            }
            guard buffer.count >= length else { return .needMore }
            guard buffer.count == length else {
                return malformed("\(buffer.count - length) bytes after its CONNECT reply, before TLS started")
            }
            phase = .done
            return .established(detail: "SOCKS5 CONNECT succeeded")
        case .done:
            return malformed("bytes after the tunnel was open")
        }
    }

    /// RFC 1929: version 1, user, password (each at most 255 bytes; longer ones are cut, and the proxy refuses).
    private func authenticationRequest() -> [UInt8] {
        let user = Array((proxy.user ?? "").utf8.prefix(255))
        let password = Array((proxy.password ?? "").utf8.prefix(255))
        return [1, UInt8(user.count)] + user + [UInt8(password.count)] + password
    }

    /// CONNECT with the destination as a name (type 3) or an address (type 1 or 4).
    private func connectRequest() -> [UInt8] {
        var out: [UInt8] = [5, 1, 0]
        switch destination {
        case .name(let host):
            let name = Array(host.utf8.prefix(255))
            out += [3, UInt8(name.count)] + name
        case .address(let bytes):
            out += [bytes.count == 16 ? 4 : 1] + bytes
        }
        return out + [UInt8(port >> 8 & 0xFF), UInt8(port & 0xFF)]
    }

    private func refused(_ reason: String) -> ProxyHandshakeStep {
        .failed(.socksRefused(proxy: proxy.display, reason: reason))
    }
    private func malformed(_ what: String) -> ProxyHandshakeStep {
        .failed(.malformed(proxy: proxy.display, what: what))
    }

    /// RFC 1928 §6's reply codes.
    static func replyText(_ code: UInt8) -> String {
        switch code {
        // What to check follows each, as after an HTTP proxy's 5xx: the proxy itself answered.
        case 1:
            return
                "general SOCKS server failure (reply 1): the proxy could not reach the APNs host; check its name and the proxy's own network"
        case 2:
            return "connection not allowed by its rules (reply 2): the proxy does not allow this destination or port"
        case 3:
            return
                "network unreachable (reply 3): the proxy could not reach the APNs host; check the proxy's own network"
        case 4: return "host unreachable (reply 4): can the proxy resolve and reach the APNs host?"
        case 5:
            return "connection refused by the APNs host (reply 5): is the server running there, and is the port right?"
        case 6: return "TTL expired (reply 6)"
        case 7: return "command not supported (reply 7)"
        case 8: return "address type not supported (reply 8); try socks5:// instead of socks5h://"
        default: return "reply \(code)"
        }
    }
}
