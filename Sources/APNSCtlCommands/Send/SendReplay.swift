import APNSClient
import APNSCore
import APNSCrypto
import APNSHistory
import APNSSettings

extension APNSCtl.Send {
    /// `send --replay ID|last`: this command with everything the command line leaves out taken from the history
    /// entry (the payload byte for byte, headers including a given `--apns-id` or `--request-id`, topic,
    /// environment, endpoint, CA file, devices — by the names they were given, where those still stand for the
    /// same tokens — channels or the simulator), and the entry's number. Credentials are not in the history: they
    /// resolve as for any send. A Live Activity payload gets `timestamp` now (unless `--timestamp` is given), as a
    /// saved update must to be shown.
    func replaying(_ reference: String, in world: CommandWorld) throws(CLIError) -> (APNSCtl.Send, Int64) {
        let entry = try HistoryAccess.entry(reference, in: world)
        var replay = self
        replay.history.replay = nil
        // A simulator's entry names no credential (and its replay takes none).
        replay.history.replayed.credential =
            entry.kind == .simulator ? nil : entry.credential.escapingControlsForOutput()
        let liveActivity = entry.pushType == PushType.liveactivity.rawValue
        // Any quick payload flag builds the payload anew (CLI.md: a flag given replaces the entry's value).
        let flags = plainPayloadFlags
        let quickPayload = !flags.alertFields.isEmpty || flags.contentChanged
        if payload == nil && (liveActivity || !quickPayload) {
            replay.history.replayed.payload = entry.payload
        }
        var taken: [String] = []
        // `--timestamp now` spelt out is the same replay as the default, and keeps the dates the same way.
        if liveActivity && payload == nil && [nil, "now"].contains(replay.liveActivity.timestamp) {
            replay.liveActivity.timestamp = "now"
            taken += replay.keepingDatesBesideTheTimestamp(of: entry.payload)
        }
        let entryType = entry.pushType.flatMap(PushType.init(rawValue:))
        if request.topic == nil, let topic = entry.topic {
            // A broadcast's topic is the bare bundle id (its path names the channel): sent to devices, the push needs
            // the suffix a device's Live Activity topic has.
            let toDevices = entry.kind == .broadcast && (!devices.isEmpty || devicesFile != nil)
            let carried = toDevices ? RequestDefaults.suffixed(topic, for: entryType ?? .liveactivity) : topic
            replay.request.topic = carried
            taken.append("--topic \(carried)")
        }
        // A payload the quick flags build anew has its own push type (--content-available builds a background push):
        // the entry's, inferred from the entry's payload, is not carried into it. Nor into a PAYLOAD given, when the
        // entry's type followed from its payload and topic (no one gave it); a given one is kept. An older entry does
        // not say: its type is taken as given unless its own payload and topic give it.
        let inferred =
            entry.pushTypeGiven.map { !$0 }
            ?? (entryType == ParsedPayload(Payload(bytes: entry.payload)).inferredPushType(topic: entry.topic))
        let rebuilt = (payload == nil && quickPayload && !liveActivity) || (payload != nil && inferred)
        // Headers only a device push has: not for a broadcast, nor for a device entry sent now to --channel.
        if entry.kind != .broadcast && broadcast.channels.isEmpty {
            if request.pushType == nil, !rebuilt, let pushType = entry.pushType {
                replay.request.pushType = try value(pushType, .pushType, "--push-type")
                replay.history.replayed.pushType = (true, entry.pushTypeGiven)
                taken.append("--push-type \(pushType)")
            }
            if request.collapseID == nil, let collapseID = entry.collapseID {
                replay.request.collapseID = collapseID
                taken.append("--collapse-id \(collapseID)")
            }
            if request.apnsID == nil, let apnsID = entry.apnsID {
                replay.request.apnsID = apnsID
                taken.append("--apns-id \(apnsID)")
            }
        }
        // A priority that was its push type's default is left to the new type's default when --push-type or a
        // rebuilt payload changes the type: carried, it followed the replay into it (10 into a background push,
        // refused) though no one gave it.
        let defaultPriority = entryType.flatMap { RequestDefaults.priority(explicit: nil, pushType: $0)?.rawValue }
        var typeChanged = rebuilt
        if case .pushType(let given)? = request.pushType { typeChanged = given != entryType }
        if request.priority == nil, let priority = entry.priority, !(typeChanged && priority == defaultPriority) {
            replay.request.priority = try value(String(priority), .priority, "--priority")
            taken.append("--priority \(priority)")
        }
        if request.expiration == nil, let expiration = entry.expiration {
            replay.request.expiration = try value(expiration, .expiration, "--expiration")
            taken.append("--expiration \(expiration)")
        }
        replay.history.replayed.values = taken.map { $0.escapingControlsForOutput() }
        let targetsGiven = !devices.isEmpty || devicesFile != nil || !broadcast.channels.isEmpty || simulator != nil
        // A simulator has no server: its entry names none, and `--simulator` refuses them. A mock profile names
        // the mock running now (its port changes between runs), with its CA and the environment it plays: the
        // replay goes there, not to the server the entry was sent to.
        if entry.kind != .simulator || targetsGiven, simulator == nil, try !choosesMock(in: world) {
            var server: [String] = []
            if connection.env == nil && entry.kind != .simulator {
                replay.connection.env = try value(entry.environment, .env, "--env")
                server.append("--env \(entry.environment)")
            }
            // Apple's own hosts are where each environment sends: carried as the entry's one URL they would keep a
            // replay with another --env on the entry's host (a sandbox replay reaching production). Carried as both
            // environments' hosts on the entry's port, they still beat a variable's or a profile's endpoint, as
            // every value the entry gives does; on the entry's port, or a --port given.
            if connection.endpoint.isEmpty {
                if let stored = Self.applePort(of: entry.endpoints, environment: entry.environment) {
                    // A --port given replaces the entry's; one Apple does not listen on is left to be refused as such.
                    var port: Int? = stored
                    if case .integer(let given)? = connection.port {
                        port = given == 443 || given == 2197 ? given : nil
                        if port != nil { replay.connection.port = nil }
                    }
                    if let port {
                        replay.connection.endpoint = APNSEnvironment.allCases.map {
                            "\($0.rawValue)=\(PushEndpoint(host: $0.host, port: port).url)"
                        }
                    }
                } else {
                    replay.connection.endpoint = entry.endpoints
                    server += entry.endpoints.map { "--endpoint \($0)" }
                }
            }
            if connection.caFile == nil, let caFile = entry.caFile {
                replay.connection.caFile = caFile
                server.append("--ca-file \(caFile)")
            }
            replay.history.replayed.connection = server.map { $0.escapingControlsForOutput() }
        }
        guard !targetsGiven else { return (replay, entry.id) }
        var seen = Set<String>()
        let results = entry.results.filter { seen.insert($0.target).inserted }
        switch entry.kind {
        case .devices:
            replay.devices = try replay.deviceArguments(results, in: world)
            // A stopped run recorded only the devices it sent: the replay cannot reach the others, and may notify
            // again those whose outcome was unknown.
            let unknown = results.filter(\.unknownOutcome).count
            if entry.interrupted || entry.counts.withoutResult > 0 {
                let cut = !entry.interrupted && entry.counts.outcome.contains(SendRecorder.listCut)
                let stop =
                    entry.outputLost
                    ? "was stopped when its output was lost"
                    : entry.interrupted
                        ? "was interrupted" : cut ? "lost part of its list (the file was cut)" : "gave up"
                // An entry recorded before the history counted them says only that there were some.
                let never = entry.counts.withoutResult
                let neverSent =
                    never == 0 ? "the devices" : never == 1 ? "the 1 device" : "the \(never) devices"
                world.standardError.warning(
                    "entry #\(entry.id) \(stop): the history holds only the \(results.count == 1 ? "device" : "\(results.count) devices") it has a result for, which this replay sends again"
                        + (unknown > 0
                            ? " (\(unknown == 1 ? "1 of unknown outcome, which may have been" : "\(unknown) of unknown outcome, which may have been") delivered already)"
                            : "")
                        // A run that gave up never sent the devices with a result either: the others are those it
                        // read and never took.
                        + "; \(neverSent) it \(entry.interrupted ? "never sent" : cut ? "never read" : "read without sending") "
                        + "\(never == 1 ? "is" : "are") not in the history: send \(never == 1 ? "it" : "them") from its "
                        + "--unsent file or \(cut ? "a copy of the list as it was" : "the list it read")"
                )
            } else if entry.counts.outcome.contains(SendRecorder.listStopped) {
                world.standardError.warning(
                    "entry #\(entry.id)'s device list stopped at a bad line: the history holds only the \(results.count == 1 ? "device" : "\(results.count) devices") before it, which this replay sends again; the rest of that list is not in the history"
                )
            } else if unknown > 0 {
                // A whole run's unknown outcomes (`--timeout`, a dropped connection) may be on the phone already.
                world.standardError.warning(
                    "entry #\(entry.id) has \(unknown == 1 ? "1 device" : "\(unknown) devices") of unknown outcome, which may have been delivered already: this replay sends \(unknown == 1 ? "it" : "them") again"
                )
            }
        case .broadcast:
            replay.broadcast.channels = results.map(\.target)
            if broadcast.requestID == nil { replay.broadcast.requestID = entry.requestID }
        case .simulator: replay.simulator = results.first?.target ?? "booted"
        }
        return (replay, entry.id)
    }

