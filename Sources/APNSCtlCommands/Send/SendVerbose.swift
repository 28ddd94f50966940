import APNSClient
import APNSCore
import APNSPlatform

/// `send --verbose`: what happens on the wire, on stderr, in curl's style (`*` notes, `>` request
/// headers, `<` response headers). The bearer token is shortened to its first 10 characters.
final class SendVerbose {
    private let start: UInt64
    private let clock: CommandClock
    private let stream: MessageStream

    /// A log on the world's standard error whose timings count from now (its monotonic clock).
    init(in world: CommandWorld) {
        clock = world.clock
        stream = world.standardError
        start = clock.monotonicNanoseconds()
    }

    /// Prints the lines for one event.
    func show(_ event: SendEvent) {
        for line in Self.lines(for: event) { stream.print(PrintableText.escapingControls(line) + "\n") }
    }

    /// The total time, once everything is done; when devices got no answer, what failed.
    func finish(_ summary: SendSummary) {
        let ms = Double(clock.monotonicNanoseconds() - start) / 1e6
        stream.print(PrintableText.escapingControls(Self.finishLine(summary, milliseconds: ms)) + "\n")
    }

    /// `* done in 4.2 ms over 1 connection`, or after a failure (DNS, connect, TLS) what failed instead
    /// of a "done" that reads like success.
    static func finishLine(_ summary: SendSummary, milliseconds ms: Double) -> String {
        let time = SendOutput.milliseconds(ms)
        let connections = "\(summary.connections) connection\(summary.connections == 1 ? "" : "s")"
        guard summary.failed > 0 else { return "* done in \(time) over \(connections)" }
        let why = summary.failure?.message ?? "the connection failed"
        if summary.failed == summary.total { return "* failed after \(time): \(why)" }
        return
            "* finished in \(time) over \(connections); \(summary.failed) of \(summary.total) devices got no answer: \(why)"
    }

    /// The lines for `event` (static so tests can check redaction without a terminal).
    static func lines(for event: SendEvent) -> [String] {
        switch event {
        case .connecting(let endpoint, let attempt):
            return ["* connecting to \(endpoint.authority)" + (attempt > 1 ? " (connection \(attempt))" : "")]
        case .connected(let i):
            // A later connection of the run resumed an earlier one's session: no certificates were exchanged.
            let handshake = "TLS handshake \(SendOutput.milliseconds(i.handshakeMs))" + (i.resumed ? " (resumed)" : "")
            if let proxy = i.proxy, let tunnel = i.tunnelMs {
                return [
                    "* TCP connected to proxy \(proxy.display) in \(SendOutput.milliseconds(i.connectMs)); tunnel to \(i.endpoint.authority) in \(SendOutput.milliseconds(tunnel)) (\(i.proxyAnswer ?? "open")); \(handshake)",
                    "* \(i.tlsVersion), cipher \(i.cipher), ALPN \(i.alpn)",
                ]
            }
            return [
                "* TCP connected in \(SendOutput.milliseconds(i.connectMs)); \(handshake)",
                "* \(i.tlsVersion), cipher \(i.cipher), ALPN \(i.alpn)",
            ]
        case .serverSettings(let max):
            return ["* server SETTINGS: max concurrent streams \(max == UInt32.max ? "unlimited" : String(max))"]
        case .connectFailed(let why):
            return ["* connection failed: \(why.message)"]
        case .request(let target, let request, let authority):
            return ["* request for \(target.abbreviated)"]
                + request.fields(authority: authority).map { "> \($0.name): \(SecretRedaction.display($0))" }
                + ["> (\(request.body.count) byte body)"]
        case .response(let target, let response, let ms):
            var out = ["< :status: \(response.status)"]
            out += response.headers.map {
                "< \(PrintableText.escapingControls($0.name)): \(PrintableText.line($0.value, limit: 1024))"
            }
            if !response.body.isEmpty { out.append("< " + PrintableText.line(response.body, limit: 300)) }
            out.append("* \(target.abbreviated) answered in \(SendOutput.milliseconds(ms))")
            return out
        case .goAway(let last, let notice):
            return ["* GOAWAY \(notice.errorName), last stream \(last)\(notice.explanation.map { ": " + $0 } ?? "")"]
        case .writeFailed:
            return ["* writing to the server failed; reading the answers it already sent"]
        case .connectionLost(let why, let answered, let resent, let unknown):
            var parts = ["\(answered) answered on it"]
            if resent > 0 { parts.append("\(resent) will be sent again") }
            if unknown > 0 { parts.append("\(unknown) sent without an answer: unknown, not sent again") }
            return ["* connection ended: \(why.description(afterGoAway: nil)) (" + parts.joined(separator: "; ") + ")"]
        case .interrupted(let signal, let inFlight):
            let name =
                signal == InterruptSignals.outputLost
                ? "standard output failed" : signal == ProcessSignals.terminate ? "SIGTERM" : "SIGINT"
            return [
                "* \(name): sending nothing new; waiting up to 2 s for \(inFlight) answer\(inFlight == 1 ? "" : "s") in flight"
            ]
        }
    }

    /// Which proxy the connection to `endpoint` uses and why (the URL without its password), or why a
    /// configured one is skipped; nothing when no proxy is configured.
    static func proxyLines(_ selection: ProxySelection, endpoint: PushEndpoint) -> [String] {
        guard let source = selection.source else { return [] }
        if let proxy = selection.proxy {
            return ["* proxy \(proxy.display) (from \(source))" + (proxy.hasCredentials ? ", with credentials" : "")]
        }
        return [
            "* no proxy for \(endpoint.host): \(selection.bypassedBy ?? "an exemption") matches it (\(source) is set)"
        ]
    }
}
