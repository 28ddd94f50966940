import APNSCore

/// A proxy to tunnel the APNs connection through, parsed from a curl-style URL
/// (`http://[user:pass@]host:port`, `socks5h://…`, `socks5://…`). The password is kept only to send
/// it; `display` and `description` never contain it, so the value can go into any message.
public struct ProxyServer: Sendable, Equatable, CustomStringConvertible {
    /// How the tunnel is asked for.
    public enum Kind: String, Sendable, Equatable {
        /// HTTP CONNECT (RFC 9110 §9.3.6), optional basic auth.
        case http
        /// SOCKS5 (RFC 1928) with the host name sent to the proxy, which resolves it (curl's `socks5h`).
        case socks5h
        /// SOCKS5 with the host resolved here and its address sent (curl's `socks5`).
        case socks5
    }

    public let kind: Kind
    /// Host name or IP literal, without brackets.
    public let host: String
    public let port: Int
    /// Percent-decoded user name; nil without credentials.
    public let user: String?
    /// Percent-decoded password; nil without one. Never printed.
    let password: String?

    /// A proxy from its parts (tests, callers that already split a URL).
    public init(kind: Kind, host: String, port: Int, user: String? = nil, password: String? = nil) {
        self.kind = kind
        self.host = host
        self.port = port
        self.user = user
        self.password = password
    }

    /// Why a proxy URL was refused; the message says what shape is expected (never the password).
    public struct Problem: Error, Equatable, Sendable {
        public let message: String
    }

    /// curl's default proxy port, for a URL that names none.
    public static let defaultPort = 1080

