import APNSCore
import APNSCrypto

/// HTTP CONNECT (RFC 9110 §9.3.6): one request, one response head, then the socket is the tunnel.
/// Basic auth goes in `Proxy-Authorization` when the URL had a user. The response head is capped
/// (16 KiB) so a proxy that never ends its head cannot grow memory, and a proxy that sends anything
/// after the head is refused: until the client's TLS hello, the APNs server has nothing to say.
struct HTTPConnectHandshake: ProxyHandshake {
    private let proxy: ProxyServer
    private let target: String
    private var head: [UInt8] = []

    /// The largest response head accepted.
    static let maximumHeadSize = 16 * 1024

    /// A CONNECT to `host:port` through `proxy`.
    init(proxy: ProxyServer, host: String, port: Int) {
        self.proxy = proxy
        target = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    var waitingFor: String { "before answering CONNECT \(target)" }

    /// The request, with credentials when the URL had a user.
    mutating func start() -> [UInt8] {
        var text = "CONNECT \(target) HTTP/1.1\r\nHost: \(target)\r\n"
        if let user = proxy.user {
            text += "Proxy-Authorization: Basic \(Self.base64(Array((user + ":" + (proxy.password ?? "")).utf8)))\r\n"
        }
        text += "User-Agent: apnsctl\r\nProxy-Connection: Keep-Alive\r\n\r\n"
        return Array(text.utf8)
    }

    /// Collects the response head; decides on its status line once the blank line arrived.
    mutating func receive(_ bytes: [UInt8]) -> ProxyHandshakeStep {
        head += bytes
        guard let end = Self.endOfHead(head) else {
            if head.count > Self.maximumHeadSize {
                return .failed(
                    .malformed(proxy: proxy.display, what: "a response head over \(Self.maximumHeadSize) bytes"))
            }
            if head.count >= 5 && !head.starts(with: Array("HTTP/".utf8)) {
                return .failed(
                    .malformed(
                        proxy: proxy.display,
                        what: "not an HTTP response (\(PrintableText.unescapedLine(head.prefix(40))))"))
            }
            return .needMore
        }
        let lineEnd = head.firstIndex(of: UInt8(ascii: "\r")) ?? end
        let statusLine = PrintableText.unescapedLine(head[..<lineEnd])
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]), (100...999).contains(status)
        else {
            return .failed(.malformed(proxy: proxy.display, what: "status line \(statusLine)"))
        }
        guard (200...299).contains(status) else {
            return .failed(.refused(proxy: proxy.display, status: status, statusLine: statusLine))
        }
        if head.count > end + 4 {
            return .failed(
                .malformed(
                    proxy: proxy.display,
                    what: "\(head.count - end - 4) bytes after its \(status) answer, before TLS started"))
        }
        return .established(detail: statusLine)
    }

    /// Where `\r\n\r\n` starts, if it arrived.
    static func endOfHead(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for i in 0...(bytes.count - 4)
        where bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 {
            return i
        }
        return nil
    }

    /// Standard base64 with padding (RFC 4648 §4), from the base64url encoder.
    static func base64(_ bytes: [UInt8]) -> String {
        var text = String(Base64URL.encode(bytes).map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        while text.utf8.count % 4 != 0 { text += "=" }
        return text
    }
}
