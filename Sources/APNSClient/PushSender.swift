import APNSCore
import APNSCrypto
import APNSHTTP2

/// How the sender connects and how patient it is.
public struct SenderConfiguration {
    public var endpoint: PushEndpoint
    /// TLS settings: trust, verification, and the client certificate for certificate auth.
    public var context: TLSContext
    /// Bounds each connect, each handshake and each wait for an answer, in seconds.
    public var timeout: Double
    /// `--concurrency`; nil means the server's limit. Always at most `maximumConcurrency`.
    public var concurrency: Int?
    /// New connections opened in a row without any answer before giving up (CLI.md: 3).
    public var maxResendsWithoutProgress: Int
    /// Sends of one device whose stream was reset (without GOAWAY) before it counts as failed.
    public var maxAttemptsPerDevice: Int

    /// The ceiling on streams in flight, whatever the server allows.
    public static let maximumConcurrency = 1000

    /// A configuration with CLI.md's defaults.
    public init(endpoint: PushEndpoint, context: TLSContext, timeout: Double = 30, concurrency: Int? = nil,
                maxResendsWithoutProgress: Int = 3, maxAttemptsPerDevice: Int = 4) {
        self.endpoint = endpoint
        self.context = context
        self.timeout = timeout
        self.concurrency = concurrency
        self.maxResendsWithoutProgress = maxResendsWithoutProgress
        self.maxAttemptsPerDevice = maxAttemptsPerDevice
    }
}

/// What the sender is doing, for `--verbose` (rendering lives in the CLI).
public enum SendEvent {
    case connecting(PushEndpoint, attempt: Int)
    case connected(ConnectionInfo)
    case serverSettings(maxConcurrentStreams: UInt32)
    case request(DeviceToken, headers: [HTTP2Header], bodyBytes: Int)
    case response(DeviceToken, HTTP2Response, durationMs: Double)
    case goAway(HTTP2GoAway)
    case connectionLost(String, unanswered: Int)
}

/// Counts for the summary line and the exit code.
public struct SendSummary: Sendable, Equatable {
    public var accepted = 0
    public var rejected = 0
    public var failed = 0
    /// Rejections by reason, in first-seen order.
    public var reasons: [(reason: String, count: Int)] = []
    /// Connections opened (successfully or not).
    public var connections = 0
    /// The failure that left devices unanswered, if any.
    public var failure: String? = nil

    public var total: Int { accepted + rejected + failed }

    mutating func count(_ r: PushResult) {
        switch r.outcome {
        case .accepted: accepted += 1
        case .failed: failed += 1
        case .rejected:
            rejected += 1
            let key = r.reason ?? "HTTP \(r.status ?? 0)"
            if let i = reasons.firstIndex(where: { $0.reason == key }) { reasons[i].count += 1 }
            else { reasons.append((key, 1)) }
        }
    }

    public static func == (a: SendSummary, b: SendSummary) -> Bool {
        a.accepted == b.accepted && a.rejected == b.rejected && a.failed == b.failed && a.connections == b.connections
            && a.failure == b.failure && a.reasons.map(\.reason) == b.reasons.map(\.reason) && a.reasons.map(\.count) == b.reasons.map(\.count)
    }
}

/// The sending engine: one TLS connection at a time carrying every device, multiplexed up to
/// min(server limit, `--concurrency`, 1000) streams, driven by a poll loop.
///
/// Devices are pulled from the source only when a stream is free, so memory holds the in-flight
/// requests and nothing else. On GOAWAY or a dropped connection, requests without an answer are sent
/// again on a new connection, at most `maxResendsWithoutProgress` times in a row without any answer.
/// Every device ends with exactly one result, and nothing the server answered is sent twice.
public final class PushSender {
    private let configuration: SenderConfiguration
    private let request: PushRequest
    private let devices: DeviceSource
    private let observer: ((SendEvent) -> Void)?
    private var sink: (PushResult) -> Void = { _ in }
    private var summary = SendSummary()

    private struct Pending { let device: DeviceToken; var attempts: Int }
    private struct InFlight { var pending: Pending; let startNs: UInt64 }

    /// Devices to send again (answered never; refused, reset or dropped only).
    private var retry: [Pending] = []
    private var retryHead = 0
    private var lookahead: Pending? = nil
    private var sourceExhausted = false
    private var readBuffer = [UInt8](repeating: 0, count: 32 * 1024)

    /// A sender for `request` to every device `devices` yields. `observer` sees connection and request
    /// events (for `--verbose`); nil keeps the hot path free of them.
    public init(configuration: SenderConfiguration, request: PushRequest, devices: DeviceSource,
                observer: ((SendEvent) -> Void)? = nil) {
        self.configuration = configuration
        self.request = request
        self.devices = devices
        self.observer = observer
    }

