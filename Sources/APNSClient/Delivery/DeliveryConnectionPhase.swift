/// Where one of the sender's connections is, as `DeliveryStateMachine` sees it. The moves between phases are
/// stated here, in one place, so that a connection cannot be both closing and taking requests.
enum DeliveryConnectionPhase: Equatable, Sendable {
    /// `.connect` was asked; TCP, TLS and ALPN are not done yet.
    case connecting
    /// Open and taking requests.
    case sending
    /// Open but taking no new requests: it drains what it carries, then closes.
    case draining(Retirement)
    /// Ended by the machine (timeout, interrupt grace): its in-flight items are already reported and it closes
    /// at the next action. A retirement it had, or gets before then, still names the loss should its end be
    /// reported first.
    case closing(Retirement?)

    /// Why a connection stopped taking requests. When several apply, the one messages name is kept: a GOAWAY
    /// over a failed write over running out of stream ids.
    enum Retirement: Equatable, Sendable {
        /// The HTTP/2 session had no stream ids left.
        case outOfStreamIDs
        /// Writing to the server failed.
        case writeFailed
        /// The server sent GOAWAY; streams above `lastStream` were not processed.
        case goAway(lastStream: Int32, GoAwayNotice)

        /// Which of two reasons messages name.
        fileprivate func merged(with newer: Retirement) -> Retirement {
            switch (self, newer) {
            case (.goAway(let last, _), .goAway(let newLast, let notice)):
                // A later GOAWAY may lower the last stream id, never raise it; its notice is the current one.
                return .goAway(lastStream: min(last, newLast), notice)
            case (.goAway, _): return self
            case (_, .goAway): return newer
            case (.writeFailed, _): return self
            case (_, .writeFailed): return newer
            default: return self
            }
        }

        /// The loss it stands for, in the failures of what the connection leaves unanswered.
        var loss: ConnectionLoss {
            switch self {
            case .outOfStreamIDs: return .outOfStreamIDs
            case .writeFailed: return .writeFailed
            case .goAway(_, let notice): return .goAway(notice)
            }
        }
    }

    /// Connected: everything but `.connecting`.
    var isOpen: Bool { self != .connecting }

    /// Ended by the machine, waiting to be closed.
    var isClosing: Bool {
        if case .closing = self { return true }
        return false
    }

    /// Why it takes no new requests, if it stopped for a reason of its own.
    var retirement: Retirement? {
        switch self {
        case .connecting, .sending: return nil
        case .draining(let why): return why
        case .closing(let why): return why
        }
    }

    /// The last stream id of the GOAWAY it received, if one came.
    var goAwayLastStream: Int32? {
        if case .goAway(let last, _) = retirement { return last }
        return nil
    }

    /// The GOAWAY it received, if one came.
    var goAwayNotice: GoAwayNotice? {
        if case .goAway(_, let notice) = retirement { return notice }
        return nil
    }

    /// TCP, TLS and ALPN are done.
    mutating func opened() {
        if self == .connecting { self = .sending }
    }

    /// It stops taking requests for `why` (kept with any earlier reason as `Retirement` orders them). Nothing is
    /// said on a connection that is not open yet, so a connecting one stays as it is.
    mutating func retire(_ why: Retirement) {
        switch self {
        case .connecting: return
        case .sending: self = .draining(why)
        case .draining(let earlier): self = .draining(earlier.merged(with: why))
        case .closing(let earlier): self = .closing(earlier.map { $0.merged(with: why) } ?? why)
        }
    }

    /// The machine ended it; it is closed at the next action.
    mutating func requestClose() {
        self = .closing(retirement)
    }
}