    /// A replay signs with the credential this command resolves (the history keeps none): one other than the
    /// entry's is said before anything is sent, as a rejection would otherwise seem to be the entry's own.
    func warnAboutReplayedCredential(
        _ identity: PushIdentity?, tokenIDs: (keyID: String, teamID: String)?, replayOf id: Int64?,
        in world: CommandWorld
    ) {
        guard let id, let was = history.replayed.credential else { return }
        let now = SendHistoryEntry.credential(identity, tokenIDs: tokenIDs).escapingControlsForOutput()
        guard now != was else { return }
        world.standardError.warning(
            "history entry #\(id) was sent with \(was), and this replay uses \(now): the history keeps no credential, so it comes from this command's flags, variables or profile"
        )
    }

    /// `error` of this replay, saying which of the values it refuses came from history entry `id`: the user never
    /// typed them. For a refused payload (its rules depend on the push type and priority) every value taken is
    /// named; for a usage error or a file that cannot be read, those its message names; for a server not reached,
    /// the server values taken.
    func explaining(_ error: CLIError, replayOf id: Int64) -> CLIError {
        let taken = history.replayed.values
        let server = history.replayed.connection
        let cameFrom = { (named: [String]) in
            " (\(named.joined(separator: ", ")) came from history entry #\(id), not the command line; give the flag to change it)"
        }
        let naming = { (message: String, values: [String]) in
            values.filter { value in
                message.contains(value) || message.contains(String(value.prefix { $0 != " " }) + " ")
            }
        }
        switch error {
        case .payloadInvalid(let message) where !taken.isEmpty:
            let note =
                "this replay of history entry #\(id) took \(taken.joined(separator: ", ")) from it; a flag on the command line replaces any of them"
            return .payloadInvalid(message.map { $0 + " (\(note))" } ?? note)
        case .usage(let message):
            let named = naming(message, taken) + server.filter(message.contains)
            return named.isEmpty ? error : .usage(message + cameFrom(named))
        case .inputMissing(let message):
            // A file the entry named (its --ca-file), moved or removed since.
            let named = server.filter(message.contains)
            return named.isEmpty ? error : .inputMissing(message + cameFrom(named))
        case .credential(let message):
            let named = server.filter(message.contains)
            return named.isEmpty ? error : .credential(message + cameFrom(named))
        case .transport(let problem):
            // The server the entry was sent to, down or elsewhere now: the user typed none of its address.
            guard !server.isEmpty, problem.isUnreachedServer else { return error }
            return .transport(.replayed(problem, note: cameFrom(server)))
        default:
            return error
        }
    }

