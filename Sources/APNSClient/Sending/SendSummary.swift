import APNSPlatform

/// Counts for the summary line and the exit code.
public struct SendSummary: Sendable, Equatable {
    public var accepted = 0
    public var rejected = 0
    public var failed = 0
    /// Of `failed`: sent completely, then left without an answer; APNs may have delivered them.
    public var unknown = 0
    /// Rejections by reason, in first-seen order.
    public var reasons: [(reason: String, count: Int)] = []
    /// Connections opened (successfully or not).
    public var connections = 0
    /// The failure that left devices unanswered, if any.
    public var failure: TransportFailure? = nil
    /// SIGINT or SIGTERM, when a signal cut the run short.
    public var interruptedBy: Int32? = nil
    /// The run gave up (a failed connection, `--timeout`) before the end of a list that may never end (a pipe),
    /// and left the rest of it unread; or a checked list file was cut while it was sent, and its rest is gone.
    public var listLeftUnread = false
    /// Of a list left unread: something may still be in it (set by the caller, who read what was already there).
    public var listRestUnread = false
    /// Targets an interrupt left never sent (set by the caller, who knows the total).
    public var notSent = 0
    /// Of `failed`: targets whose request never left (a run that gave up or timed out fails the rest of the batch).
    public var failedUnsent = 0
    /// `--resend-unknown` was on: an unknown outcome is sent again, while the run goes on.
    public var resendsUnknown = false
    /// Of `unknown`: targets `--resend-unknown` sent again (or tried to, and failed) that still have no answer.
    public var unknownSentAgain = 0
    /// Targets whose request the server may have processed more than once (`--resend-unknown`): each may have
    /// been notified twice, which a summary kept alone in a CI log must still say.
    public var sentMoreThanOnce = 0
    /// Every failure that left targets without an answer, with how many, in first-seen order.
    public var causes: [(failure: TransportFailure, count: Int)] = []

    public init() {}

    /// Targets with a result.
    public var total: Int { accepted + rejected + failed }

    /// Targets whose request was sent (CLI.md: `sent N` counts only these).
    public var sent: Int { total - failedUnsent }

    /// Tallies one result.
    public mutating func count(_ r: PushResult) {
        if r.attempts > 1 { sentMoreThanOnce += 1 }
        switch r.outcome {
        case .accepted: accepted += 1
        case .failed:
            failed += 1
            if r.failure?.isUnknownOutcome == true {
                unknown += 1
                if r.resentAfterUnknown { unknownSentAgain += 1 }
            }
            // One the first environment answered (`--env auto`) was sent, whatever kept the second from trying.
            if !r.wasSent && r.badDeviceTokenIn == nil { failedUnsent += 1 }
            if let f = r.failure {
                if let i = causes.firstIndex(where: { $0.failure == f }) {
                    causes[i].count += 1
                } else {
                    causes.append((f, 1))
                }
            }
        case .rejected:
            rejected += 1
            let key = r.reason?.text ?? "HTTP \(r.status ?? 0)"
            if let i = reasons.firstIndex(where: { $0.reason == key }) {
                reasons[i].count += 1
            } else {
                reasons.append((key, 1))
            }
        }
    }

    /// Equal counts, failure and reasons (tuples are not Equatable, so written out).
    public static func == (a: SendSummary, b: SendSummary) -> Bool {
        a.accepted == b.accepted && a.rejected == b.rejected && a.failed == b.failed && a.unknown == b.unknown
            && a.connections == b.connections
            && a.failure == b.failure && a.interruptedBy == b.interruptedBy && a.notSent == b.notSent
            && a.failedUnsent == b.failedUnsent && a.causes.map(\.failure) == b.causes.map(\.failure)
            && a.causes.map(\.count) == b.causes.map(\.count)
            && a.reasons.map(\.reason) == b.reasons.map(\.reason) && a.reasons.map(\.count) == b.reasons.map(\.count)
    }
}
