import APNSClient
import APNSCore
import APNSCrypto

/// The headers `send` settles for a push, each decided once, in CLI.md's order: the topic (which may need
/// the payload's own type for the certificate's default), then the push type (from the topic and the
/// payload), then what the credentials can carry, then priority, expiration and the size limit. Pure: the
/// description, the payload as built and parsed, and the certificate in, the headers and warnings out.
struct PushHeaders: Equatable {
    let topic: String
    let pushType: PushType
    /// Nil: no `apns-priority` is sent (widgets and controls unless given).
    let priority: Priority?
    let expiration: Int64?
    /// The payload byte limit the rules check: `size-limit`, else the push type's.
    let sizeLimit: Int
    /// Warnings for standard error, in the order they arose.
    let warnings: [String]
    /// Why the push type and the priority are what they are, for `-v` (`from --content-available`).
    let pushTypeReason: String
    let priorityReason: String
    /// Where the topic came from when it replaced the settings' default, for `-v`; nil when a setting gave it.
    var topicReplacedBy: String? = nil

    /// Plans the headers of `payload` described by `description`; `certificate` is nil with token auth, and
    /// `expiration` is the resolved `expiration` at the clock's now. Throws usage (64) and credential (77) errors.
    static func plan(
        _ description: PushDescription, requested: PushDescription.RequestedType, payload: SendPayload,
        parsed: ParsedPayload, certificate: CertificatePushRule?, expiration: Int64?
    ) throws(CLIError) -> PushHeaders {
        var topic = try self.topic(
            description, requested: requested, payload: payload, parsed: parsed, certificate: certificate?.info)
        // Before a suffix doubles a stray dot. A topic no setting gave came from an Xcode `.apns` file's bundle, or
        // from the certificate or the app build.
        let topicLabel =
            description.topic != nil
            ? "\(description.topicLabel) \(topic)"
            : payload.payload.simulatorTargetBundle == topic
                ? "\(PrintableText.quoted(Payload.simulatorTargetBundleKey)) \(topic)" : "the topic \(topic)"
        // An `.apns` file's own bundle is that file's fault: the validator says so at its key (65), with its position.
        if description.topic != nil || payload.payload.simulatorTargetBundle != topic {
            try TopicShape.check(topic, label: topicLabel)
        }
        let (pushType, pushTypeReason) = try self.pushType(
            description, requested: requested, topic: topic, payload: payload, parsed: parsed)
        var warnings: [String] = []
        // An alert (`--alert hi`, or a payload's alert, badge or sound) on a profile's `.voip` topic: sent as the topic
        // says, but iOS shows nothing of it and stops the VoIP pushes of an app that does not report a call.
        if description.pushType == nil, requested.built == nil, pushType == .voip || pushType == .pushtotalk,
            payload.isBuiltFromFlags || parsed.apsHasVisibleKeys
        {
            let built = payload.isBuiltFromFlags ? "this push built from flags" : "this alert"
            // What the app must do with it is the type's own: a VoIP push reports a call (CallKit); a push-to-talk
            // one reaches the app's PushToTalk channel manager, and shows no alert either.
            let answer =
                pushType == .voip
                ? "which the app must answer by reporting a call (iOS stops the VoIP pushes of an app that does not)"
                : "which goes to the app's push-to-talk channel, not to the screen"
            warnings.append(
                "the topic \(topic) ends with \"\(pushType.topicSuffix)\", so \(built) goes out as a \(pushType.rawValue) push, \(answer); for an alert, give the app's bundle id as --topic"
            )
        }
        if takesSuffix(description, requested: requested, payload: payload, pushType: pushType) {
            let given = topic
            topic = RequestDefaults.suffixed(topic, for: pushType)
            // `com.example.app.voip` (a profile's topic for VoIP pushes) made `….voip.push-type.liveactivity`: a bundle
            // id may end so, but more often the suffix is another type's.
            if topic != given, topic.hasPrefix(given), let other = PushType.inferred(fromTopic: given.lowercased()) {
                let bare = String(given.dropLast(other.topicSuffix.count))
                let label = description.topic == nil ? "the topic" : "\(description.topicLabel) \(given)"
                warnings.append(
                    "\(label) ends with \"\(other.topicSuffix)\", the suffix of \(other.rawValue) pushes; sent to \(topic) as a \(pushType.rawValue) push needs. If the app's bundle id is \(bare), give --topic \(bare)"
                )
            } else if topic != given, topic.hasPrefix(given),
                let (ending, bare) = pushType.nearMissOfSuffix(in: given)
            {
                // `….liveactivity`, `….push-type.widget`: a suffix written by hand, nearly, then added again.
                let label = description.topic == nil ? "the topic" : "\(description.topicLabel) \(given)"
                warnings.append(
                    "\(label) ends with \"\(ending)\", like the suffix \(pushType.topicSuffix) that \(pushType.rawValue) pushes take and apnsctl adds; sent to \(topic). If the app's bundle id is \(bare), give --topic \(bare)"
                )
            }
        }
        let topicOrigin =
            description.topic != nil
            ? description.topicLabel
            : payload.payload.simulatorTargetBundle == topic
                ? "the payload's \(PrintableText.quoted(Payload.simulatorTargetBundleKey))" : nil
        if let warning = try certificate?.check(pushType, topic: topic, topicOrigin: topicOrigin) {
            warnings.append(warning)
        }
        if let certificate,
            let warning = mdmWarning(
                pushType, topic: topic, certificate: certificate.info, requested, topicLabel: description.topicLabel)
        {
            warnings.append(warning)
        }
        if certificate == nil, !pushType.allowsTokenAuth {
            throw .credential(
                "\(pushType.rawValue) pushes take the MDM push certificate, and APNs does not take them with token auth; send with --cert and that certificate (its subject's UID is the topic)"
            )
        }
        if pushType == .widgets || pushType == .controls, expiration != nil {
            warnings.append(
                "\(description.expirationLabel): \(pushType.rawValue) pushes are sent without apns-expiration by default (Apple's sample sends none; an expiration was reported to stop widget pushes); leave it out unless you need it"
            )
        }
        let priority = RequestDefaults.priority(explicit: description.priority, pushType: pushType)
        return PushHeaders(
            topic: topic, pushType: pushType, priority: priority,
            expiration: expiration ?? RequestDefaults.expiration(for: pushType),
            sizeLimit: sizeLimit(description.sizeLimit, for: pushType), warnings: warnings,
            pushTypeReason: pushTypeReason,
            priorityReason: priorityReason(description, pushType: pushType, priority: priority),
            topicReplacedBy: description.topicReplacedBy)
    }

