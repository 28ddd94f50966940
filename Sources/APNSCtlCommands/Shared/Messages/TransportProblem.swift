import APNSClient
import APNSCore
import APNSCrypto
import APNSMock
import APNSPlatform
import APNSSettings

/// Why a command got no answer (exit 69), kept as values up to the exit: `CLIError.report` words it once, where
/// it is printed, so nothing on the way flattens a failure into text.
enum TransportProblem: Sendable {
    /// The transport failed before anything could be sent (connect, TLS, proxy, an unusable trust setting).
    case failure(TransportFailure)
    /// A channel request got no answer (`failure` says why, when known), named by its `apns-request-id`.
    case channelUnanswered(TransportFailure?, requestID: String, ChannelRequest.Operation)
    /// `send`: targets (`noun`s) got no answer; the summary counts them and keeps the first failure.
    case unanswered(SendSummary, noun: String)
    /// `channel create` was answered without the `apns-channel-id` header.
    case noChannelID(status: Int)
    /// `channel list` was answered without a list of channels (APNs sends one, empty when there are none).
    case noChannelList(status: Int)
    /// The mock could not start.
    case mockCannotStart(MockServerError)
    /// A replay's `problem`, with `note` naming the server values it took from the history entry.
    indirect case replayed(TransportProblem, note: String)

    /// Whether the server was not reached or not trusted: what a replay's server values from its entry explain.
    var isUnreachedServer: Bool {
        switch self {
        case .failure, .unanswered: return true
        default: return false
        }
    }

    /// Why a channel request got no answer. A request that was sent whole may have been carried out: a create
    /// may have made a channel, a delete removed one, and a read or a list changed nothing (so it is simply run
    /// again); none of them delivered anything.
    static func channelFailure(_ failure: TransportFailure?, _ operation: ChannelRequest.Operation) -> String {
        guard case .unknownOutcome(let cause)? = failure else { return failure?.message ?? "no answer" }
        switch operation {
        case .create:
            return "unknown: "
                + cause.sentence(
                    consequence:
                        "the channel may have been created: apnsctl channel list, with this command's flags except --storage, shows whether it was"
                )
        case .delete(let id):
            return "unknown: "
                + cause.sentence(
                    consequence:
                        "the channel may have been deleted: apnsctl channel get \(id), with this command's flags except --yes, shows whether it was"
                )
        case .read, .list:
            let larger = if case .timeout = cause { " with a larger \(Setting.of(.timeout).flag)" } else { "" }
            return cause.sentence(consequence: "nothing changed (it only reads): run it again\(larger)")
        }
    }

    /// The one line printed after `error:`.
    var message: String {
        switch self {
        case .failure(let failure):
            return failure.message
        case .channelUnanswered(let failure, let requestID, let operation):
            return "\(Self.channelFailure(failure, operation)) (apns-request-id \(requestID))"
        case .unanswered(let summary, let noun):
            let what =
                summary.failed == summary.total
                ? "no \(noun) got an answer" : "\(summary.failed) of \(summary.total) \(noun)s got no answer"
            // Devices that failed for different causes: each cause with its count (CLI.md).
            let causes =
                summary.causes.count > 1
                ? summary.causes.map { "\($0.count) \(noun)\($0.count == 1 ? "" : "s"): \($0.failure.message)" }
                    .joined(separator: "; ")
                : summary.failure?.message ?? "the connection failed"
            var message = "\(what): \(causes)"
            // A pipe's rest is left in it (it may never end): said also where one result shows no summary line.
            // Not when the pipe's end was read with what it held: nothing is left in it.
            if summary.listLeftUnread && summary.listRestUnread { message += "; the rest of the list was not read" }
            if summary.unknown > 0 {
                // With --resend-unknown on, the advice to add it would be wrong; whether they were sent again is
                // the results' to say (a run that timed out or gave up ends before it resends).
                let what: String
                if !summary.resendsUnknown {
                    what = TransportFailure.resendAdvice
                } else if summary.unknownSentAgain == summary.unknown {
                    what = "sending them again failed too; check the app on a test device before sending them once more"
                } else if summary.unknownSentAgain == 0 {
                    what =
                        "the run ended before --resend-unknown sent them again; check the app on a test device before sending them once more"
                } else {
                    what =
                        "\(summary.unknownSentAgain) \(summary.unknownSentAgain == 1 ? "was" : "were") sent again and failed too, and the run ended before the other \(summary.unknown - summary.unknownSentAgain) were; check the app on a test device before sending them once more"
                }
                message += "; \(summary.unknown) may have been delivered: " + what
            }
            return message
        case .noChannelID(let status):
            return
                "channel create: the server answered \(status) without an apns-channel-id header; is --endpoint a channel management host?"
        case .noChannelList(let status):
            return
                "channel list: the server answered \(status) without a list of channels; is --endpoint a channel management host?"
        case .mockCannotStart(let error):
            // The address the mock was told to listen on is --host's: named, with what it takes.
            if case .listen(let socket) = error {
                let host = "give an address of this machine: 127.0.0.1 serves it alone, 0.0.0.0 every interface"
                switch socket {
                case .resolve(let h, let failure):
                    return "--host \(PrintableText.escapingControls(h)): cannot resolve it (\(failure)); \(host)"
                case .listen(let h, _, let reason) where reason.lowercased().contains("assign"):
                    return
                        "--host \(PrintableText.escapingControls(h)): \(reason), so it is no address of this machine; \(host)"
                default: break
                }
            }
            return error.description + (error.isAddressInUse ? " or pass --port 0 for a free port" : "")
        case .replayed(let problem, let note):
            return problem.message + note
        }
    }
}

extension CLIError {
    /// A sender that could not be set up: an unusable `--ca-file` or trust file is a missing input (66), a
    /// certificate OpenSSL refuses as too weak a credential problem (77, named by `certificate`, its file), anything
    /// else a transport failure (69).
    init(senderSetup failure: TransportFailure, certificate: String?) {
        if case .tls(.weakCertificate(let weakness)) = failure {
            self = CLIError(CredentialProblem.tooWeak(path: certificate ?? "the certificate", weakness))
        } else if case .tls(.caFileUnusable) = failure {
            self = .inputMissing("--ca-file \(failure.description)")
        } else if case .tls(.trustFileUnusable) = failure {
            self = .inputMissing(failure.description)
        } else {
            self = .transport(.failure(failure))
        }
    }
}
