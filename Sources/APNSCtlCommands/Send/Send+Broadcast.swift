import APNSClient
import APNSSettings

extension APNSCtl.Send {
    /// `send --channel`: one broadcast per channel over one connection, one result per channel (text line or
    /// JSON object with `"channel"` and `"apns_request_id"`), exit codes as for devices.
    /// `replayOf`: the history entry this run replays (`--replay`).
    func runBroadcast(
        _ settings: ResolvedSettings, format: OutputFormat, replayOf: Int64? = nil, in world: CommandWorld
    ) throws {
        let plan = try makeBroadcastPlan(settings, in: world)
        warnAboutReplayedCredential(
            plan.credentials.identity, tokenIDs: plan.credentials.tokenIDs, replayOf: replayOf, in: world)
        if dryRun {
            try Self.checkConnectionSetup(settings, for: plan.delivery, in: world)
            BroadcastDryRun.text(plan, settings: settings)?.print(to: world.standardOutput, as: format)
            return
        }
        try Self.refuseClosedOutput(in: world)
        var delivery = plan.delivery
        delivery.bearerToken = plan.credentials.bearerToken
        delivery.recorder = SendRecorder.start(
            SendHistoryEntry.broadcast(plan, settings, requestID: broadcast.requestID, replayOf: replayOf), settings,
            in: world)
        try deliver(settings, RequestListSource(plan.jobs), to: delivery, format: format, in: world)
    }
}
