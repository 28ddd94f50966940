import APNSClient
import APNSCore
import APNSCrypto
import APNSPlatform
import APNSSettings

/// Everything `apnsctl doctor` settles before the network: which environments to probe and whether they
/// must pass, where each goes, the probe request, and the `credentials` line. Built in CLI.md's order, so
/// a bad invocation never depends on the network: flags (64), files (66), credentials (77).
struct DoctorPlan {
    /// One environment's destination.
    struct Route {
        let environment: APNSEnvironment
        let endpoint: PushEndpoint
        let proxy: ProxySelection
        /// True for Apple's own host (no `--endpoint`): its port has an alternative, its chain is Apple's.
        let isAppleHost: Bool
    }

    /// The environments to probe, in order, each with its route.
    let routes: [Route]
    /// `--env` named them: each must pass. Otherwise one that accepts is enough.
    let explicit: Bool
    /// The `credentials` line (and its problem when it fails).
    let credentials: DoctorCheck

    /// The checks made without the network: the credentials, and the app build when given.
    var localChecks: [DoctorCheck] { [credentials] + (app.map { [$0] } ?? []) }
    /// `--app`: the `app` line, checked before the network like the credentials.
    var app: DoctorCheck? = nil
    /// An expired or not-yet-valid certificate: report it and touch no network at all.
    let stopBeforeNetwork: Bool
    /// How to connect: trust, client certificate, timeout (the sender's own settings type).
    let configuration: SenderConfiguration
    /// The probe: `POST /3/device/` + 64 zeros, `{"aps":{}}`, background, priority 5, expiration 0.
    let probe: PushRequest
    /// Token auth: the ids, for the `InvalidProviderToken` hint.
    let keyID: String?
    let teamID: String?
    /// Where the probe's topic came from (`--topic`, `topic in profile dev (…:3)`, the certificate's bundle id), for
    /// a refusal of the topic: a stale profile's topic is the usual cause.
    var topicOrigin = "--topic"
    /// With a mock profile, what to do when nothing answers at its endpoint: the mock has stopped.
    var stoppedMockAdvice: String? = nil

    /// The probe's device token: 32 zero bytes, a token APNs never issues.
    static let probeDevice = String(repeating: "0", count: 64)
    /// The probe's body: the smallest payload APNs takes.
    static let probePayload = Array(#"{"aps":{}}"#.utf8)
    /// Expiry closer than this is a `warn` (CLI.md: 30 days).
    static let expiryWarningSeconds: Int64 = 30 * 86_400
}

/// What doctor's flags settle before the credentials (the flags checked, the build `--app` names read): the
/// plan's first step, so the build's own refusals are the `app` check's, said between the two steps.
struct DoctorInputs {
    /// The environments `--env` names; nil when it names none.
    let wanted: [APNSEnvironment]?
    let endpoints: PushEndpoints
    let port: Int
    let failWithin: Int64?
    let app: AppBuildRules?
}

extension APNSCtl.Doctor {
    /// Checks the flags (64), then the build `--app` names (66).
    func readInputs(_ settings: ResolvedSettings, in world: CommandWorld) throws(CLIError) -> DoctorInputs {
        // Values were checked when they were resolved.
        if connection.concurrency != nil {
            throw CLIError.usage("--concurrency: doctor sends one probe per environment; leave it out")
        }
        let wanted: [APNSEnvironment]?
        switch settings[.env]?.value {
        case .one(let e)?: wanted = [e]
        case .both?: wanted = APNSEnvironment.allCases
        default: wanted = nil
        }
        let endpoints = settings.endpointList
        let port = try settings.checkedPort(endpoints: endpoints, in: world)
        let failWithin = settings[.failWithin]?.value
        let app = try settings[.app].map { (path) throws(CLIError) in
            AppBuildRules(
                build: try AppBuildInput.read(path.value, flag: settings.label(.app)),
                label: "\(settings.label(.app)) \(path.value)")
        }
        return DoctorInputs(wanted: wanted, endpoints: endpoints, port: port, failWithin: failWithin, app: app)
    }

