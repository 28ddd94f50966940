import APNSCore

/// What happened to one device (or broadcast channel): APNs' answer, or the transport failure that
/// left it unanswered. A rejection is a result, not an error (as in apns2); every target gets exactly one.
public struct PushResult: Sendable, Equatable {
    /// How the CLI classifies a result (and so the exit code: 0, 1 or 69).
    public enum Outcome: Sendable, Equatable { case accepted, rejected, failed }

    /// The device or channel the request was for.
    public let target: PushTarget
    /// HTTP status; nil when there was no answer.
    public let status: Int?
    public let apnsID: String?
    public let apnsUniqueID: String?
    /// The JSON `reason`: one APNs documents, or any other string as received; nil on success or when
    /// the body had none.
    public let reason: ReceivedReason?
    /// The body as one line when it held no JSON `reason` (a proxy's HTML page, plain text). Like `reason` and the
    /// ids, not escaped: text output escapes it with `PrintableText.escapingControls`, JSON output as JSON does.
    public let bodyText: String?
    /// A 410's `timestamp`: milliseconds since the epoch.
    public let timestamp: Int64?
    /// Why there was no answer (transport failure); nil when the server answered.
    public let failure: TransportFailure?
    /// `failure`'s one-line description.
    public var error: String? { failure?.description }
    /// From submitting the request to its answer (or failure).
    public let durationMs: Double
    /// `apns-request-id` of a broadcast or channel request: the answer's, else the one sent; nil for device pushes.
    public let apnsRequestID: String?
    /// The answer as it arrived, for callers that read more than the reason (channel reads and lists); nil
    /// for a target without an answer.
    public let response: HTTPResponse?
    /// The environment whose server answered (or failed), when the sender was told it.
    public var environment: APNSEnvironment? = nil
    /// The server that answered (or failed).
    public var endpoint: PushEndpoint? = nil
    /// `--env auto`: the environment that answered `BadDeviceToken` before this one was tried.
    public var badDeviceTokenIn: APNSEnvironment? = nil
    /// Times its request was sent to a server that may have processed it: more than 1 only after
    /// `--resend-unknown`; 0 when it never left, or every send was refused unprocessed (a refused stream, one
    /// above a GOAWAY's last-stream-id).
    public var attempts = 1
    /// It was sent again after an outcome left unknown (`--resend-unknown`), whatever became of that send.
    public var resentAfterUnknown = false
    /// Its place in the input (0 for the first device), when the sender knew it.
    public var inputPosition: Int? = nil

    /// A device push answered 2xx without an `apns-id`, or a broadcast or channel request 200 without an
    /// `apns-request-id`, which APNs sends with every answer: a web server or a proxy at `--endpoint` said "200",
    /// and whether the request reached APNs cannot be told. Never accepted.
    public var isSuccessNotFromAPNs = false

    /// Whether its request ever left (a run that gives up fails the devices it never sent, too).
    public var wasSent: Bool { attempts > 0 }

    /// A result built field by field (the two public initialisers).
    private init(
        target: PushTarget, status: Int?, apnsID: String? = nil, apnsUniqueID: String? = nil,
        reason: ReceivedReason? = nil, bodyText: String? = nil, timestamp: Int64? = nil,
        failure: TransportFailure? = nil,
        durationMs: Double, apnsRequestID: String? = nil, response: HTTPResponse? = nil
    ) {
        self.target = target
        self.status = status
        self.apnsID = apnsID
        self.apnsUniqueID = apnsUniqueID
        self.reason = reason
        self.bodyText = bodyText
        self.timestamp = timestamp
        self.failure = failure
        self.durationMs = durationMs
        self.apnsRequestID = apnsRequestID
        self.response = response
    }

    /// Interprets an HTTP/2 answer as APNs documents it (§5): `apns-id`, `apns-unique-id`, and for
    /// errors a JSON body with `reason` (and `timestamp` on 410). Non-JSON bodies are kept as text. Any 2xx
    /// is a success (channel management answers 201 and 204). `sentRequestID` is the `apns-request-id` the
    /// request carried, kept when the answer has none.
    public init(target: PushTarget, response: HTTPResponse, durationMs: Double, sentRequestID: String? = nil) {
        var reason: ReceivedReason? = nil
        var bodyText: String? = nil
        var timestamp: Int64? = nil
        let apnsID = response.headers.value(of: APNSHeader.id.name)
        let answeredRequestID = response.headers.value(of: APNSHeader.requestID.name)
        // A broadcast, a read and a list are answered 200, as a web server answers anything; a create's 201 is told
        // by its channel id and a delete's 204 by nothing else, so those are taken as they come.
        let notFromAPNs =
            target.device != nil
            ? Self.isSuccess(response.status) && apnsID == nil
            : response.status == 200 && answeredRequestID == nil
        if (!Self.isSuccess(response.status) || notFromAPNs) && !response.body.isEmpty {
            let error = APNSErrorBody(response.body)
            reason = error.reason.map(ReceivedReason.init)
            if reason == nil {
                let text = PrintableText.unescapedLine(response.body)
                bodyText = text.isEmpty ? nil : text
            }
            timestamp = error.timestamp
        }
        self.init(
            target: target, status: response.status,
            apnsID: apnsID.map { PrintableText.unescapedLine($0, limit: 64) },
            apnsUniqueID: response.headers.value(of: APNSHeader.uniqueID.name).map {
                PrintableText.unescapedLine($0, limit: 64)
            },
            reason: reason, bodyText: bodyText, timestamp: timestamp, failure: nil, durationMs: durationMs,
            apnsRequestID: answeredRequestID.map { PrintableText.unescapedLine($0, limit: 64) } ?? sentRequestID,
            response: response)
        isSuccessNotFromAPNs = notFromAPNs
    }

    /// A target that got no answer (`sentRequestID`: the `apns-request-id` its request carried).
    public init(target: PushTarget, failure: TransportFailure, durationMs: Double, sentRequestID: String? = nil) {
        self.init(target: target, status: nil, failure: failure, durationMs: durationMs, apnsRequestID: sentRequestID)
    }

    /// The device, for device pushes (nil for a broadcast's channel).
    public var device: DeviceToken? { target.device }

    /// Accepted (2xx: 200 for pushes, 201 and 204 for channel management), rejected (any other status)
    /// or failed (no answer).
    public var outcome: Outcome {
        guard let status else { return .failed }
        return Self.isSuccess(status) && !isSuccessNotFromAPNs ? .accepted : .rejected
    }

    /// Whether `status` is a success: APNs answers pushes with 200, channel creation 201, deletion 204.
    static func isSuccess(_ status: Int) -> Bool { (200..<300).contains(status) }
}
