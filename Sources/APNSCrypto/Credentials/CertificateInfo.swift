import APNSCore

/// What a certificate means for APNs, parsed once: used by `inspect`, by `send` to pick defaults and
/// check credentials before connecting, and by the mock to judge client certificates.
public struct CertificateInfo: Sendable, Equatable {
    /// Subject entries in certificate order, `UID=com.x, CN=Apple Push Services: com.x, OU=…, C=US`.
    public let subject: String
    public let commonName: String?
    /// The subject UID; without one, the text after a known Apple CN prefix.
    public let bundleID: String?
    /// The topics extension's topics; without it, the bundle id alone (empty when there is none).
    public let topics: [String]
    /// Whether the certificate carries the topics extension (a multi-topic certificate).
    public let hasTopicsExtension: Bool
    /// It carries the topics extension, but no topic could be read from it: `topics` is then the bundle id alone,
    /// which a user should hear rather than find out from a refused VoIP push.
    public let topicsExtensionUnreadable: Bool
    /// From the OIDs; from the CN prefix only when both OIDs are absent; empty for a non-Apple certificate.
    public let environments: Set<APNSEnvironment>
    /// Whether any Apple push marker (OID or known CN prefix) is present.
    public let isApplePush: Bool
    /// It carries one of Apple's push extensions (development, production, topics), as every push certificate
    /// Apple issues does: an Apple push CN without them is a home-made or edited copy APNs refuses.
    public let hasApplePushExtensions: Bool
    public let issuer: String
    /// Uppercase hex, no colons.
    public let serial: String
    /// Seconds since the epoch.
    public let notBefore: Int64
    public let notAfter: Int64
    /// `RSA 2048`, `EC P-256`, …
    public let keyType: String
    /// Lowercase hex SHA-256 of the DER.
    public let sha256: String
    /// basicConstraints CA:TRUE: a certificate that signs others (a `--ca-file`), never a push certificate.
    public let isCertificateAuthority: Bool
    /// The extended key usage names serverAuth: what a TLS server (the mock, a web server) presents.
    public let isTLSServer: Bool

    /// Whole days left until notAfter; once expired, minus the whole days since (both truncated,
    /// so a certificate that expired 30 days and a minute ago says -30, as a person would).
    public func daysRemaining(now: Int64) -> Int { Int((notAfter - now) / 86_400) }

    /// Whether notAfter has passed.
    public func isExpired(now: Int64) -> Bool { now > notAfter }

    /// Whether notBefore is still ahead.
    public func isNotYetValid(now: Int64) -> Bool { now < notBefore }

    /// Fails with `.expired` or `.notYetValid` (naming `path`) when `now` is outside the validity.
    public func checkValidity(path: String, now: Int64) throws(CredentialProblem) {
        if isExpired(now: now) {
            throw .expired(path: path, notAfter: notAfter, daysAgo: max(0, -daysRemaining(now: now)))
        }
        if isNotYetValid(now: now) {
            throw .notYetValid(path: path, notBefore: notBefore, daysAhead: Int((notBefore - now) / 86_400))
        }
    }

    /// Environments in display order (sandbox first).
    public var sortedEnvironments: [APNSEnvironment] { APNSEnvironment.allCases.filter { environments.contains($0) } }

    /// The environment to use without `--env`: the only one, else sandbox (CLI.md); nil for non-Apple certificates.
    public var defaultEnvironment: APNSEnvironment? {
        if environments == [.production] { return .production }
        return environments.isEmpty ? nil : .sandbox
    }

    /// The default `apns-topic`: the bundle id, or with a push type the suffixed topic when the
    /// topics extension lists it (APNS.md §7).
    public func defaultTopic(for pushType: PushType?) -> String? {
        guard let bundle = bundleID else { return topics.first }
        if let pushType, !pushType.topicSuffix.isEmpty {
            let suffixed = bundle + pushType.topicSuffix
            if topics.contains(suffixed) { return suffixed }
        }
        return bundle
    }

    /// Parses `certificate`'s fields and Apple's extensions.
    public init(_ certificate: X509Certificate) {
        let subjectEntries = certificate.subjectEntries
        subject = subjectEntries.map { "\($0.name)=\($0.value)" }.joined(separator: ", ")
        issuer = certificate.issuerEntries.map { "\($0.name)=\($0.value)" }.joined(separator: ", ")
        let cn = subjectEntries.last { $0.name == "CN" }?.value
        commonName = cn
        let cnPrefix = cn.flatMap(ApplePush.prefix(ofCommonName:))

        var bundle = subjectEntries.first { $0.name == "UID" }?.value
        if (bundle ?? "").isEmpty, let cn, let p = cnPrefix {
            let rest = cn.dropFirst(p.prefix.count).drop { $0 == " " }
            bundle = rest.isEmpty ? nil : String(rest)
        }
        if bundle?.isEmpty == true { bundle = nil }
        bundleID = bundle

        let topicsValue = certificate.extensionValue(oid: ApplePush.topicsOID)
        hasTopicsExtension = topicsValue != nil
        let listed = topicsValue.map(ApplePush.topics(fromExtension:)) ?? []
        topics = !listed.isEmpty ? listed : (bundle.map { [$0] } ?? [])
        topicsExtensionUnreadable = hasTopicsExtension && listed.isEmpty

        let dev = certificate.extensionValue(oid: ApplePush.developmentOID) != nil
        let prod = certificate.extensionValue(oid: ApplePush.productionOID) != nil
        if dev || prod {
            var envs: Set<APNSEnvironment> = []
            if dev { envs.insert(.sandbox) }
            if prod { envs.insert(.production) }
            environments = envs
        } else {
            environments = cnPrefix?.environments ?? []
        }
        isApplePush = dev || prod || topicsValue != nil || cnPrefix != nil
        hasApplePushExtensions = dev || prod || topicsValue != nil

        serial = certificate.serialHex
        notBefore = certificate.notBefore
        notAfter = certificate.notAfter
        keyType = certificate.keyTypeDescription
        sha256 = certificate.sha256Hex
        isCertificateAuthority = certificate.hasCABasicConstraint
        isTLSServer = certificate.hasServerAuthUsage
    }
}

extension X509Certificate {
    /// The parsed view of this certificate (the mock parses client certificates this way).
    public var info: CertificateInfo { CertificateInfo(self) }
}
