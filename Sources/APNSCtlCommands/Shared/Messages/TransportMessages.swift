import APNSClient
import APNSPlatform
import APNSSettings

extension TransportFailure {
    /// The failure as `send` prints it: what happened, then what to check, naming apnsctl's own flags
    /// (the library says which advice applies, never which flag).
    var message: String {
        guard let advice else { return description }
        switch advice {
        case .checkServerAndEndpoint: return description + "; is the server running, and are --endpoint or --env right?"
        case .checkHostName:
            // Apple's own hosts (the default, no --endpoint given): the name is right, the network or DNS is not.
            if case .connect(.resolve(let host, _)) = self, host.hasSuffix(".push.apple.com") {
                return description + "; check this machine's network and DNS (can it resolve other names?)"
            }
            return description + "; check the host name in --endpoint and the network"
        case .allowMoreTime:
            return description + "; raise \(Setting.of(.timeout).flag), or check --endpoint and the network"
        case .trustServerCertificate:
            // Said so for a --ca-file given too: the failure then names the file and the CA it lacks.
            return description + "; give --ca-file the CA that issued it, or --insecure to skip the check (unsafe)"
        case .checkClock:
            return description + "; " + ClockAdvice.certificateDates
        case .useACertificateName where isAboutApplesHostName:
            return description + "; " + Self.interceptedAdvice
        case .useACertificateName: return description + "; " + Self.certificateNameAdvice
        case .checkProxySettings:
            // Where the proxy came from is not known here: every place it may be set is named (-v says which).
            return description
                + "; check the proxy setting (--proxy, APNSCTL_PROXY or a profile's proxy, else https_proxy/all_proxy; -v says which), or exempt the host with NO_PROXY/--noproxy"
        case .allowTheProxyMoreTime: return description + "; raise \(Setting.of(.timeout).flag) or check the proxy"
        case .allowMoreTimeOrCheckTheProxy:
            return description
                + "; raise \(Setting.of(.timeout).flag), or check --endpoint and the proxy (does it forward?)"
        case .checkProxyAllowsThePort:
            return description + " (APNs uses 443, or 2197 with --port; channel management 2195 and 2196)"
        // Said once, after the summary (`TransportFailure.resendAdvice`), not on every device's line.
        case .resendUnknownIfDuplicatesAreAcceptable: return description
        }
    }

    /// What to do when the server's certificate verified but names another host: the CA is the right one.
    static let certificateNameAdvice =
        "the CA is right but the name is not: give --endpoint a name the certificate is for, or --insecure to skip the check (unsafe)"

    /// Apple's own name refused by a certificate the trust store accepts: not a name to change, but something on the
    /// way (a captive portal, a proxy) answering in Apple's place.
    static let interceptedAdvice =
        "something on the way answers in Apple's place (a captive portal, or a proxy that intercepts TLS): "
        + "check the network, or exempt api.push.apple.com and api.sandbox.push.apple.com from the proxy"

    /// A certificate refused as not for Apple's host (`… not for api.push.apple.com)`).
    var isAboutApplesHostName: Bool {
        guard case .tls(let failure) = self else { return false }
        return failure.refusedHostName?.hasSuffix(".push.apple.com") == true
    }

    /// What to do about devices whose outcome is unknown.
    static let resendAdvice =
        "they were not sent again, because a device could be notified twice; to send them again anyway, "
        + "add \(Setting.of(.resendUnknown).flag) (with --collapse-id a repeat replaces the first notification on screen)"
}
