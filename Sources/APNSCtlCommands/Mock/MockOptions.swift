import APNSCore
import APNSMock
import ArgumentParser

/// `apnsctl mock`'s hidden fault flags: a misbehaving APNs for end-to-end tests of clients (resend after
/// GOAWAY, connection loss, timeouts, servers without HTTP/2). Hidden from --help; listed in the README.
struct MockFaultOptions: ParsableArguments {
    @Option(
        name: .customLong("fault-goaway-after"),
        help: ArgumentHelp(
            "Answer N requests per connection, then GOAWAY with the last answered stream as last-stream-id.",
            valueName: "n", visibility: .hidden))
    var goAwayAfter: Int?

    @Option(
        name: .customLong("fault-close-after"),
        help: ArgumentHelp(
            "Answer N requests per connection, then close the TCP connection when the next one arrives.",
            valueName: "n", visibility: .hidden))
    var closeAfter: Int?

    @Option(
        name: .customLong("fault-reset-after"),
        help: ArgumentHelp(
            "Answer N requests per connection, wait until the client acknowledged them, then reset the TCP connection (RST).",
            valueName: "n", visibility: .hidden))
    var resetAfter: Int?

    @Option(
        name: .customLong("fault-eof-after"),
        help: ArgumentHelp(
            "Answer N requests per connection, then end TCP (FIN) without TLS close_notify.",
            valueName: "n", visibility: .hidden))
    var eofAfter: Int?

    @Option(
        name: .customLong("fault-drop-unanswered-after"),
        help: ArgumentHelp(
            "Answer N requests per connection; then receive (and log) the requests that arrive, answer none of them, and reset the connection: requests a server may have processed without answering.",
            valueName: "n", visibility: .hidden))
    var dropUnansweredAfter: Int?

    @Flag(
        name: .customLong("fault-never-answer"),
        help: ArgumentHelp(
            "Read requests but never answer them.", visibility: .hidden))
    var neverAnswer = false

    @Flag(
        name: .customLong("fault-http1-only"),
        help: ArgumentHelp(
            "Serve TLS without HTTP/2 (ALPN http/1.1; HTTP/1.1 505 answers).", visibility: .hidden))
    var http1Only = false

    @Flag(
        name: .customLong("fault-accept-probe"),
        help: ArgumentHelp(
            "Answer the all-zero device token 200 instead of BadDeviceToken (apnsctl doctor must fail on it).",
            visibility: .hidden))
    var acceptProbe = false

    @Option(
        name: .customLong("fault-connections"),
        help: ArgumentHelp(
            "Only the first N connections misbehave (default: all).", valueName: "n", visibility: .hidden))
    var connections: Int?

    func validate() throws {
        for (flag, value) in [
            ("--fault-goaway-after", goAwayAfter), ("--fault-close-after", closeAfter),
            ("--fault-reset-after", resetAfter), ("--fault-eof-after", eofAfter),
            ("--fault-drop-unanswered-after", dropUnansweredAfter),
            ("--fault-connections", connections),
        ] {
            if let value, value < 0 { throw ValidationError("\(flag) must be 0 or more, not \(value)") }
        }
    }

    var faults: MockFaults {
        MockFaults(
            goAwayAfterStreams: goAwayAfter, closeAfterRequests: closeAfter, resetAfterAnswers: resetAfter,
            eofAfterAnswers: eofAfter, dropUnansweredAfter: dropUnansweredAfter, neverAnswer: neverAnswer,
            http1Only: http1Only, connections: connections)
    }
}

/// Parsing of `--unregistered TOKEN` and `--reject TOKEN=REASON` values, with messages that say what to fix.
enum MockTokenArguments {
    /// The normalised hex of a token given on the command line.
    static func token(_ text: String, flag: String) throws(CLIError) -> String {
        do { return try DeviceToken(parsing: text).hex } catch {
            throw .usage("\(flag) \(text): \(error.message)")
        }
    }

    /// `TOKEN=REASON` → (hex, reason); the reason must be one APNs documents (case-insensitive).
    static func rejection(_ text: String) throws(CLIError) -> (String, APNSReason) {
        guard let eq = text.lastIndex(of: "=") else {
            throw .usage("--reject \(text): expected TOKEN=REASON, e.g. --reject 3f2a…9c1d=BadDeviceToken")
        }
        let token = try token(String(text[..<eq]), flag: "--reject")
        let name = String(text[text.index(after: eq)...])
        guard let reason = APNSReason.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() }) else {
            let names = APNSReason.allCases.map(\.rawValue)
            // A typo gets the one reason it was meant to be; only with no close match, the whole list.
            if let near = Suggestion.closest(to: name, among: names) {
                throw .usage("--reject \(text): unknown reason '\(name)'; did you mean '\(near)'?")
            }
            throw .usage("--reject \(text): unknown reason '\(name)'; use one of: \(names.joined(separator: ", "))")
        }
        return (token, reason)
    }
}
