import APNSCore

/// The ES256 JWT APNs takes as `authorization: bearer <token>` (APNS.md §6):
/// header `{"alg":"ES256","kid":…}`, claims `{"iss":…,"iat":…}`, raw `r||s` signature, base64url.
public enum ProviderToken {
    /// Signs a new token issued at `issuedAt` (seconds since the epoch).
    public static func make(key: SigningKey, keyID: String, teamID: String, issuedAt: Int64) throws(OpenSSLError)
        -> String
    {
        let header = Base64URL.encode(Array("{\"alg\":\"ES256\",\"kid\":\"\(keyID)\"}".utf8))
        let claims = Base64URL.encode(Array("{\"iss\":\"\(teamID)\",\"iat\":\(issuedAt)}".utf8))
        let input = header + "." + claims
        let signature = try key.sign(Array(input.utf8))
        return input + "." + Base64URL.encode(signature)
    }

    /// The key id for `--key-id`/file name and the team id for `--team-id`/`APNSCTL_TEAM_ID`, checked.
    /// `explicitKeyID` wins over the file name; the key need not be decoded: the file name is all the key id needs.
    public static func identifiers(
        explicitKeyID: String?, keyIDFromFileName: String?, authKeyPath: String,
        teamID: String?
    ) throws(CredentialProblem) -> (keyID: String, teamID: String) {
        guard let keyID = explicitKeyID ?? keyIDFromFileName else { throw .missingKeyID(authKeyPath: authKeyPath) }
        guard DeveloperID.isWellFormed(keyID) else {
            // Name the source the user can fix: the flag they typed, or the file name they did not.
            throw explicitKeyID == nil ? .invalidKeyIDInFileName(path: authKeyPath, keyID: keyID) : .invalidKeyID(keyID)
        }
        guard let teamID, !teamID.isEmpty else { throw .missingTeamID }
        guard DeveloperID.isWellFormed(teamID) else { throw .invalidTeamID(teamID) }
        return (keyID, teamID)
    }

    /// A token split into its decoded parts, before any signature check.
    public struct Parts: Sendable {
        public let algorithm: String?
        public let keyID: String?
        public let issuer: String?
        public let issuedAt: Int64?
        /// A `kid` or `iss` that is there but no string (`number 1234567890`): what it is, for a message that would
        /// otherwise say it is missing.
        public let keyIDOfWrongType: String?
        public let issuerOfWrongType: String?
        /// `header.claims`, the signed bytes.
        public let signingInput: [UInt8]
        public let signature: [UInt8]

        /// Splits and decodes `token`; nil for anything that is not three base64url JSON parts.
        public init?(_ token: String) {
            let pieces = token.split(separator: ".", omittingEmptySubsequences: false)
            guard pieces.count == 3,
                let h = Base64URL.decode(pieces[0]), let c = Base64URL.decode(pieces[1]),
                let s = Base64URL.decode(pieces[2]), !s.isEmpty,
                let header = Self.object(h), let claims = Self.object(c)
            else { return nil }
            algorithm = header["alg"]?.string
            keyID = header["kid"]?.string
            issuer = claims["iss"]?.string
            keyIDOfWrongType = header["kid"].flatMap { $0.string == nil ? $0.summary : nil }
            issuerOfWrongType = claims["iss"].flatMap { $0.string == nil ? $0.summary : nil }
            issuedAt = claims["iat"]?.number.flatMap(Self.numericDate)
            signingInput = Array(pieces[0].utf8) + [UInt8(ascii: ".")] + Array(pieces[1].utf8)
            signature = s
        }

        /// The first part of a three-part token that does not decode: the header or the claims (base64url of one
        /// JSON object each, and what is wrong with it), or the signature (base64url of some bytes).
        public enum Damage: Sendable, Equatable {
            case header(PartFault)
            case claims(PartFault)
            case signature
        }

        /// Why a header or claims part is no JWT part.
        public enum PartFault: Sendable, Equatable {
            /// Not base64url, or not JSON once decoded.
            case notJSON
            /// JSON, but not an object (`[1,2]`, a string).
            case notAnObject
            /// An object with `key` twice.
            case duplicateKey(String)
        }

        /// Which part of `token` keeps it from decoding; nil when it is not three parts, or they all decode.
        public static func damage(in token: String) -> Damage? {
            let pieces = token.split(separator: ".", omittingEmptySubsequences: false)
            guard pieces.count == 3 else { return nil }
            if let fault = fault(of: Base64URL.decode(pieces[0])) { return .header(fault) }
            if let fault = fault(of: Base64URL.decode(pieces[1])) { return .claims(fault) }
            if Base64URL.decode(pieces[2])?.isEmpty != false { return .signature }
            return nil
        }

        /// What keeps `bytes` from being a JWT part (`object`'s reasons); nil for a part that is one.
        private static func fault(of bytes: [UInt8]?) -> PartFault? {
            guard let bytes, let value = try? JSONReader.parse(bytes) else { return .notJSON }
            guard let members = value.members else { return .notAnObject }
            if let twice = JSONValue.duplicateKeys(in: members).first { return .duplicateKey(members[twice.first].key) }
            return nil
        }

        /// An RFC 7519 NumericDate as whole seconds: any JSON number, integer or not (`1795416581.0`, the
        /// fractional seconds PyAPNs2 and its forks send), rounded down; nil outside ±10^15 s, which is no date.
        /// The bound keeps a date in milliseconds (about 1.8 × 10^12, said as such) and leaves room for the
        /// arithmetic on it (an age, an hour added): `iat` near the 64-bit limits made that overflow and trap.
        static func numericDate(_ n: JSONNumber) -> Int64? {
            if let i = n.intValue { return (-limit...limit).contains(Int64(i)) ? Int64(i) : nil }
            let d = n.doubleValue
            guard d.isFinite, abs(d) < Double(limit) else { return nil }
            return Int64(d.rounded(.down))
        }

        /// The largest `iat` taken, either way of 1970.
        static let limit: Int64 = 1_000_000_000_000_000

        /// A JWT part: one JSON object (the shared reader), with no key twice, since parsers
        /// disagree on which copy wins and a verifier must not be the one that guesses.
        private static func object(_ bytes: [UInt8]) -> JSONValue? {
            guard let value = try? JSONReader.parse(bytes), let members = value.members,
                JSONValue.duplicateKeys(in: members).isEmpty
            else { return nil }
            return value
        }
    }
}
