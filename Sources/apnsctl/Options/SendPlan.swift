import APNSClient
import APNSCore
import APNSCrypto
import APNSPlatform

/// Everything `send` settles before it connects: the request with every header decided, where it goes,
/// the devices, and the credentials. Building it runs every check of CLI.md in a fixed order, so the
/// exit code of a bad invocation never depends on the network: flags (64), input files (66), device
/// tokens (64), credentials (77), payload rules (65).
struct SendPlan {
    /// One environment's destination: where it is and how to get there.
    struct Route {
        let environment: APNSEnvironment
        let endpoint: PushEndpoint
        let proxy: ProxySelection
    }

    var request: PushRequest
    let environment: APNSEnvironment
    let endpoint: PushEndpoint
    /// The proxy for `endpoint` (or why none is used).
    let proxy: ProxySelection
    /// `--env auto`: the other environment, for devices the first answers `BadDeviceToken`.
    let fallback: Route?
    /// `-d` tokens in order, then `--devices FILE` read lazily.
    let devices: DeviceSource
    /// How many devices, or nil when `--devices` is a stream (standard input, a FIFO) of unknown length.
    let deviceCount: Int?
    let firstDevice: DeviceToken
    let identity: PushIdentity?
    /// Key id and team id with token auth (for the dry run's hint).
    let tokenIDs: (keyID: String, teamID: String)?
    /// Kept alive while sending: it owns the list's descriptor, and says whether a stream ended at a bad line.
    let deviceFile: DeviceFile?
}

