import APNSCore

/// Why a bearer token was accepted or refused, with the APNs reason a server answers.
public enum ProviderTokenVerdict: Equatable, Sendable {
    case valid(issuedAt: Int64)
    /// Not three base64url parts of flat JSON, or `kid`/`iss`/`iat` missing or of the wrong type.
    case malformed(String)
    /// `alg` is not `ES256`.
    case unsupportedAlgorithm(String)
    case unknownKeyID(String)
    case wrongTeam(String)
    case badSignature
    /// `iat` more than an hour ago.
    case expired(issuedAt: Int64)
    /// `iat` ahead of the clock by more than the tolerance.
    case issuedInFuture(issuedAt: Int64)

    public var isValid: Bool {
        if case .valid = self { return true }
        return false
    }

    /// The 403 reason APNs answers; nil for a valid token.
    public var reason: APNSReason? {
        switch self {
        case .valid: return nil
        case .expired: return .expiredProviderToken
        default: return .invalidProviderToken
        }
    }

    /// A short explanation for logs (never contains the token).
    public var explanation: String {
        switch self {
        case .valid(let iat): return "valid, issued at \(ISO8601.format(epochSeconds: iat))"
        case .malformed(let why): return "malformed token: \(why)"
        case .unsupportedAlgorithm(let alg): return "alg is \(alg), not ES256"
        case .unknownKeyID(let kid): return "unknown key id \(kid)"
        case .wrongTeam(let iss): return "team id \(iss) does not own this key"
        case .badSignature: return "signature does not verify with the key"
        case .expired(let iat): return "issued at \(ISO8601.format(epochSeconds: iat)), more than an hour ago"
        case .issuedInFuture(let iat): return "issued at \(ISO8601.format(epochSeconds: iat)), in the future"
        }
    }
}

/// Checks bearer tokens as APNs does, for the mock: header alg/kid, claims iss/iat, and the ES256
/// signature (raw `r||s` as apnsctl sends, or DER as pushy and Apple's openssl recipe produce).
public struct ProviderTokenVerifier: Sendable {
    public let publicKey: PublicKey
    public let keyID: String
    public let teamID: String
    /// Tokens older than this are expired (APNs: one hour).
    public let maximumAge: Int64
    /// How far `iat` may be ahead of the clock (APNS.md: more than an hour ahead is not allowed).
    public let futureTolerance: Int64

    /// A verifier for tokens signed by `publicKey`'s private half under `keyID` and `teamID`.
    public init(
        publicKey: PublicKey, keyID: String, teamID: String, maximumAge: Int64 = 3600, futureTolerance: Int64 = 3600
    ) {
        self.publicKey = publicKey
        self.keyID = keyID
        self.teamID = teamID
        self.maximumAge = maximumAge
        self.futureTolerance = futureTolerance
    }

    /// A verifier from a key file: a `.p8` private key, a `PUBLIC KEY` PEM, or a certificate.
    public init(keyFile path: String, keyID: String, teamID: String) throws(CredentialProblem) {
        self.init(publicKey: try PublicKeyLoader.load(path: path), keyID: keyID, teamID: teamID)
    }

    /// The verdict on `token` at `now` (seconds since the epoch).
    public func verify(_ token: String, now: Int64) -> ProviderTokenVerdict {
        guard let parts = ProviderToken.Parts(token) else {
            return .malformed("not three base64url parts holding JSON objects")
        }
        guard let alg = parts.algorithm else { return .malformed("header has no alg") }
        guard alg == "ES256" else { return .unsupportedAlgorithm(alg) }
        guard let kid = parts.keyID else { return .malformed("header has no kid") }
        guard kid == keyID else { return .unknownKeyID(kid) }
        guard let iss = parts.issuer else { return .malformed("claims have no iss") }
        guard iss == teamID else { return .wrongTeam(iss) }
        guard let iat = parts.issuedAt else {
            return .malformed("claims have no iat that is a date (seconds since 1970)")
        }
        guard parts.signatureVerifies(with: publicKey) else { return .badSignature }
        if now - iat > maximumAge { return .expired(issuedAt: iat) }
        if iat - now > futureTolerance { return .issuedInFuture(issuedAt: iat) }
        return .valid(issuedAt: iat)
    }
}
