import APNSCore
import APNSPlatform
import APNSTestSupport
import Foundation
import Testing

/// `send` through real proxies from the distribution (tinyproxy for HTTP CONNECT, microsocks for
/// SOCKS5) to `apnsctl mock`: both kinds of auth, curl's variables and their order, NO_PROXY, proxies
/// that refuse, vanish or stay silent, and a 2,000-device batch with every device answered once.
/// One at a time (`oneAtATime`): each starts proxies and a mock and waits on timeouts of its own.
@Suite struct SendProxyTests {
    static let oneAtATime = OneAtATime()

    static let password = "pa.ss-w0rd"
    /// `pa.ss-w0rd` with its `-` percent-encoded, so the tests prove the URL's password is decoded.
    static let encodedPassword = "pa.ss%2Dw0rd"

    /// One way through: the proxy, and the URL a client gives for it.
    struct Route: CustomStringConvertible {
        let name: String
        let start: @Sendable (Int) throws -> ProxyProcess
        let url: @Sendable (ProxyProcess) -> String
        var description: String { name }
    }

    static let routes: [Route] = [
        Route(
            name: "tinyproxy", start: { try ProxyProcess(.tinyproxy(connectPorts: [$0], credentials: nil)) },
            url: { $0.url(scheme: "http") }),
        Route(
            name: "tinyproxy with BasicAuth",
            start: { try ProxyProcess(.tinyproxy(connectPorts: [$0], credentials: ("alice", password))) },
            url: { $0.url(scheme: "http", user: "alice", password: encodedPassword) }),
        Route(
            name: "microsocks", start: { _ in try ProxyProcess(.microsocks(credentials: nil)) },
            url: { $0.url(scheme: "socks5h") }),
        Route(
            name: "microsocks with a user",
            start: { _ in try ProxyProcess(.microsocks(credentials: ("bob", password))) },
            url: { $0.url(scheme: "socks5h", user: "bob", password: encodedPassword) }),
    ]

    static func port(of endpoint: String) -> Int { Int(endpoint.split(separator: ":").last ?? "") ?? 0 }

    /// `send` to the mock by name (`localhost`, so a SOCKS5 proxy resolves it), certificate or token auth.
    private func send(
        _ mock: InProcessMock, token: Bool = false, _ extra: [String], environment: [String: String] = [:],
        timeout: Double = 120
    ) throws -> CommandResult {
        let endpoint = mock.endpoint.replacingOccurrences(of: "127.0.0.1", with: "localhost")
        let cache = try TemporaryDirectory(prefix: "cache")
        let auth =
            token
            ? ["--auth-key", mock.authKey, "--team-id", mock.teamID, "--topic", mock.bundleID]
            : ["--cert", mock.certificate]
        return try InProcess.apnsctl(
            ["send", "{\"aps\":{\"alert\":\"hi\"}}", "--endpoint", endpoint, "--ca-file", mock.caFile]
                + auth + extra, environment: environment.merging(["XDG_CACHE_HOME": cache.path]) { a, _ in a },
            timeout: timeout)
    }

