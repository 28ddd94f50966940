import APNSClient
import APNSCore
import APNSCrypto
import APNSPlatform
import APNSSettings
import ArgumentParser

extension APNSCtl {
    /// `apnsctl doctor`: will a push work from here, with these credentials? Checks the credentials, then per
    /// environment the network phases and one probe APNs always refuses, and says which check failed and why.
    struct Doctor: WorldCommand {
        static let configuration = CommandConfiguration(
            commandName: "doctor",
            abstract: "Check that pushes would work from here with these credentials, without reaching any device.",
            usage: """
                apnsctl doctor --cert <file> [<options>]
                  apnsctl doctor --auth-key <file> --topic <topic> [<options>]
                """,
            discussion: """
                Runs each check in order and prints one line per check (ok, warn or fail): credentials (the \
                key's type and ids, or the certificate's subject, bundle id, environments, topics and expiry), \
                then for each environment probed: dns, connect, proxy (only when one is used: which, from which \
                flag or variable, and its answer; dns and connect are then about the proxy's host), tls \
                (version, ALPN, the root that verified the server) and auth. A fail ends that environment's \
                checks; each network phase gets its own --timeout.

                The probe: one POST to /3/device/ followed by 64 zeros, a token APNs never issues, with \
                {"aps":{}}, push type background, priority 5 and apns-expiration 0, to --topic (default: the \
                certificate's bundle id). APNs checks the credentials and the topic before the token, so 400 \
                BadDeviceToken means they are accepted in that environment. Any other reason fails with its \
                meaning and what to check (InvalidProviderToken: team id and key id swapped?; \
                ExpiredProviderToken: clock skew; BadEnvironmentKeyIdInToken: a key limited to the other \
                environment). A 200 fails: APNs never accepts the probe. Nothing is resent.

                Environments: --env sandbox, production or both; each named must accept. The default is the \
                certificate's environments, both for token auth, and one that accepts is enough: the other's \
                rejection or network failure is a warn line. A bare --endpoint URL serves every environment; \
                sandbox=URL and production=URL set one each.

                Certificates: expired or not yet valid fails at once (exit 77, no network check at all). \
                Expiring within 30 days warns; --fail-within DURATION (30d, 12h) makes that a failure (exit 77) \
                while the network checks still run, for nightly CI jobs.

                A failed connect to Apple's host tries the other of ports 443 and 2197 once and says whether \
                --port 2197 would help. A failed TLS verification names the issuer of what the server \
                presented: Apple's chain means a missing local root (ca-certificates, SSL_CERT_FILE), another \
                issuer an intercepting proxy (--ca-file with its CA, or exempt the host).

                -o json prints one JSON object per check per line and nothing else on stdout: check, \
                environment, status, detail, reason (the probe's APNs reason on auth, else null), hint, and \
                not_after and days_remaining for a certificate.

                Exit status: 0 every required check passed (warnings allowed); 1 APNs rejected the \
                credentials (or accepted the probe); 69 a network check failed; 77 a credential problem \
                (expired, not yet valid, within --fail-within, unreadable, an environment the certificate \
                lacks); 64 usage; 66 a missing file. When several apply: 64/66, then 77, then 1, then 69. \
                A failed run ends with one error: line on stderr naming the failed check the exit status stands for.

                Examples:
                  apnsctl doctor --auth-key AuthKey_ABCDE12345.p8 --team-id TEAMID1234 \\
                      --topic com.example.app
                  apnsctl doctor -c push.p12 --env production --fail-within 30d -o json
                  apnsctl doctor -c mock/client.pem --ca-file mock/ca.pem \\
                      --endpoint https://127.0.0.1:2197
                """)

        @Option(
            name: .setting(.topic),
            help: ArgumentHelp(
                "The probe's apns-topic: the app's bundle id. Default: the certificate's bundle id; required with --auth-key.",
                valueName: "topic"))
        var topic: String?

        @OptionGroup(title: "Certificate auth") var certificate: CertificateOptions
        @OptionGroup(title: "Passphrase") var passphrase: PassphraseOptions
        @OptionGroup(title: "Token auth") var tokenAuth: TokenAuthOptions
        @OptionGroup(title: "Connection") var connection: DoctorConnectionOptions

