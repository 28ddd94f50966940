import APNSCore
import APNSHTTP2
import APNSPlatform

/// How one request on its own connection ended (`apnsctl doctor`'s probe).
public enum ExchangeOutcome: Sendable, Equatable {
    /// The server answered.
    case answered(HTTPResponse)
    /// The server ended the connection with a TLS alert before answering: TLS 1.3 refuses a client
    /// certificate this way, after the handshake. A rejection, not a network failure.
    case refusedByAlert(String)
    /// No answer: the connection failed, ended, or stayed silent past the timeout.
    case failed(TransportFailure)
}

extension PushConnection {
    /// Sends `request` and waits up to `timeout` seconds for its answer. One request, one try: nothing is
    /// resent and nothing reconnects, so what comes back is what the server said to this very request.
    public func exchange(_ request: APNSRequest, timeout: Double, interruptFD: Int32?) -> ExchangeOutcome {
        let stream: Int32
        do { stream = try submit(request) } catch { return .failed(error) }
        let deadline = SystemClock.monotonicNanoseconds() + UInt64(max(0, timeout) * 1e9)
        var goAway: GoAwayNotice? = nil
        while true {
            let outcome = pump(deadline: deadline, interruptFD: interruptFD)
            let events = takeEvents()
            // A GOAWAY first, wherever it came in the batch: the stream it left out is closed REFUSED_STREAM, which
            // is the GOAWAY's doing, not a reset of this request.
            for case .goAway(let g) in events { goAway = GoAwayNotice(g) }
            for event in events {
                switch event {
                case .response(let id, let response) where id == stream:
                    return .answered(response)
                case .unanswered(let id, let code) where id == stream:
                    if let goAway, code == HTTP2ErrorCode.refusedStream.rawValue {
                        return .failed(.closed(.goAway(goAway)))
                    }
                    return .failed(.streamReset(times: 1, code: code))
                default:
                    break
                }
            }
            switch outcome {
            case .progressed, .writeFailed:
                continue  // after a failed write, reading goes on: an answer may still be there
            case .timedOut:
                return .failed(.timeout(seconds: timeout))
            case .interrupted:
                return .failed(.interrupted)
            case .ended(let end):
                if case .alert = end { return .refusedByAlert(end.description(afterGoAway: nil)) }
                return .failed(.closed(.ended(end, after: goAway)))
            }
        }
    }

    /// Sends GOAWAY and close_notify, best effort (public for callers that open connections phase by phase).
    public func finish() { close() }
}