    /// Why `priority` is what `RequestDefaults.priority` made it.
    static func priorityReason(_ description: PushDescription, pushType: PushType, priority: Priority?) -> String {
        if description.priority != nil { return "from \(description.priorityLabel)" }
        guard let priority else { return "\(pushType.rawValue) pushes are sent without one unless --priority is given" }
        if pushType == .background { return "background pushes must use \(priority.rawValue)" }
        return "the default for \(pushType.rawValue) pushes"
    }

    /// `-v`'s lines on how the push type and the priority were decided.
    var verboseLines: [String] {
        (topicReplacedBy.map { ["* topic \(topic) (\($0))"] } ?? []) + [
            "* push type \(pushType.rawValue) (\(pushTypeReason))",
            priority.map { "* priority \($0.rawValue) (\(priorityReason))" }
                ?? "* no apns-priority (\(priorityReason))",
        ]
    }

    /// An mdm push and a certificate that do not go together (APNS.md: an MDM push certificate's subject UID, usually
    /// com.apple.mgmt.External.<UUID>, is the topic of its mdm pushes, and it carries no other): an `{"mdm":…}`
    /// payload with an app's certificate, an MDM certificate's push to another topic, or another type with it.
    static func mdmWarning(
        _ pushType: PushType, topic: String, certificate: CertificateInfo, _ requested: PushDescription.RequestedType,
        topicLabel: String = "--topic"
    ) -> String? {
        let uid = certificate.bundleID ?? ""
        let isMDMCertificate = uid.lowercased().hasPrefix("com.apple.mgmt.")
        switch (pushType == .mdm, isMDMCertificate) {
        case (true, false):
            let inferred = requested.given == nil ? ", or give --push-type if this is no MDM push" : ""
            let this = uid.isEmpty ? "this one has none" : "this one's is \(uid), an app's"
            return
                "mdm pushes take an MDM push certificate, whose subject's UID (usually com.apple.mgmt.External.…) is their topic; \(this): send with the MDM push certificate\(inferred)"
        case (true, true) where topic != uid:
            return
                "an mdm push goes to its certificate's UID, \(uid), which the device checked in with; \(topic) was given: leave \(topicLabel) out"
        case (false, true):
            return
                "the certificate is an MDM push certificate (UID \(uid)), which carries only mdm pushes ({\"mdm\":\"<PushMagic>\"}, no aps); send this \(pushType.rawValue) push with the app's certificate or key"
        default: return nil
        }
    }

    /// Whether the topic gets the push type's suffix (decided here only): where apnsctl chose the push, a push the
    /// flags built (a Live Activity; widgets or controls, which --push-type alone builds as --content-changed
    /// does), and a bundle id the settings supplied. A topic already ending in it keeps one.
    static func takesSuffix(
        _ description: PushDescription, requested: PushDescription.RequestedType, payload: SendPayload,
        pushType: PushType
    ) -> Bool {
        let builtByType = payload.isBuiltFromFlags && (pushType == .widgets || pushType == .controls)
        return requested.built != nil || builtByType || description.topicIsBundleDefault
    }

