import APNSClient
import APNSCore
import APNSCrypto
import APNSPlatform
import APNSSettings

/// Runs one environment's network checks phase by phase, on the same steps `send` runs in one go
/// (`PushConnection`'s phases, the sender's TLS context), and turns each phase's result into a line.
/// Each phase gets its own `--timeout`; a `fail` ends the environment's checks. Nothing is resent and
/// nothing reconnects: the probe's answer is what the server said to that one request.
struct DoctorProbe {
    let plan: DoctorPlan
    let context: TLSContext
    /// Each phase's deadline counts on its monotonic clock.
    let clock: CommandClock
    /// Readable once SIGINT or SIGTERM arrived: every phase waits on it too, and stops.
    var interruptFD: Int32? = nil

    private var timeout: Double { plan.configuration.timeout }

    /// The checks of `route`'s environment: dns, connect, proxy (only through one), tls, auth.
    func run(_ route: DoctorPlan.Route) -> EnvironmentReport {
        var report = EnvironmentReport(environment: route.environment, checks: [])
        let env = route.environment
        let proxy = route.proxy.proxy
        let host = proxy?.host ?? route.endpoint.host
        let port = proxy?.port ?? route.endpoint.port
        // Apple's host names its environment; another (the mock, a proxy) is labelled with it.
        let whose =
            proxy.map { " (proxy \($0.display) for \(env.rawValue))" }
            ?? (route.isAppleHost ? "" : " (\(env.rawValue))")

        // dns
        let resolved: PushConnection.ResolvedHost
        do {
            resolved = try PushConnection.resolve(
                host: host, port: port, timeout: timeout, deadline: deadline(), interruptFD: interruptFD,
                using: plan.configuration.nameLookup)
        } catch {
            if case .interrupted = error { return interrupted(report) }
            report.checks.append(
                .fail(
                    "dns", env, .network, error.description + whose,
                    hint: proxy != nil
                        ? "check the proxy's host name in \(route.proxy.source ?? "--proxy")"
                        : error.mayPassWithMoreTime
                            ? "check the host name and this machine's DNS (resolv.conf), or raise \(Setting.of(.timeout).flag)"
                            : "check the host name and this machine's DNS (resolv.conf)"))
            return report
        }
        let shown =
            resolved.addresses.prefix(4).map(\.numericHost).joined(separator: ", ")
            + (resolved.addresses.count > 4 ? ", …" : "")
        let count = resolved.addresses.count
        report.checks.append(.ok("dns", env, "\(host)\(whose): \(count) address\(count == 1 ? "" : "es") (\(shown))"))

        // connect
        let connected: PushConnection.ConnectedSocket
        do {
            connected = try PushConnection.connect(
                resolved, timeout: timeout, deadline: deadline(), interruptFD: interruptFD)
        } catch {
            if case .interrupted = error { return interrupted(report) }
            // The hint tries the other port: a signal during that try ends the checks as any other would, the failed
            // connect (a finished check) still said.
            guard let hint = connectHint(route: route, error: error) else {
                report.checks.append(.fail("connect", env, .network, error.description + whose))
                return interrupted(report)
            }
            report.checks.append(.fail("connect", env, .network, error.description + whose, hint: hint))
            return report
        }
        let address = connected.address.contains(":") ? "[\(connected.address)]" : connected.address
        report.checks.append(
            .ok("connect", env, "\(address):\(connected.port)\(whose) in \(Self.ms(connected.milliseconds))"))

        // proxy
        var tunnel: PushConnection.OpenedTunnel? = nil
        if let proxy {
            do {
                tunnel = try PushConnection.tunnel(
                    through: proxy, on: connected, to: route.endpoint, timeout: timeout, interruptFD: interruptFD,
                    using: plan.configuration.nameLookup)
            } catch {
                if case .interrupted = error { return interrupted(report) }
                // socks5:// has the APNs host looked up here: a failed lookup is this machine's DNS, not the proxy.
                if case .connect(.resolve) = error {
                    report.checks.append(
                        .fail(
                            "dns", env, .network, error.description + " (socks5:// looks the APNs host up here)",
                            hint: (route.isAppleHost ? "check " : "check the host name in --endpoint and ")
                                + "this machine's DNS (resolv.conf), or give the proxy as socks5h:// so that the "
                                + "proxy looks it up"))
                    return report
                }
                report.checks.append(
                    .fail(
                        "proxy", env, .network, error.description,
                        hint: "the proxy comes from \(route.proxy.source ?? "--proxy"); "
                            + "check its address and credentials, or exempt the host with NO_PROXY/--noproxy"))
                return report
            }
            let answer = tunnel?.answer ?? ""
            report.checks.append(
                .ok(
                    "proxy", env,
                    "\(proxy.display) from \(route.proxy.source ?? "--proxy"): \(answer) "
                        + "(tunnel to \(route.endpoint.authority) in \(Self.ms(tunnel?.milliseconds ?? 0)))"))
        }

        // tls
        let tls: TLSConnection
        let handshake: PushConnection.Handshake
        do {
            tls = try PushConnection.startTLS(on: connected.socket, for: route.endpoint, context: context)
        } catch {
            report.checks.append(.fail("tls", env, .network, error.description))
            return report
        }
        do {
            handshake = try PushConnection.handshake(
                tls, timeout: timeout, interruptFD: interruptFD, quickAck: proxy != nil)
        } catch {
            if case .interrupted = error { return interrupted(report) }
            report.checks.append(tlsFailure(error, tls: tls, route: route))
            return report
        }
        guard handshake.alpn == "h2" else {
            report.checks.append(
                .fail(
                    "tls", env, .network, TransportFailure.tls(.noHTTP2(selected: handshake.alpn)).description,
                    hint: Self.notHTTP2Hint))
            return report
        }
        var tlsCheck = DoctorCheck.ok("tls", env, "\(handshake.version), ALPN h2, " + verification(tls) + whose)
        if case .insecure = plan.configuration.trust {
            tlsCheck.status = .warn
            tlsCheck.hint = "--insecure skips the check; leave it out against APNs"
        }
        report.checks.append(tlsCheck)

        // auth
        let connection: PushConnection
        do {
            connection = try PushConnection.establish(
                on: tls, handshake: handshake, endpoint: route.endpoint,
                connectMs: resolved.milliseconds + connected.milliseconds, tunnel: tunnel)
        } catch {
            report.checks.append(.fail("auth", env, .network, error.description))
            return report
        }
        let request = plan.probe.request(for: nil)
        let probe = APNSRequest(
            method: request.method, path: APNSPath.device(DoctorPlan.probeDevice), headers: request.headers,
            body: request.body)
        let outcome = connection.exchange(probe, timeout: timeout, interruptFD: interruptFD)
        connection.finish()
        if case .failed(.interrupted) = outcome { return interrupted(report) }
        report.checks.append(
            Self.authCheck(
                outcome, environment: env, acceptedIn: nil, keyID: plan.keyID, teamID: plan.teamID,
                topic: (plan.probe.topic, plan.topicOrigin)))
        return report
    }

