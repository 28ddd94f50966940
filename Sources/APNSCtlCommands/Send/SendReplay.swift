import APNSCore
import APNSHistory
import APNSSettings

extension APNSCtl.Send {
    /// `send --replay ID|last`: this command with everything the command line leaves out taken from the history
    /// entry (payload, headers, topic, environment, endpoint, CA file, devices or channels), and the entry's
    /// number. Credentials are not in the history: they resolve as for any send. A Live Activity payload gets
    /// `timestamp` now (unless `--timestamp` is given), as a saved update must to be shown.
    func replaying(_ reference: String, in world: CommandWorld) throws(CLIError) -> (APNSCtl.Send, Int64) {
        let entry = try HistoryAccess.entry(reference, in: world)
        var replay = self
        replay.history.replay = nil
        let liveActivity = entry.pushType == PushType.liveactivity.rawValue
        let quickPayload =
            request.alert != nil || request.title != nil || request.badge != nil || request.sound != nil
            || replay.liveActivity.contentChanged
        if payload == nil && (liveActivity || !quickPayload) {
            // Inline JSON is read as given; the history's payload is JSON that passed validation.
            let text = String(decoding: entry.payload, as: UTF8.self)
            replay.payload = String(text.drop { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" })
            if liveActivity && replay.liveActivity.timestamp == nil { replay.liveActivity.timestamp = "now" }
        }
        if request.topic == nil { replay.request.topic = entry.topic }
        if entry.kind == .devices {
            if request.pushType == nil { replay.request.pushType = try value(entry.pushType, .pushType, "--push-type") }
            if request.collapseID == nil { replay.request.collapseID = entry.collapseID }
        }
        if request.priority == nil {
            replay.request.priority = try value(entry.priority.map(String.init), .priority, "--priority")
        }
        if request.expiration == nil {
            replay.request.expiration = try value(entry.expiration, .expiration, "--expiration")
        }
        if connection.env == nil { replay.connection.env = try value(entry.environment, .env, "--env") }
        if connection.endpoint.isEmpty { replay.connection.endpoint = entry.endpoints }
        if connection.caFile == nil { replay.connection.caFile = entry.caFile }
        if devices.isEmpty && devicesFile == nil && !broadcast.isGiven {
            var seen = Set<String>()
            let targets = entry.results.map(\.target).filter { seen.insert($0).inserted }
            switch entry.kind {
            case .devices: replay.devices = targets
            case .broadcast: replay.broadcast.channels = targets
            }
        }
        return (replay, entry.id)
    }

    /// The entry's `text` as its setting flag would take it.
    private func value<Value>(_ text: String?, _ key: SettingKey<Value>, _ flag: String) throws(CLIError)
        -> SettingValue?
    {
        guard let text else { return nil }
        do { return try SettingArgument.transform(key, .send)(text) } catch {
            throw .usage(
                "\(flag) \(JSONWriter.quoted(text)) from the history: \(error); give \(flag) on the command line")
        }
    }
}
