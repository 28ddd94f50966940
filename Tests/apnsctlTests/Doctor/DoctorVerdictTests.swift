import APNSClient
import APNSCore
import APNSCrypto
import Testing

@testable import APNSCtlCommands

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `apnsctl doctor`'s judgement without a network: faked phase results for every mix of two environments'
/// outcomes, the probe's answers, and the TLS, port and reason advice.
@Suite struct DoctorVerdictTests {
    enum Outcome: String, CaseIterable, Sendable { case accepted, rejected, network }

    static func report(_ environment: APNSEnvironment, _ outcome: Outcome) -> EnvironmentReport {
        var checks: [DoctorCheck] = [.ok("dns", environment, "host: 1 address")]
        switch outcome {
        case .accepted:
            checks += [
                .ok("connect", environment, "ok"), .ok("tls", environment, "ok"), .ok("auth", environment, "accepted"),
            ]
        case .rejected:
            checks += [
                .ok("connect", environment, "ok"), .ok("tls", environment, "ok"),
                .fail(
                    "auth", environment, .rejected, "403 InvalidProviderToken", reason: .known(.invalidProviderToken)),
            ]
        case .network:
            checks += [.fail("connect", environment, .network, "cannot connect")]
        }
        return EnvironmentReport(environment: environment, checks: checks)
    }

    static let mixes: [(Outcome, Outcome)] = Outcome.allCases.flatMap { s in Outcome.allCases.map { (s, $0) } }