        @Option(
            name: .setting(.failWithin),
            help: ArgumentHelp(
                "Fail (exit 77) when the certificate expires within this duration: 30d, 12h, 2w (--expiration's syntax). Without it, expiry within 30 days only warns. Keys do not expire: ignored with --auth-key.",
                valueName: "duration"),
            transform: SettingArgument.transform(.failWithin, .doctor))
        var failWithin: SettingValue?

        @Option(
            name: .setting(.app),
            help: ArgumentHelp(
                "The app build the tokens come from (.ipa, .app, .xcarchive or .mobileprovision): an app check of its bundle id, team, aps-environment and profile expiry before the network, and only its tokens' environment is probed unless --env says otherwise.",
                valueName: "path"), completion: .file())
        var app: String?

        @Option(
            name: [.customShort("o"), .setting(.output)],
            help: ArgumentHelp(
                "Report format: text (one aligned line per check) or json (one JSON object per check per line).",
                valueName: "text|json"), completion: .list(["text", "json"]),
            transform: SettingArgument.transform(.output, .doctor))
        var output: SettingValue?

        @OptionGroup(title: "Settings") var settingsOptions: ProfileOptions

        func run(in world: CommandWorld) throws {
            world.warnAboutUnreadVariables(command: ["doctor"])
            let settings = try settingsOptions.resolve(.doctor, from: self, world: world.settings)
            try StandardInputReaders.check(settings.standardInputReaders)
            if let refusal = settingsOptions.sendRefusal(from: self, world: world.settings),
                let message = refusal.message
            {
                world.standardError.warning("send would refuse these settings (exit \(refusal.exitCode)): \(message)")
            }
            let format = settings[.output]?.value ?? .text
            // Flags (64) and the --app file (66): no check's line of their own.
            let inputs = try readInputs(settings, in: world)
            // The mock profile's environment is the one the mock plays: a build of the other is refused, as send
            // refuses it, rather than probed where its tokens would not work. Still a check, so a nightly report
            // shows it: the app's.
            do throws(CLIError) {
                if settings.mockReadyFile != nil { try inputs.app?.checkEnvironment(settings) }
            } catch {
                DoctorOutput.print(
                    [.fail("app", nil, .credential, error.message ?? "")], format: format, to: world.standardOutput)
                throw error
            }
            let plan: DoctorPlan
            do { plan = try makePlan(settings, inputs, in: world) } catch {
                // A credential that cannot be used is still a check, so a nightly report shows it.
                if case .credential(let message) = error {
                    DoctorOutput.print(
                        [.fail("credentials", nil, .credential, message)], format: format, to: world.standardOutput)
                    // The last line names the failed check, as every check's failure does (doctor.md).
                    throw CLIError.credential("doctor: credentials failed: \(message)")
                }
                // So is a credential file that is missing or unreadable (66), the most common slip of all: a CI job
                // parsing -o json gets its line. A missing --ca-file or --app file is no credential.
                let credentialLabels = [
                    settings[.cert].map { _ in settings.label(.cert) },
                    settings[.key].map { _ in settings.label(.key) },
                    settings[.authKey].map { _ in settings.label(.authKey) },
                    settings[.passphraseFile].map { _ in settings.label(.passphraseFile) },
                ].compactMap { $0 }
                if case .inputMissing(let message) = error,
                    credentialLabels.contains(where: { message.hasPrefix($0 + " ") || message.hasPrefix($0 + ":") })
                {
                    DoctorOutput.print(
                        [.fail("credentials", nil, .inputMissing, message)], format: format, to: world.standardOutput)
                    throw CLIError.inputMissing("doctor: credentials failed: \(message)")
                }
                throw error
            }
            // A CA or trust file that cannot be used is the user's input (66, as in send), not the network's: said
            // after the checks already made, before any network check.
            var context: Result<TLSContext, TransportFailure>? = nil
            if !plan.stopBeforeNetwork {
                context = Result { () throws(TransportFailure) in try plan.configuration.makeContext() }
                if case .failure(let error) = context,
                    case let failure = CLIError(
                        senderSetup: error, certificate: plan.configuration.identity?.certificatePath),
                    case .inputMissing = failure
                {
                    DoctorOutput.print(plan.localChecks, format: format, to: world.standardOutput)
                    throw failure
                }
            }
            let (checks, exitCode, signal) = Self.runChecks(
                plan, context: context, clock: world.clock, interrupts: world.interrupts)
            DoctorOutput.print(checks, format: format, to: world.standardOutput)
            if let signal {
                // CLI.md: an interrupted run exits 130/143 after printing what it has.
                let name = signal == ProcessSignals.terminate ? "SIGTERM" : "SIGINT"
                throw CLIError.interrupted(
                    signal: signal,
                    message:
                        "interrupted by \(name): the checks above finished; the one under way and those after it did not run"
                )
            }
            guard exitCode != ExitStatus.success else { return }
            throw CLIError.checksFailed(code: exitCode, message: DoctorVerdict.errorLine(checks))
        }

