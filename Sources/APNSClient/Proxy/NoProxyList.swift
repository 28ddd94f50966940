/// `NO_PROXY`, `no_proxy` or `--noproxy`: hosts reached directly, matched the way curl matches them
/// (lib/noproxy.c), because users copy these values between curl and apnsctl:
/// - entries are separated by commas (and spaces); case does not matter; `*` alone matches every host;
/// - a name matches itself and every subdomain: `example.com` and `.example.com` both match
///   `example.com` and `api.example.com`, never `myexample.com`; trailing dots are ignored;
/// - an IP address matches itself; an IPv4 entry with `/bits` matches its CIDR range.
public struct NoProxyList: Sendable, Equatable {
    /// The entries, lowercased, without a leading or trailing dot.
    public let entries: [String]
    /// `*`: no host uses the proxy.
    public let matchesEverything: Bool

    /// Parses a list such as `localhost,.corp.example,10.0.0.0/8`.
    public init(_ text: String) {
        let items = text.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" }).map { $0.lowercased() }
        matchesEverything = items.contains("*")
        entries = items.compactMap { item in
            var e = Substring(item)
            if e.hasPrefix(".") { e = e.dropFirst() }
            while e.hasSuffix(".") { e = e.dropLast() }
            if e.hasPrefix("[") && e.hasSuffix("]") { e = e.dropFirst().dropLast() }
            return e.isEmpty || e == "*" ? nil : String(e)
        }
    }

    /// Whether `host` (a name or IP literal, brackets optional) is exempt from the proxy.
    public func matches(host: String) -> Bool {
        if matchesEverything { return true }
        var name = Substring(host.lowercased())
        if name.hasPrefix("[") && name.hasSuffix("]") { name = name.dropFirst().dropLast() }
        while name.hasSuffix(".") { name = name.dropLast() }
        if let address = IPv4Address(name) {
            return entries.contains { entry in
                if let slash = entry.firstIndex(of: "/"), let net = IPv4Address(entry[..<slash]),
                    let bits = Int(entry[entry.index(after: slash)...]), (0...32).contains(bits)
                {
                    let mask: UInt32 = bits == 0 ? 0 : ~UInt32(0) << (32 - bits)
                    return address.value & mask == net.value & mask
                }
                return entry == name
            }
        }
        if name.contains(":") { return entries.contains { $0 == name } }
        return entries.contains { entry in
            if entry == name { return true }
            guard name.count > entry.count, name.hasSuffix(entry) else { return false }
            return name.dropLast(entry.count).hasSuffix(".")
        }
    }
}

/// A dotted-quad IPv4 address as a number, for CIDR matching.
struct IPv4Address: Equatable {
    let value: UInt32

    /// Parses `a.b.c.d` (each 0–255); nil for anything else.
    init?(_ text: Substring) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var v: UInt32 = 0
        for p in parts {
            guard !p.isEmpty, p.count <= 3, p.allSatisfy(\.isASCIIDigit), let n = UInt32(p), n <= 255 else {
                return nil
            }
            v = v << 8 | n
        }
        value = v
    }
}

extension Character {
    /// `0`–`9` only (not other Unicode digits).
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