extension APNSCtl.Send {
    /// Checks every input and settles every default; throws the CLI error of the first problem.
    func makePlan(now: Int64 = SystemClock.now()) throws(CLIError) -> SendPlan {
        // 1. Flag values and combinations (64).
        try connection.checkNumbers()
        if let topic = request.topic { try HeaderValueCheck.check(topic, flag: "--topic") }
        let explicitEnvironment = try connection.parsedEnvironment()
        let endpoints = try connection.parsedEndpoints()
        let port = try connection.parsedPort(endpoints: endpoints)
        let explicitType = try request.parsedPushType()
        let explicitPriority = try request.parsedPriority()
        let expiration = try request.parsedExpiration(now: now)
        let collapseID = try request.parsedCollapseID()
        let apnsID = try request.parsedAPNSID()
        let sizeLimit = try request.parsedSizeLimit()
        if payload != nil && request.hasQuickPayload {
            throw CLIError.usage("--alert, --badge and --sound build a payload, but PAYLOAD \(payload ?? "") was given too; use one or the other")
        }
        if payload == "-" && devicesFile == "-" {
            throw CLIError.usage("PAYLOAD - and --devices - both read standard input; put the payload or the tokens in a file")
        }
        try CredentialChoice.requireOne(certificate: certificate, tokenAuth: tokenAuth)
        if devices.isEmpty && devicesFile == nil {
            throw CLIError.usage("no device token; pass --device TOKEN (repeatable) or --devices FILE")
        }
        if let caFile = connection.caFile, !FileSystem.exists(caFile) {
            throw CLIError.inputMissing("--ca-file \(caFile): no such file; check the path")
        }

        // 2. The payload (66 when unreadable).
        let loaded = try loadPayload()

        // 3. Device tokens (64 for a bad one, 66 for a missing list).
        // A token given twice is sent once (compared parsed: case and Xcode's <…> cannot hide a repeat).
        var tokens: [DeviceToken] = []
        var timesGiven: [String: Int] = [:]
        for (i, text) in devices.enumerated() {
            let token: DeviceToken
            do { token = try DeviceToken(parsing: text) } catch {
                let shown = PrintableText.escapingControls(text.count > 40 ? String(text.prefix(40)) + "…" : text)
                throw CLIError.usage("--device \"\(shown)\" (device \(i + 1)): \(error.cliMessage)")
            }
            timesGiven[token.hex, default: 0] += 1
            guard timesGiven[token.hex] == 1 else { continue }
            tokens.append(token)
            if token.looksTruncated {
                StandardStreams.warning("--device \(token.abbreviated): only \(token.hex.utf8.count) hex digits (tokens are usually 64); was the copy cut short?")
            }
        }
        for token in tokens {
            guard let times = timesGiven[token.hex], times > 1 else { continue }
            StandardStreams.warning("--device \(token.hex) was given \(times) times; it is sent once")
        }
        var file: DeviceFile? = nil
        if let devicesFile {
            do { file = try DeviceFile(path: devicesFile) } catch { throw Self.devicesError(error) }
            if let file, file.shortTokenCount > 0 {
                let lines = file.shortTokenLines.map(String.init).joined(separator: ", ")
                let more = file.shortTokenCount > file.shortTokenLines.count ? " and \(file.shortTokenCount - file.shortTokenLines.count) more" : ""
                StandardStreams.warning("--devices \(devicesFile): \(file.shortTokenCount) token\(file.shortTokenCount == 1 ? " is" : "s are") shorter than 64 hex digits (line \(lines)\(more)); were they cut short?")
            }
        }
        let count: Int? = file?.isStreamed == true ? nil : tokens.count + (file?.count ?? 0)
        // The first token (the dry run shows it): from a stream, this reads up to it, and a bad first line
        // (`yes | apnsctl send --devices -`) is exit 64 here, before anything connects.
        let fileFirst: DeviceToken?
        do { fileFirst = try file?.firstToken() } catch { throw Self.devicesError(error) }
        guard let first = tokens.first ?? fileFirst else {
            throw CLIError.usage("--devices \(devicesFile ?? ""): no device tokens in the file (blank lines and # comments are skipped)")
        }
        var sources: [DeviceSource] = [DeviceArraySource(tokens)]
        if let file {
            do { sources.append(try file.makeSource()) } catch { throw Self.devicesError(error) }
        }
        let source = DeviceChainSource(sources)

        // 4. Credentials (77, or 66 for a missing file).
        let identity = try certificate.loadIdentity(passphrase: passphrase)
        var bearer: String? = nil
        var ids: (keyID: String, teamID: String)? = nil
        if let path = tokenAuth.key.authKey {
            if dryRun {
                let k = try tokenAuth.key.load(path: path)
                ids = (k.keyID, k.teamID)
            } else if let t = try tokenAuth.providerToken(now: now) {
                bearer = t.token
                ids = (t.keyID, t.teamID)
            }
        }
        let environment = RequestDefaults.environment(explicit: explicitEnvironment, certificate: identity?.info)
        if let identity, explicitEnvironment != nil {
            try withCredentialErrors { () throws(CredentialProblem) in try identity.checkEnvironment(environment) }
        }
        var fallback: SendPlan.Route? = nil
        if connection.isAutoEnvironment {
            if let info = identity?.info, info.isApplePush, info.environments.count == 1, let only = info.sortedEnvironments.first {
                throw CLIError.usage("--env auto: \(certificate.cert ?? "the certificate") is for \(only.rawValue) only, and auto needs both environments; pass --env \(only.rawValue), or use a certificate for both (or token auth)")
            }
            let other: APNSEnvironment = environment == .sandbox ? .production : .sandbox
            let otherEndpoint = endpoints.endpoint(for: other, port: port)
            fallback = SendPlan.Route(environment: other, endpoint: otherEndpoint, proxy: try connection.proxySelection(for: otherEndpoint))
        }
        let endpoint = endpoints.endpoint(for: environment, port: port)
        if let fallback, fallback.endpoint.url == endpoint.url {
            // One server for both environments would answer BadDeviceToken twice and blame the token.
            throw CLIError.usage("--env auto needs two servers, but --endpoint \(endpoint.url) names one for both environments; "
                + "pass --endpoint sandbox=URL --endpoint production=URL, or choose --env sandbox or --env production")
        }
        SendConnectionOptions.warnAboutEndpoints(endpoints, using: [(environment, endpoint)]
                                                 + (fallback.map { [($0.environment, $0.endpoint)] } ?? []))
        let proxy = try connection.proxySelection(for: endpoint)

        // 5. Headers from flags and defaults.
        let provisionalType = explicitType ?? (request.topic.flatMap { PushType.inferred(fromTopic: $0) })
            ?? RequestDefaults.pushType(explicit: nil, topic: nil, body: loaded.payload.body)
        guard let topic = RequestDefaults.topic(explicit: request.topic, simulatorTargetBundle: loaded.payload.simulatorTargetBundle,
                                                certificate: identity?.info, pushType: provisionalType) else {
            if identity == nil {
                throw CredentialChoice.topicRequired
            }
            throw CLIError.usage("--topic: the certificate names no bundle id; pass --topic with the app's bundle id")
        }
        let pushType = RequestDefaults.pushType(explicit: explicitType, topic: topic, body: loaded.payload.body)
        let priority = RequestDefaults.priority(explicit: explicitPriority, pushType: pushType)

        // 6. Every validate rule (65), then the bytes to send.
        let body = try checkPayload(loaded, pushType: pushType, priority: priority, topic: topic, sizeLimit: sizeLimit)

        let pushRequest = PushRequest(topic: topic, pushType: pushType, priority: priority, expiration: expiration,
                                      collapseID: collapseID, apnsID: apnsID, bearerToken: bearer, payload: body)
        return SendPlan(request: pushRequest, environment: environment, endpoint: endpoint, proxy: proxy, fallback: fallback,
                        devices: source, deviceCount: count, firstDevice: first, identity: identity, tokenIDs: ids,
                        deviceFile: file)
    }

