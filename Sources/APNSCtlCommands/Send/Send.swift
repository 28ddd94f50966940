import APNSClient
import APNSCore
import APNSCrypto
import APNSPlatform
import APNSSettings
import ArgumentParser

extension APNSCtl {
    /// `apnsctl send`: validates a payload, sends it to one or more devices over one HTTP/2 connection,
    /// and prints each APNs answer with what it means and what to check.
    struct Send: WorldCommand {
        // `_superCommandName` is read only when `send` is the root of a parse (`APNSCtl.parseSend`): the parser
        // then skips its check for `--generate-completion-script` (two more argument sets, about a twelfth of a
        // send). Help, man pages and completions come from the whole tree, whose root is `APNSCtl`, and any
        // failure of that parse parses the whole tree again, so nothing else changes.
        static let configuration = CommandConfiguration(
            commandName: "send",
            _superCommandName: "apnsctl",
            abstract: "Validate a payload, then send it to one or more device tokens and print each APNs result.",
            // Paragraphs are one line each (the parser wraps them to the terminal); example lines keep
            // their own lines and fit in 80 columns.
            usage: "apnsctl send [<payload>] (-d <token> ... | --devices <file>) [<options>]",
            discussion: """
                PAYLOAD is a .json or .apns file, - for standard input, or inline JSON starting with {. \
                Without it, --alert, --title, --subtitle, --badge, --sound, --category, --thread-id, \
                --relevance-score, --mutable-content and --content-available build one (--content-available alone: a background \
                push, priority 5); with none of these a small default alert is sent, or with --push-type \
                background {"aps":{"content-available":1}}, with widgets or controls {"aps":{"content-changed":true}}. Bytes are sent exactly as read, except with --minify, and for .apns files, whose \
                "Simulator Target Bundle" key is removed (and is the default topic).

                Before connecting, every apnsctl validate rule runs (an error exits 65 and sends nothing), \
                and the credentials are checked (exit 77). Certificate auth: --cert (PEM or PKCS#12) and \
                maybe --key. Token auth: --auth-key AuthKey_KEYID.p8 with --team-id and \
                --topic; the signed token is cached for 50 minutes in $XDG_CACHE_HOME/apnsctl \
                (--no-token-cache signs a new one). Give one or the other, not both.

                Settings: an option that is a setting (credentials, topic, environment, endpoint, priority, \
                expiration, connection and output options; not the payload and its flags, devices, ids or \
                --dry-run, which belong to one run) may also come from a \
                variable APNSCTL_<FLAG> (APNSCTL_TEAM_ID, APNSCTL_TOPIC, …; APNSCTL_AUTH_KEY, APNSCTL_CERT and \
                APNSCTL_KEY may hold the PEM text itself, never written to disk) or from a profile of the \
                settings file (-p NAME, else APNSCTL_PROFILE, else its default-profile; -p mock uses a running \
                apnsctl mock). A flag wins over a variable, a variable over a profile. -v lists where each \
                setting came from; apnsctl config shows the same without sending.

                Live Activities: --live-activity start|update|end builds the push from the flags under "Live \
                Activities and widgets" (aps.event and an aps.timestamp of now, then the other keys; --title, \
                --alert and --sound make aps.alert); the push type is liveactivity and the topic gets .push-type.liveactivity. With \
                PAYLOAD the flags set or replace their keys in its aps and leave everything else as written, so \
                a saved update can be sent again with --timestamp now. JSON values take @FILE, or @- for \
                standard input. Priority 10 (the default) delivers at once but counts against an hourly budget \
                on the device; --priority 5 updates do not. A 410 or BadDeviceToken answer says which of the \
                three tokens (push-to-start, activity update, device) is which. Widgets and controls: \
                --content-changed with --push-type widgets or controls; these send no apns-priority and no \
                apns-expiration unless given.

                Each --device is one token: hex in any case, or Xcode's <3f2a1b0c 9d8e7f6a ...> form, with or without the brackets. \
                Whitespace inside any other value is an error, so two pasted tokens never become one.

                Defaults: the environment is the certificate's only one, else sandbox; the topic is the \
                certificate's bundle id (with the push type's suffix when the certificate lists that \
                topic); the push type comes from the topic suffix, else from the payload (mdm without aps, \
                liveactivity with aps.event, background when aps holds only content-available: 1, else \
                alert); the priority is 10, or 5 for background (none for widgets and controls).

                One TLS connection (HTTP/2, ALPN h2) carries every device, up to the server's stream limit \
                (at most 1000, or --concurrency) at a time, and every device taken gets exactly one result \
                line (text) or JSON object (-o json); those a stopped run never took (an interrupt, a pipe \
                given up on) are counted as never sent. Delivery is at most once: after GOAWAY or a dropped \
                connection, a notification is sent again on a new connection only when the server provably \
                did not process it (its stream was above GOAWAY's last stream, it was refused, or its request \
                never completely left). One that was completely sent and then lost its connection may have \
                been delivered: it is not sent again, its line says "unknown: ..." (JSON "delivery":"unknown"), \
                the summary counts it, and the exit status is 69. --resend-unknown sends those again too (at \
                least once: a device may be notified twice). After GOAWAY the next connection opens at once; \
                after a connection without any answer, send waits 0.25 s, 0.5 s, then 1 s before trying \
                again, and gives up after 3 tries in a row without progress. Nothing APNs answered is ever \
                sent twice.

                --env auto sends to sandbox first; each device sandbox answers BadDeviceToken is sent once \
                more to production, and its one result line names the environment that answered (a token \
                sandbox refuses belongs to a TestFlight/App Store build). It needs a certificate for both \
                environments, or token auth. Against two local servers, give --endpoint sandbox=URL \
                --endpoint production=URL.

                Proxies: --proxy URL, else https_proxy, HTTPS_PROXY, all_proxy, ALL_PROXY (curl's order). \
                http://[user:pass@]host:port uses HTTP CONNECT with basic auth; socks5h://[user:pass@]host:port \
                uses SOCKS5 with the proxy resolving the APNs host (socks5:// resolves it here). NO_PROXY, \
                no_proxy or --noproxy LIST exempt hosts, --proxy included. TLS to APNs runs inside the \
                tunnel, verified for the APNs host. A proxy that refuses or cannot be reached is exit 69; its \
                password is never printed. --port 2197 reaches Apple's hosts where a firewall blocks 443.

                Text output is one line per device, then a summary for more than one (or when lines were \
                skipped, or on an interrupt). Accepted lines \
                shorten the token; rejected and failed lines print it whole, with what the answer means \
                and what to check. An accepted line ends with unique-id=... when the server sends one (the \
                sandbox does): Apple's Push Notifications Console looks that id up in its delivery log when \
                a notification was accepted but never appeared (see docs/troubleshooting.md).

                History: every send that reaches a server or a simulator (--simulator), or tries to, is recorded in \
                $XDG_STATE_HOME/apnsctl/history.db (apnsctl history lists and shows what was sent and \
                answered); --replay ID|last sends an entry again, --no-history leaves this one out. When stdout is a file and stderr a terminal, a progress line is shown \
                on stderr and replaced by the summary at the end.

                Exit status: 0 every notification accepted; 1 APNs rejected at least one; 69 at least one \
                device got no answer (transport failure: this wins over 1 when both happen); 64 usage; 65 \
                invalid payload; 66 missing input file; 70 internal error (please report it); 73 --unsent FILE \
                cannot be written (its folder is missing, it is a directory, or a file apnsctl did not write); 74 standard output or a written file failed (what was \
                sent is said on stderr); 77 credential problem; 130 or 143 interrupted by SIGINT or SIGTERM. On the first signal nothing new is sent, \
                answers in flight get 2 seconds, and every device sent gets its result; a second signal exits \
                at once (one less than 1 second after the first counts as the same signal, as GNU timeout \
                sends it twice), saying how many results were not printed.

                Examples:
                  apnsctl send Payloads/alert.json -c push.p12 -d TOKEN
                  apnsctl send --alert Hello --badge 1 -c push.pem -d TOKEN --env prod
                  apnsctl send '{"aps":{"content-available":1}}' -c push.pem -d TOKEN
                  apnsctl send alert.json --auth-key AuthKey_ABCDE12345.p8 \\
                      --team-id TEAMID1234 --topic com.example.app \\
                      --devices tokens.txt -o json > results.jsonl
                  apnsctl send alert.json -c client.pem -d TOKEN \\
                      --endpoint https://127.0.0.1:2197 --ca-file ca.pem
                  apnsctl send alert.json -c push.p12 -d TOKEN --dry-run
                  apnsctl send --live-activity update --content-state @state.json \\
                      --stale-date 15m -p prod-token -d ACTIVITY_TOKEN
                  apnsctl send -p prod-cert -d my-iphone --alert hi
                  apnsctl send -p mock -d TOKEN --alert hi
                  apnsctl send alert.json -c push.p12 -d TOKEN --env auto
                  https_proxy=http://proxy.example:3128 \\
                      apnsctl send alert.json -c push.p12 -d TOKEN --port 2197
                """)