    /// `apns-topic` before its suffix (`takesSuffix`): the given topic, else the `.apns` file's bundle, else the
    /// certificate's (RequestDefaults). The certificate's default may carry the suffix of the payload's own type.
    static func topic(
        _ description: PushDescription, requested: PushDescription.RequestedType, payload: SendPayload,
        parsed: ParsedPayload, certificate: CertificateInfo?
    ) throws(CLIError) -> String {
        let payloadType = requested.built == nil ? requested.given ?? parsed.inferredPushType(topic: nil) : nil
        guard
            let topic = RequestDefaults.topic(
                explicit: description.topic, simulatorTargetBundle: payload.payload.simulatorTargetBundle,
                certificate: certificate, pushType: payloadType)
        else {
            if certificate == nil, let near = parsed.misspeltSimulatorTargetBundleKey {
                throw .usage(
                    "\(CredentialChoice.topicRequired.message ?? ""); the file's \(PrintableText.quoted(near)) gives none: Xcode reads the key as spelt, \(PrintableText.quoted(Payload.simulatorTargetBundleKey))"
                )
            }
            guard certificate != nil else { throw CredentialChoice.topicRequired }
            throw CredentialChoice.noBundleID()
        }
        return topic
    }

    /// `apns-push-type`, decided here only: the builder flags' type, else `push-type`, else the topic's suffix,
    /// else the payload's (PayloadValidator.inferPushType). A content-changed payload fits widgets and controls
    /// alike, so without either it is a usage error. With the type comes why, for `-v`.
    static func pushType(
        _ description: PushDescription, requested: PushDescription.RequestedType, topic: String,
        payload: SendPayload, parsed: ParsedPayload
    ) throws(CLIError) -> (PushType, String) {
        if let built = requested.built {
            return (
                built, description.liveActivity != nil ? "from --live-activity" : "from \(description.pushTypeLabel)"
            )
        }
        if let given = description.pushType { return (given, "from \(description.pushTypeLabel)") }
        if let type = PushType.inferred(fromTopic: topic) {
            // A widgets or controls payload, or --content-available's background one, to a topic of another type went
            // out as that type: a VoIP push that reports no call gets the app's VoIP pushes stopped by iOS.
            let otherType =
                "the topic \(topic) ends with \"\(type.topicSuffix)\", the suffix of \(type.rawValue) pushes"
            if parsed.apsHoldsOnlyContentChanged, type != .widgets, type != .controls {
                throw CLIError.usage(
                    "\(description.contentChanged ? "--content-changed" : payload.name): aps holds only content-changed, which widgets and controls pushes carry, but \(otherType); give the app's bundle id as --topic, with --push-type widgets or controls"
                )
            }
            if payload.isBuiltFromFlags, parsed.inferredPushType(topic: nil) == .background {
                throw CLIError.usage(
                    "--content-available builds a background push, but \(otherType); give the app's bundle id as --topic, or a \(type.rawValue) payload (--push-type background sends it to \(topic) as given, with a warning)"
                )
            }
            return (type, "from the topic's suffix \(type.topicSuffix)")
        }
        if parsed.apsHoldsOnlyContentChanged {
            // The suffix is added to a default topic (a profile's, the certificate's) and with --content-changed; a
            // PAYLOAD's --topic is sent as given, so it needs the suffix of the type chosen.
            let topicAdvice =
                description.contentChanged || description.topic == nil || description.topicIsBundleDefault
                ? "the topic gets its suffix"
                : "and --topic \(topic).push-type.widgets or \(topic).push-type.controls to match"
            throw CLIError.usage(
                "\(description.contentChanged ? "--content-changed" : payload.name): aps holds only content-changed, which both widgets and controls pushes carry; give --push-type widgets or controls (\(topicAdvice))"
            )
        }
        let type = parsed.inferredPushType(topic: topic)
        let builtByFlags = payload.isBuiltFromFlags
        switch type {
        case .background:
            return (type, builtByFlags ? "from --content-available" : "aps holds only content-available: 1")
        case .liveactivity: return (type, "the payload has aps.event")
        case .mdm: return (type, "the payload has an mdm key and no aps")
        default:
            return (
                type, builtByFlags ? "the default for a quick payload" : "the default: the payload is no other type's"
            )
        }
    }

    /// The payload byte limit: `size-limit`, else 4096 (5120 for voip; a broadcast's own limit for broadcasts).
    static func sizeLimit(_ explicit: Int?, for pushType: PushType, broadcast: Bool = false) -> Int {
        var options = ValidationOptions(pushType: pushType)
        options.broadcast = broadcast
        return explicit ?? options.defaultSizeLimit(for: pushType)
    }

    /// The request to every device: these headers, `body`, and the ids and token given.
    func request(body: [UInt8], collapseID: String?, apnsID: String?, bearerToken: String?) -> PushRequest {
        PushRequest(
            topic: topic, pushType: pushType, priority: priority, expiration: expiration,
            collapseID: collapseID, apnsID: apnsID, bearerToken: bearerToken, payload: body)
    }
}