    /// A device list's problem as CLI.md's exit code: an unreadable file 66, bad lines 64.
    static func devicesError(_ error: DeviceFile.Problem) -> CLIError {
        if case .file(let f) = error, f.isReadProblem { return .inputMissing(error.cliMessage) }
        return .usage(error.cliMessage)
    }

    /// The payload and the name its problems are reported under.
    func loadPayload() throws(CLIError) -> (payload: Payload, name: String) {
        guard let payload else { return (Payload(bytes: try request.quickPayload()), "(flags)") }
        if payload.hasPrefix("{") { return (Payload(bytes: Array(payload.utf8)), "(inline)") }
        do { return (try Payload.load(path: payload), payload) } catch {
            throw CLIError.inputMissing(error.message + "; give a payload file, - for standard input, or inline JSON starting with {")
        }
    }

    /// Runs the validator as `validate` would, prints its findings on stderr, and returns the body to send.
    func checkPayload(_ loaded: (payload: Payload, name: String), pushType: PushType, priority: Priority,
                      topic: String?, sizeLimit: Int?, broadcast: Bool = false) throws(CLIError) -> [UInt8] {
        var options = ValidationOptions(pushType: pushType, priority: priority, topic: topic, settingNames: .apnsctl)
        options.broadcast = broadcast
        let limit = sizeLimit ?? options.defaultSizeLimit(for: pushType)
        let minified = request.minify ? loaded.payload.minified() : nil
        // With --minify the size rule applies to the minified bytes, checked below.
        options.sizeLimit = minified == nil ? limit : Int.max / 2
        let report = PayloadValidator.validate(loaded.payload, options: options)
        for p in report.problems {
            // A rule about a flag's value names the flag, not the payload file (CLI.md).
            let line = p.flag.map { "\($0): \(p.message)" } ?? "\(loaded.name):\(p.line):\(p.column): \(p.path): \(p.message)"
            if p.severity == .error { StandardStreams.error(line) } else { StandardStreams.warning(line) }
        }
        if let minified, minified.count > limit {
            StandardStreams.error("\(loaded.name):1:1: (root): minified payload is \(minified.count) bytes, \(minified.count - limit) over the \(limit)-byte limit (APNs answers 413 PayloadTooLarge); shorten it")
            throw CLIError.payloadInvalid("\(loaded.name): the payload is invalid; nothing was sent")
        }
        if report.hasErrors {
            throw CLIError.payloadInvalid("\(loaded.name): the payload is invalid (\(report.errors.count) error\(report.errors.count == 1 ? "" : "s") above); nothing was sent")
        }
        return minified ?? loaded.payload.body
    }
}

extension FileSystem.Failure {
    /// Reading problems (exit 66), as opposed to writing ones.
    var isReadProblem: Bool {
        switch self {
        case .missing, .unreadable, .isDirectory: return true
        case .exists, .cannotCreate, .notARegularFile, .writeFailed: return false
        }
    }
}