        @Argument(
            help: ArgumentHelp(
                "Payload: a .json or .apns file, - for standard input, or inline JSON starting with {.",
                valueName: "payload"), completion: .file())
        var payload: String?

        @Option(
            name: [.customShort("d"), .customLong("device")],
            help: ArgumentHelp(
                "Device token, repeatable: hex in any case, or Xcode's <xxxxxxxx xxxxxxxx ...> form (brackets optional), or a device name from the settings file; one token per --device.",
                valueName: "token"), completion: .none)
        var devices: [String] = []

        @Option(
            name: .customLong("devices"),
            help: ArgumentHelp(
                "File with one token (or device name) per line (- = standard input), streamed; blank lines and # comments are skipped, and a token reached again (here or by -d) is sent once. A file is checked whole first; from a pipe a bad line ends the run there (see --skip-invalid).",
                valueName: "file"), completion: .file())
        var devicesFiles: [String] = []

        /// The device list: one per run. The parser would keep the last of several, silently dropping the
        /// others, so every one given is kept and the plan refuses a second.
        var devicesFile: String? { devicesFiles.last }

        @Flag(
            name: .setting(.skipInvalid),
            help:
                "Report bad --devices lines (the first 20, then a count) and skip them instead of refusing the list; the rest is sent, and the exit status is 1 when any line was skipped."
        )
        var skipInvalid = false

