import APNSCore

/// Apple's push certificate markers (APNS.md §7): extension OIDs, the topics extension's shape, and the
/// CN prefixes older tools used to tell environments apart. One place, so reader and generator agree.
public enum ApplePush {
    /// Present: the certificate may push to the sandbox.
    public static let developmentOID = "1.2.840.113635.100.6.3.1"
    /// Present: the certificate may push to production.
    public static let productionOID = "1.2.840.113635.100.6.3.2"
    /// `SEQUENCE { UTF8String topic, SEQUENCE { UTF8String type }, … }`: the topics a certificate may push.
    public static let topicsOID = "1.2.840.113635.100.6.3.6"

    /// CN prefixes and the environments they imply when the OIDs are absent (NWPusher's table).
    static let commonNamePrefixes: [(prefix: String, environments: Set<APNSEnvironment>)] = [
        ("Apple Development IOS Push Services:", [.sandbox]),
        ("Apple Development Mac Push Services:", [.sandbox]),
        ("Apple Sandbox Push Services:", [.sandbox]),
        ("Apple Production IOS Push Services:", [.production]),
        ("Apple Production Mac Push Services:", [.production]),
        ("Apple Push Services:", [.sandbox, .production]),
        ("Website Push ID:", [.sandbox, .production]),
        ("VoIP Services:", [.sandbox, .production]),
        ("WatchKit Services:", [.sandbox, .production]),
        ("Pass Type ID:", [.sandbox, .production]),
    ]

    /// Every top-level string of the topics extension, in order; nested type labels are ignored.
    /// Malformed content yields no topics rather than an error: the extension is advisory for us.
    /// Repeats are dropped through a set: the certificate is the user's (or an attacker's) input, and a
    /// linear search per topic made one with 100,000 topics take minutes.
    static func topics(fromExtension value: [UInt8]) -> [String] {
        guard let outer = DER.elements(value[...]), outer.count == 1, outer[0].tag == DER.Tag.sequence,
            let items = outer[0].children
        else { return [] }
        var out: [String] = []
        var seen = Set<String>()
        for item in items {
            if let s = item.string, !s.isEmpty, seen.insert(s).inserted { out.append(s) }
        }
        return out
    }

    /// The topics extension's value for `topics`, each labelled with its kind as Apple's certificates do.
    static func topicsExtension(bundleID: String, topics: [String]) -> [UInt8] {
        var parts: [[UInt8]] = []
        for topic in topics {
            parts.append(DER.utf8(topic))
            parts.append(DER.sequence([DER.utf8(label(of: topic, bundleID: bundleID))]))
        }
        return DER.sequence(parts)
    }

    /// `app`, `voip`, `complication`, … from the suffix after the bundle id.
    private static func label(of topic: String, bundleID: String) -> String {
        guard topic.hasPrefix(bundleID + "."), topic.count > bundleID.count + 1 else { return "app" }
        let suffix = topic.dropFirst(bundleID.count + 1)
        return String(suffix.split(separator: ".").last ?? suffix[...])
    }

    /// The prefix entry matching a CN, if any.
    static func prefix(ofCommonName cn: String) -> (prefix: String, environments: Set<APNSEnvironment>)? {
        commonNamePrefixes.first { cn.hasPrefix($0.prefix) }
    }
}
