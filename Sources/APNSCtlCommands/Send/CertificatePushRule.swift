import APNSClient
import APNSCore
import APNSCrypto

/// Which push types a certificate can carry (CLI.md, "Credentials that cannot do a push type"; APNS.md §3 and
/// §7): APNs answers what it cannot `TopicDisallowed`, so `send` says so before connecting, exit 77. Token auth
/// carries every type.
struct CertificatePushRule {
    let info: CertificateInfo
    /// How messages name the certificate (`--cert push.p12`, a variable or a profile line); nil: "the certificate".
    let label: String?
    /// The mock's ready file when `-p mock` chose the certificate: the mock's own key is the advice then.
    let mockFile: String?

    /// Checks a push of `pushType` to `topic`: a location push takes token auth only, whatever the certificate
    /// lists; a type without a topic suffix needs the topic listed, when the certificate lists topics; a type with
    /// one needs the suffixed topic listed. A certificate without that extension (its bundle id alone) may or may
    /// not carry a type with a suffix (a Live Activity, widgets, VoIP): the warning returned says so. Throws exit 77.
    /// `topicOrigin`: where the topic came from when a setting or a file gave it (`APNSCTL_TOPIC`, an `.apns` file's
    /// bundle key), for a refusal of a topic the user may not have typed.
    func check(_ pushType: PushType, topic: String, topicOrigin: String? = nil) throws(CLIError) -> String? {
        let name = label ?? "the certificate"
        guard pushType.allowsCertificateAuth else {
            // Token auth knows no bundle id: the topic the certificate gave goes with the advice.
            throw .credential(
                "\(name): \(pushType.rawValue) pushes take token auth only, and APNs answers a certificate TopicDisallowed; send with --auth-key AuthKey_KEYID.p8 --team-id TEAMID --topic \(RequestDefaults.suffixed(topic, for: pushType))\(mockKeyHint)"
            )
        }
        guard !pushType.topicSuffix.isEmpty else {
            // A type without a suffix goes to the topic as it is, which a certificate listing topics must list (in
            // any letter case: a bundle id typed in another case is not refused here on a guess). An mdm push goes
            // to its certificate's UID, which the mdm rules judge; a topic of a bad shape, the payload checks (65).
            let listed = info.topics.contains { $0.lowercased() == topic.lowercased() }
            guard pushType != .mdm, info.hasTopicsExtension, !listed, BundleIDShape.problem(in: topic) == nil else {
                return nil
            }
            // Only the topics without another type's suffix are advice: a `.voip` one would make it a voip push.
            let bare = info.topics.filter { PushType.inferred(fromTopic: $0) == nil }
            let instead = bare.isEmpty ? "" : "give --topic \(bare.joined(separator: " or ")), or "
            throw .credential(
                "\(name): its topics (\(info.topics.joined(separator: ", "))) lack \(topic)\(topicOrigin.map { " (from \($0))" } ?? ""), so APNs would answer TopicDisallowed to this \(pushType.rawValue) push; \(instead)send with token auth: --auth-key AuthKey_KEYID.p8 --team-id TEAMID --topic \(topic)\(mockKeyHint)"
            )
        }
        guard info.hasTopicsExtension else {
            // A certificate of that very topic (a VoIP Services certificate's UID ends .voip), or a topic still
            // lacking the suffix (the payload check's 65 says what to give): nothing to warn about here.
            if topic == info.bundleID || !topic.hasSuffix(pushType.topicSuffix) { return nil }
            let pushes = pushType == .liveactivity ? "Live Activities" : "\(pushType.rawValue) pushes"
            return
                "\(name) lists no topics (only its bundle id \(info.bundleID ?? "")); \(pushes) may need token auth: if APNs answers TopicDisallowed, send with --auth-key AuthKey_KEYID.p8 --team-id TEAMID\(mockKeyHint)"
        }
        // Judged on the suffixed topic, so a bare topic is not first "fixed" into one the certificate cannot push to.
        // A topic with another type's suffix may be a bundle id that ends so, or the wrong topic: when the
        // certificate lists the topic with this type's suffix instead, the payload check's 65 names that topic.
        let needed = RequestDefaults.suffixed(topic, for: pushType)
        guard !info.topics.contains(needed) else { return nil }
        if !topic.hasSuffix(pushType.topicSuffix), let other = PushType.inferred(fromTopic: topic), other != pushType,
            info.topics.contains(String(topic.dropLast(other.topicSuffix.count)) + pushType.topicSuffix)
        {
            return nil
        }
        let pushes = pushType == .liveactivity ? "Live Activities need" : "\(pushType.rawValue) pushes need"
        throw .credential(
            "\(name): its topics (\(info.topics.joined(separator: ", "))) lack \(needed), so APNs would answer TopicDisallowed; \(pushes) a certificate listing that topic or token auth: send with --auth-key AuthKey_KEYID.p8 --team-id TEAMID --topic \(needed)\(mockKeyHint)"
        )
    }

    /// The mock's own key, for advice to use token auth: the mock profile's certificate is the user's only
    /// because -p mock chose it, and -p mock-token is the same mock with its key.
    private var mockKeyHint: String {
        mockFile == nil ? "" : "; or with the mock's key: -p mock-token instead of -p mock"
    }
}
