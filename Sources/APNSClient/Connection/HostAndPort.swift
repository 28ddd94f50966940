/// The `host[:port]` part of a URL, IPv6 literals in brackets: split once here for `--endpoint`
/// and proxy URLs, which differ only in their schemes, defaults and messages.
struct HostAndPort {
    /// Host name or IP literal, without brackets; never empty.
    let host: Substring
    /// The port text after `:`, unchecked; nil when there was none.
    let portText: Substring?

    /// Splits `text` (no scheme, user info or path left in it).
    static func split(_ text: Substring) -> Result<HostAndPort, AddressProblem> {
        var host: Substring
        var portText: Substring? = nil
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return .failure(.unclosedBracket) }
            host = text[text.index(after: text.startIndex)..<close]
            let after = text[text.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return .failure(.textAfterAddress) }
                portText = after.dropFirst()
            }
        } else if let colon = text.lastIndex(of: ":") {
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        } else {
            host = text
        }
        guard !host.isEmpty else { return .failure(.missingHost) }
        return .success(HostAndPort(host: host, portText: portText))
    }

    /// The port as a number from 1 to 65535, `fallback` when none was given, nil when it is not one.
    func port(default fallback: Int) -> Int? {
        guard let portText else { return fallback }
        guard let p = Int(portText), p > 0, p < 65536 else { return nil }
        return p
    }
}

/// What was wrong with the `host[:port]` part of an endpoint or proxy URL.
public enum AddressProblem: Error, Equatable, Sendable {
    case unclosedBracket
    case textAfterAddress
    case missingHost

    /// The words messages use.
    public var text: String {
        switch self {
        case .unclosedBracket: return "unclosed [ in the IPv6 address"
        case .textAfterAddress: return "unexpected text after the address"
        case .missingHost: return "the host is missing"
        }
    }
}