    /// Sends to every device, calling `onResult` once per device as answers arrive (not in input order).
    /// SIGPIPE is ignored from here on (process-wide): OpenSSL writes with write(2), and a server that
    /// resets the connection must produce EPIPE, a resend, not a dead process.
    public func run(_ onResult: @escaping (PushResult) -> Void) -> SendSummary {
        signal(SIGPIPE, SIG_IGN)
        sink = onResult
        var withoutProgress = 0
        while hasPending() {
            summary.connections += 1
            observer?(.connecting(configuration.endpoint, attempt: summary.connections))
            let connection: PushConnection
            do {
                connection = try PushConnection.open(endpoint: configuration.endpoint, context: configuration.context,
                                                     timeout: configuration.timeout)
            } catch {
                if summary.connections == 1 || !error.isRetriable {
                    failEverything(error)
                    break
                }
                withoutProgress += 1
                if withoutProgress > configuration.maxResendsWithoutProgress {
                    failEverything(.gaveUp(attempts: summary.connections, last: error.description))
                    break
                }
                continue
            }
            observer?(.connected(connection.info))
            switch drive(connection) {
            case .finished:
                connection.close()
            case .reconnect(let answered, let why):
                connection.close()
                withoutProgress = answered > 0 ? 0 : withoutProgress + 1
                if withoutProgress > configuration.maxResendsWithoutProgress {
                    failEverything(.gaveUp(attempts: summary.connections, last: why.description))
                    return summary
                }
            case .fatal(let failure):
                connection.close()
                failEverything(failure)
                return summary
            }
        }
        return summary
    }

    // MARK: - The queue of devices still to send

    private func hasPending() -> Bool {
        if lookahead != nil { return true }
        if retryHead < retry.count {
            lookahead = retry[retryHead]
            retryHead += 1
            if retryHead == retry.count {
                retry.removeAll(keepingCapacity: true)
                retryHead = 0
            }
            return true
        }
        if !sourceExhausted {
            if let d = devices.next() {
                lookahead = Pending(device: d, attempts: 0)
                return true
            }
            sourceExhausted = true
        }
        return false
    }

    private func takePending() -> Pending? {
        guard hasPending() else { return nil }
        defer { lookahead = nil }
        return lookahead
    }

    private func deliver(_ result: PushResult) {
        summary.count(result)
        sink(result)
    }

    /// Gives every device not yet answered a failure result: the queue and the rest of the source.
    private func failEverything(_ failure: TransportFailure) {
        let message = failure.description
        if summary.failure == nil { summary.failure = message }
        while let p = takePending() {
            deliver(PushResult(device: p.device, failure: message, durationMs: 0))
        }
    }

    // MARK: - One connection

    private enum ConnectionEnd {
        /// Nothing left to send.
        case finished
        /// GOAWAY or a drop: unanswered devices were queued again.
        case reconnect(answered: Int, TransportFailure)
        /// Timeout or a failure another connection will not fix; in-flight devices already have results.
        case fatal(TransportFailure)
    }

    private func concurrencyLimit(_ session: HTTP2ClientSession) -> Int {
        // Until the server's SETTINGS arrive its limit is unknown: APNs allows one stream on a token
        // connection before the first success, so start with one.
        guard session.receivedServerSettings else { return 1 }
        let server = Int(min(session.serverMaxConcurrentStreams, UInt32(SenderConfiguration.maximumConcurrency)))
        let wanted = min(configuration.concurrency ?? SenderConfiguration.maximumConcurrency, SenderConfiguration.maximumConcurrency)
        return max(1, min(server, wanted))
    }