    /// `report` as a signal left it: the checks that finished.
    private func interrupted(_ report: EnvironmentReport) -> EnvironmentReport {
        var report = report
        report.interrupted = true
        return report
    }

    /// The `auth` line for the probe's outcome. `acceptedIn` is the environment that accepted the credentials,
    /// when known (it sharpens a `BadEnvironmentKey…` hint).
    static func authCheck(
        _ outcome: ExchangeOutcome, environment env: APNSEnvironment, acceptedIn: APNSEnvironment?,
        keyID: String?, teamID: String?, topic: (name: String, origin: String)? = nil
    ) -> DoctorCheck {
        switch outcome {
        case .answered(let response):
            let reason = APNSErrorBody.reason(in: response.body).map(ReceivedReason.init)
            if response.status == 400 && reason == .known(.badDeviceToken) {
                var ok = DoctorCheck.ok(
                    "auth", env,
                    "accepted: APNs answered BadDeviceToken to the probe token, "
                        + "as it does when the credentials and topic are good")
                ok.reason = reason
                return ok
            }
            if response.status == 200 {
                return .fail(
                    "auth", env, .rejected, "200: the server accepted the probe token, which APNs never does",
                    hint:
                        "the probe must be refused; is --endpoint an APNs server, or is something answering in its place?"
                )
            }
            let (detail, hint) = DoctorAdvice.refusal(
                status: response.status, reason: reason, environment: env, acceptedIn: acceptedIn,
                keyID: keyID, teamID: teamID, topic: topic)
            // A 500 or 503 is the service failing, not the credentials refused: a network failure (69), so a nightly
            // check during an APNs outage does not report bad credentials (1).
            return .fail(
                "auth", env, response.status >= 500 ? .network : .rejected, detail, hint: hint, reason: reason)
        case .refusedByAlert(let text):
            return .fail(
                "auth", env, .rejected, text,
                hint: "the server refused the client certificate: check it with apnsctl inspect, its key, and --env")
        case .failed(let failure):
            let hint: String? =
                switch failure {
                case .timeout, .unknownOutcome(.timeout):
                    "the server took the probe but did not answer; raise \(Setting.of(.timeout).flag), or check --endpoint"
                default: nil
                }
            return .fail("auth", env, .network, "no answer to the probe: " + failure.description, hint: hint)
        }
    }

