import APNSCore
import APNSHTTP2

/// Every rule of one mock connection with no I/O in it: which requests are answered, when a GOAWAY goes out
/// and what it says, when answering stops, how the connection ends, and the limits one client must not
/// exceed (CLI.md, `apnsctl mock`). Plain values and no clock of its own: the driver (`MockConnection`)
/// reports what happened, with the time, and applies the actions it gets back to the socket and the HTTP/2
/// session, so every fault and timeout is tested without a socket (as `DeliveryStateMachine` is).
///
/// How a close mode is carried out (flushing, close_notify, FIN, draining, waiting for ACKs before a reset,
/// each bounded by `MockConnection.terminalWaitMilliseconds`) is socket mechanics and stays in the driver; which mode is the rule.
struct MockConnectionStateMachine {
    /// Where the connection is.
    enum Phase: Equatable {
        case handshaking
        case http2
        /// The HTTP/1.1-only fault: whatever arrives gets an HTTP/1.1 error.
        case http1
        /// Flushing what is queued, then ending the way `CloseMode` says; nothing more is read into HTTP/2.
        case closing(CloseMode)
        case closed
    }

    /// How a closing connection ends once its queued bytes are written.
    enum CloseMode: Equatable {
        /// TLS close_notify and FIN, then discard what the peer still sends until it closes (bounded): the
        /// normal end (after GOAWAY, or when the client left). Closing at once with unread bytes would make the
        /// kernel send RST and drop answers still on their way, which the log already counts as answered.
        case graceful
        /// FIN without close_notify, then close (the close fault; unread bytes make the kernel send RST).
        case abrupt
        /// Wait until the peer acknowledged every byte (bounded), then RST.
        case reset
        /// FIN without close_notify, then discard what the peer still sends until it closes (bounded), then close.
        case endOfFile
    }

    /// How the client authenticated at the handshake.
    enum Credentials: Equatable {
        /// A client certificate; `refused` when it is untrusted or not for this environment.
        case certificate(refused: Bool)
        /// No certificate: bearer tokens, one stream until the first good one.
        case token
    }

    /// What `RequestChecker` decided about a request, as far as the connection's rules care.
    struct Verdict: Equatable {
        var reason: APNSReason?
        /// The request's token was the first accepted on this connection: the stream limit rises.
        var firstTokenAccepted = false
    }

    /// What the driver does, in order.
    enum Action: Equatable {
        /// Create the HTTP/2 session with these settings (its SETTINGS frame goes first).
        case startHTTP2(HTTP2ServerSettings)
        /// The HTTP/1.1-only fault: no session; bytes that arrive get `http1Error`.
        case speakHTTP1
        /// Log the request on `streamID` as received (before its answer, or with none).
        case logReceived(streamID: Int32)
        /// Answer `streamID` with the verdict just given (no body for a HEAD), then log the answer.
        case answer(streamID: Int32, withBody: Bool)
        /// Advertise a new SETTINGS_MAX_CONCURRENT_STREAMS.
        case raiseStreamLimit(UInt32)
        /// Queue GOAWAY NO_ERROR; `lastStream` nil means the last stream the session processed.
        case goAway(lastStream: Int32?, debugData: [UInt8])
        /// The HTTP/1.1-only fault's answer (`505 HTTP Version Not Supported`).
        case http1Error
        /// Stop answering and reading requests; flush what is queued, then end as `CloseMode` says. Except
        /// after `graceful`, nothing more is produced by the session.
        case close(CloseMode)
        /// End now: nothing more is written (a dead socket, a handshake that took too long).
        case closeAtOnce
    }

    /// The limits and faults that apply to this connection.
    struct Policy: Equatable {
        /// `.none` when the configured faults do not apply to this connection.
        var faults: MockFaults = .none
        /// `--error-close-after`.
        var errorCloseAfter: Int? = nil
        var handshakeTimeoutNs: UInt64 = 10_000_000_000
        /// No complete request for this long (after the handshake, or after the last one): GOAWAY IdleTimeout.
        var idleTimeoutNs: UInt64 = 10_000_000_000
        /// Advertised once the credentials allow it.
        var maxConcurrentStreams: UInt32 = APNSLimit.observedMaxConcurrentStreams
        /// Request headers and bodies held for unfinished streams, per connection (CLI.md: 16 MiB).
        var maxUnfinishedRequestBytes = 16 * 1024 * 1024
    }

