import APNSCrypto
import APNSPlatform

extension TokenCacheWarning {
    /// What was skipped, what that costs, and what to do.
    var message: String {
        switch self {
        case .cacheSkipped(let refusal):
            return "\(refusal.message); the provider token cache is skipped (a new token is signed and not stored); "
                + "\(Self.advice(refusal)), or pass --no-token-cache"
        case .secretSkipped(let refusal):
            return
                "\(refusal.message); the provider token cache's secret is not used (cached tokens are checked against "
                + "the key instead); \(Self.advice(refusal))"
        }
    }

    /// What to do about the refused entry.
    private static func advice(_ refusal: PrivateDirectory.Failure) -> String {
        guard case .untrusted(let path, _, let remedy) = refusal else { return "remove it" }
        return remedy.advice(for: path, variable: "XDG_CACHE_HOME")
    }
}

extension MessageStream {
    /// A token cache warning, worded for the command line.
    func warning(_ warning: TokenCacheWarning) { self.warning(warning.message) }
}
