import APNSClient
import APNSCore
import APNSCrypto
import APNSHistory
import APNSSettings

/// The history entry a planned send starts from: its settings as resolved and its payload as sent, never a
/// key, passphrase or provider token (the credential is named by its identity only).
enum SendHistoryEntry {
    /// A device push.
    static func devices(_ plan: SendPlan, _ settings: ResolvedSettings, replayOf: Int64?) -> HistoryEntry {
        var endpoints = [plan.route.endpoint.url]
        if let fallback = plan.fallback {
            endpoints = [
                "\(plan.route.environment.rawValue)=\(plan.route.endpoint.url)",
                "\(fallback.environment.rawValue)=\(fallback.endpoint.url)",
            ]
        }
        var entry = HistoryEntry(
            started: 0, durationMs: 0, kind: .devices,
            environment: settings.isAutoEnvironment ? "auto" : plan.route.environment.rawValue, endpoints: endpoints,
            credential: credential(plan.credentials.identity, tokenIDs: plan.credentials.tokenIDs),
            payload: plan.request.payload, results: [])
        entry.topic = plan.request.topic
        entry.pushType = plan.request.pushType.rawValue
        entry.priority = plan.request.priority?.rawValue
        entry.collapseID = plan.request.collapseID
        entry.apnsID = plan.request.apnsID
        return common(entry, settings, replayOf: replayOf)
    }

    /// A push to a simulator (`--simulator`): no server and no credential; the bundle is its topic.
    static func simulator(
        bundle: String, pushType: PushType, priority: Int?, payload: [UInt8], _ settings: ResolvedSettings,
        replayOf: Int64?
    ) -> HistoryEntry {
        var entry = HistoryEntry(
            started: 0, durationMs: 0, kind: .simulator, environment: "simulator", endpoints: [], credential: "none",
            payload: payload, results: [])
        entry.topic = bundle
        entry.pushType = pushType.rawValue
        entry.priority = priority
        return common(entry, settings, replayOf: replayOf)
    }

    /// A broadcast to channels.
    static func broadcast(
        _ plan: BroadcastPlan, _ settings: ResolvedSettings, requestID: String?, replayOf: Int64?
    ) -> HistoryEntry {
        var entry = HistoryEntry(
            started: 0, durationMs: 0, kind: .broadcast, environment: plan.route.environment.rawValue,
            endpoints: [plan.route.endpoint.url],
            credential: credential(plan.credentials.identity, tokenIDs: plan.credentials.tokenIDs),
            payload: plan.broadcast.payload, results: [])
        entry.topic = plan.broadcast.bundleID
        entry.pushType = Broadcast.pushType.rawValue
        entry.priority = plan.broadcast.priority.rawValue
        entry.requestID = requestID
        return common(entry, settings, replayOf: replayOf)
    }

    private static func common(_ entry: HistoryEntry, _ settings: ResolvedSettings, replayOf: Int64?) -> HistoryEntry {
        var entry = entry
        entry.expiration = settings[.expiration]?.value
        entry.caFile = settings[.caFile]?.value
        entry.pushTypeGiven = settings[.pushType] != nil
        entry.replayOf = replayOf
        return entry
    }

    /// `certificate CN=…, SHA-256 …` or `token key ABCDE12345, team TEAMID1234`: which credential, never its secret.
    static func credential(_ identity: PushIdentity?, tokenIDs: (keyID: String, teamID: String)?) -> String {
        if let info = identity?.info { return "certificate \(info.subject), SHA-256 \(info.sha256)" }
        if let tokenIDs { return "token key \(tokenIDs.keyID), team \(tokenIDs.teamID)" }
        return "none"
    }
}