    let policy: Policy
    private(set) var phase: Phase = .handshaking
    private let handshakeDeadline: UInt64
    /// When the connection gets GOAWAY IdleTimeout unless a request completes first.
    private var idleDeadline: UInt64?
    /// Answers given (for the faults).
    private(set) var answered = 0
    /// The last-stream-id of the GOAWAY this connection sent (fault or `errorCloseAfter`): later streams are
    /// not processed.
    private(set) var goAwayLastStream: Int32?
    /// Any GOAWAY of ours is queued (fault, `errorCloseAfter`, shutdown, idle).
    private var goAwaySent = false
    /// Error answers so far, as `errorCloseAfter` counts them.
    private var errorWeight = 0
    /// The drop fault fired: the requests that arrived with it are received, never answered.
    private var dropping = false
    /// The stream limit advertised last.
    private(set) var streamLimit: UInt32 = 0

    init(policy: Policy, now: UInt64) {
        self.policy = policy
        handshakeDeadline = now + max(1, policy.handshakeTimeoutNs)
    }

    /// Whether bytes read are still handed to HTTP/2 (or answered with the HTTP/1.1 error).
    var readsRequests: Bool { phase == .http2 || phase == .http1 }

    /// When the driver must report `timePassed` at the latest (nil: only when something happens).
    var wakeAt: UInt64? {
        switch phase {
        case .handshaking: return handshakeDeadline
        case .http2, .http1: return idleDeadline
        case .closing, .closed: return nil
        }
    }

    // MARK: Events

    /// The TLS handshake finished.
    mutating func handshakeFinished(_ credentials: Credentials, now: UInt64) -> [Action] {
        guard phase == .handshaking else { return [] }
        idleDeadline = now + policy.idleTimeoutNs
        if policy.faults.http1Only {
            phase = .http1
            return [.speakHTTP1]
        }
        phase = .http2
        // A token connection gets a single stream until its first good token (APNS.md §6); refused credentials
        // never get more, so one client cannot make the mock hold many unfinished requests for nothing.
        streamLimit = credentials == .certificate(refused: false) ? policy.maxConcurrentStreams : 1
        var actions: [Action] = [
            .startHTTP2(
                HTTP2ServerSettings(
                    maxConcurrentStreams: streamLimit,
                    maxUnfinishedRequestBytes: policy.maxUnfinishedRequestBytes))
        ]
        if policy.faults.goAwayAfterStreams == 0 {
            actions.append(faultGoAway(lastStream: 0))
        }
        if let mode = policy.faults.terminalClose(afterAnswers: 0) {
            actions.append(close(mode))
        }
        return actions
    }

    /// Bytes arrived on an HTTP/1.1-only connection.
    mutating func http1BytesReceived() -> [Action] {
        guard phase == .http1 else { return [] }
        return [.http1Error, close(.graceful)]
    }

    /// A whole request arrived on `streamID`. `judge` runs `RequestChecker` (only when the request is answered:
    /// judging may bind a token to the connection or change a channel).
    mutating func requestComplete(streamID: Int32, isHead: Bool, now: UInt64, judge: () -> Verdict) -> [Action] {
        if dropping { return [.logReceived(streamID: streamID)] }
        // The reset and EOF faults answer nothing after their Nth answer; nothing is read after a close.
        guard phase == .http2 else { return [] }
        idleDeadline = now + policy.idleTimeoutNs
        // Above our GOAWAY's last-stream-id: not processed (the GOAWAY tells the client to send it elsewhere).
        if let last = goAwayLastStream, streamID > last { return [] }
        var actions: [Action] = [.logReceived(streamID: streamID)]
        let faults = policy.faults
        if faults.neverAnswer { return actions }
        if let limit = faults.dropUnansweredAfter, answered >= limit {
            // Received, maybe processed, never answered: the rest of what arrived too, then a reset.
            dropping = true
            actions.append(close(.reset))
            return actions
        }
        if let limit = faults.closeAfterRequests, answered >= limit {
            // The close fault: the connection dies under this request, with no GOAWAY and no answer; the
            // answers already given still go out first.
            actions.append(close(.abrupt))
            return actions
        }
        let verdict = judge()
        actions.append(.answer(streamID: streamID, withBody: !(isHead && verdict.reason == .methodNotAllowed)))
        answered += 1
        if verdict.firstTokenAccepted && streamLimit != policy.maxConcurrentStreams {
            streamLimit = policy.maxConcurrentStreams
            actions.append(.raiseStreamLimit(streamLimit))
        }
        if goAwayLastStream == nil {
            if let n = faults.goAwayAfterStreams, answered == n {
                actions.append(faultGoAway(lastStream: streamID))
            } else if let reason = verdict.reason, let n = policy.errorCloseAfter, reason.status != 410 {
                // APNs closes connections that keep making errors, sooner after BadDeviceToken; 410s do not count.
                errorWeight += reason == .badDeviceToken ? n : 1
                if errorWeight >= n { actions.append(goAway(lastStream: streamID, debugData: Self.goAwayData(reason))) }
            }
        }
        if let mode = faults.terminalClose(afterAnswers: answered) {
            actions.append(close(mode))
        }
        return actions
    }

