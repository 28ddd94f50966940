/// Broadcast rules (APNS.md §11) and the iOS 18 start-push inputs (§4): a broadcast updates or ends the
/// activities on a channel and cannot start one; a start push may ask for an update token
/// (`input-push-token`) or join a channel (`input-push-channel`).
extension PayloadChecker {
    /// A broadcast payload: `aps.event` must be `update` or `end`.
    mutating func checkBroadcast(_ root: JSONValue) {
        guard let aps = root["aps"], aps.isObject else { return }  // reported as a missing aps already
        guard let event = aps["event"], event.string == "start" else { return }
        error(
            "aps.event", at: event.start,
            "a broadcast cannot start a Live Activity (event \"start\"); devices join a channel with \"input-push-channel\" in a start push sent to a device, or from the app: send the start with \(names.device), and broadcast only update or end"
        )
    }

    /// `input-push-token` and `input-push-channel` matter only on `start`; together they are unconfirmed.
    mutating func checkPushInputs(members: [JSONMember], event: String) {
        let token = members.last { $0.key == APSKey.inputPushToken.rawValue }
        let channel = members.last { $0.key == APSKey.inputPushChannel.rawValue }
        if event != "start" {
            for m in [token, channel].compactMap({ $0 }) {
                warning(
                    "aps." + m.key, at: m.keyStart,
                    "\(m.key) is used only when event is start (a start push asks for it); remove it")
            }
            return
        }
        if token != nil, let channel {
            warning(
                "aps." + channel.key, at: channel.keyStart,
                "input-push-channel with input-push-token: Apple does not say a start push can do both (join a channel and issue an update token); choose one"
            )
        }
    }

    /// `input-push-channel`: a channel id as `apnsctl channel create` prints it, non-empty base64.
    mutating func checkChannelID(_ value: JSONValue, path: String) {
        guard value.string != nil else {
            error(
                path, at: value.start,
                "input-push-channel must be a string (a channel id), found \(value.summary)\(quoteHint(value))")
            return
        }
        // A cut id (`JSONValue.cutLength`) is longer than any channel id.
        if !(value.wholeString.map(Broadcast.isChannelIDSyntax) ?? false) {
            error(
                path, at: value.start,
                "input-push-channel must be a non-empty base64 channel id as apnsctl channel create prints it, found \(JSONWriter.quoted(value.shownString ?? ""))"
            )
        }
    }
}
