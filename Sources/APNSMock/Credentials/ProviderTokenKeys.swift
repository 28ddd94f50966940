import APNSCore
import APNSCrypto

/// The signing keys the mock knows (the state dir's `.p8`, and `--auth-key-pub`), each with its key id and
/// team id. A token is verified by the key its `kid` names; an unknown `kid` is `InvalidProviderToken`.
public struct ProviderTokenKeys: ProviderTokenChecking {
    public let verifiers: [ProviderTokenVerifier]

    public init(_ verifiers: [ProviderTokenVerifier]) { self.verifiers = verifiers }

    public func check(_ token: String, now: Int64) -> ProviderTokenCheck {
        guard let kid = ProviderToken.Parts(token)?.keyID,
            let verifier = verifiers.first(where: { $0.keyID == kid })
        else { return .rejected(.invalidProviderToken) }
        let verdict = verifier.verify(token, now: now)
        if case .valid(let issuedAt) = verdict {
            return .valid(keyID: verifier.keyID, teamID: verifier.teamID, issuedAt: issuedAt)
        }
        return .rejected(verdict.reason ?? .invalidProviderToken)
    }
}