    /// Checks the rest of the inputs and settles every default from the resolved `settings` and what
    /// `readInputs` gave; throws the CLI error of the first problem.
    func makePlan(_ settings: ResolvedSettings, _ inputs: DoctorInputs, in world: CommandWorld) throws(CLIError)
        -> DoctorPlan
    {
        let now = world.clock.now()
        let (wanted, endpoints, port, failWithin, app) = (
            inputs.wanted, inputs.endpoints, inputs.port, inputs.failWithin, inputs.app
        )
        // The mock profile's topic is a default (the mock certificate's bundle id), which the build's comes before.
        let mockTopic: Bool = if case .mock? = settings[.topic]?.origin { true } else { false }
        let topic = (mockTopic ? app?.build.topic : nil) ?? settings[.topic]?.value ?? app?.build.topic
        if settings[.authKey] != nil && topic == nil { throw CredentialChoice.topicRequired }
        if let given = settings[.topic]?.value {
            try TopicShape.check(given, label: "\(settings.label(.topic)) \(given)")
        }
        var routes: [APNSEnvironment: DoctorPlan.Route] = [:]
        for environment in APNSEnvironment.allCases {
            let endpoint = endpoints.endpoint(for: environment, port: port)
            routes[environment] = DoctorPlan.Route(
                environment: environment, endpoint: endpoint,
                proxy: try settings.proxySelection(for: endpoint),
                isAppleHost: endpoints.explicit(for: environment) == nil)
        }
        try settings.checkCAFile(in: world)
        // With --app the limit still applies, to the provisioning profile.
        if failWithin != nil && settings[.authKey] != nil && app == nil {
            world.standardError.warning(
                "\(settings.label(.failWithin)) applies to certificates; a .p8 key does not expire, so it is ignored")
        }

        // 2. Credentials (66 for a missing file, else 77).
        var identity: PushIdentity? = nil
        var credentials: DoctorCheck
        var stop = false
        var bearer: String? = nil
        var ids: (keyID: String, teamID: String)? = nil
        if let cert = settings[.cert]?.value {
            guard let loaded = try settings.loadIdentity(now: nil, in: world) else {
                throw CLIError.internalError("--cert given but no certificate loaded")
            }
            identity = loaded
            (credentials, stop) = Self.certificateCheck(
                loaded.info, file: CredentialMessages.shownName(cert.displayName, flag: settings.label(.cert)),
                now: now, weakness: TLSContext.weakness(of: loaded.certificate, chain: loaded.chain),
                failWithin: failWithin,
                failWithinLabel: settings.label(.failWithin))
        } else if let key = settings[.authKey]?.value {
            guard let token = try settings.providerToken(now: now, refusingMixedUpIDs: false, in: world) else {
                throw CLIError.internalError("token auth without a key")
            }
            bearer = token.token
            ids = (token.keyID, token.teamID)
            credentials = tokenCheck(
                path: key.displayName,
                shown: CredentialMessages.shownName(key.displayName, flag: settings.label(.authKey)),
                keyID: token.keyID, teamID: token.teamID)
        } else {
            throw CLIError.internalError("no credential after the flag checks")
        }

        // 3. Environments: named ones must be the certificate's (77, as for send); auto, both of them and two
        // servers (64), unless the certificate's own line already failed the run (an expired one, say).
        if !stop { try settings.checkAutoEnvironment(identity?.info, port: port) }
        let environments: [APNSEnvironment]
        // Without --env, an --app build's tokens name the one environment worth probing.
        let probed = wanted ?? app?.environment.map { [$0] }
        if let wanted = probed {
            // An expired certificate's own line comes first, as in send: its environments are the next fix.
            if let identity, identity.info.isApplePush, !stop {
                for environment in wanted {
                    do { try identity.checkEnvironment(environment) } catch { throw settings.credentialError(error) }
                }
            }
            environments = wanted
        } else if let info = identity?.info {
            environments =
                info.sortedEnvironments.isEmpty
                ? [RequestDefaults.environment(explicit: nil, certificate: info)]
                : info.sortedEnvironments
        } else {
            environments = APNSEnvironment.allCases
        }
        let used = environments.compactMap { routes[$0] }
        if let first = used.first,
            let warning = settings.serverFromElsewhereWarning(first.endpoint, environment: first.environment)
        {
            world.standardError.warning(warning)
        }
        DoctorConnectionOptions.warnAboutEndpoints(
            endpoints, using: used.map { ($0.environment, $0.endpoint) }, label: settings.label(.endpoint),
            certificate: identity?.info, in: world)

        // 4. The probe, built directly: send's payload rules refuse {"aps":{}} for background.
        guard let probeTopic = topic ?? identity?.info.bundleID ?? identity?.info.topics.first else {
            throw CredentialChoice.noBundleID(topic: settings.label(.topic))
        }
        let probe = PushRequest(
            topic: probeTopic, pushType: .background, priority: .powerAware, expiration: 0,
            bearerToken: bearer, payload: DoctorPlan.probePayload)
        var configuration = SenderConfiguration(
            endpoint: used.first?.endpoint ?? PushEndpoint(environment: .sandbox), trust: settings.trust(in: world),
            identity: identity, timeout: settings[.timeout]?.value ?? 30)
        configuration.nameLookup = world.nameLookup
        let appCheck = app?.doctorCheck(
            identity: identity?.info, teamID: ids?.teamID, now: now, failWithin: failWithin,
            failWithinLabel: settings.label(.failWithin), environments: wanted, environmentLabel: settings.label(.env))
        var plan = DoctorPlan(
            routes: used, explicit: wanted != nil, credentials: credentials, app: appCheck?.check,
            stopBeforeNetwork: stop || appCheck?.stopBeforeNetwork == true,
            configuration: configuration, probe: probe, keyID: ids?.keyID, teamID: ids?.teamID)
        plan.stoppedMockAdvice = StoppedMock.advice(settings)
        plan.topicOrigin =
            settings[.topic] != nil && !(mockTopic && app?.build.topic != nil)
            ? settings.label(.topic) : topic != nil ? "the app build's bundle id" : "the certificate's bundle id"
        return plan
    }