    /// The client broke HTTP/2 (what nghttp2 queued, a GOAWAY maybe, goes out), or the session failed to
    /// produce output: the connection ends gracefully.
    mutating func sessionFailed() -> [Action] {
        guard phase == .http2 else { return [] }
        return [close(.graceful)]
    }

    /// The HTTP/2 session has nothing left to read or write (after GOAWAY and the last answer).
    mutating func sessionFinished() -> [Action] {
        guard phase == .http2 else { return [] }
        return [close(.graceful)]
    }

    /// The client closed its side (close_notify or EOF).
    mutating func clientClosed() -> [Action] {
        guard readsRequests else { return [] }
        return [close(.graceful)]
    }

    /// Reading or writing failed (a reset, a broken TLS record): nothing more can be said.
    mutating func connectionFailed() -> [Action] {
        guard phase != .closed else { return [] }
        phase = .closed
        return [.closeAtOnce]
    }

    /// The driver finished carrying out the close mode (or the socket is gone).
    mutating func closed() {
        phase = .closed
    }

    /// Time is `now`: a handshake that took too long ends; a connection with no complete request for the idle
    /// time gets GOAWAY `{"reason":"IdleTimeout"}`, so silent clients cannot hold descriptors and memory.
    mutating func timePassed(now: UInt64) -> [Action] {
        switch phase {
        case .handshaking:
            guard now >= handshakeDeadline else { return [] }
            phase = .closed
            return [.closeAtOnce]
        case .http2:
            guard let deadline = idleDeadline, now >= deadline else { return [] }
            idleDeadline = nil
            goAwaySent = true
            return [.goAway(lastStream: nil, debugData: Self.goAwayData(.idleTimeout)), close(.graceful)]
        case .http1:
            guard let deadline = idleDeadline, now >= deadline else { return [] }
            idleDeadline = nil
            return [close(.graceful)]
        case .closing, .closed:
            return []
        }
    }

    /// The server stops: GOAWAY `{"reason":"Shutdown"}`, open streams still answered; a connection not yet
    /// speaking HTTP/2 ends at once.
    mutating func shutdown() -> [Action] {
        switch phase {
        case .http2:
            guard !goAwaySent else { return [] }
            goAwaySent = true
            return [.goAway(lastStream: nil, debugData: Self.goAwayData(.shutdown))]
        case .handshaking, .http1:
            phase = .closed
            return [.closeAtOnce]
        case .closing, .closed:
            return []
        }
    }

    // MARK: Helpers

    private mutating func close(_ mode: CloseMode) -> Action {
        phase = .closing(mode)
        return .close(mode)
    }

    /// The GOAWAY fault's: `{"reason":"Shutdown"}`, or the configured debug text.
    private mutating func faultGoAway(lastStream: Int32) -> Action {
        let text = policy.faults.goAwayDebugText
        return goAway(lastStream: lastStream, debugData: text.map { Array($0.utf8) } ?? Self.goAwayData(.shutdown))
    }

    /// GOAWAY naming `lastStream`. Reading goes on, as on a real server: streams up to it are still answered as
    /// they complete; once it is sent, nghttp2 closes the open streams above it without a frame (RFC 9113 §6.8:
    /// the client resends them elsewhere); when nothing is left the connection ends with close_notify.
    private mutating func goAway(lastStream: Int32, debugData: [UInt8]) -> Action {
        goAwayLastStream = lastStream
        goAwaySent = true
        return .goAway(lastStream: lastStream, debugData: debugData)
    }

    /// GOAWAY debug data as APNs documents it: `{"reason":"Shutdown"}`.
    static func goAwayData(_ reason: APNSReason) -> [UInt8] {
        var w = JSONWriter()
        w.beginObject()
        w.field("reason", reason.rawValue)
        w.endObject()
        return w.bytes
    }
}