    /// The port of `endpoints` as stored in a history entry sent to `environment` when every one is Apple's host
    /// for its environment on a port Apple listens on (`https://api.push.apple.com:443`, or
    /// `sandbox=https://api.sandbox.push.apple.com:2197` for `--env auto`), all on one port; nil when any is
    /// another server, or Apple's host given as another environment's `--endpoint`.
    static func applePort(of endpoints: [String], environment: String) -> Int? {
        // Read as --endpoint reads them (`PushEndpoints`), a bare URL standing for the entry's environment.
        guard !endpoints.isEmpty, let parsed = try? PushEndpoints(arguments: endpoints) else { return nil }
        var used = Array(parsed.byEnvironment)
        if let all = parsed.all {
            guard let own = APNSEnvironment(userValue: environment) else { return nil }
            used.append((own, all))
        }
        let ports = Set(used.map(\.value.port))
        guard used.allSatisfy({ $0.key.appleHosts.contains($0.value.host.lowercased()) }), ports.count == 1,
            let port = ports.first, port == 443 || port == 2197
        else { return nil }
        return port
    }

    /// Whether the settings (`-p`, `APNSCTL_PROFILE` or the file's default profile) take the endpoint from a
    /// running mock (`-p mock`, `-p mock-token`).
    private func choosesMock(in world: CommandWorld) throws(CLIError) -> Bool {
        guard connection.endpoint.isEmpty else { return false }
        let settings = try settingsOptions.resolve(.send, from: self, world: world.settings, combinations: false)
        if case .mock? = settings[.endpoint]?.origin { return true }
        return false
    }