        @Option(
            name: .customLong("unsent"),
            help: ArgumentHelp(
                "Write the devices left without a final answer (never sent; unknown outcomes commented out) to this file, mode 0600, in input order, to resume with --devices FILE. A file already there is replaced only if --unsent wrote it (and this run resumes it, or it lists no device), or it is empty.",
                valueName: "file"), completion: .file())
        var unsentFile: String?

        @OptionGroup(title: "Settings") var settingsOptions: ProfileOptions
        @OptionGroup(title: "Request") var request: SendRequestOptions
        @OptionGroup(title: "Live Activities and widgets") var liveActivity: LiveActivityOptions
        @OptionGroup(title: "Certificate auth") var certificate: CertificateOptions
        @OptionGroup(title: "Passphrase") var passphrase: PassphraseOptions
        @OptionGroup(title: "Token auth") var tokenAuth: TokenAuthOptions
        @OptionGroup(title: "Connection") var connection: SendConnectionOptions
        @OptionGroup(title: "Broadcast (iOS 18 Live Activities; see apnsctl channel)") var broadcast: BroadcastOptions
        @OptionGroup(title: "History (see apnsctl history)") var history: SendHistoryOptions

        @Option(
            name: [.customShort("o"), .setting(.output)],
            help: ArgumentHelp(
                "Result format: text (one line per device and a summary) or json (one JSON object per device).",
                valueName: "text|json"), completion: .list(["text", "json"]),
            transform: SettingArgument.transform(.output, .send))
        var output: SettingValue?

        @Flag(
            name: [.customShort("q"), .setting(.quiet)],
            help: "Text output: print only rejected and failed devices and the summary.")
        var quiet = false

        @Option(
            name: .setting(.color),
            help: ArgumentHelp(
                "Colour the status words: auto (only on a terminal, without NO_COLOR, and not with TERM=dumb), always or never.",
                valueName: "when"), completion: ColorChoice.completion, transform: ColorChoice.argument)
        var color: ColorChoice?

