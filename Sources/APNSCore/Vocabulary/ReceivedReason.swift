/// A rejection's `reason` as the server sent it: one APNs documents, which gets its meaning and hint,
/// or any other string, which is kept and printed as received. Decided once, where the body is read.
public enum ReceivedReason: Sendable, Hashable {
    case known(APNSReason)
    case unknown(String)

    /// The reason named by `text`.
    public init(_ text: String) {
        if let known = APNSReason(rawValue: text) { self = .known(known) } else { self = .unknown(text) }
    }

    /// The string as received.
    public var text: String {
        switch self {
        case .known(let reason): return reason.rawValue
        case .unknown(let text): return text
        }
    }
}
