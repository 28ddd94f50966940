import Testing

@testable import APNSClient

/// Which proxy applies, in curl's order: --proxy, https_proxy, HTTPS_PROXY, all_proxy, ALL_PROXY;
/// exemptions from --noproxy, else no_proxy, else NO_PROXY, applying to --proxy too.
@Suite struct ProxySelectionTests {
    let host = "api.push.apple.com"

    private func choose(_ env: [String: String], explicit: String? = nil, noProxy: String? = nil) throws(ProxyServer
        .Problem) -> ProxySelection
    {
        try ProxySelection.choose(
            for: host, explicit: explicit, noProxy: noProxy, environment: env,
            explicitLabel: "--proxy", noProxyLabel: "--noproxy")
    }

    @Test func variablesInCurlsOrder() throws {
        let all = [
            "https_proxy": "http://a:1", "HTTPS_PROXY": "http://b:1", "all_proxy": "http://c:1",
            "ALL_PROXY": "http://d:1",
        ]
        #expect(try choose(all).proxy?.host == "a")
        #expect(try choose(all).source == "https_proxy")
        var env = all
        env["https_proxy"] = nil
        #expect(try choose(env).proxy?.host == "b")
        env["HTTPS_PROXY"] = nil
        #expect(try choose(env).proxy?.host == "c")
        env["all_proxy"] = nil
        #expect(try choose(env).proxy?.host == "d")
        env["ALL_PROXY"] = nil
        #expect(try choose(env).proxy == nil)
        #expect(try choose(env).source == nil)
        #expect(try choose(all, explicit: "socks5h://e:1").proxy?.host == "e")
        #expect(try choose(all, explicit: "socks5h://e:1").source == "--proxy")
    }

    @Test func httpProxyIsNotReadForHTTPS() throws {
        #expect(try choose(["http_proxy": "http://a:1", "HTTP_PROXY": "http://b:1"]).proxy == nil)
    }

    @Test func emptyMeansNoProxy() throws {
        #expect(try choose(["https_proxy": "http://a:1"], explicit: "").proxy == nil)
        #expect(try choose(["https_proxy": "", "all_proxy": "http://c:1"]).proxy == nil)
    }

    @Test func exemptions() throws {
        let env = ["https_proxy": "http://a:1", "NO_PROXY": "apple.com"]
        let bypassed = try choose(env)
        #expect(bypassed.proxy == nil)
        #expect(bypassed.bypassedBy == "NO_PROXY")
        #expect(bypassed.source == "https_proxy")
        #expect(try choose(env, explicit: "http://x:1").proxy == nil, "NO_PROXY applies to --proxy too")
        #expect(
            try choose(env.merging(["no_proxy": "example.com"]) { $1 }).proxy?.host == "a",
            "no_proxy is read before NO_PROXY")
        #expect(try choose(env, noProxy: "").proxy?.host == "a", "--noproxy replaces NO_PROXY")
        // An empty no_proxy (CI images export one) is unset, as curl reads it: NO_PROXY still applies.
        let emptied = try choose(env.merging(["no_proxy": ""]) { $1 })
        #expect(emptied.proxy == nil && emptied.bypassedBy == "NO_PROXY")
        #expect(try choose(["https_proxy": "http://a:1"], noProxy: "*").bypassedBy == "--noproxy")
    }

    @Test func aBadURLNamesItsVariable() {
        do {
            _ = try choose(["ALL_PROXY": "socks4://p:1"])
            Issue.record("accepted socks4")
        } catch {
            #expect(error.message.hasPrefix("ALL_PROXY socks4://p:1:"))
        }
    }
}
