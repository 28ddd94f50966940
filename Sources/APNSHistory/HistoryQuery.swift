/// Which entries `history list` shows: those with a result for a device (its token or its name), with a
/// reason, or started since a time; the newest `limit` of them.
public struct HistoryQuery: Sendable, Equatable {
    /// A token (hex) or a device name.
    public var device: String?
    /// The tokens `device` stands for as a name in the settings file (lowercase hex): a send made with the token
    /// itself is for that device too.
    public var namedTokens: [String]
    /// An APNs reason, any case.
    public var reason: String?
    /// UNIX seconds.
    public var since: Int64?
    public var limit: Int?

    public init(
        device: String? = nil, namedTokens: [String] = [], reason: String? = nil, since: Int64? = nil, limit: Int? = nil
    ) {
        (self.device, self.namedTokens, self.reason, self.since, self.limit) =
            (device, namedTokens, reason, since, limit)
    }

    /// A `device` filter made ready for the results of many entries: the token in any case, the name as given,
    /// or the token as send's text lines shorten it (`3f2a…9c1d`, or `3f2a...9c1d` typed: its first and last
    /// digits), which is what a user copies from them.
    public struct DeviceMatch: Sendable {
        let given: String
        let lowercased: String
        let ends: (head: String, tail: String)?
        let namedTokens: Set<String>

        public init(_ device: String, namedTokens: [String] = []) {
            given = device
            lowercased = device.lowercased()
            ends = HistoryQuery.shortened(lowercased)
            self.namedTokens = Set(namedTokens)
        }

        /// Whether a result for `target` (a token, as recorded: lowercase hex) given by `name` is one for this
        /// device.
        public func matches(target: String, name: String?) -> Bool {
            if target == lowercased || name == given || target.lowercased() == lowercased { return true }
            if namedTokens.contains(target) { return true }
            guard let ends else { return false }
            let token = target.utf8
            return token.count > ends.head.utf8.count + ends.tail.utf8.count
                && token.starts(with: ends.head.utf8) && token.reversed().starts(with: ends.tail.utf8.reversed())
                && token.allSatisfy(HistoryQuery.isLowerHex)
        }
    }

    static func isLowerHex(_ c: UInt8) -> Bool { (c >= 48 && c <= 57) || (c >= 97 && c <= 102) }

    /// Whether `device` is a token as send's text lines shorten it (`3f2a…9c1d`), not a name.
    public static func isShortenedToken(_ device: String) -> Bool { shortened(device.lowercased()) != nil }

    /// The first and last digits of a shortened token (at least four each, as send prints four), lowercase; nil
    /// for anything else.
    static func shortened(_ text: String) -> (head: String, tail: String)? {
        let hex = { (s: String) in s.utf8.count >= 4 && s.utf8.allSatisfy(isLowerHex) }
        for mark in ["…", "..."] {
            guard let range = text.firstRange(of: mark) else { continue }
            let (head, tail) = (String(text[..<range.lowerBound]), String(text[range.upperBound...]))
            if hex(head) && hex(tail) { return (head, tail) }
        }
        return nil
    }
}