    /// Parses a proxy URL as curl reads one: no scheme means `http://`; the port defaults to 1080;
    /// user and password are percent-decoded; a trailing `/` is allowed. `https://` proxies (TLS to
    /// the proxy itself), SOCKS4 and paths are refused with what to use instead. `source` names where
    /// the URL came from (`--proxy`, `https_proxy`) in messages.
    public init(url: String, source: String = "proxy URL") throws(Problem) {
        let expected = "give http://[user:pass@]host:port or socks5h://[user:pass@]host:port"
        // Never the password; a value too long or with a line break to quote (a file pasted into a variable) is described.
        let shown = VariableEcho.mayEcho(url) ? Self.redacted(url) : VariableEcho.shown(url)
        func problem(_ what: String) -> Problem { Problem(message: "\(source) \(shown): \(what); \(expected)") }
        var rest = Substring(url.trimmingBlanks())
        if rest.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) {
            throw problem("holds a space, a line break or a control character")
        }
        // Messages, -v and --dry-run quote the URL (all but its password): one too long to quote is refused.
        let quoted = Self.redacted(url).count
        if quoted > VariableEcho.limit {
            throw problem(
                "\(quoted) characters without its password, more than a message quotes (\(VariableEcho.limit))")
        }
        var kind = Kind.http
        if let sep = rest.firstRange(of: "://") {
            let scheme = rest[..<sep.lowerBound].lowercased()
            switch scheme {
            case "http": kind = .http
            case "socks5h": kind = .socks5h
            case "socks5": kind = .socks5
            case "https":
                throw problem(
                    "TLS to the proxy itself (https://) is not supported; most proxies that take https:// also take http:// for CONNECT"
                )
            case "socks4", "socks4a": throw problem("SOCKS4 is not supported")
            default: throw problem("scheme \(scheme) is not supported")
            }
            rest = rest[sep.upperBound...]
        } else if let colon = rest.firstIndex(of: ":"),
            case let scheme = rest[..<colon].lowercased(), ["http", "socks5", "socks5h"].contains(scheme),
            !rest[rest.index(after: colon)...].allSatisfy(\.isASCIIDigit)
        {
            // `socks5h:user:pw@proxy:1080` would read as user `socks5h` at an HTTP proxy: the `//` was forgotten.
            throw problem("a scheme is followed by :// (\(scheme)://)")
        }
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        if rest.contains("/") || rest.contains("?") || rest.contains("#") { throw problem("a proxy URL has no path") }
        var user: String? = nil
        var password: String? = nil
        if let at = rest.lastIndex(of: "@") {
            let info = rest[..<at]
            rest = rest[rest.index(after: at)...]
            let parts = info.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            guard let u = Self.percentDecoded(parts[0]) else { throw problem("bad %-escape in the user name") }
            user = u
            if parts.count > 1 {
                guard let p = Self.percentDecoded(parts[1]) else { throw problem("bad %-escape in the password") }
                password = p
            }
        }
        let parts: HostAndPort
        switch HostAndPort.split(rest) {
        case .success(let p): parts = p
        case .failure(let reason): throw problem(reason.text)
        }
        guard let port = parts.port(default: Self.defaultPort) else {
            // `http://user:password` without `@host:port` reads as a host and a port: what follows the colon, unless
            // it looks like a port out of range (up to 5 digits), may be a password, so it is never shown.
            if user == nil, let colon = rest.lastIndex(of: ":"),
                case let after = rest[rest.index(after: colon)...],
                !(1...5).contains(after.count) || !after.allSatisfy(\.isASCIIDigit)
            {
                let scheme =
                    url.trimmingBlanks().firstRange(of: "://").map {
                        String(url.trimmingBlanks()[..<$0.upperBound])
                    } ?? ""
                throw Problem(
                    message:
                        "\(source) \(scheme)\(rest[..<colon]):***: the port must be a number from 1 to 65535 (if a password follows the colon, write user:password@host:port); \(expected)"
                )
            }
            throw problem("the port must be a number from 1 to 65535")
        }
        // No host name starts with a hyphen (RFC 1123): `-` is standard input's name, or a flag taken as the value.
        if parts.host.hasPrefix("-") { throw problem("a host name cannot start with -") }
        // A typo the resolver would be asked about (`http:host:port`, `host;port`): refused as the URL's, not looked up.
        if parts.host.contains(":") {
            let address = parts.host.prefix { $0 != "%" }
            if !address.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) {
                let scheme = address.prefix { $0 != ":" }
                throw problem(
                    ["http", "socks5", "socks5h"].contains(scheme.lowercased())
                        ? "a scheme is followed by :// (\(scheme)://)" : "not a host name or an IPv6 address")
            }
        } else if let bad = parts.host.first(where: { !($0.isLetter || $0.isNumber || "-._".contains($0)) }) {
            throw problem("a host name holds no \(PrintableText.quoted(String(bad)))")
        }
        // RFC 1929 gives each a length byte: a longer one would be cut, and the proxy would refuse it as wrong.
        if kind != .http, (user?.utf8.count ?? 0) > 255 || (password?.utf8.count ?? 0) > 255 {
            throw problem("a SOCKS5 user name and password are at most 255 bytes each (RFC 1929)")
        }
        self.init(kind: kind, host: String(parts.host), port: port, user: user, password: password)
    }

    /// `http://host:port`, or with a user `http://user@host:port` (`http://user:***@host:port` with a
    /// password, as CLI.md shows every URL's password): what messages and `-v` show.
    public var display: String {
        let h = host.contains(":") ? "[\(host)]" : host
        let secret = password == nil ? "" : ":***"
        return "\(kind.rawValue)://\(user.map { Self.percentEncoded($0) + secret + "@" } ?? "")\(h):\(port)"
    }

    /// `display`: a proxy in any message names itself without its password.
    public var description: String { display }

    /// `http://host:port` with no user info, for `curl --proxy` (credentials go to `--proxy-user`).
    public var urlWithoutCredentials: String {
        "\(kind.rawValue)://\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }

    /// Whether the URL carries credentials (a user, maybe with a password).
    public var hasCredentials: Bool { user != nil }

    /// Whether the URL carries a password (a secret: never from the settings file).
    public var hasPassword: Bool { password != nil }

    /// `url` with any password replaced by `***`, for messages about a URL that did not parse.
    static func redacted(_ url: String) -> String { URLPassword.masked(url) }

    /// Decodes `%XX` escapes (UTF-8); nil for a malformed escape.
    static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var it = Array(text.utf8)[...]
        while let b = it.popFirst() {
            guard b == UInt8(ascii: "%") else {
                bytes.append(b)
                continue
            }
            guard it.count >= 2, let hi = hexValue(it[it.startIndex]), let lo = hexValue(it[it.startIndex + 1]) else {
                return nil
            }
            bytes.append(hi << 4 | lo)
            it = it.dropFirst(2)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return b - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return b - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return b - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// Escapes what cannot stand in a URL's user info.
    private static func percentEncoded(_ text: String) -> String {
        var out = ""
        for b in text.utf8 {
            let c = Character(Unicode.Scalar(b))
            if b < 0x80 && (c.isLetter || c.isNumber || "-._~".contains(c)) {
                out.append(c)
            } else {
                out += "%" + String(b, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return out
    }
}

extension String {
    /// Left-padded with zeros to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
