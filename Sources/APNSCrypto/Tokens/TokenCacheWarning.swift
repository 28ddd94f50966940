import APNSPlatform

/// Something at the provider token cache's path that the cache must not use, so it went without it: the caller
/// words and shows these (they are warnings, never failures: a new token is signed instead).
public enum TokenCacheWarning: Equatable, Sendable {
    /// The cache directory or a token's file is a link, FIFO, another user's or shared: a new token is signed
    /// and nothing is stored or changed there.
    case cacheSkipped(PrivateDirectory.Failure)
    /// The cache's secret is such an entry: cached tokens are checked against the key instead of by fingerprint.
    case secretSkipped(PrivateDirectory.Failure)
}
