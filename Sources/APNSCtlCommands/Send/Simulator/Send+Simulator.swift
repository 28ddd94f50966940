import APNSCore
import APNSPlatform
import APNSSettings

extension APNSCtl.Send {
    /// `send --simulator`: the payload built and validated as for APNs, then handed to `xcrun simctl push`
    /// (macOS with Xcode). Nothing goes to APNs, so credentials, `--env`, `--endpoint` and devices are refused.
    func runSimulator(
        _ device: String, _ settings: ResolvedSettings, format: OutputFormat, replayOf: Int64? = nil,
        in world: CommandWorld
    ) throws(CLIError) {
        // 1. Flags (64): what means APNs, given for this run, and the host.
        let apnsOnly: [SettingKey<CredentialSource>] = [.cert, .key, .authKey]
        var given = apnsOnly.filter { settings[$0]?.origin.isThisRun == true }.map { settings.label($0) }
        if settings[.env]?.origin.isThisRun == true { given.append(settings.label(.env)) }
        if settings[.endpoint]?.origin.isThisRun == true { given.append(settings.label(.endpoint)) }
        if !devices.isEmpty || devicesFile != nil { given.append(devicesFile != nil ? "--devices" : "--device") }
        if !given.isEmpty {
            throw .usage(
                "--simulator delivers through xcrun simctl, not APNs: leave out \(given.joined(separator: ", ")) (a simulator needs no credentials, environment, endpoint or device token)"
            )
        }
        guard world.host.runsSimulators else {
            throw .usage(
                "--simulator: simulators run on macOS with Xcode, and this is not macOS. A simulator's own device token (Xcode 14 and later, macOS 13 on Apple silicon or T2) can be sent to through the sandbox as usual: apnsctl send -d TOKEN --env sandbox …"
            )
        }
        // 2. The payload, as for APNs (66, 64), and the bundle it goes to (64).
        let description = try pushDescription(settings)
        let requested = try description.requestedType()
        let payload = try loadPayload(type: requested, now: world.clock.now(), settings: settings, in: world)
        let parsed = ParsedPayload(payload.payload)
        let app = try appRules(settings, in: world)
        guard let bundle = Self.simulatorBundle(topic: description.topic, payload: payload, app: app?.build.topic)
        else {
            throw .usage(
                "--simulator: no bundle id; pass --topic com.example.app, put \"Simulator Target Bundle\" in a .apns payload, or --app the build"
            )
        }
        // 3. Every validate rule (65).
        let pushType = requested.given ?? parsed.inferredPushType(topic: description.topic)
        let body = try checkPayload(
            payload, parsed, pushType: pushType, priority: description.priority, topic: description.topic ?? bundle,
            sizeLimit: PushHeaders.sizeLimit(description.sizeLimit, for: pushType), minify: settings.isOn(.minify),
            now: world.clock.now(), settings: settings, in: world)
        if dryRun {
            // A simulator's name often has spaces ("iPhone 16 Pro"): the command is pasted, so each word is quoted.
            let command = "xcrun simctl push \(ShellWord.of(device)) \(ShellWord.of(bundle)) payload.json"
            switch format {
            case .text:
                world.standardOutput.print(
                    command + "\n\n# payload.json\n"
                        + PrintableText.escapingControlsButLayout(String(decoding: body, as: UTF8.self)) + "\n")
            case .json:
                var w = JSONWriter()
                w.beginObject()
                w.field("dry_run", true)
                w.field("simulator", device)
                w.field("bundle", bundle)
                w.field("command", command)
                w.key("payload")
                w.embedded(body)
                w.field("size", body.count)
                w.endObject()
                world.standardOutput.print(w.text + "\n")
            }
            return
        }
        try Self.refuseClosedOutput(in: world)
        // 4. simctl: the device, then the push (66 without xcrun, 69 when simctl fails).
        let simctl = try Simctl(world: world)
        let target = try simctl.device(device)
        let recorder = SendRecorder.start(
            history.withPushTypeOrigin(
                SendHistoryEntry.simulator(
                    bundle: bundle, pushType: pushType, priority: description.priority?.rawValue, payload: body,
                    settings, replayOf: replayOf)), settings, in: world)
        let started = world.clock.monotonicNanoseconds()
        let outcome = try simctl.push(body, to: target, bundle: bundle)
        SimulatorResult(device: target, bundle: bundle, error: outcome).print(format, to: world.standardOutput)
        recorder?.simulatorResult(
            target, error: outcome, durationMs: Double(world.clock.monotonicNanoseconds() &- started) / 1_000_000,
            in: world)
        if let outcome { throw .checksFailed(code: ExitStatus.transport, message: "xcrun simctl push: \(outcome)") }
    }

    /// `--topic` without its push type's suffix, else the `.apns` file's bundle, else `--app`'s (CLI.md).
    static func simulatorBundle(topic: String?, payload: SendPayload, app: String?) -> String? {
        if let topic {
            let suffix = PushType.inferred(fromTopic: topic)?.topicSuffix ?? ""
            return String(topic.dropLast(suffix.count))
        }
        if let bundle = payload.payload.simulatorTargetBundle, !bundle.isEmpty { return bundle }
        return app
    }
}

extension SettingOrigin {
    /// Given for this run (a flag or a variable), not by a profile.
    var isThisRun: Bool {
        switch self {
        case .flag, .variable: return true
        case .profile, .mock, .defaultValue: return false
        }
    }
}
