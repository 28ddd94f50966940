import APNSClient
import APNSCore
import APNSHTTP2

/// `send --verbose`: what happens on the wire, on stderr, in curl's style (`*` notes, `>` request
/// headers, `<` response headers). The bearer token is shortened to its first 10 characters.
final class SendVerbose {
    private let start: UInt64

    /// A log whose timings count from `start` (monotonic nanoseconds).
    init(start: UInt64) { self.start = start }

    /// Prints the lines for one event.
    func show(_ event: SendEvent) {
        for line in Self.lines(for: event) { StandardStreams.printErr(line + "\n") }
    }

    /// The total time, once everything is done; when devices got no answer, what failed.
    func finish(_ summary: SendSummary) {
        let ms = Double(SystemClock.monotonicNanoseconds() - start) / 1e6
        StandardStreams.printErr(Self.finishLine(summary, milliseconds: ms) + "\n")
    }

    /// `* done in 4.2 ms over 1 connection`, or after a failure (DNS, connect, TLS) what failed instead
    /// of a "done" that reads like success.
    static func finishLine(_ summary: SendSummary, milliseconds ms: Double) -> String {
        let time = SendOutput.milliseconds(ms)
        let connections = "\(summary.connections) connection\(summary.connections == 1 ? "" : "s")"
        guard summary.failed > 0 else { return "* done in \(time) over \(connections)" }
        let why = summary.failure ?? "the connection failed"
        if summary.failed == summary.total { return "* failed after \(time): \(why)" }
        return "* finished in \(time) over \(connections); \(summary.failed) of \(summary.total) devices got no answer: \(why)"
    }

    /// The lines for `event` (static so tests can check redaction without a terminal).
    static func lines(for event: SendEvent) -> [String] {
        switch event {
        case .connecting(let endpoint, let attempt):
            return ["* connecting to \(endpoint.authority)" + (attempt > 1 ? " (connection \(attempt))" : "")]
        case .connected(let i):
            return ["* TCP connected in \(SendOutput.milliseconds(i.connectMs)); TLS handshake \(SendOutput.milliseconds(i.handshakeMs))",
                    "* \(i.tlsVersion), cipher \(i.cipher), ALPN \(i.alpn)"]
        case .serverSettings(let max):
            return ["* server SETTINGS: max concurrent streams \(max == UInt32.max ? "unlimited" : String(max))"]
        case .request(let device, let headers, let bytes):
            return ["* request for \(device.abbreviated)"] + headers.map { "> \($0.name): \(SecretRedaction.display($0))" }
                + ["> (\(bytes) byte body)"]
        case .response(let device, let response, let ms):
            var out = ["< :status: \(response.status)"]
            out += response.headers.map { "< \($0.name): \($0.value)" }
            if !response.body.isEmpty { out.append("< " + APNSErrorBody.printable(response.body, limit: 300)) }
            out.append("* \(device.abbreviated) answered in \(SendOutput.milliseconds(ms))")
            return out
        case .goAway(let g):
            let why = APNSErrorBody.explanation(of: g.debugData).map { ": " + $0 } ?? ""
            return ["* GOAWAY \(g.errorName), last stream \(g.lastStreamID)\(why)"]
        case .connectionLost(let why, let unanswered):
            return ["* connection lost: \(why) (\(unanswered) unanswered)"]
        }
    }
}
