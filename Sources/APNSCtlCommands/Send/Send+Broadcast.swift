import APNSClient
import APNSSettings

extension APNSCtl.Send {
    /// `send --channel`: one broadcast per channel over one connection, one result per channel (text line or
    /// JSON object with `"channel"` and `"apns_request_id"`), exit codes as for devices.
    func runBroadcast(_ settings: ResolvedSettings, format: OutputFormat, in world: CommandWorld) throws {
        let plan = try makeBroadcastPlan(settings, in: world)
        if dryRun {
            BroadcastDryRun.text(plan, settings: settings)?.print(to: world.standardOutput)
            return
        }
        try deliver(settings, RequestListSource(plan.jobs), to: plan.delivery, format: format, in: world)
    }
}