    @Test(arguments: mixes)
    func defaultEnvironmentsNeedOneThatAccepts(_ sandbox: Outcome, _ production: Outcome) {
        let (checks, code) = DoctorVerdict.settle(
            credentials: [.ok("credentials", nil, "key")],
            environments: [Self.report(.sandbox, sandbox), Self.report(.production, production)],
            explicit: false)
        let anyAccepted = sandbox == .accepted || production == .accepted
        let expected: Int32 = anyAccepted ? 0 : (sandbox == .rejected || production == .rejected ? 1 : 69)
        #expect(code == expected)
        let failed = checks.filter { $0.status == .fail }
        let warned = checks.filter { $0.status == .warn }
        if anyAccepted {
            #expect(failed.isEmpty)
            #expect(warned.count == [sandbox, production].filter { $0 != .accepted }.count)
            let working = sandbox == .accepted ? "sandbox" : "production"
            for w in warned { #expect(w.hint?.contains("\(working) accepted the credentials") == true) }
        } else {
            #expect(failed.count == 2 && warned.isEmpty)
            // The line names the failure the exit code stands for: a refusal (1) before a network failure (69).
            let named = failed.first { $0.problem == .rejected } ?? failed[0]
            #expect(DoctorVerdict.errorLine(checks)?.hasPrefix("doctor: \(named.fullLabel) failed") == true)
            if sandbox == .network && production == .rejected {
                #expect(DoctorVerdict.errorLine(checks)?.hasPrefix("doctor: auth production failed") == true)
            }
        }
    }

    @Test(arguments: mixes)
    func namedEnvironmentsMustEachAccept(_ sandbox: Outcome, _ production: Outcome) {
        let (checks, code) = DoctorVerdict.settle(
            credentials: [.ok("credentials", nil, "key")],
            environments: [Self.report(.sandbox, sandbox), Self.report(.production, production)],
            explicit: true)
        let outcomes = [sandbox, production]
        let expected: Int32 = outcomes.contains(.rejected) ? 1 : (outcomes.contains(.network) ? 69 : 0)
        #expect(code == expected)
        #expect(checks.filter { $0.status == .warn }.isEmpty)
        #expect(checks.filter { $0.status == .fail }.count == outcomes.filter { $0 != .accepted }.count)
    }

    @Test func credentialFailuresWinOverRejectionsAndNetwork() {
        let expiring = DoctorCheck.fail("credentials", nil, .credential, "expires in 3 days")
        let (_, code) = DoctorVerdict.settle(
            credentials: [expiring],
            environments: [Self.report(.sandbox, .rejected), Self.report(.production, .network)],
            explicit: true)
        #expect(code == 77)
        let (_, warnOnly) = DoctorVerdict.settle(
            credentials: [DoctorCheck(name: "credentials", status: .warn, detail: "10 days")],
            environments: [Self.report(.sandbox, .accepted)], explicit: false)
        #expect(warnOnly == 0)
    }

    @Test func probeAnswers() {
        func auth(_ outcome: ExchangeOutcome) -> DoctorCheck {
            DoctorProbe.authCheck(
                outcome, environment: .sandbox, acceptedIn: nil, keyID: "KEYKEYKEY1", teamID: "TEAMTEAM12")
        }
        let ok = auth(.answered(HTTPResponse(status: 400, body: Array(#"{"reason":"BadDeviceToken"}"#.utf8))))
        #expect(ok.status == .ok && ok.reason == .known(.badDeviceToken))
        let accepted = auth(.answered(HTTPResponse(status: 200)))
        #expect(accepted.status == .fail && accepted.problem == .rejected && accepted.detail.hasPrefix("200"))
        let swapped = auth(
            .answered(HTTPResponse(status: 403, body: Array(#"{"reason":"InvalidProviderToken"}"#.utf8))))
        #expect(
            swapped.problem == .rejected && swapped.detail.contains("KEYKEYKEY1")
                && swapped.detail.contains("TEAMTEAM12"))
        // A refused topic is named, with where it came from (a stale profile's, say).
        let topic = DoctorProbe.authCheck(
            .answered(HTTPResponse(status: 400, body: Array(#"{"reason":"TopicDisallowed"}"#.utf8))),
            environment: .sandbox, acceptedIn: nil, keyID: nil, teamID: nil,
            topic: ("com.example.wrong", "topic in profile dev (c.toml:3)"))
        #expect(
            topic.detail.hasPrefix(
                "400 TopicDisallowed (topic com.example.wrong, from topic in profile dev (c.toml:3)): These credentials"
            ),
            "\(topic.detail)")
        // The service failing is no refusal of the credentials: 69's kind, not 1's.
        for (status, reason) in [(503, "ServiceUnavailable"), (500, "InternalServerError")] {
            let down = auth(.answered(HTTPResponse(status: status, body: Array(#"{"reason":"\#(reason)"}"#.utf8))))
            #expect(down.status == .fail && down.problem == .network, "\(status): \(down)")
        }
        let alert = auth(.refusedByAlert("the server ended the connection with a TLS alert: certificate required"))
        #expect(alert.problem == .rejected)
        let silent = auth(.failed(.timeout(seconds: 5)))
        #expect(silent.problem == .network && silent.hint?.contains("; raise --timeout, or check --endpoint") == true)
        let odd = auth(
            .answered(HTTPResponse(status: 418, body: Array(#"{"reason":"\u001b[31m\u009b\u202eTeapot"}"#.utf8))))
        #expect(odd.problem == .rejected)
        // Escaped where printed: `\u{1B}` in text, JSON's own `\u001b` in JSON.
        let oddText = DoctorOutput.line(odd, format: .text)
        let oddJSON = DoctorOutput.line(odd, format: .json)
        #expect(!oddText.contains("\u{1b}") && oddText.contains("\\u{1B}[31m\\u{9B}\\u{202E}Teapot"), "\(oddText)")
        #expect(
            !oddJSON.contains("\u{1b}") && oddJSON.contains("\\u001b[31m\\u009b\\u202eTeapot")
                && !oddJSON.contains("\\u{"), "\(oddJSON)")
    }

    /// The run's `error:` line after a detail that asks a question gives the hint as a sentence of its own (it was
    /// "…-only server?; is --endpoint…").
    @Test func theErrorLineNeverPunctuatesTwice() {
        let tls = DoctorCheck.fail(
            "tls", .sandbox, .network, "the server did not agree to HTTP/2 (ALPN h2); is this an HTTP/1.1-only server?",
            hint: "is --endpoint an APNs server?")
        #expect(
            DoctorVerdict.errorLine([tls])
                == "doctor: tls sandbox failed: the server did not agree to HTTP/2 (ALPN h2); is this an HTTP/1.1-only server? is --endpoint an APNs server?"
        )
    }

    @Test func reasonsAreSharpened() {
        let clock = DoctorAdvice.refusal(
            status: 403, reason: ReceivedReason("ExpiredProviderToken"), environment: .production, acceptedIn: nil,
            keyID: nil, teamID: nil)
        #expect(clock.hint.contains("clock"))
        for spelling in ["BadEnvironmentKeyIdInToken", "BadEnvironmentKeyInToken"] {
            let told = DoctorAdvice.refusal(
                status: 403, reason: ReceivedReason(spelling), environment: .production, acceptedIn: .sandbox,
                keyID: nil, teamID: nil)
            #expect(
                told.hint.hasPrefix("this key is for sandbox only (keys can be limited to one environment since 2025)"))
            let untold = DoctorAdvice.refusal(
                status: 403, reason: ReceivedReason(spelling), environment: .sandbox, acceptedIn: nil, keyID: nil,
                teamID: nil)
            #expect(untold.hint.contains("limited to production"))
        }
        let topic = DoctorAdvice.refusal(
            status: 400, reason: ReceivedReason("TopicDisallowed"), environment: .sandbox, acceptedIn: nil, keyID: nil,
            teamID: nil)
        #expect(topic.hint == APNSReason.topicDisallowed.hint)
        // No APNs reason at all (a proxy's HTML page): said as send says it, not as an undocumented APNs answer.
        let page = DoctorAdvice.refusal(
            status: 500, reason: nil, environment: .sandbox, acceptedIn: nil, keyID: nil, teamID: nil)
        #expect(page.detail == "500 from a proxy or load balancer, not APNs (its answer names no APNs reason)")
        #expect(page.hint.hasPrefix("check --endpoint and any proxy on the way"))
        let odd = DoctorAdvice.refusal(
            status: 418, reason: ReceivedReason("Teapot"), environment: .sandbox, acceptedIn: nil, keyID: nil,
            teamID: nil)
        #expect(odd.detail == "418 Teapot: an answer APNs does not document")
    }

    @Test func tlsHintNamesTheIssuerAndWhatItMeans() {
        let apple = [
            "C=US, O=Apple Inc., CN=Apple Public Server RSA CA 12 - G1",
            "C=US, O=The USERTRUST Network, CN=USERTrust RSA Certification Authority",
        ]
        let missingRoot = DoctorAdvice.tlsVerificationHint(issuers: apple, appleHost: true, proxy: nil)
        #expect(
            missingRoot.contains("issued by USERTrust RSA Certification Authority")
                && missingRoot.contains("ca-certificates")
                && missingRoot.contains("SSL_CERT_FILE"))
        let intercepted = DoctorAdvice.tlsVerificationHint(
            issuers: ["O=Corp, CN=Corp Inspection CA"], appleHost: true, proxy: "http://proxy:3128")
        #expect(
            intercepted.contains("issued by Corp Inspection CA") && intercepted.contains("intercepts")
                && intercepted.contains("--ca-file") && intercepted.contains("exempt"))
        let local = DoctorAdvice.tlsVerificationHint(
            issuers: ["O=apnsctl, CN=apnsctl mock CA"], appleHost: false, proxy: nil)
        #expect(local.contains("issued by apnsctl mock CA") && local.contains("--ca-file"))
        // The CA file given is the wrong one (the failure names it and the issuer): not "trust its CA with
        // --ca-file", as if none had been given.
        let given = DoctorAdvice.tlsVerificationHint(
            issuers: ["O=apnsctl, CN=apnsctl mock CA"], appleHost: false, proxy: nil, caFile: true)
        #expect(given == "give --ca-file the CA that issued it (for apnsctl mock: the ca.pem in its state dir)")
    }

    @Test func portHintSaysWhether2197Helps() {
        #expect(DoctorAdvice.portHint(failedPort: 443, otherPort: 2197, otherWorks: true).contains("add --port 2197"))
        #expect(
            DoctorAdvice.portHint(failedPort: 2197, otherPort: 443, otherWorks: true).contains("leave out --port 2197"))
        let neither = DoctorAdvice.portHint(failedPort: 443, otherPort: 2197, otherWorks: false)
        #expect(neither.contains("--port 2197 would not help"))
    }

    @Test func certificateLineByDaysLeft() throws {
        let now: Int64 = 1_800_000_000
        let ca = try CredentialGenerator.makeCA()
        func info(_ notBefore: Int64, _ notAfter: Int64) throws -> CertificateInfo {
            try CredentialGenerator.makePushCertificate(
                ca: ca, bundleID: "com.example.app", kind: .universal(topics: ["com.example.app"]),
                validity: Validity(notBefore: notBefore, notAfter: notAfter)
            ).info
        }
        let day: Int64 = 86_400
        let fine = APNSCtl.Doctor.certificateCheck(
            try info(now - day, now + 200 * day), file: "p.pem", now: now, failWithin: nil)
        #expect(fine.check.status == .ok && !fine.stopBeforeNetwork && fine.check.daysRemaining == 200)
        let soon = APNSCtl.Doctor.certificateCheck(
            try info(now - day, now + 10 * day), file: "p.pem", now: now, failWithin: nil)
        #expect(soon.check.status == .warn && soon.check.detail.contains("10 days left"))
        let gated = APNSCtl.Doctor.certificateCheck(
            try info(now - day, now + 10 * day), file: "p.pem", now: now, failWithin: 30 * day)
        #expect(gated.check.status == .fail && gated.check.problem == .credential && !gated.stopBeforeNetwork)
        #expect(gated.check.hint?.contains("--fail-within 30d") == true)
        // A limit from a variable or a profile is named so, not as a flag no one typed.
        let variable = APNSCtl.Doctor.certificateCheck(
            try info(now - day, now + 10 * day), file: "p.pem", now: now, failWithin: 30 * day,
            failWithinLabel: "APNSCTL_FAIL_WITHIN")
        #expect(variable.check.hint?.contains("expires within APNSCTL_FAIL_WITHIN 30d") == true)
        let expired = APNSCtl.Doctor.certificateCheck(
            try info(now - 90 * day, now - 2 * day), file: "p.pem", now: now, failWithin: nil)
        #expect(expired.check.status == .fail && expired.stopBeforeNetwork && expired.check.detail.contains("EXPIRED"))
        // A certificate with no topic at all (no Apple extension, no bundle id) says so, not "0 topics ()".
        let server = try CredentialGenerator.makeServerCertificate(ca: ca).info
        let none = APNSCtl.Doctor.certificateCheck(server, file: "s.pem", now: now, failWithin: nil)
        #expect(none.check.detail.contains("no Apple environment, no topics, expires"), "\(none.check.detail)")
    }
}
