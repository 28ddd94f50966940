import APNSClient

extension APNSCtl.Send {
    /// `send --channel`: one broadcast per channel over one connection, one result per channel (text line or
    /// JSON object with `"channel"` and `"apns_request_id"`), exit codes as for devices.
    func runBroadcast(format: SendOutput.Format) throws {
        let plan = try makeBroadcastPlan()
        if dryRun {
            BroadcastDryRun(plan: plan, certificate: certificate, connection: connection,
                            tokenAuthKeyPath: tokenAuth.key.authKey, passphraseFile: passphrase.passphraseFile).print()
            return
        }
        try deliver(RequestListSource(plan.jobs), total: plan.jobs.count, environment: plan.credentials.environment,
                    endpoint: plan.endpoint, proxy: plan.proxy, identity: plan.credentials.identity, format: format,
                    noun: "channel")
    }
}
