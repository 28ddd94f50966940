import APNSClient
import APNSCore
import APNSCrypto
import APNSPlatform
import APNSSettings

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
    /// Token (hex) → the device name it was given by with `-d`, for the results.
    var deviceNames: [String: String] = [:]
    /// The same for names used in `--devices` lines, filled as the list is read.
    var fileDeviceNames = LockedValue<[String: String]>([:])

    /// The name a token was given by, on the command line or in the list.
    func deviceName(_ hex: String) -> String? {
        deviceNames[hex] ?? fileDeviceNames.withLock { $0[hex] }
    }
}

extension APNSCtl.Send {
    /// Checks every input and settles every default from the resolved `settings`; throws the CLI error of
    /// the first problem. Warnings go to the world's standard error; `now` is its clock's.
    func makePlan(_ settings: ResolvedSettings, in world: CommandWorld) throws(CLIError) -> SendPlan {
        let now = world.clock.now()
        // 1. Flag values and combinations (64); the settings' values were checked when they were resolved.
        if let topic = settings[.topic] { try HeaderValueCheck.check(topic.value, flag: settings.label(.topic)) }
        let explicitEnvironment = settings.explicitEnvironment
        let endpoints = settings.endpointList
        let port = settings.checkedPort(endpoints: endpoints, in: world)
        let explicitType = settings[.pushType]?.value
        let explicitPriority = settings[.priority]?.value
        let expiration = try settings.expirationTime(now: now)
        let collapseID = try request.parsedCollapseID()
        let apnsID = try request.parsedAPNSID()
        let sizeLimit = settings[.sizeLimit]?.value
        let event = try parsedLiveActivityEvent()
        if event != nil, let type = explicitType, type != .liveactivity {
            throw CLIError.usage("\(settings.label(.pushType)) \(type.rawValue): --live-activity builds a liveactivity push; leave --push-type out")
        }
        if liveActivity.contentChanged, let type = explicitType, type != .widgets, type != .controls {
            throw CLIError.usage("\(settings.label(.pushType)) \(type.rawValue): --content-changed builds a widgets or controls push; give --push-type widgets or controls")
        }
        if payload == "-" && devicesFile == "-" {
            throw CLIError.usage("PAYLOAD - and --devices - both read standard input; put the payload or the tokens in a file")
        }
        if devices.isEmpty && devicesFile == nil {
            throw CLIError.usage("no device token; pass --device TOKEN (repeatable) or --devices FILE")
        }
        try settings.checkCAFile()

        // 2. The payload (66 when unreadable), built or updated by the payload flags (64 for a bad one), then
        // parsed once: for the push type and for every rule.
        let chosenType = event != nil ? .liveactivity : explicitType ?? (settings[.topic]?.value).flatMap { PushType.inferred(fromTopic: $0) }
        let loaded = try loadPayload(pushType: chosenType, now: now, in: world)
        let parsed = ParsedPayload(loaded.payload)

        // 3. Device tokens (64 for a bad one, 66 for a missing list).
        // A token given twice is sent once (compared parsed: case and Xcode's <…> cannot hide a repeat).
        // A name from the settings file's device tables stands for its token (CLI.md, "Settings").
        var tokens: [DeviceToken] = []
        var names: [String: String] = [:]
        var timesGiven: [String: Int] = [:]
        for (i, text) in devices.enumerated() {
            let token: DeviceToken
            do {
                let device = try settings.devices.resolve(text)
                token = device.token
                if let name = device.name, names[token.hex] == nil { names[token.hex] = name }
            } catch {
                let shown = PrintableText.escapingControls(text.count > 40 ? String(text.prefix(40)) + "…" : text)
                throw CLIError.usage("--device \"\(shown)\" (device \(i + 1)): \(error.cliMessage)")
            }
            timesGiven[token.hex, default: 0] += 1
            guard timesGiven[token.hex] == 1 else { continue }
            tokens.append(token)
            if token.looksTruncated {
                world.standardError.warning("--device \(token.abbreviated): only \(token.hex.utf8.count) hex digits (tokens are usually 64); was the copy cut short?")
            }
        }
        for token in tokens {
            guard let times = timesGiven[token.hex], times > 1 else { continue }
            let named = names[token.hex].map { " (\($0))" } ?? ""
            world.standardError.warning("--device \(token.hex)\(named) was given \(times) times; it is sent once")
        }
        var file: DeviceFile? = nil
        let fileNames = LockedValue<[String: String]>([:])
        if let devicesFile {
            let lookup = settings.devices.lookup(recording: fileNames)
            do { file = try DeviceFile(path: devicesFile, names: lookup, standardInput: world.standardInput) } catch { throw Self.devicesError(error) }
            if let file, file.shortTokenCount > 0 {
                let lines = file.shortTokenLines.map(String.init).joined(separator: ", ")
                let more = file.shortTokenCount > file.shortTokenLines.count ? " and \(file.shortTokenCount - file.shortTokenLines.count) more" : ""
                world.standardError.warning("--devices \(devicesFile): \(file.shortTokenCount) token\(file.shortTokenCount == 1 ? " is" : "s are") shorter than 64 hex digits (line \(lines)\(more)); were they cut short?")
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
        let identity = try settings.loadIdentity(now: now, in: world)
        var bearer: String? = nil
        var ids: (keyID: String, teamID: String)? = nil
        if dryRun {
            if let k = try settings.loadSigningKey() { ids = (k.keyID, k.teamID) }
        } else if let t = try settings.providerToken(now: now, in: world) {
            bearer = t.token
            ids = (t.keyID, t.teamID)
        }
        let environment = RequestDefaults.environment(explicit: explicitEnvironment, certificate: identity?.info)
        if let identity, explicitEnvironment != nil {
            try withCredentialErrors { () throws(CredentialProblem) in try identity.checkEnvironment(environment) }
        }
        var fallback: SendPlan.Route? = nil
        if settings.isAutoEnvironment {
            if let info = identity?.info, info.isApplePush, info.environments.count == 1, let only = info.sortedEnvironments.first {
                throw CLIError.usage("\(settings.label(.env)) auto: \(settings[.cert]?.value.displayName ?? "the certificate") is for \(only.rawValue) only, and auto needs both environments; pass --env \(only.rawValue), or use a certificate for both (or token auth)")
            }
            let other: APNSEnvironment = environment == .sandbox ? .production : .sandbox
            let otherEndpoint = endpoints.endpoint(for: other, port: port)
            fallback = SendPlan.Route(environment: other, endpoint: otherEndpoint, proxy: try settings.proxySelection(for: otherEndpoint))
        }
        let endpoint = endpoints.endpoint(for: environment, port: port)
        if let fallback, fallback.endpoint.url == endpoint.url {
            // One server for both environments would answer BadDeviceToken twice and blame the token.
            throw CLIError.usage("\(settings.label(.env)) auto needs two servers, but \(settings.label(.endpoint)) \(endpoint.url) names one for both environments; "
                + "pass --endpoint sandbox=URL --endpoint production=URL, or choose --env sandbox or --env production")
        }
        SendConnectionOptions.warnAboutEndpoints(endpoints, using: [(environment, endpoint)]
                                                 + (fallback.map { [($0.environment, $0.endpoint)] } ?? []), in: world)
        let proxy = try settings.proxySelection(for: endpoint)

        // 5. Headers from flags and defaults. The builder flags choose the push type and give the topic its suffix.
        let suffixedType: PushType? = event != nil ? .liveactivity
            : (liveActivity.contentChanged && (explicitType == .widgets || explicitType == .controls)) ? explicitType : nil
        let provisionalType = suffixedType ?? explicitType ?? parsed.inferredPushType(topic: settings[.topic]?.value)
        guard var topic = RequestDefaults.topic(explicit: settings[.topic]?.value, simulatorTargetBundle: loaded.payload.simulatorTargetBundle,
                                                certificate: identity?.info, pushType: suffixedType == nil ? provisionalType : nil) else {
            if identity == nil {
                throw CredentialChoice.topicRequired
            }
            throw CLIError.usage("--topic: the certificate names no bundle id; pass --topic with the app's bundle id")
        }
        if let suffixedType { topic = RequestDefaults.suffixed(topic, for: suffixedType) }
        if explicitType == nil, PushType.inferred(fromTopic: topic) == nil, PayloadValidator.isContentChangedOnly(body: loaded.payload.body) {
            throw CLIError.usage("\(liveActivity.contentChanged ? "--content-changed" : loaded.name): aps holds only content-changed, which both widgets and controls pushes carry; give --push-type widgets or controls (the topic gets its suffix)")
        }
        let typeToSend = suffixedType ?? explicitType ?? parsed.inferredPushType(topic: topic)
        if let identity {
            var mockFile: String? = nil
            if case .mock(let file)? = settings[.cert]?.origin { mockFile = file }
            let label = settings[.cert].map { "\(settings.label(.cert)) \($0.value.displayName)" }
            try Self.checkCertificate(identity.info, canPush: typeToSend, topic: topic, label: label, mockFile: mockFile,
                                      warnings: world.standardError)
        }
        if typeToSend == .widgets || typeToSend == .controls, expiration != nil {
            world.standardError.warning("\(settings.label(.expiration)): \(typeToSend.rawValue) pushes are sent without apns-expiration by default (Apple's sample sends none; an expiration was reported to stop widget pushes); leave it out unless you need it")
        }

        // 6. Every validate rule (65), then the bytes to send and the push type the rules judged them as
        // (`--push-type` or the builder's, else inferred). A defaulted priority breaks no rule, so only `--priority` is checked.
        let (body, pushType) = try checkPayload(loaded, parsed, pushType: suffixedType ?? explicitType, priority: explicitPriority, topic: topic,
                                                sizeLimit: sizeLimit, minify: settings.isOn(.minify), now: now, in: world)
        let priority = RequestDefaults.priority(explicit: explicitPriority, pushType: pushType)

        let pushRequest = PushRequest(topic: topic, pushType: pushType, priority: priority, expiration: expiration,
                                      collapseID: collapseID, apnsID: apnsID, bearerToken: bearer, payload: body)
        return SendPlan(request: pushRequest, environment: environment, endpoint: endpoint, proxy: proxy, fallback: fallback,
                        devices: source, deviceCount: count, firstDevice: first, identity: identity, tokenIDs: ids,
                        deviceFile: file, deviceNames: names, fileDeviceNames: fileNames)
    }

    /// A device list's problem as CLI.md's exit code: an unreadable file 66, bad lines 64.
    static func devicesError(_ error: DeviceFile.Problem) -> CLIError {
        if case .file(let f) = error, f.isReadProblem { return .inputMissing(error.cliMessage) }
        return .usage(error.cliMessage)
    }

    /// Whether certificate auth can carry a push of `pushType` to `topic` (CLI.md, "Credentials that cannot do a
    /// push type"): APNs answers what it cannot `TopicDisallowed`, so that is exit 77 before connecting. A location
    /// push takes token auth only, whatever the certificate lists; a Live Activity needs the certificate to list its
    /// topic (see below). `label` names the certificate's flag or setting; `mockFile` is the mock's ready file when
    /// `-p mock` chose the certificate.
    static func checkCertificate(_ info: CertificateInfo, canPush pushType: PushType, topic: String, label: String?,
                                 mockFile: String? = nil, warnings: MessageStream) throws(CLIError) {
        guard pushType.allowsCertificateAuth else {
            throw CLIError.credential("\(label ?? "the certificate"): \(pushType.rawValue) pushes take token auth only, and APNs answers a certificate TopicDisallowed; send with --auth-key AuthKey_KEYID.p8 --team-id TEAMID\(mockKeyHint(mockFile))")
        }
        if pushType == .liveactivity {
            try checkLiveActivityCertificate(info, topic: topic, label: label, mockFile: mockFile, warnings: warnings)
        }
    }

    /// Where the mock's own key is, for advice to use token auth: the mock profile's certificate is the user's only
    /// because -p mock chose it.
    private static func mockKeyHint(_ mockFile: String?) -> String {
        mockFile.map { "; apnsctl mock's key and team id are auth_key and team_id in \($0)" } ?? ""
    }

    /// A Live Activity push with certificate auth (CLI.md): a certificate whose topics extension lacks `topic` would
    /// get `TopicDisallowed`, so it is exit 77 before connecting; one with no topic list (its bundle id alone) may
    /// work or not: a warning, on `warnings`.
    private static func checkLiveActivityCertificate(_ info: CertificateInfo, topic: String, label: String?,
                                                     mockFile: String?, warnings: MessageStream) throws(CLIError) {
        let name = label ?? "the certificate"
        let mockKey = mockKeyHint(mockFile)
        guard info.hasTopicsExtension else {
            warnings.warning("\(name) lists no topics (only its bundle id \(info.bundleID ?? "")); Live Activities may need token auth: if APNs answers TopicDisallowed, send with --auth-key AuthKey_KEYID.p8 --team-id TEAMID\(mockKey)")
            return
        }
        // Judged on the suffixed topic, so a bare topic is not first "fixed" into one the certificate cannot push to.
        let needed = RequestDefaults.suffixed(topic, for: .liveactivity)
        guard !info.topics.contains(needed) else { return }
        throw CLIError.credential("\(name): its topics (\(info.topics.joined(separator: ", "))) lack \(needed), so APNs would answer TopicDisallowed; Live Activities need a certificate listing that topic or token auth: send with --auth-key AuthKey_KEYID.p8 --team-id TEAMID --topic \(needed)\(mockKey)")
    }

    /// Runs the validator as `validate` would on the `parsed` payload, prints its findings on stderr, and returns
    /// the body to send with the push type it was judged as (`pushType`, else inferred from `topic` and the payload).
    /// `now` runs the rules about the current time (a Live Activity timestamp far from it).
    func checkPayload(_ loaded: (payload: Payload, name: String), _ parsed: ParsedPayload, pushType: PushType?, priority: Priority?,
                      topic: String?, sizeLimit: Int?, minify: Bool,
                      broadcast: Bool = false, now: Int64? = nil, in world: CommandWorld) throws(CLIError) -> (body: [UInt8], pushType: PushType) {
        let pushType = pushType ?? parsed.inferredPushType(topic: topic)
        var options = ValidationOptions(pushType: pushType, priority: priority, topic: topic, settingNames: .apnsctl)
        options.broadcast = broadcast
        options.now = now
        let limit = sizeLimit ?? options.defaultSizeLimit(for: pushType)
        let minified = minify ? loaded.payload.minified() : nil
        // With --minify the size rule applies to the minified bytes, checked below.
        options.sizeLimit = minified == nil ? limit : Int.max / 2
        let report = PayloadValidator.validate(parsed, options: options)
        for p in report.problems {
            // A rule about a flag's value names the flag, not the payload file (CLI.md).
            let line = p.flag.map { "\($0): \(p.message)" } ?? "\(loaded.name):\(p.line):\(p.column): \(p.path): \(p.message)"
            if p.severity == .error { world.standardError.error(line) } else { world.standardError.warning(line) }
        }
        if let minified, minified.count > limit {
            world.standardError.error("\(loaded.name):1:1: (root): minified payload is \(minified.count) bytes, \(minified.count - limit) over the \(limit)-byte limit (APNs answers 413 PayloadTooLarge); shorten it")
            throw CLIError.payloadInvalid("\(loaded.name): the payload is invalid; nothing was sent")
        }
        if report.hasErrors {
            throw CLIError.payloadInvalid("\(loaded.name): the payload is invalid (\(report.errors.count) error\(report.errors.count == 1 ? "" : "s") above); nothing was sent")
        }
        return (minified ?? loaded.payload.body, report.pushType)
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