    /// The devices of `results` as `-d` values: the name a device was given by when the settings still name that
    /// token so (its results then show the name again), else its token.
    private func deviceArguments(_ results: [HistoryResult], in world: CommandWorld) throws(CLIError) -> [String] {
        guard results.contains(where: { $0.deviceName != nil }) else { return results.map(\.target) }
        // Only the device names are needed here: the credentials are checked when the replay sends.
        let settings = try settingsOptions.resolve(.send, from: self, world: world.settings, combinations: false)
        return results.map { r in
            guard let name = r.deviceName, (try? settings.devices.resolve(name))?.token.hex == r.target else {
                return r.target
            }
            return name
        }
    }

    /// The entry's `text` as its setting flag would take it.
    private func value<Value>(_ text: String?, _ key: SettingKey<Value>, _ flag: String) throws(CLIError)
        -> SettingValue?
    {
        guard let text else { return nil }
        do { return try SettingParser.parseFlag(text, for: key.setting, command: .send) } catch {
            // The problem's message names the flag and the value: the entry's, not the command line's.
            throw .usage("the history entry's \(error.message); give \(flag) on the command line")
        }
    }

    /// A Live Activity entry's `stale-date` and `dismissal-date` as far after the new timestamp as they were after
    /// the entry's: the timestamp of a replay is now, and a date kept as stored would be as old as the entry (a
    /// replay a day later arrived stale). A date not after the entry's timestamp, or given again, stays as it is.
    private mutating func keepingDatesBesideTheTimestamp(of payload: [UInt8]) -> [String] {
        guard let aps = (try? JSONReader.parse(payload))?["aps"],
            let timestamp = aps["timestamp"]?.number?.intValue
        else { return [] }
        func after(_ key: APSKey) -> String? {
            guard let date = aps[key.rawValue]?.number?.intValue, date > timestamp else { return nil }
            return Self.duration(seconds: date - timestamp)
        }
        var taken: [String] = []
        if liveActivity.staleDate == nil, let span = after(.staleDate) {
            liveActivity.staleDate = span
            taken.append("--stale-date \(span)")
        }
        // A dismissal date counts only in an `end` event: one elsewhere is left as it was (moved, it would be warned
        // about as a --dismissal-date the user never gave).
        if liveActivity.dismissalDate == nil, aps["event"]?.string == "end", let span = after(.dismissalDate) {
            liveActivity.dismissalDate = span
            taken.append("--dismissal-date \(span)")
        }
        return taken
    }

    /// A span in the largest unit that writes it whole (`1h`, `90m`, `45s`), as a user writes one.
    static func duration(seconds: Int) -> String {
        for (unit, size) in [("w", 604_800), ("d", 86_400), ("h", 3_600), ("m", 60)] where seconds % size == 0 {
            return "\(seconds / size)\(unit)"
        }
        return "\(seconds)s"
    }
}
