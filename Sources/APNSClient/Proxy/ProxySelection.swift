import APNSCore

/// Which proxy, if any, a connection to an APNs host uses, decided as curl decides for an `https://`
/// URL, so a CI job's existing proxy variables work unchanged:
/// 1. the proxy setting wins (`--proxy`, `APNSCTL_PROXY`, a profile, else the first of curl's `https_proxy`,
///    `HTTPS_PROXY`, `all_proxy`, `ALL_PROXY` that is set, which the settings resolver reads in that order);
///    an empty one means no proxy at all;
/// 2. the host is then reached directly when the no-proxy setting (`--noproxy`, else `no_proxy`, else
///    `NO_PROXY`, an empty `no_proxy` read as unset) matches it. As in curl these exempt hosts from `--proxy` too.
///
/// Shared by every command that connects (`send`, `channel`, `doctor`), so they all decide alike.
public struct ProxySelection: Sendable, Equatable {
    /// The proxy to use; nil: connect directly.
    public let proxy: ProxyServer?
    /// Where the proxy URL came from (`--proxy`, `https_proxy`, …); nil when none was configured.
    public let source: String?
    /// When a configured proxy is skipped for this host: what exempted it (`NO_PROXY`, `--noproxy`).
    public let bypassedBy: String?

    /// The variables read for the proxy URL, in curl's order for `https://` URLs.
    public static let proxyVariables = ["https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"]
    /// The variables read for the exemption list, in curl's order.
    public static let noProxyVariables = ["no_proxy", "NO_PROXY"]

    /// The choice for `host`. `proxy` and `noProxy` are the resolved settings, named in messages by
    /// `proxyLabel` and `noProxyLabel` (the flag, or the variable they came from). A malformed URL throws a
    /// problem naming that source.
    public static func choose(
        for host: String, proxy url: String?, noProxy: String?,
        proxyLabel source: String = "the proxy setting",
        noProxyLabel: String = "the no-proxy setting"
    ) throws(ProxyServer.Problem) -> ProxySelection {
        guard let url, !url.trimmingBlanks().isEmpty else {
            return ProxySelection(proxy: nil, source: nil, bypassedBy: nil)
        }
        let exempt = noProxy.map { NoProxyList($0).matches(host: host) } ?? false
        // One of curl's variables that this host is exempt from is never used, so not read either, as curl does not:
        // a machine's stale https_proxy must not stop a send to a host NO_PROXY names. A proxy given to apnsctl
        // (flag, APNSCTL_PROXY, profile) is checked all the same.
        if exempt && proxyVariables.contains(source) {
            return ProxySelection(proxy: nil, source: source, bypassedBy: noProxyLabel)
        }
        let proxy = try ProxyServer(url: url, source: source)
        if exempt { return ProxySelection(proxy: nil, source: source, bypassedBy: noProxyLabel) }
        return ProxySelection(proxy: proxy, source: source, bypassedBy: nil)
    }
}
