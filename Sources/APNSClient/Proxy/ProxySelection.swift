/// Which proxy, if any, a connection to an APNs host uses, decided as curl decides for an `https://`
/// URL, so a CI job's existing proxy variables work unchanged:
/// 1. `--proxy URL` wins; `--proxy ""` means no proxy at all, whatever the environment says;
/// 2. else `https_proxy`, `HTTPS_PROXY`, `all_proxy`, `ALL_PROXY`: the first one set is used (set but
///    empty means no proxy);
/// 3. the host is then reached directly when `--noproxy LIST` matches it, or, without `--noproxy`,
///    when `no_proxy` (else `NO_PROXY`; an empty one is unset, as curl reads it, so a CI image's `no_proxy=` does
///    not hide the `NO_PROXY` list) does. As in curl these exempt hosts from `--proxy` too.
///
/// Shared by every command that connects (`send`, `channel`), so they all read the same variables.
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

    /// The choice for `host`. `explicit` and `noProxy` are the caller's own settings (apnsctl's `--proxy` and
    /// `--noproxy`), named in messages by `explicitLabel` and `noProxyLabel`; `environment` is the process
    /// environment (injected so tests need not change their own). A malformed URL throws a problem naming
    /// the setting or variable it came from.
    public static func choose(
        for host: String, explicit: String?, noProxy: String?, environment: [String: String],
        explicitLabel: String = "the proxy setting",
        noProxyLabel: String = "the no-proxy setting"
    ) throws(ProxyServer.Problem) -> ProxySelection {
        var url: String? = nil
        var source: String? = nil
        if let explicit {
            url = explicit
            source = explicitLabel
        } else if let name = proxyVariables.first(where: { environment[$0] != nil }) {
            url = environment[name]
            source = name
        }
        guard let url, let source, !url.trimmingWhitespace().isEmpty else {
            return ProxySelection(proxy: nil, source: nil, bypassedBy: nil)
        }
        let proxy = try ProxyServer(url: url, source: source)
        if let noProxy {
            if NoProxyList(noProxy).matches(host: host) {
                return ProxySelection(proxy: nil, source: source, bypassedBy: noProxyLabel)
            }
        } else if let name = noProxyVariables.first(where: { environment[$0]?.isEmpty == false }),
            let list = environment[name],
            NoProxyList(list).matches(host: host)
        {
            return ProxySelection(proxy: nil, source: source, bypassedBy: name)
        }
        return ProxySelection(proxy: proxy, source: source, bypassedBy: nil)
    }
}