    @Test(arguments: routes)
    func throughEachProxyWithCertificateAndToken(_ route: Route) async throws {
        try await offThePool(Self.oneAtATime) {
            let mock = try InProcessMock(keepingLog: true)
            let proxy = try route.start(Self.port(of: mock.endpoint))
            for token in [false, true] {
                let r = try send(
                    mock, token: token,
                    ["-d", SendDeliveryTests.token(token ? 2 : 1), "--proxy", route.url(proxy), "-v"])
                #expect(r.status == 0, "\(route) token=\(token): \(r.stderr.suffix(800))")
                #expect(r.stdout.hasPrefix("accepted  200"))
                #expect(
                    r.stderr.contains(
                        "* TCP connected to proxy \(route.url(proxy).hasPrefix("http") ? "http" : "socks5h")://"),
                    "\(r.stderr.prefix(600))")
                #expect(
                    !r.stderr.contains(Self.password) && !r.stderr.contains(Self.encodedPassword),
                    "the proxy password was printed")
            }
            #expect(mock.answersPerDevice(expectingAtLeast: 2).count == 2)
            if case .some = route.name.firstRange(of: "tinyproxy") {
                #expect(proxy.connectRequests == 2, "tinyproxy's log: \(proxy.log.suffix(400))")
            }
        }
    }

    @Test(arguments: routes)
    func aBatchOf2000ThroughEachProxyAnswersEveryDeviceOnce(_ route: Route) async throws {
        try await offThePool(Self.oneAtATime) {
            let mock = try InProcessMock(keepingLog: true)
            let proxy = try route.start(Self.port(of: mock.endpoint))
            let scratch = try TemporaryDirectory(prefix: "proxy-batch")
            let r = try send(
                mock, ["--devices", try SendDeliveryTests.deviceFile(2000, in: scratch), "-o", "json"],
                environment: ["https_proxy": route.url(proxy)], timeout: 300)
            #expect(r.status == 0, "\(route): \(r.stderr.suffix(600))")
            let results = SendDeliveryTests.devices(in: r.lines)
            #expect(results.count == 2000)
            #expect(Set(results).count == 2000, "a device got more than one result")
            let answers = mock.answersPerDevice(expectingAtLeast: 2000)
            #expect(answers.count == 2000)
            #expect(answers.values.allSatisfy { $0 == 1 }, "the mock answered a device twice")
        }
    }

    @Test func variablesAreReadInCurlsOrder() async throws {
        try await offThePool(Self.oneAtATime) {
            let mock = try InProcessMock()
            let http = try ProxyProcess(.tinyproxy(connectPorts: [Self.port(of: mock.endpoint)], credentials: nil))
            let socks = try ProxyProcess(.microsocks(credentials: nil))
            let refusing = try RefusingPort()
            defer { withExtendedLifetime(refusing) {} }  // refusing until the test ends
            let dead = "http://127.0.0.1:\(refusing.port)"
            let device = ["-d", SendDeliveryTests.token(1), "-v"]
            let cases: [([String: String], String?)] = [
                (
                    [
                        "https_proxy": http.url(scheme: "http"), "HTTPS_PROXY": dead, "all_proxy": dead,
                        "ALL_PROXY": dead,
                    ],
                    "https_proxy"
                ),
                (["HTTPS_PROXY": socks.url(scheme: "socks5h"), "all_proxy": dead, "ALL_PROXY": dead], "HTTPS_PROXY"),
                (["all_proxy": socks.url(scheme: "socks5h"), "ALL_PROXY": dead], "all_proxy"),
                (["ALL_PROXY": http.url(scheme: "http")], "ALL_PROXY"),
                (["http_proxy": dead, "HTTP_PROXY": dead], nil),
            ]
            for (environment, source) in cases {
                let r = try send(mock, device, environment: environment)
                #expect(r.status == 0, "\(environment): \(r.stderr.suffix(600))")
                if let source {
                    #expect(r.stderr.contains("(from \(source))"), "\(environment): \(r.stderr.prefix(300))")
                } else {
                    #expect(!r.stderr.contains("proxy"), "http_proxy must not apply to https: \(r.stderr.prefix(300))")
                }
            }
            // --proxy beats every variable.
            let r = try send(mock, device + ["--proxy", http.url(scheme: "http")], environment: ["https_proxy": dead])
            #expect(r.status == 0, "\(r.stderr.suffix(600))")
            #expect(r.stderr.contains("(from --proxy)"))
        }
    }

    @Test func noProxyGoesDirect() async throws {
        try await offThePool(Self.oneAtATime) {
            let mock = try InProcessMock()
            // A proxy that is not running: only a direct connection can succeed.
            let refusing = try RefusingPort()
            defer { withExtendedLifetime(refusing) {} }  // refusing until the test ends
            let dead = "http://127.0.0.1:\(refusing.port)"
            let device = ["-d", SendDeliveryTests.token(1), "-v", "--timeout", "10"]
            let through = try send(mock, device, environment: ["https_proxy": dead])
            #expect(through.status == 69, "the control case must use the proxy: \(through.stderr.suffix(400))")
            #expect(through.stderr.contains("proxy \(dead)"))
            for environment in [
                ["https_proxy": dead, "NO_PROXY": "localhost"],
                ["https_proxy": dead, "no_proxy": ".example.com, localhost"],
                ["ALL_PROXY": dead, "NO_PROXY": "*"],
                // An empty no_proxy (CI images export one) is unset, as curl reads it: NO_PROXY still applies.
                ["https_proxy": dead, "no_proxy": "", "NO_PROXY": "localhost"],
            ] {
                let r = try send(mock, device, environment: environment)
                #expect(r.status == 0, "\(environment): \(r.stderr.suffix(400))")
                #expect(r.stderr.contains("* no proxy for localhost"), "\(r.stderr.prefix(300))")
            }
            let flag = try send(mock, device + ["--proxy", dead, "--noproxy", "example.com,localhost"])
            #expect(flag.status == 0, "--noproxy applies to --proxy too: \(flag.stderr.suffix(400))")
            let replaced = try send(
                mock, device + ["--noproxy", ""], environment: ["https_proxy": dead, "NO_PROXY": "localhost"])
            #expect(replaced.status == 69, "--noproxy replaces NO_PROXY: \(replaced.stderr.suffix(400))")

            // A live proxy whose log must stay free of this connection.
            let live = try ProxyProcess(.tinyproxy(connectPorts: [Self.port(of: mock.endpoint)], credentials: nil))
            let bypass = try send(
                mock, device, environment: ["https_proxy": live.url(scheme: "http"), "NO_PROXY": "localhost"])
            #expect(bypass.status == 0)
            #expect(live.connectRequests == 0, "the proxy saw the connection: \(live.log.suffix(300))")
            let control = try send(mock, device, environment: ["https_proxy": live.url(scheme: "http")])
            #expect(control.status == 0)
            #expect(live.connectRequests == 1, "the control connection should show in the log: \(live.log.suffix(300))")
        }
    }

    @Test func aWrongProxyPasswordIsExit69WithoutThePassword() async throws {
        try await offThePool(Self.oneAtATime) {
            let mock = try InProcessMock()
            let proxy = try ProxyProcess(
                .tinyproxy(connectPorts: [Self.port(of: mock.endpoint)], credentials: ("alice", Self.password)))
            let wrong = "Wr0ng-Secret"
            for extra in [[], ["-v"], ["-o", "json"]] {
                let r = try send(
                    mock,
                    [
                        "-d", SendDeliveryTests.token(1), "--proxy",
                        proxy.url(scheme: "http", user: "alice", password: wrong),
                    ] + extra)
                #expect(r.status == 69, "\(r.stderr.suffix(400))")
                let error = r.errorLines.last ?? ""
                #expect(error.hasPrefix("error: "))
                #expect(
                    error.contains("proxy http://alice:***@127.0.0.1:\(proxy.port) refused the tunnel: HTTP/1."),
                    "\(error)"
                )
                #expect(error.contains(" 407 ") || error.contains(" 401 "), "\(error)")
                #expect(!(r.stdout + r.stderr).contains(wrong), "the proxy password was printed")
            }
            let socks = try ProxyProcess(.microsocks(credentials: ("bob", Self.password)))
            let r = try send(
                mock,
                [
                    "-d", SendDeliveryTests.token(1), "--proxy",
                    socks.url(scheme: "socks5h", user: "bob", password: wrong),
                    "-v",
                ])
            #expect(r.status == 69)
            #expect(
                r.stderr.contains(
                    "SOCKS5 proxy socks5h://bob:***@127.0.0.1:\(socks.port) refused: wrong user name or password")
            )
            #expect(!(r.stdout + r.stderr).contains(wrong))
        }
    }

    @Test func aProxyThatIsDownOrSilentIsExit69WithinTimeout() async throws {
        try await offThePool(Self.oneAtATime) {
            let mock = try InProcessMock()
            let refusing = try RefusingPort()
            defer { withExtendedLifetime(refusing) {} }  // refusing until the test ends
            let down = try send(
                mock,
                [
                    "-d", SendDeliveryTests.token(1), "--proxy", "http://127.0.0.1:\(refusing.port)",
                    "--timeout", "5",
                ], timeout: 60)
            #expect(down.status == 69)
            #expect(down.seconds < 5 + 10, "took \(down.seconds) s")
            #expect(down.errorLines.last?.contains("cannot connect to 127.0.0.1") == true, "\(down.stderr)")

            // Accepts TCP (the kernel's backlog) but never answers CONNECT or the SOCKS5 greeting.
            let silent = try Socket.listen(host: "127.0.0.1", port: 0)
            for scheme in ["http", "socks5h"] {
                let r = try send(
                    mock,
                    [
                        "-d", SendDeliveryTests.token(1), "--proxy", "\(scheme)://127.0.0.1:\(silent.localPort)",
                        "--timeout", "2",
                    ], timeout: 60)
                #expect(r.status == 69)
                #expect(r.seconds >= 1.9 && r.seconds < 2 + 15, "\(scheme): took \(r.seconds) s")
                #expect(r.errorLines.last?.contains("did not answer within 2 s") == true, "\(r.stderr)")
            }
        }
    }

    /// A proxy that opens the tunnel, then forwards nothing: the handshake's timeout names the proxy, which is as
    /// likely the silent one as the server (it said only "check --endpoint and the network").
    @Test func aTunnelThatForwardsNothingNamesTheProxy() async throws {
        try await offThePool(Self.oneAtATime) {
            let mock = try InProcessMock()
            let proxy = try FixedAnswerProxy(answer: "HTTP/1.1 200 Connection established\r\n\r\n")
            let r = try send(
                mock,
                ["-d", SendDeliveryTests.token(1), "--proxy", "http://127.0.0.1:\(proxy.port)", "--timeout", "1"],
                timeout: 60)
            #expect(r.status == 69, "\(r.stderr)")
            #expect(
                r.errorLines.last?.hasSuffix(
                    "the TLS handshake got no answer from the server within 1 s through the tunnel the proxy "
                        + "http://127.0.0.1:\(proxy.port) opened; raise --timeout, or check --endpoint and the proxy "
                        + "(does it forward?)") == true, "\(r.stderr)")
        }
    }

    @Test func aProxyThatMayNotOrCannotReachTheHostIs69WithItsAnswer() async throws {
        try await offThePool(Self.oneAtATime) {
            let mock = try InProcessMock()
            let refusingPort = try RefusingPort()
            defer { withExtendedLifetime(refusingPort) {} }  // refusing until the test ends
            let closed = refusingPort.port
            // ConnectPort allows only the closed port: the mock's port is refused (403), the closed one fails (500).
            let proxy = try ProxyProcess(.tinyproxy(connectPorts: [closed], credentials: nil))
            let forbidden = try send(mock, ["-d", SendDeliveryTests.token(1), "--proxy", proxy.url(scheme: "http")])
            #expect(forbidden.status == 69)
            #expect(
                forbidden.errorLines.last?.contains("refused the tunnel: HTTP/1.1 403 ") == true, "\(forbidden.stderr)")
            // The ports a rule must allow, channel management's too (it was told only 443 and 2197).
            #expect(
                forbidden.errorLines.last?.hasSuffix(
                    "(APNs uses 443, or 2197 with --port; channel management 2195 and 2196)") == true,
                "\(forbidden.stderr)")
            let unreachable = try InProcess.apnsctl([
                "send", "--endpoint", "https://127.0.0.1:\(closed)", "--ca-file", mock.caFile,
                "--cert", mock.certificate, "-d", SendDeliveryTests.token(1),
                "--proxy", proxy.url(scheme: "http"),
            ])
            #expect(unreachable.status == 69)
            #expect(
                unreachable.errorLines.last?.contains("refused the tunnel: HTTP/1.1 500 ") == true,
                "\(unreachable.stderr)")
            #expect(
                unreachable.errorLines.last?.contains("the proxy could not reach the server it was asked for") == true)
            let socks = try ProxyProcess(.microsocks(credentials: nil))
            let refused = try InProcess.apnsctl([
                "send", "--endpoint", "https://127.0.0.1:\(closed)", "--ca-file", mock.caFile,
                "--cert", mock.certificate, "-d", SendDeliveryTests.token(1),
                "--proxy", socks.url(scheme: "socks5h"),
            ])
            #expect(refused.status == 69)
            #expect(
                refused.errorLines.last?.contains(
                    "SOCKS5 proxy socks5h://127.0.0.1:\(socks.port) refused: connection refused by the APNs host (reply 5): is the server running there, and is the port right?"
                )
                    == true,
                "\(refused.stderr)")
        }
    }

    @Test(arguments: ["http", "socks5h"])
    func ctrlCWhileTheProxyIsSilentExitsAtOnce(_ scheme: String) async throws {
        try await offThePool(Self.oneAtATime) {
            let mock = try InProcessMock()
            let silent = try Socket.listen(host: "127.0.0.1", port: 0)
            let send = try InProcess.Run([
                "send", "{\"aps\":{\"alert\":\"hi\"}}", "--endpoint", mock.endpoint,
                "--ca-file", mock.caFile, "--cert", mock.certificate, "-d", SendDeliveryTests.token(1),
                "--proxy", "\(scheme)://127.0.0.1:\(silent.localPort)", "--timeout", "60", "-v",
            ])
            // Ctrl-C once the proxy holds the connection and the client's first bytes (its CONNECT request or
            // SOCKS greeting) arrived: it now waits for an answer that never comes.
            var accepted: Socket? = nil
            var greeting: [UInt8] = []
            let waiting = Wait.until {
                if accepted == nil { accepted = silent.accept() }
                if let accepted { greeting += accepted.receive(limit: 4096).1 }
                return !greeting.isEmpty
            }
            #expect(waiting, "the proxy never heard from the client: \(send.stderr)")
            send.interrupts.deliver(SIGINT)
            let (status, waited) = send.finish(within: 20)
            #expect(status == 130, "\(send.stderr.suffix(400))")
            #expect(waited < 5, "the tunnel phase ignored SIGINT for \(waited) s")
        }
    }

    @Test(
        arguments: [
            (["--proxy", "socks4://127.0.0.1:1080"], "--proxy socks4://127.0.0.1:1080: SOCKS4 is not supported"),
            (["--proxy", "https://u:secret@p:443"], "--proxy https://u:***@p:443: TLS to the proxy itself"),
            (["--port", "8443"], "--port 8443: Apple's push hosts listen on 443 and 2197 only"),
            (
                ["--endpoint", "staging=https://127.0.0.1:1"],
                "--endpoint staging=https://127.0.0.1:1: staging is not an environment"
            ),
            (["--env", "nowhere"], "use sandbox (development), production or auto"),
        ] as [([String], String)])
    func badConnectionFlagsAreUsageErrors(_ flags: [String], _ message: String) throws {
        let scratch = try TemporaryDirectory(prefix: "proxy-usage")
        let creds = try TestCredentials()
        let r = try InProcess.apnsctl(
            ["send", "--cert", creds.pushFile, "-d", SendDeliveryTests.token(1)] + flags,
            environment: ["XDG_CACHE_HOME": scratch.path])
        #expect(r.status == 64, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("error: "))
        #expect(r.stderr.contains(message), "\(r.stderr)")
        #expect(!r.stderr.contains("secret"))
    }

    @Test func aBadProxyVariableNamesTheVariable() async throws {
        try await offThePool(Self.oneAtATime) {
            let creds = try TestCredentials()
            let r = try InProcess.apnsctl(
                ["send", "--cert", creds.pushFile, "-d", SendDeliveryTests.token(1)],
                environment: ["HTTPS_PROXY": "ftp://proxy:21"])
            #expect(r.status == 64)
            #expect(r.stderr.hasPrefix("error: HTTPS_PROXY ftp://proxy:21: scheme ftp is not supported"), "\(r.stderr)")
        }
    }

    @Test func port2197AndDryRunShowTheProxyWithoutItsPassword() async throws {
        try await offThePool(Self.oneAtATime) {
            let creds = try TestCredentials()
            let r = try InProcess.apnsctl(
                [
                    "send", "--cert", creds.pushFile, "-d", SendDeliveryTests.token(1), "--port", "2197",
                    "--env", "production", "--dry-run",
                ],
                environment: ["https_proxy": "http://alice:Sup3rSecret@proxy.corp:3128"])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.contains("POST https://api.push.apple.com:2197/3/device/"))
            #expect(r.stdout.contains("--proxy 'http://proxy.corp:3128'"))
            #expect(r.stdout.contains("\nproxy-user = \"$APNS_PROXY_USER\"\n") && !r.stdout.contains("--proxy-user"))
            #expect(
                r.stdout.contains("APNS_PROXY_USER=$(printf '%s\\n' 'alice:'\"$APNS_PROXY_PASSWORD\" | sed "),
                "\(r.stdout)"
            )
            #expect(r.stdout.contains("# the proxy password: set APNS_PROXY_PASSWORD before running this"))
            #expect(!r.stdout.contains("Sup3rSecret"))
            let bypassed = try InProcess.apnsctl(
                ["send", "--cert", creds.pushFile, "-d", SendDeliveryTests.token(1), "--dry-run"],
                environment: ["https_proxy": "http://proxy.corp:3128", "NO_PROXY": "apple.com"])
            #expect(bypassed.stdout.contains("--noproxy '*'"))
            #expect(!bypassed.stdout.contains("--proxy "))
            let ignored = try InProcess.apnsctl([
                "send", "--cert", creds.pushFile, "-d", SendDeliveryTests.token(1), "--dry-run",
                "--port", "2197", "--endpoint", "https://127.0.0.1:4443",
            ])
            #expect(ignored.stderr.contains("warning: --port 2197 is ignored with --endpoint"))
            #expect(ignored.stdout.contains("POST https://127.0.0.1:4443/3/device/"))
        }
    }
}
