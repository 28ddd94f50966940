/// Which entries `history list` shows: those with a result for a device (its token or its name), with a
/// reason, or started since a time; the newest `limit` of them.
public struct HistoryQuery: Sendable, Equatable {
    /// A token (hex) or a device name.
    public var device: String?
    /// An APNs reason, any case.
    public var reason: String?
    /// UNIX seconds.
    public var since: Int64?
    public var limit: Int?

    public init(device: String? = nil, reason: String? = nil, since: Int64? = nil, limit: Int? = nil) {
        (self.device, self.reason, self.since, self.limit) = (device, reason, since, limit)
    }

    /// A `device` filter made ready for the results of many entries: the token in any case, the name as given,
    /// or the token as send's text lines shorten it (`3f2a…9c1d`, or `3f2a...9c1d` typed: its first and last
    /// digits), which is what a user copies from them.
    public struct DeviceMatch: Sendable {
        let given: String
        let lowercased: String
        let ends: (head: String, tail: String)?

        public init(_ device: String) {
            given = device
            lowercased = device.lowercased()
            ends = HistoryQuery.shortened(lowercased)
        }

        /// Whether a result for `target` (a token, as recorded) given by `name` is one for this device.
        public func matches(target: String, name: String?) -> Bool {
            let token = target.lowercased()
            if token == lowercased || name == given { return true }
            guard let ends else { return false }
            return token.count > ends.head.count + ends.tail.count && token.hasPrefix(ends.head)
                && token.hasSuffix(ends.tail)
        }
    }

    /// The first and last digits of a shortened token, lowercase; nil for anything else.
    static func shortened(_ text: String) -> (head: String, tail: String)? {
        let hex = { (s: String) in
            !s.isEmpty && s.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) }
        }
        for mark in ["…", "..."] {
            guard let range = text.firstRange(of: mark) else { continue }
            let (head, tail) = (String(text[..<range.lowerBound]), String(text[range.upperBound...]))
            if hex(head) && hex(tail) { return (head, tail) }
        }
        return nil
    }
}
