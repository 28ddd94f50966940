/// Why a connection stopped carrying requests, for the failures of what it left unanswered.
public enum ConnectionLoss: Equatable, Sendable, CustomStringConvertible {
    /// It ended (after the GOAWAY, if one came first).
    case ended(ConnectionEnd, after: GoAwayNotice?)
    /// The server sent GOAWAY.
    case goAway(GoAwayNotice)
    /// Writing to the server failed.
    case writeFailed
    /// The HTTP/2 session had no stream ids left.
    case outOfStreamIDs

    public var description: String {
        switch self {
        case .ended(let end, let goAway): return end.description(afterGoAway: goAway)
        case .goAway(let notice): return notice.description
        case .writeFailed: return "writing to the server failed"
        case .outOfStreamIDs: return "the HTTP/2 session ran out of stream ids"
        }
    }
}