        @Flag(
            name: [.customShort("v"), .setting(.verbose)],
            help:
                "On stderr: TLS version, ALPN, cipher, request headers (bearer token shortened), response headers, timings."
        )
        var verbose = false

        @Flag(
            name: .setting(.resendUnknown),
            help:
                "Also send again notifications whose outcome is unknown (completely sent, then the connection ended without an answer): at least once instead of at most once. A device may be notified twice; --collapse-id makes a repeat replace the first on screen."
        )
        var resendUnknown = false

        @Option(
            name: .customLong("simulator"),
            help: ArgumentHelp(
                "macOS with Xcode: deliver the validated payload to a simulator with xcrun simctl push instead of APNs: booted (the default: the one booted simulator), a UDID or a name. The bundle is --topic, else the .apns file's Simulator Target Bundle, else --app's.",
                valueName: "booted|udid|name"))
        var simulator: String?

        @Flag(
            name: .customLong("dry-run"),
            help:
                "Validate, then print the request and an equivalent curl --http2 command (secrets as shell variables; with -o json, one JSON object); connect to nothing."
        )
        var dryRun = false

        /// Plans (every check before connecting), then dry-runs or sends and maps the outcome to an exit code.
        func run(in world: CommandWorld) throws {
            if let reference = history.replay {
                let (replay, id) = try replaying(reference, in: world)
                do { return try replay.send(replayOf: id, in: world) } catch let error as CLIError {
                    throw replay.explaining(error, replayOf: id)
                }
            }
            try send(replayOf: nil, in: world)
        }

        /// The send itself; `replayOf` is the history entry it replays.
        private func send(replayOf: Int64?, in world: CommandWorld) throws {
            let settings = try resolveSettings(in: world)
            let format = settings[.output]?.value ?? .text
            if broadcast.isGiven {
                if unsentFile != nil {
                    throw CLIError.usage(
                        "--unsent lists devices to resend; a broadcast (--channel) has none: drop --unsent, or send to devices"
                    )
                }
                return try runBroadcast(settings, format: format, replayOf: replayOf, in: world)
            }
            if let simulator {
                return try runSimulator(simulator, settings, format: format, replayOf: replayOf, in: world)
            }
            let plan = try makePlan(settings, in: world)
            warnAboutReplayedCredential(
                plan.credentials.identity, tokenIDs: plan.credentials.tokenIDs, replayOf: replayOf, in: world)
            // Checked before a dry run too: it shows what the run would do, and the run would refuse this path.
            let unsent = try unsentFile.map { path throws(CLIError) in
                try UnsentDevices(
                    path: path, devices: plan.devices, name: { plan.deviceName($0) },
                    standardInput: world.standardInput)
            }
            if dryRun {
                try Self.checkConnectionSetup(settings, for: plan.delivery, in: world)
                SendDryRun.text(plan, settings: settings).print(to: world.standardOutput, as: format)
                // Skipped lines exit 1 (CLI.md), in a dry run too: a CI check of a list must see them. A stream's are
                // said here (a run says them after its results; a dry run read up to the first token).
                if let file = plan.devices.file, file.skippedCount > 0 {
                    if file.isStreamed, let skipped = file.skippedLines { Self.reportSkipped(skipped, in: world) }
                    throw CLIError.rejected
                }
                return
            }
            try Self.refuseClosedOutput(in: world)
            // The device file owns the list's descriptor: keep it until everything is sent.
            defer { withExtendedLifetime(plan.devices.file) {} }
            var delivery = plan.delivery
            delivery.bearerToken = plan.credentials.bearerToken
            delivery.tokenRenewal = plan.credentials.tokenRenewal
            delivery.recorder = SendRecorder.start(
                history.withPushTypeOrigin(SendHistoryEntry.devices(plan, settings, replayOf: replayOf)), settings,
                in: world)
            var outcome: CLIError? = nil
            var sent = 0
            do throws(CLIError) {
                try deliver(
                    settings, DevicePushSource(plan.request, devices: plan.devices.source), to: delivery,
                    format: format, in: world, unsent: unsent,
                    skippedLines: { plan.devices.file?.skippedCount ?? 0 },
                    streamRemainder: {
                        // Nothing of it left unread: read to its end, or ended at a bad last line (what was read
                        // but not sent is held, counted apart).
                        (plan.devices.source.takeHeld(), plan.devices.file?.streamHasNoRest ?? false)
                    },
                    listStop: {
                        guard let file = plan.devices.file else { return nil }
                        if file.streamProblem != nil { return "\(SendRecorder.listStopped) \(file.linesRead)" }
                        if case .cut(_, _, let read, _)? = file.changeSinceCheck {
                            return "\(SendRecorder.listCut) \(read)"
                        }
                        return nil
                    },
                    lostFromList: {
                        guard case .cut(_, _, _, let lost)? = plan.devices.file?.changeSinceCheck else { return 0 }
                        return lost
                    }, finished: { sent = $0.sent })
            } catch {
                outcome = error
            }
            try Self.endOfList(plan.devices, after: outcome, sent: sent, in: world)
        }