    /// The `credentials` line for a certificate: expired or not yet valid fails (and stops the run before
    /// any network); expiry within `--fail-within` fails; within 30 days warns.
    /// `failWithinLabel`: where the limit came from (`--fail-within`, `APNSCTL_FAIL_WITHIN`, a profile's line).
    static func certificateCheck(
        _ info: CertificateInfo, file: String, now: Int64, weakness: CertificateWeakness? = nil,
        failWithin: Int64?, failWithinLabel: String = "--fail-within"
    ) -> (check: DoctorCheck, stopBeforeNetwork: Bool) {
        let days = info.daysRemaining(now: now)
        let notAfter = ISO8601.format(epochSeconds: info.notAfter)
        let notBefore = ISO8601.format(epochSeconds: info.notBefore)
        let environments = info.sortedEnvironments.map(\.rawValue).joined(separator: " and ")
        let topics =
            switch info.topics.count {
            case 0: "no topics"
            case 1: "topic \(info.topics[0])"
            default: "\(info.topics.count) topics (\(info.topics.joined(separator: ", ")))"
            }
        let describe =
            "\(file): \(info.commonName ?? info.subject), bundle id \(info.bundleID ?? "(none)"), "
            + (environments.isEmpty ? "no Apple environment" : environments) + ", \(topics)"
        var check = DoctorCheck(
            name: "credentials", status: .ok, detail: "\(describe), expires \(notAfter) (\(DayCount.text(days)) left)")
        check.notAfter = info.notAfter
        check.daysRemaining = days
        if info.isExpired(now: now) {
            check.status = .fail
            check.problem = .credential
            check.detail =
                "\(describe): EXPIRED on \(notAfter), \(DayCount.text(max(0, -days))) ago (valid \(notBefore) to \(notAfter))"
            check.hint =
                "create a new push certificate in the Apple Developer portal (Certificates, Identifiers & Profiles) and export it with its key"
            return (check, true)
        }
        if info.isNotYetValid(now: now) {
            check.status = .fail
            check.problem = .credential
            check.detail = "\(describe): NOT YET VALID, valid from \(notBefore) to \(notAfter)"
            check.hint = "check this machine's clock (date -u), or wait until \(notBefore)"
            return (check, true)
        }
        if let weakness {
            // The TLS set-up would refuse it: every network check would fail with OpenSSL's words.
            check.status = .fail
            check.problem = .credential
            check.detail = "\(describe): \(weakness)"
            check.hint =
                weakness.isLeaf
                ? "create a new push certificate in the Apple Developer portal (RSA 2048, SHA-256, as Apple issues them)"
                : "leave that chain certificate out of the file (APNs needs only the push certificate and its key)"
            return (check, true)
        }
        let left = info.notAfter - now
        if let failWithin, left <= failWithin {
            check.status = .fail
            check.problem = .credential
            check.hint =
                "it expires within \(failWithinLabel) \(Self.formatDuration(failWithin)): renew it in the Apple Developer portal before \(notAfter)"
        } else if left <= DoctorPlan.expiryWarningSeconds {
            check.status = .warn
            check.hint = "renew it in the Apple Developer portal before \(notAfter)"
        }
        if check.status == .ok && !info.hasApplePushExtensions {
            check.status = .warn
            check.hint =
                "no Apple push extensions: APNs will answer 403 BadCertificate; use the push certificate from the Apple Developer portal"
        }
        return (check, false)
    }

