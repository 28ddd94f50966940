import APNSCore

/// How a connection authenticates, fixed at the handshake: a client certificate, or none (bearer tokens).
public enum MockAuthKind: String, Sendable {
    case certificate
    case token
}

/// Per-connection authentication state, as APNs keeps it: the certificate presented at the handshake, or the
/// key and token that the first accepted bearer token bound the connection to.
public struct ConnectionAuthState: Sendable {
    /// The client certificate, nil on a token connection.
    public let certificate: PresentedCertificate?
    /// The key id the first accepted token bound this connection to.
    public private(set) var keyID: String?
    /// The token currently accepted on this connection, and when it was issued.
    public private(set) var currentToken: String?
    public private(set) var currentIssuedAt: Int64 = 0

    /// APNs rejects a new token on a connection less than this after the previous one (seconds).
    public static let minimumTokenInterval = APNSLimit.providerTokenMinimumInterval
    /// APNs rejects tokens older than this (seconds).
    public static let maximumTokenAge = APNSLimit.providerTokenMaximumAge

    public init(certificate: PresentedCertificate?) { self.certificate = certificate }

    public var kind: MockAuthKind { certificate == nil ? .token : .certificate }

    /// Whether a token has been accepted (a token connection's stream limit rises then).
    public var hasAcceptedToken: Bool { currentToken != nil }

    /// Checks the request's credentials (APNS.md §9 step 3). Returns the reason to reject, or nil.
    /// `authorization` is the header's value, if any. A newly accepted token updates the state.
    mutating func authorize(authorization: String?, rules: MockRules, now: Int64) -> APNSReason? {
        if let certificate {
            // Certificate connections ignore `authorization`, as APNs does.
            if !certificate.trusted { return .badCertificate }
            if !certificate.environments.contains(rules.environment) { return .badCertificateEnvironment }
            return nil
        }
        guard let authorization else { return .missingProviderToken }
        guard let token = Self.bearerToken(authorization) else { return .invalidProviderToken }
        if token == currentToken {
            // Already verified on this connection: only its age can have changed.
            return now - currentIssuedAt > Self.maximumTokenAge ? .expiredProviderToken : nil
        }
        guard let checker = rules.tokenChecker else { return .invalidProviderToken }
        switch checker.check(token, now: now) {
        case .rejected(let reason):
            return reason
        case .valid(let kid, _, let issuedAt):
            // The signature and the team are good; a key limited to the other environment is refused here.
            if let limited = rules.keyEnvironment, limited != rules.environment { return .badEnvironmentKeyIdInToken }
            if now - issuedAt > Self.maximumTokenAge { return .expiredProviderToken }
            if let keyID, keyID != kid { return .unrelatedKeyIdInToken }
            if currentToken != nil, issuedAt - currentIssuedAt < Self.minimumTokenInterval {
                return .tooManyProviderTokenUpdates
            }
            keyID = kid
            currentToken = token
            currentIssuedAt = issuedAt
            return nil
        }
    }

    /// The JWT in `bearer <jwt>` (scheme case-insensitive), nil when the header has another shape.
    static func bearerToken(_ header: String) -> String? {
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingSpaces
        return token.isEmpty ? nil : token
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        var s = self[...]
        while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
        return String(s)
    }
}
