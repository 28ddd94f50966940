import APNSClient
import APNSCore
import APNSCrypto
import APNSPlatform
import APNSSettings

/// Everything `send --channel` settles before it connects, in `send`'s order: flags (64), the payload
/// file (66), credentials (77), payload rules as a broadcast (65).
struct BroadcastPlan {
    let broadcast: BroadcastRequest
    let jobs: [PushJob]
    let credentials: BroadcastCredentials
    let route: SendRoute

    /// Where the channels' broadcasts go.
    var delivery: DeliveryTarget {
        DeliveryTarget(route: route, identity: credentials.identity, total: jobs.count, noun: "channel")
    }
}

extension APNSCtl.Send {
    /// Checks every input for a broadcast; throws the CLI error of the first problem.
    func makeBroadcastPlan(_ settings: ResolvedSettings, in world: CommandWorld) throws(CLIError) -> BroadcastPlan {
        let now = world.clock.now()
        // 1. Flags (64): what a broadcast cannot have, then values.
        if broadcast.channels.isEmpty {
            throw .usage("--request-id names broadcast requests; pass --channel ID (device pushes take --apns-id)")
        }
        if !devices.isEmpty || devicesFile != nil {
            throw .usage(
                "--channel and --device/--devices both given; a broadcast goes to channels, a push to devices: send them separately"
            )
        }
        for id in broadcast.channels {
            try HeaderValueCheck.channelID(id, flag: "--channel")
        }
        // A channel given twice is broadcast once, as a device given twice is sent once: a second broadcast would
        // update every activity that joined it again, and spend the channel's budget.
        var channels: [String] = []
        var times: [String: Int] = [:]
        for id in broadcast.channels {
            times[id, default: 0] += 1
            if times[id] == 1 { channels.append(id) }
        }
        for id in channels {
            if let n = times[id], n > 1 {
                world.standardError.warning("--channel \(id) was given \(n) times; it is broadcast once")
            }
        }
        if broadcast.requestID != nil && channels.count > 1 {
            throw .usage(
                "--request-id names one request, but \(channels.count) channels were given; leave it out (each channel gets a fresh one) or send one channel at a time"
            )
        }
        if let type = settings[.pushType]?.value, type != Broadcast.pushType {
            throw .usage(
                "\(settings.label(.pushType)) \(type.rawValue): broadcasts are always liveactivity; \(PushDescription.leavingOut(settings.label(.pushType)))"
            )
        }
        if request.collapseID != nil { throw .usage("--collapse-id: broadcasts have no collapse id; leave it out") }
        if request.apnsID != nil { throw .usage("--apns-id: broadcasts are named by --request-id, not apns-id") }
        if let event = try parsedLiveActivityEvent(), event == .start {
            throw .usage(
                "--live-activity start: a broadcast cannot start a Live Activity (a channel updates the activities that joined it); send the start to a device with --device, and broadcast update or end"
            )
        }
        if liveActivity.contentChanged {
            throw .usage("--content-changed: broadcasts are Live Activity pushes; send widget pushes to devices")
        }
        let priority = settings[.priority]?.value ?? .immediate
        let expiration = try settings.expirationTime(now: now) ?? 0
        if let warning = Self.expirationWarning(expiration, now: now, label: settings.label(.expiration)) {
            world.standardError.warning(warning)
        }
        let sizeLimit = PushHeaders.sizeLimit(settings[.sizeLimit]?.value, for: Broadcast.pushType, broadcast: true)
        let requestID = try parsedRequestID(broadcast.requestID)
        try settings.checkCAFile(in: world)

        // 2. The payload (66), 3. credentials (77), 4. every validate rule as a broadcast (65).
        let payload = try loadPayload(
            type: PushDescription.RequestedType(built: Broadcast.pushType, given: Broadcast.pushType), now: now,
            settings: settings, in: world)
        let credentials = try BroadcastCredentials.load(settings, signToken: !dryRun, now: now, in: world)
        let body = try checkPayload(
            payload, ParsedPayload(payload.payload), pushType: Broadcast.pushType, priority: priority,
            topic: nil, sizeLimit: sizeLimit, minify: settings.isOn(.minify), broadcast: true, now: now,
            settings: settings, in: world)
        let request = BroadcastRequest(
            bundleID: credentials.bundleID, priority: priority, expiration: expiration,
            bearerToken: credentials.bearerToken, payload: body)
        let port = try settings.checkedPort(endpoints: settings.endpointList, in: world)
        let route = try settings.singleRoute(environment: credentials.environment, command: "send --channel", in: world)
        { env in
            PushEndpoint(host: env.host, port: port)
        }
        return BroadcastPlan(
            broadcast: request, jobs: request.jobs(channels: channels, requestID: requestID),
            credentials: credentials,
            route: SendRoute(environment: credentials.environment, endpoint: route.endpoint, proxy: route.proxy))
    }
}
