import APNSCore

/// How the user described a push before any default is settled: the header settings and the builder flags
/// that can fix its type. Plain values, so the planner's steps can be tested as tables.
struct PushDescription {
    /// The resolved `topic` (its header rule was checked when it was resolved).
    var topic: String?
    /// The topic is a bundle id supplied as a default (the mock profile's, an `--app` build's), not one the user
    /// wrote: the push type's suffix is added to it, as to a certificate's bundle id.
    var topicIsBundleDefault = false
    /// Where the topic came from when it replaced the settings' default (an `.apns` file's bundle, an `--app`
    /// build's bundle id), for `-v`, whose settings lines name only the default.
    var topicReplacedBy: String?
    /// The resolved `push-type`.
    var pushType: PushType?
    /// The resolved `priority`.
    var priority: Priority?
    /// `--live-activity start|update|end`.
    var liveActivity: LiveActivityEvent?
    /// `--content-changed`.
    var contentChanged = false
    /// The resolved `size-limit`.
    var sizeLimit: Int?
    /// How messages name the push-type, topic and expiration settings: the flag, the variable or the profile line.
    var pushTypeLabel = "--push-type"
    var topicLabel = "--topic"
    var expirationLabel = "--expiration"
    var priorityLabel = "--priority"

    /// What the description fixes about the type before the payload is read.
    struct RequestedType: Equatable {
        /// The type the builder flags make (`--live-activity`: liveactivity; `--content-changed` with
        /// `--push-type widgets` or `controls`: that type). It also gives the topic its suffix.
        var built: PushType?
        /// `built`, else `--push-type`, else the suffix of `--topic`: what the payload builder is told. Nil: the
        /// payload decides.
        var given: PushType?
    }

    /// What to do with a push type that contradicts a Live Activity: leave the flag out, or, for a variable's or a
    /// profile's (which the user did not type), replace it on the command line.
    static func leavingOut(_ label: String) -> String {
        label == SettingNames.apnsctl.pushType
            ? "leave --push-type out" : "give --push-type liveactivity to replace it"
    }

    /// The type the flags ask for; a `--push-type` the builder flags contradict is a usage error (64).
    func requestedType() throws(CLIError) -> RequestedType {
        if liveActivity != nil, let type = pushType, type != .liveactivity {
            throw .usage(
                "\(pushTypeLabel) \(type.rawValue): --live-activity builds a liveactivity push; \(Self.leavingOut(pushTypeLabel))"
            )
        }
        if contentChanged, let type = pushType, type != .widgets, type != .controls {
            throw .usage(
                "\(pushTypeLabel) \(type.rawValue): --content-changed builds a widgets or controls push; give --push-type widgets or controls"
            )
        }
        let built: PushType? = liveActivity != nil ? .liveactivity : contentChanged ? pushType : nil
        return RequestedType(built: built, given: built ?? pushType ?? topic.flatMap(PushType.inferred(fromTopic:)))
    }
}