        /// The credentials line, then each environment's network checks (none after a certificate that is
        /// expired or not yet valid), settled into the report and its exit code. `interrupts` is asked once the
        /// network checks start; a signal stops them, and the checks that finished come back unsettled with it.
        /// `context`: the TLS context the caller made, or why it could not be made (a failed `tls` check); nil
        /// when the plan stops before the network.
        static func runChecks(
            _ plan: DoctorPlan, context made: Result<TLSContext, TransportFailure>?, clock: CommandClock,
            interrupts: () -> (any InterruptSource)? = { nil }
        ) -> (checks: [DoctorCheck], exitCode: Int32, interruptedBy: Int32?) {
            let local = plan.localChecks
            guard !plan.stopBeforeNetwork else { return (local, DoctorVerdict.exitCode(local), nil) }
            let context: TLSContext
            switch made {
            case .success(let made)?: context = made
            case .failure(let error)?:
                let check = DoctorCheck.fail(
                    "tls", nil, .network, error.description,
                    hint: "TLS could not be set up with these credentials; check them with apnsctl inspect")
                return (local + [check], DoctorVerdict.exitCode(local + [check]), nil)
            case nil:
                return (local, DoctorVerdict.exitCode(local), nil)
            }
            let source = interrupts()
            var probe = DoctorProbe(plan: plan, context: context, clock: clock)
            probe.interruptFD = source?.fd
            var reports: [EnvironmentReport] = []
            for route in plan.routes {
                let report = probe.run(route)
                reports.append(report)
                if report.interrupted {
                    let finished = local + reports.flatMap(\.checks)
                    return (
                        finished, DoctorVerdict.exitCode(finished), source?.receivedSignal ?? ProcessSignals.interrupt
                    )
                }
            }
            sharpenEnvironmentHints(&reports, plan: plan)
            let (checks, code) = DoctorVerdict.settle(
                credentials: local, environments: reports, explicit: plan.explicit)
            return (checks, code, nil)
        }

        /// A `BadEnvironmentKey…` refusal names the environment that accepted the key, once the other probe told.
        static func sharpenEnvironmentHints(_ reports: inout [EnvironmentReport], plan: DoctorPlan) {
            let accepted = reports.first(where: \.accepted)?.environment
            guard let accepted else { return }
            for r in reports.indices where reports[r].environment != accepted {
                for c in reports[r].checks.indices {
                    let check = reports[r].checks[c]
                    guard check.name == "auth", check.status == .fail,
                        check.reason == .known(.badEnvironmentKeyIdInToken)
                            || check.reason == .known(.badEnvironmentKeyInToken)
                    else { continue }
                    let status = Int(check.detail.prefix { $0 != " " }) ?? 403
                    let (detail, hint) = DoctorAdvice.refusal(
                        status: status, reason: check.reason, environment: reports[r].environment,
                        acceptedIn: accepted, keyID: plan.keyID, teamID: plan.teamID)
                    reports[r].checks[c].detail = detail
                    reports[r].checks[c].hint = hint
                }
            }
        }
    }
}