    /// After a failed connect: with Apple's host reached directly, one try of the other port (443/2197) says
    /// whether `--port` would help; otherwise what to check.
    /// nil when a signal came while the other port was tried.
    private func connectHint(route: DoctorPlan.Route, error: SocketError) -> String? {
        if let proxy = route.proxy.proxy {
            return
                "the proxy \(proxy.display) (from \(route.proxy.source ?? "--proxy")) does not accept connections; check it, or exempt the host with NO_PROXY/--noproxy"
        }
        guard route.isAppleHost else {
            // A refusal says the mock is gone; a timeout does not (send's warning draws the same line).
            let refused = if case .connect = error { true } else { false }
            return (refused ? plan.stoppedMockAdvice : nil)
                ?? "is the server at --endpoint \(route.endpoint.url) running? (for apnsctl mock: the endpoint in its mock.json)"
        }
        let other = route.endpoint.port == 443 ? 2197 : 443
        let works: Bool
        do {
            let again = try PushConnection.resolve(
                host: route.endpoint.host, port: other, timeout: timeout, deadline: deadline(),
                interruptFD: interruptFD, using: plan.configuration.nameLookup)
            _ = try PushConnection.connect(again, timeout: timeout, deadline: deadline(), interruptFD: interruptFD)
            works = true
        } catch {
            if case .interrupted = error { return nil }
            works = false
        }
        return DoctorAdvice.portHint(failedPort: route.endpoint.port, otherPort: other, otherWorks: works)
    }

    /// A TLS server that takes no HTTP/2 (it chose another protocol, or alerted on ours): no APNs server.
    static let notHTTP2Hint = "is --endpoint an APNs server? a proxy that terminates TLS may also do this"

    /// A failed handshake, named by what failed: verification (with the presented issuer), an alert against
    /// our client certificate (a rejection), silence (the timeout).
    private func tlsFailure(_ failure: TransportFailure, tls: TLSConnection, route: DoctorPlan.Route) -> DoctorCheck {
        let env = route.environment
        switch failure {
        case .tls(let verification) where verification.isAboutCertificateDates:
            return .fail("tls", env, .network, failure.description, hint: ClockAdvice.certificateDates)
        case .tls(let verification) where verification.isAboutHostName:
            // Apple's own name is never the one to change: something answers in its place.
            let apple = route.isAppleHost || route.endpoint.host.hasSuffix(".push.apple.com")
            let hint = apple ? TransportFailure.interceptedAdvice : TransportFailure.certificateNameAdvice
            return .fail("tls", env, .network, failure.description, hint: hint)
        case .tls(.noHTTP2):
            // The server speaks TLS (it alerted on ALPN): it is no HTTP/2 server, so not APNs.
            return .fail("tls", env, .network, failure.description, hint: Self.notHTTP2Hint)
        case .tls(.verification):
            let issuers = tls.presentedChain.map { $0.info.issuer }
            let caFile = if case .caFile = plan.configuration.trust { true } else { false }
            return .fail(
                "tls", env, .network, failure.description,
                hint: DoctorAdvice.tlsVerificationHint(
                    issuers: issuers, appleHost: route.isAppleHost,
                    proxy: route.proxy.proxy?.display, caFile: caFile))
        case .tls(.handshake(let text))
        where plan.configuration.identity != nil && DoctorAdvice.isClientCertificateAlert(text):
            return .fail(
                "tls", env, .rejected, failure.description,
                hint: "the server refused the client certificate: check it with apnsctl inspect, its key, and --env")
        case .handshakeTimeout:
            return .fail(
                "tls", env, .network, failure.description,
                hint:
                    "raise \(Setting.of(.timeout).flag), or check --endpoint and any proxy: something accepted TCP but does not speak TLS"
            )
        default:
            return .fail(
                "tls", env, .network, failure.description,
                hint: "is --endpoint a TLS server? check --ca-file and --proxy")
        }
    }

    /// `server certificate verified (USERTrust RSA Certification Authority root)`, or why nothing was verified.
    private func verification(_ tls: TLSConnection) -> String {
        if case .insecure = plan.configuration.trust { return "server certificate NOT verified (--insecure)" }
        guard let root = tls.verifiedChain.last else { return "server certificate verified" }
        let name = root.info.commonName ?? root.info.subject
        return "server certificate verified (\(name) root)"
    }

    private func deadline() -> UInt64 { clock.monotonicNanoseconds() + UInt64(max(0, timeout) * 1e9) }

    /// `0.4 ms`, `21 ms`.
    static func ms(_ value: Double) -> String {
        value < 10 ? "\(Double(Int((value * 10).rounded())) / 10) ms" : "\(Int(value.rounded())) ms"
    }
}
