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
    var request: PushRequest
    let route: SendRoute
    /// `--env auto`: the other environment, for devices the first answers `BadDeviceToken`.
    let fallback: SendRoute?
    let devices: SendDevices
    let credentials: PushCredentials

    /// Where the devices' pushes go, and how their results are named.
    var delivery: DeliveryTarget {
        DeliveryTarget(
            route: route, identity: credentials.identity, total: devices.count, noun: "device",
            fallback: fallback.map { SendFallback(route: $0, request: request, devices: devices.source) },
            topic: request.topic, pushType: request.pushType, deviceName: deviceName)
    }

    /// The name a token was given by, on the command line or in the list.
    func deviceName(_ hex: String) -> String? {
        devices.names[hex] ?? devices.fileNames.withLock { $0[hex] }
    }
}

extension APNSCtl.Send {
    /// Checks every input and settles every default from the resolved `settings`; throws the CLI error of
    /// the first problem. Warnings go to the world's standard error; `now` is its clock's.
    func makePlan(_ settings: ResolvedSettings, in world: CommandWorld) throws(CLIError) -> SendPlan {
        let now = world.clock.now()
        // 1. Flag values and combinations (64); the settings' values were checked when they were resolved.
        let port = try settings.checkedPort(endpoints: settings.endpointList, in: world)
        let expiration = try settings.expirationTime(now: now)
        if let expiration,
            let warning = Self.expirationWarning(expiration, now: now, label: settings.label(.expiration))
        {
            world.standardError.warning(warning)
        }
        let collapseID = try request.parsedCollapseID()
        let apnsID = try request.parsedAPNSID()
        var description = try pushDescription(settings)
        let requested = try description.requestedType()
        if devicesFiles.count > 1 {
            // Standard input is no file to cat: the advice to join the lists names files only.
            let files = devicesFiles.filter { $0 != "-" }
            let join =
                files.count > 1 && files.count == devicesFiles.count
                ? " (cat \(files.map(ShellWord.quoted).joined(separator: " ")) > all-devices.txt)" : ""
            throw CLIError.usage(
                "--devices given \(devicesFiles.count) times; a run reads one list: put the tokens in one file\(join), or send each list in its own run"
            )
        }
        _ = try standardInputReaders(settings)
        if devices.isEmpty && devicesFile == nil {
            // `send -p dev TOKEN`: -d forgotten, the token taken for PAYLOAD.
            if let payload, Self.tokenAsPayload(payload) != nil {
                throw CLIError.usage("no device token; the PAYLOAD argument looks like one: give it with -d (-d TOKEN)")
            }
            throw CLIError.usage("no device token; pass --device TOKEN (repeatable) or --devices FILE")
        }
        try settings.checkCAFile(in: world)

        // 2. The payload (66 when unreadable), built or updated by the payload flags (64 for a bad one), then
        // parsed once: for the push type and for every rule.
        let payload = try loadPayload(type: requested, now: now, settings: settings, in: world)
        let parsed = ParsedPayload(payload.payload)
        // An Xcode `.apns` file's bundle comes before a bundle id that is only a default (the mock profile's is the
        // mock certificate's), as it comes before a certificate's.
        if description.topicIsBundleDefault, let bundle = payload.payload.simulatorTargetBundle, !bundle.isEmpty {
            (description.topic, description.topicIsBundleDefault) = (nil, false)
            description.topicReplacedBy =
                "the payload's \(PrintableText.quoted(Payload.simulatorTargetBundleKey)), before \(description.topicLabel)"
        }
        // The app build (66 unreadable, 65 malformed): its bundle id is the topic unless one is given (the mock
        // profile's is a default, as a certificate's is), and gets the push type's suffix, whatever decides the type.
        let app = try appRules(settings, in: world)
        if description.topic == nil || description.topicIsBundleDefault, payload.payload.simulatorTargetBundle == nil,
            let topic = app?.build.topic
        {
            description.topic = topic
            description.topicIsBundleDefault = true
            // Messages about the topic then blame the build, not the profile whose default it replaced.
            description.topicLabel = "the bundle id in \(app?.label ?? "--app")"
            description.topicReplacedBy = description.topicLabel
        }

        // 3. Device tokens (64 for a bad one, 66 for a missing list).
        let devices = try planDevices(settings, in: world)

        // 4. Credentials (77, or 66 for a missing file), and where they push to.
        let credentials = try PushCredentials.load(settings, signToken: !dryRun, now: now, in: world)
        try app?.checkEnvironment(settings)
        try app?.checkCredentials(identity: credentials.identity?.info, teamID: credentials.tokenIDs?.teamID)
        let (route, fallback) = try settings.sendRoutes(
            credentials, port: port, app: app.flatMap { a in a.environment.map { ($0, a.label) } }, in: world)
        if let warning = settings.serverFromElsewhereWarning(route.endpoint, environment: route.environment) {
            world.standardError.warning(warning)
        }

        // 5. Every header, the push type decided once, and what the credentials can carry (64, 77).
        let headers = try PushHeaders.plan(
            description, requested: requested, payload: payload, parsed: parsed,
            certificate: credentials.certificateRule(settings), expiration: expiration)
        for warning in headers.warnings { world.standardError.warning(warning) }
        if let app,
            let warning = app.otherAppWarning(
                topic: headers.topic,
                label: description.topic != nil
                    ? description.topicLabel : PrintableText.quoted(Payload.simulatorTargetBundleKey))
        {
            world.standardError.warning(warning)
        }
        if settings.isOn(.verbose) {
            for line in headers.verboseLines { world.standardError.print(PrintableText.escapingControls(line) + "\n") }
        }

        // 6. Every validate rule (65), then the bytes to send. A defaulted priority breaks no rule, so only
        // `--priority` is checked.
        let body = try checkPayload(
            payload, parsed, pushType: headers.pushType, priority: description.priority, topic: headers.topic,
            sizeLimit: headers.sizeLimit, minify: settings.isOn(.minify), now: now,
            defaultTopic: description.topic == nil ? "the certificate's bundle id" : "the app's bundle id",
            settings: settings, in: world)
        let pushRequest = headers.request(
            body: body, collapseID: collapseID, apnsID: apnsID, bearerToken: credentials.bearerToken)
        return SendPlan(
            request: pushRequest, route: route, fallback: fallback, devices: devices, credentials: credentials)
    }