    /// The `credentials` line for token auth: the key, its ids, and a warning for ids that look swapped or
    /// disagree with the file name.
    /// `shown`: how the key is named (`--auth-key -` for one read from standard input), when not by `path`.
    func tokenCheck(path: String, shown: String? = nil, keyID: String, teamID: String) -> DoctorCheck {
        var check = DoctorCheck(
            name: "credentials", status: .ok,
            detail: "\(shown ?? path): EC P-256 key, key id \(keyID), team \(teamID)")
        switch TokenIDMixUp.of(path: path, keyID: keyID, teamID: teamID) {
        case .swapped(let fileKeyID)?:
            check.status = .warn
            check.hint =
                "--key-id \(keyID) differs from the file name's key id \(fileKeyID), which is given as --team-id: swapped? "
                + "the key id is the one in AuthKey_<KEYID>.p8, the team id your developer team's"
        case .keyIDDiffersFromFileName(let fileKeyID)?:
            check.status = .warn
            check.hint =
                "--key-id \(keyID) differs from the file name's key id \(fileKeyID); Apple names the file after the key's id"
        case .keyIDIsTeamID(let fileKeyID)?:
            check.status = .warn
            check.hint =
                "--key-id \(keyID) is the team id too; the file name's key id is \(fileKeyID): the key id is the one in AuthKey_<KEYID>.p8"
        case .teamIsKeyID?:
            check.status = .warn
            check.hint = "the team id equals the key id \(keyID): swapped? --team-id is your developer team's id"
        case nil: break
        }
        return check
    }

    /// `30d`, `12h`, `90s`: a duration in its largest whole unit.
    static func formatDuration(_ seconds: Int64) -> String {
        for (unit, size) in [("d", Int64(86_400)), ("h", 3600), ("m", 60)] where seconds >= size && seconds % size == 0
        {
            return "\(seconds / size)\(unit)"
        }
        return "\(seconds)s"
    }
}
