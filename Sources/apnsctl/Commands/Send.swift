import APNSClient
import APNSCore
import APNSCrypto
import ArgumentParser

extension APNSCtl {
    /// `apnsctl send`: validates a payload, sends it to one or more devices over one HTTP/2 connection,
    /// and prints each APNs answer with what it means and what to check.
    struct Send: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "send",
            abstract: "Validate a payload, then send it to one or more device tokens and print each APNs result.",
            discussion: """
                PAYLOAD is a .json or .apns file, - for standard input, or inline JSON starting
                with {. Without it, --alert/--badge/--sound build one; with none of these a small
                default alert is sent. Bytes are sent exactly as read, except with --minify and for
                .apns files (their "Simulator Target Bundle" key is removed and is the default topic).

                Before connecting, every `apnsctl validate` rule runs (an error exits 65 and sends
                nothing), and the credentials are checked (exit 77). Certificate auth: --cert
                (PEM or PKCS#12) and maybe --key. Token auth: --auth-key AuthKey_KEYID.p8 with
                --team-id (or APNSCTL_TEAM_ID) and --topic; the signed token is cached for 50
                minutes in $XDG_CACHE_HOME/apnsctl (--no-token-cache signs a new one).

                Defaults: the environment is the certificate's only one, else sandbox; the topic is
                the certificate's bundle id (with the push type's suffix when the certificate lists
                that topic); the push type comes from the topic suffix, else background when aps
                holds only content-available: 1, else alert; the priority is 10, or 5 for background.

                One TLS connection (HTTP/2, ALPN h2) carries every device, up to the server's stream
                limit (at most 1000, or --concurrency) at a time. After GOAWAY or a dropped
                connection, notifications without an answer are sent again on a new connection, at
                most 3 times in a row without progress; nothing APNs answered is sent twice, and every
                device gets exactly one result line (text) or JSON object (-o json).

                --env auto sends to sandbox first; each device sandbox answers BadDeviceToken is \
                sent once more to production, and its one result line names the environment that \
                answered (a token sandbox refuses belongs to a TestFlight/App Store build). It needs \
                a certificate for both environments, or token auth. Against two local servers, give \
                --endpoint sandbox=URL --endpoint production=URL.

                Proxies: --proxy URL, else https_proxy, HTTPS_PROXY, all_proxy, ALL_PROXY (curl's \
                order). http://[user:pass@]host:port uses HTTP CONNECT with basic auth; \
                socks5h://[user:pass@]host:port uses SOCKS5 with the proxy resolving the APNs host \
                (socks5:// resolves it here). NO_PROXY/no_proxy or --noproxy LIST exempt hosts, \
                --proxy included. TLS to APNs runs inside the tunnel, verified for the APNs host. A \
                proxy that refuses or cannot be reached is exit 69; its password is never printed. \
                --port 2197 reaches Apple's hosts where a firewall blocks 443.

                Text output, one line per device, then a summary for more than one:
                  accepted  200  3f2a…9c1d  apns-id=8A6C1F8E-…  sandbox  24 ms
                  rejected  400  BadDeviceToken  77b0…0a11  <what it means> <what to check>
                  failed    ---  5c1e…77aa  <why there was no answer>
                  sent 3: 1 accepted, 1 rejected (BadDeviceToken 1), 1 failed

                Exit status: 0 every notification accepted; 1 APNs rejected at least one; 69 at
                least one device got no answer (transport failure: this wins over 1 when both
                happen); 64 usage; 65 invalid payload; 66 missing input file; 77 credential problem.

                Examples:
                  apnsctl send Payloads/alert.json -c push.p12 -d 3f2a…9c1d
                  apnsctl send --alert Hello --badge 1 -c push.pem -d TOKEN --env production
                  apnsctl send '{"aps":{"content-available":1}}' -c push.pem -d TOKEN
                  apnsctl send alert.json --auth-key AuthKey_ABCDE12345.p8 --team-id TEAMID1234 \\
                      --topic com.example.app --devices tokens.txt -o json > results.jsonl
                  apnsctl send alert.json -c client.pem -d TOKEN --endpoint https://127.0.0.1:2197 --ca-file ca.pem
                  apnsctl send alert.json -c push.p12 -d TOKEN --dry-run
                  https_proxy=http://proxy.corp:3128 apnsctl send alert.json -c push.p12 -d TOKEN --port 2197
                  apnsctl send alert.json -c push.p12 -d TOKEN --env auto
                """)

        @Argument(help: ArgumentHelp("Payload: a .json or .apns file, - for standard input, or inline JSON starting with {.",
                                     valueName: "payload"))
        var payload: String?

        @Option(name: [.customShort("d"), .customLong("device")],
                help: ArgumentHelp("Device token, repeatable. Hex in any case; spaces and < > are stripped.", valueName: "token"))
        var devices: [String] = []

        @Option(name: .customLong("devices"),
                help: ArgumentHelp("File with one token per line (- = standard input); blank lines and # comments are skipped.",
                                   valueName: "file"))
        var devicesFile: String?

        @OptionGroup(title: "Request") var request: SendRequestOptions
        @OptionGroup(title: "Certificate auth") var certificate: CertificateOptions
        @OptionGroup(title: "Passphrase") var passphrase: PassphraseOptions
        @OptionGroup(title: "Token auth") var tokenAuth: TokenAuthOptions
        @OptionGroup(title: "Connection") var connection: SendConnectionOptions

        @Option(name: [.customShort("o"), .customLong("output")],
                help: ArgumentHelp("Result format: text (one line per device and a summary) or json (one JSON object per device).",
                                   valueName: "text|json"))
        var output = "text"

        @Flag(name: [.customShort("v"), .customLong("verbose")],
              help: "On stderr: TLS version, ALPN, cipher, request headers (bearer token shortened), response headers, timings.")
        var verbose = false

        @Flag(name: .customLong("dry-run"),
              help: "Validate, then print the request and an equivalent curl --http2 command (secrets as shell variables); connect to nothing.")
        var dryRun = false

        /// Plans (every check before connecting), then dry-runs or sends and maps the outcome to an exit code.
        func run() throws {
            guard let format = SendOutput.Format(rawValue: output.lowercased()) else {
                throw CLIError.usage("-o \(JSONWriter.quoted(output)): unknown output format; use text or json")
            }
            let plan = try makePlan()
            if dryRun {
                SendDryRun(plan: plan, certificate: certificate, connection: connection,
                           tokenAuthKeyPath: tokenAuth.key.authKey).print()
                return
            }
            if connection.insecure {
                StandardStreams.warning("--insecure: the server certificate is not verified; anyone on the network path could read or change what is sent")
            }
            let trust: ServerTrust = connection.insecure ? .insecure : connection.caFile.map { .caFile($0) } ?? .systemStore
            var configuration = SenderConfiguration(endpoint: plan.endpoint, trust: trust, identity: plan.identity,
                                                    timeout: connection.timeout, concurrency: connection.concurrency,
                                                    proxy: plan.proxy.proxy)
            configuration.environment = plan.environment
            let renderer = SendOutput(format: format, environment: plan.environment, endpoint: plan.endpoint,
                                      total: plan.deviceCount, lineBuffered: verbose)
            let verboseLog = verbose ? SendVerbose(start: SystemClock.monotonicNanoseconds()) : nil
            if verbose {
                for line in SendVerbose.proxyLines(plan.proxy, endpoint: plan.endpoint) { StandardStreams.printErr(line + "\n") }
                if let fallback = plan.fallback, fallback.proxy != plan.proxy {
                    for line in SendVerbose.proxyLines(fallback.proxy, endpoint: fallback.endpoint) { StandardStreams.printErr(line + "\n") }
                }
            }
            let observer = verboseLog.map { log in { (event: SendEvent) in renderer.flush(); log.show(event) } }
            let send: (InterruptSignals?, (PushResult) -> Void) -> SendSummary
            do {
                if let fallback = plan.fallback {
                    var second = configuration
                    second.endpoint = fallback.endpoint
                    second.environment = fallback.environment
                    second.proxy = fallback.proxy.proxy
                    send = try EnvironmentFallbackSender(first: configuration, second: second, request: plan.request,
                                                         devices: plan.devices, observer: observer).run
                } else {
                    send = try PushSender(configuration: configuration, request: plan.request, devices: plan.devices,
                                          observer: observer).run
                }
            } catch {
                if connection.caFile != nil, case .tls(.configuration) = error { throw CLIError.inputMissing(error.description) }
                throw CLIError.transport(error.description)
            }
            var summary = send(InterruptSignals.install()) { renderer.result($0) }
            if summary.interruptedBy != nil { summary.notSent = max(0, plan.deviceCount - summary.total) }
            renderer.finish(summary)
            verboseLog?.finish(summary)
            withExtendedLifetime(plan.deviceFile) {}
            if let signal = summary.interruptedBy {
                throw CLIError.interrupted(signal: signal, message: SendOutput.interruptMessage(summary))
            }
            if summary.failed > 0 {
                let what = summary.failed == summary.total ? "no device got an answer" : "\(summary.failed) of \(summary.total) devices got no answer"
                throw CLIError.transport("\(what): \(summary.failure ?? "the connection failed")")
            }
            if summary.rejected > 0 { throw CLIError.rejected }
        }
    }
}
