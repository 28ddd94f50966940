import Testing

@testable import APNSClient

/// Which proxy applies once the settings are resolved (which variable wins is the resolver's, tested in
/// SettingsResolverTests): an empty proxy is none; the no-proxy list exempts a host from any proxy.
@Suite struct ProxySelectionTests {
    let host = "api.push.apple.com"

    private func choose(_ proxy: String?, label: String = "--proxy", noProxy: String? = nil) throws(ProxyServer
        .Problem) -> ProxySelection
    {
        try ProxySelection.choose(
            for: host, proxy: proxy, noProxy: noProxy, proxyLabel: label, noProxyLabel: "--noproxy")
    }

    @Test func theSettingAndItsSource() throws {
        #expect(try choose("socks5h://e:1").proxy?.host == "e")
        #expect(try choose("socks5h://e:1").source == "--proxy")
        #expect(try choose("http://a:1", label: "https_proxy").source == "https_proxy")
        #expect(try choose(nil).proxy == nil)
        #expect(try choose(nil).source == nil)
    }

    @Test func emptyMeansNoProxy() throws {
        #expect(try choose("").proxy == nil)
        #expect(try choose("  ").proxy == nil)
        #expect(try choose("", noProxy: "*").bypassedBy == nil, "nothing to bypass")
    }

    @Test func exemptions() throws {
        let bypassed = try choose("http://a:1", label: "https_proxy", noProxy: "apple.com")
        #expect(bypassed.proxy == nil)
        #expect(bypassed.bypassedBy == "--noproxy")
        #expect(bypassed.source == "https_proxy")
        #expect(try choose("http://a:1", noProxy: "").proxy?.host == "a", "an empty list exempts nothing")
        #expect(try choose("http://a:1", noProxy: "example.com").proxy?.host == "a")
        #expect(try choose("http://a:1", noProxy: "*").bypassedBy == "--noproxy")
    }

    /// curl's variable for a host it exempts is not read, as curl does not read it: a stale, malformed https_proxy
    /// does not stop a send to a host NO_PROXY names. A proxy given to apnsctl itself is still checked.
    @Test func anExemptHostIgnoresAMalformedVariableOnly() throws {
        let skipped = try choose("htps://p:1", label: "https_proxy", noProxy: "*")
        #expect(skipped.proxy == nil && skipped.bypassedBy == "--noproxy")
        #expect(throws: ProxyServer.Problem.self) { try choose("htps://p:1", label: "https_proxy") }
        #expect(throws: ProxyServer.Problem.self) { try choose("htps://p:1", label: "--proxy", noProxy: "*") }
    }

    @Test func aBadURLNamesItsSource() {
        do {
            _ = try choose("socks4://p:1", label: "ALL_PROXY")
            Issue.record("accepted socks4")
        } catch {
            #expect(error.message.hasPrefix("ALL_PROXY socks4://p:1:"))
        }
    }
}