    /// An `apns-expiration` that does not do what it seems to: a date already past (APNs stores nothing, as for 0),
    /// or more than the 30 days APNs stores a push at most (APNS.md, Storage).
    static func expirationWarning(_ expiration: Int64, now: Int64, label: String) -> String? {
        let when = ISO8601.format(epochSeconds: expiration)
        if expiration > 0 && expiration < now {
            return "\(label): \(when) is already past, so APNs stores nothing (as with 0): it tries once at most; "
                + "give a time to come, such as 1h"
        }
        if expiration > now + 30 * 86_400 {
            return "\(label): \(when) is more than 30 days away; APNs stores a push for 30 days at most"
        }
        return nil
    }

    /// The push as the resolved settings and the builder flags describe it.
    func pushDescription(_ settings: ResolvedSettings) throws(CLIError) -> PushDescription {
        var description = PushDescription(
            topic: settings[.topic]?.value, pushType: settings[.pushType]?.value, priority: settings[.priority]?.value,
            liveActivity: try parsedLiveActivityEvent(), contentChanged: liveActivity.contentChanged,
            sizeLimit: settings[.sizeLimit]?.value, pushTypeLabel: settings.label(.pushType),
            expirationLabel: settings.label(.expiration), priorityLabel: settings.label(.priority))
        // The mock profile's topic is the mock's bundle id.
        if case .mock? = settings[.topic]?.origin { description.topicIsBundleDefault = true }
        description.topicLabel = settings.label(.topic)
        return description
    }