    private func drive(_ connection: PushConnection) -> ConnectionEnd {
        let session = connection.session
        let authority = configuration.endpoint.authority
        let timeoutNs = UInt64(max(0.001, configuration.timeout) * 1e9)
        var inFlight: [Int32: InFlight] = [:]
        var answered = 0
        var lastProgress = SystemClock.monotonicNanoseconds()
        var settingsReported = false

        /// Records what the session reported; true when something was answered or ended.
        func handleEvents() {
            for event in session.takeEvents() {
                switch event {
                case .response(let id, let response):
                    guard let f = inFlight.removeValue(forKey: id) else { continue }
                    let now = SystemClock.monotonicNanoseconds()
                    lastProgress = now
                    answered += 1
                    let ms = Double(now - f.startNs) / 1e6
                    observer?(.response(f.pending.device, response, durationMs: ms))
                    deliver(PushResult(device: f.pending.device, response: response, durationMs: ms))
                case .unanswered(let id, let code):
                    guard var f = inFlight.removeValue(forKey: id) else { continue }
                    lastProgress = SystemClock.monotonicNanoseconds()
                    if session.receivedGoAway == nil {
                        // A reset on a live connection: bounded per device so a server that always
                        // resets one token cannot keep us busy forever.
                        f.pending.attempts += 1
                        if f.pending.attempts >= configuration.maxAttemptsPerDevice {
                            let ms = Double(lastProgress - f.startNs) / 1e6
                            deliver(PushResult(device: f.pending.device,
                                               failure: "the server reset the stream \(f.pending.attempts) times (\(HTTP2ErrorCode.name(code)))",
                                               durationMs: ms))
                            continue
                        }
                    }
                    retry.append(f.pending)
                case .goAway(let g):
                    observer?(.goAway(g))
                }
            }
            if !settingsReported && session.receivedServerSettings {
                settingsReported = true
                observer?(.serverSettings(maxConcurrentStreams: session.serverMaxConcurrentStreams))
            }
        }

        /// The connection is unusable: unanswered devices go back to the queue.
        func dropped(_ failure: TransportFailure) -> ConnectionEnd {
            handleEvents()
            observer?(.connectionLost(failure.description, unanswered: inFlight.count))
            if !failure.isRetriable { return fatal(failure) }
            for (_, f) in inFlight { retry.append(f.pending) }
            inFlight.removeAll()
            return .reconnect(answered: answered, failure)
        }

        /// Unanswered devices fail with `failure`.
        func fatal(_ failure: TransportFailure) -> ConnectionEnd {
            let now = SystemClock.monotonicNanoseconds()
            if summary.failure == nil { summary.failure = failure.description }
            for (_, f) in inFlight.sorted(by: { $0.key < $1.key }) {
                deliver(PushResult(device: f.pending.device, failure: failure.description, durationMs: Double(now - f.startNs) / 1e6))
            }
            inFlight.removeAll()
            return .fatal(failure)
        }

        while true {
            // 1. Fill free streams.
            if session.acceptsRequests && session.receivedGoAway == nil {
                let limit = concurrencyLimit(session)
                while inFlight.count < limit, let p = takePending() {
                    let headers = request.headers(for: p.device, authority: authority)
                    do {
                        let id = try session.submitRequest(headers: headers, body: request.payload)
                        let now = SystemClock.monotonicNanoseconds()
                        if inFlight.isEmpty { lastProgress = now }
                        inFlight[id] = InFlight(pending: p, startNs: now)
                        observer?(.request(p.device, headers: headers, bodyBytes: request.payload.count))
                    } catch {
                        retry.append(p)
                        return dropped(.protocolError(error.description))
                    }
                }
            }
            // 2. Write what nghttp2 has queued.
            let blocked: Bool
            do { blocked = try connection.flush() } catch { return dropped(error) }
            handleEvents()
            // 3. Done with this connection?
            if inFlight.isEmpty {
                if !hasPending() { return .finished }
                if let g = session.receivedGoAway {
                    let why = APNSErrorBody.explanation(of: g.debugData).map { ": " + $0 } ?? ""
                    return .reconnect(answered: answered, .closed("the server sent GOAWAY \(g.errorName)\(why)"))
                }
                if !session.acceptsRequests { return .reconnect(answered: answered, .closed("the HTTP/2 session ran out of stream ids")) }
                continue
            }
            if !session.wantsRead && !session.wantsWrite && !session.hasPendingOutput {
                if let code = session.protocolErrorSent {
                    return dropped(.protocolError("the server broke the protocol; apnsctl closed the connection with \(HTTP2ErrorCode.name(code))"))
                }
                return dropped(connection.closedFailure("the HTTP/2 session ended with requests unanswered"))
            }
            // 4. Wait for the server, at most until the timeout since the last answer.
            if connection.tls.pendingBytes == 0 {
                let now = SystemClock.monotonicNanoseconds()
                let deadline = lastProgress + timeoutNs
                guard now < deadline else { return fatal(.timeout(seconds: configuration.timeout)) }
                let waitMs = Int32(min(UInt64(Int32.max), (deadline - now + 999_999) / 1_000_000))
                let events = blocked ? (Poll.readable | Poll.writable) : Poll.readable
                switch Poll.wait(fd: connection.fd, events: events, timeoutMs: waitMs) {
                case .timeout: continue
                case .failed(let e): return dropped(.closed("waiting for the server failed: \(FileSystem.errnoText(e))"))
                case .ready: break
                }
            }
            // 5. Read what arrived.
            do {
                let open = try connection.readAvailable(into: &readBuffer)
                handleEvents()
                if !open { return dropped(connection.closedFailure("the server closed the connection")) }
            } catch {
                return dropped(error)
            }
        }
    }
}
