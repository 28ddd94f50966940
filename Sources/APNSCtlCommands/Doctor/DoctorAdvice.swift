import APNSCore

/// What `apnsctl doctor` tells a user after each kind of failure: pure functions of what was seen, so the
/// wording is tested without a network.
enum DoctorAdvice {
    /// The CN of a distinguished name as `CertificateInfo` writes it (`C=US, O=…, CN=…`), else the whole name.
    static func commonName(ofDN name: String) -> String {
        let parts = name.components(separatedBy: ", ")
        return parts.last { $0.hasPrefix("CN=") }.map { String($0.dropFirst(3)) } ?? name
    }

    /// Whether a presented chain is Apple's: APNs' certificates are issued under Apple's CAs and, since 2025,
    /// chain to `USERTrust RSA Certification Authority` (APNS.md §7).
    static func isApplesChain(issuers: [String]) -> Bool {
        issuers.contains { $0.contains("Apple") || $0.contains("USERTrust") }
    }

    /// A failed server-certificate verification: who issued what was presented, and what that means.
    /// `issuers` are the presented chain's issuers, leaf first; `appleHost` when the host is Apple's own
    /// (no `--endpoint`); `proxy` names the proxy the connection went through, if any; `caFile` whether a CA file
    /// was trusted (it did not issue what was presented, and the failure names the file and the CA it lacks:
    /// "trust its CA with --ca-file" sent the user back to the file they had given).
    static func tlsVerificationHint(issuers: [String], appleHost: Bool, proxy: String?, caFile: Bool = false) -> String
    {
        if caFile { return "give --ca-file the CA that issued it (for apnsctl mock: the ca.pem in its state dir)" }
        let issuer = issuers.last.map { commonName(ofDN: $0) }
        let presented =
            issuer.map { "the server presented a certificate issued by \($0)" } ?? "the server presented no certificate"
        guard appleHost else {
            return "\(presented); trust its CA with --ca-file (for apnsctl mock: the ca.pem in its state dir)"
        }
        if isApplesChain(issuers: issuers) {
            return "\(presented), Apple's chain: this machine lacks the root (USERTrust RSA Certification Authority); "
                + "install or update ca-certificates, or point SSL_CERT_FILE at a bundle that has it"
        }
        let through = proxy.map { " (through \($0))" } ?? ""
        return "\(presented), not Apple's chain: something on the way intercepts TLS\(through); "
            + "pass --ca-file with the intercepting proxy's CA, or exempt api.push.apple.com and api.sandbox.push.apple.com from it"
    }

    /// After a failed connect to Apple's host on `port`: what the one try of the other port (443 or 2197) showed.
    static func portHint(failedPort port: Int, otherPort: Int, otherWorks: Bool) -> String {
        if otherWorks {
            return otherPort == 2197
                ? "port 2197 answers: a firewall blocks 443; add --port 2197 (Apple's alternative port)"
                : "port 443 answers: leave out --port 2197"
        }
        return "port \(otherPort) does not answer either, so --port \(otherPort) would not help: "
            + "check the network, a firewall, or whether a proxy is required (--proxy or https_proxy)"
    }

    /// The probe's answer when it is not `BadDeviceToken`: the line's detail and its hint, from `send`'s meaning
    /// and hint, sharpened for what a doctor knows. `acceptedIn` is the environment whose probe was accepted,
    /// when the other probe told; `keyID`/`teamID` with token auth.
    static func refusal(
        status: Int, reason: ReceivedReason?, environment: APNSEnvironment, acceptedIn: APNSEnvironment?,
        keyID: String?, teamID: String?, topic: (name: String, origin: String)? = nil
    ) -> (detail: String, hint: String) {
        let shownReason = reason.map { String($0.text.prefix(80)) }
        var head = "\(status) " + (shownReason ?? "(no reason)")
        // A refusal of the topic names the one probed and where it came from (a stale profile's, say).
        let topicReasons: [APNSReason] = [.topicDisallowed, .badTopic, .deviceTokenNotForTopic, .missingTopic]
        if let topic, case .known(let known)? = reason, topicReasons.contains(known) {
            head += " (topic \(topic.name), from \(topic.origin))"
        }
        // No APNs error body at all: something else answered, as send says it (an HTML page from a proxy).
        guard let reason else {
            return (
                "\(status) from a proxy or load balancer, not APNs (its answer names no APNs reason)",
                "check --endpoint and any proxy on the way: APNs answers every request with an apns-id"
            )
        }
        guard case .known(let known) = reason else {
            return (
                head + ": an answer APNs does not document",
                "is --endpoint an APNs server? check it, and the proxy, if any"
            )
        }
        switch known {
        case .invalidProviderToken:
            let ids = "team id \(teamID ?? "?") and key id \(keyID ?? "?")"
            return (
                head + ": \(known.meaning) Are the \(ids) swapped?",
                "--key-id must be the id in the .p8's name and --team-id the team the key belongs to; has the key been revoked?"
            )
        case .expiredProviderToken:
            return (
                head + ": \(known.meaning)",
                "clock skew: the token's iat comes from this machine's clock, which must be within an hour of APNs' (check date -u, NTP); then run once with --no-token-cache"
            )
        case .badEnvironmentKeyIdInToken, .badEnvironmentKeyInToken:
            let other: APNSEnvironment = environment == .sandbox ? .production : .sandbox
            if let good = acceptedIn, good != environment {
                return (
                    head,
                    "this key is for \(good.rawValue) only (keys can be limited to one environment since 2025); "
                        + "create a \(environment.rawValue) key or use a key for both"
                )
            }
            return (
                head,
                "this key is limited to \(other.rawValue) (keys can be limited to one environment since 2025); "
                    + "probe --env \(other.rawValue), or use a key for both"
            )
        default:
            return (head + ": \(known.meaning)", known.hint)
        }
    }
}

extension DoctorAdvice {
    /// TLS alerts a server sends when it does not accept the client certificate.
    static func isClientCertificateAlert(_ text: String) -> Bool {
        [
            "certificate required", "bad certificate", "unknown ca", "certificate unknown", "certificate revoked",
            "certificate expired", "unsupported certificate",
        ].contains { text.contains($0) }
    }
}