    /// Runs the validator as `validate` would on the `parsed` payload as a push of `pushType` to `topic`, prints
    /// its findings on stderr, and returns the body to send. `now` runs the rules about the current time (a Live
    /// Activity timestamp far from it).
    func checkPayload(
        _ loaded: SendPayload, _ parsed: ParsedPayload, pushType: PushType, priority: Priority?,
        topic: String?, sizeLimit limit: Int, minify: Bool,
        broadcast: Bool = false, now: Int64? = nil, defaultTopic: String? = nil, settings: ResolvedSettings,
        in world: CommandWorld
    ) throws(CLIError) -> [UInt8] {
        var options = ValidationOptions(pushType: pushType, priority: priority, topic: topic, settingNames: .apnsctl)
        options.broadcast = broadcast
        options.now = now
        // Counted first: minified bytes over the limit are never written (the payload may be up to 64 MiB).
        let minifiedCount = minify ? loaded.payload.minifiedCount() : nil
        // With --minify the size rule applies to the minified bytes. A limit no one set is the push type's (or a
        // broadcast's), which the validator then names, as `validate` does.
        options.sizeLimit =
            settings[.sizeLimit] == nil && limit == options.defaultSizeLimit(for: pushType) ? nil : limit
        options.minifiedSize = minifiedCount
        options.sending = true
        let report = PayloadValidator.validate(parsed, options: options)
        // A problem of the file's own keys in a payload the flags edited is placed where the file has it (found by
        // checking the file as read), else named without a position.
        let originalProblems =
            loaded.original.map {
                report.problems.isEmpty ? [] : PayloadValidator.validate($0, options: options).problems
            }
            ?? []
        func placed(_ p: ValidationProblem) -> String {
            // No file was written: named by the flags, without a line and column of JSON nobody wrote.
            if loaded.isBuiltFromFlags {
                return "\(loaded.name): \(p.path == "(root)" ? "" : p.path + ": ")\(p.message)"
            }
            guard loaded.editedByFlags else { return "\(loaded.name):\(p.line):\(p.column): \(p.path): \(p.message)" }
            let same =
                originalProblems.first { $0.path == p.path && $0.message == p.message }
                ?? originalProblems.first { $0.path == p.path && $0.severity == p.severity }
            guard let same else { return "\(loaded.name): \(p.path): \(p.message)" }
            return "\(loaded.name):\(same.line):\(same.column): \(p.path): \(p.message)"
        }
        for p in report.problems {
            // A rule about a flag's value names the flag, not the payload file (CLI.md); so does a problem of a
            // payload the flags built.
            let line =
                p.flag.map {
                    "\(Self.relabel($0, settings, payload: loaded.payload, defaultTopic: defaultTopic)): \(p.message)\(topicAdvice(p, pushType: pushType, parsed))"
                }
                ?? (loaded.isBuiltFromFlags
                    ? flagBuiltLine(p, builtName: loaded.name) : loaded.editedByFlags ? flagEditedLine(p) : nil)
                ?? placed(p)
            if p.severity == .error { world.standardError.error(line) } else { world.standardError.warning(line) }
        }
        let flagged = report.errors.compactMap(\.flag).map {
            Self.relabel($0, settings, payload: loaded.payload, defaultTopic: defaultTopic)
        }
        if !flagged.isEmpty && flagged.count == report.errors.count {
            // Only the request's settings are wrong (a topic without its suffix): the payload itself is fine.
            throw CLIError.payloadInvalid("nothing was sent: fix \(flagged.joined(separator: " and ")) as said above")
        }
        if report.hasErrors {
            // A file is named, then "the payload"; the flags' payload is named as "the payload built from …".
            let invalid =
                loaded.isBuiltFromFlags ? "\(loaded.name) is invalid" : "\(loaded.name): the payload is invalid"
            throw CLIError.payloadInvalid(
                "\(invalid) (\(report.errors.count) error\(report.errors.count == 1 ? "" : "s") above); nothing was sent"
            )
        }
        let minified = minifiedCount == nil ? nil : loaded.payload.minified()
        return minified ?? loaded.payload.body
    }
}

extension APNSCtl.Send {
    /// The validator names a header setting by its flag and value (`--topic com.x`); one that came from a
    /// variable or a profile is named by where it came from (`APNSCTL_TOPIC`), which is what to fix.
    /// A topic no setting gave came from an Xcode `.apns` file's bundle, and is named as that file's key, or else
    /// from `defaultTopic` (the certificate's or the app's bundle id): no `--topic` to fix was given.
    static func relabel(
        _ flag: String, _ settings: ResolvedSettings, payload: Payload? = nil, defaultTopic: String? = nil
    ) -> String {
        let names = SettingNames.apnsctl
        if settings[.topic] == nil, flag.hasPrefix(names.topic + " ") {
            let topic = flag.dropFirst(names.topic.count + 1)
            if let bundle = payload?.simulatorTargetBundle, topic == bundle {
                return "\(PrintableText.quoted(Payload.simulatorTargetBundleKey)) \(bundle)"
            }
            if let defaultTopic { return "the default topic \(topic) (\(defaultTopic))" }
        }
        for (name, label) in [(names.topic, settings.label(.topic)), (names.priority, settings.label(.priority))]
        where flag.hasPrefix(name + " ") && label != name {
            return label
        }
        return flag
    }
}

extension FileSystem.Failure {
    /// Reading problems (exit 66), as opposed to writing ones.
    var isReadProblem: Bool {
        switch self {
        case .missing, .unreadable, .tooLarge, .isDirectory, .interrupted: return true
        case .exists, .cannotCreate, .notARegularFile, .writeFailed: return false
        }
    }
}