        /// A standard output closed when apnsctl started (`>&-`) could show no result: nothing is sent, where a run
        /// would notify devices and only then find out (exit 74 either way).
        static func refuseClosedOutput(in world: CommandWorld) throws(CLIError) {
            guard world.standardOutput.wasClosedAtStart else { return }
            throw .outputFailed(
                "standard output was closed when apnsctl started (>&-), so no result could be shown; nothing was "
                    + "sent: send the results to a file, or to /dev/null to drop them")
        }

        /// After the results: what the list left to say (a stream's repeats and skipped lines), then the exit.
        /// Skipped lines make a run that would exit 0 exit 1 (CLI.md).
        private static func endOfList(
            _ devices: SendDevices, after error: CLIError?, sent: Int, in world: CommandWorld
        ) throws(CLIError) {
            if let file = devices.file, file.isStreamed {
                devices.reportRepeats(in: world)
                if let skipped = file.skippedLines { reportSkipped(skipped, in: world) }
            }
            // Devices of the checked list that were never read (the file cut while sent) make the run fail: 66, as an
            // input that could not be read, after any failure of the run itself.
            var cut: CLIError? = nil
            if let file = devices.file, let change = file.changeSinceCheck {
                if case .cut = change {
                    cut = .inputMissing(change.warning(file.displayName))
                } else {
                    world.standardError.warning(change.warning(file.displayName))
                }
            }
            if let cut {
                guard let error else { throw cut }
                cut.report(to: world.standardError)
                throw error
            }
            try endOfStream(devices.file, after: error, sent: sent, in: world)
            if let file = devices.file, file.skippedCount > 0 { throw CLIError.rejected }
        }

        /// Skipped bad lines, reported as a refused list's are (`error: --devices FILE:LINE: …`, then a count).
        static func reportSkipped(_ problem: DeviceFile.Problem, in world: CommandWorld) {
            devicesError(problem).report(to: world.standardError)
        }

        /// A streamed `--devices` list that ended at a bad line: the devices before it have their results, then
        /// the error lines, exit 64 (CLI.md). A signal (130/143) or lost output (74) still wins; a rejection or
        /// transport failure is said too, then 64. Without a bad line, `error` is rethrown as it was.
        private static func endOfStream(
            _ file: DeviceFile?, after error: CLIError?, sent: Int, in world: CommandWorld
        ) throws(CLIError) {
            guard let problem = file?.streamProblem else {
                if let error { throw error }
                return
            }
            switch error {
            case .interrupted?, .outputFailed?: if let error { throw error }
            default: error?.report(to: world.standardError)
            }
            // The devices before the bad line have their results; say that the list was not read to its end.
            devicesError(problem).report(to: world.standardError)
            let devices = "\(sent) device\(sent == 1 ? " was" : "s were")"
            let line = file?.linesRead ?? 0
            // A rest is claimed only while one may come: a bad last line (the writer gone) leaves none.
            let rest =
                file?.streamHasNoRest == true
                ? "the input ended at line \(line)" : "the rest of the input after line \(line) was not read"
            throw CLIError.usage(
                "--devices \(file?.displayName ?? "-"): \(devices) sent; \(rest) (--skip-invalid skips bad lines)")
        }
    }
}
