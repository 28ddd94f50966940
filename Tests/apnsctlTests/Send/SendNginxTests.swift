import APNSPlatform
import APNSTestSupport
import Foundation
import Testing

/// CLI.md's delivery promise against a server this project did not write: nginx (HTTP/2, TLS, client
/// certificates) in front of a backend that logs each request the moment it arrives and answers late. The
/// backend's log is the truth about what was received, so a device logged twice was pushed twice.
/// One at a time (`oneAtATime`): each starts nginx and a backend and counts on their timing.
@Suite struct SendNginxTests {
    static let oneAtATime = OneAtATime()

    let credentials: TestCredentials

    init() throws {
        credentials = try TestCredentials()
        _ = try credentials.directory.write("server.pem", try credentials.server.pem(), mode: 0o600)
    }

    func arguments(_ nginx: NginxProcess, devices: String, extra: [String] = []) -> [String] {
        [
            "send", "{\"aps\":{\"alert\":\"hi\"}}", "--endpoint", nginx.endpoint, "--ca-file", credentials.caFile,
            "--cert", credentials.pushFile, "--devices", devices, "-o", "json", "--timeout", "20",
        ] + extra
    }

    /// JSON result lines by device.
    static func results(_ stdout: String) -> [String: [String]] {
        var byDevice: [String: [String]] = [:]
        for line in stdout.split(separator: "\n").map(String.init) {
            guard let r = line.range(of: "\"device\":\"") else { continue }
            byDevice[String(line[r.upperBound...].prefix(64)), default: []].append(line)
        }
        return byDevice
    }

    /// Sends `count` devices in the background to `nginx` (started `holdingAnswers`), waits until the whole
    /// window of one connection (`NginxProcess.maxConcurrentStreams` requests) reached the backend, runs `fault`,
    /// then lets the backend answer. Nothing was answered before the fault, so the devices the backend logged
    /// until then are exactly the ones in flight, however fast or slow the machine: returned as `inFlight`
    /// with the exit status, stdout and stderr.
    func sendWithFault(
        _ nginx: NginxProcess, count: Int, extra: [String] = [], _ fault: (InProcess.Run) throws -> Void
    ) throws
        -> (status: Int32, stdout: String, stderr: String, inFlight: Set<String>)
    {
        let scratch = try TemporaryDirectory(prefix: "nginx-devices")
        let file = try SendDeliveryTests.deviceFile(count, in: scratch)
        let send = try InProcess.Run(arguments(nginx, devices: file, extra: extra))
        let window = NginxProcess.maxConcurrentStreams
        let reached = send.wait(seconds: 60) { nginx.arrivals.count >= window }
        #expect(reached, "the backend received \(nginx.arrivals.count) of \(window): \(send.stderr.suffix(400))")
        let inFlight = Set(nginx.arrivalsPerDevice.keys)
        #expect(
            inFlight.count == window,
            "in flight before any answer: the server's limit, no more: \(nginx.arrivals.count)")
        try fault(send)
        nginx.releaseAnswers()
        let (status, _) = send.finish(within: 60)
        #expect(status != nil, "the send did not end within 60 s: \(send.stderr.suffix(400))")
        return (status ?? -1, send.stdout, send.stderr, inFlight)
    }

    /// The devices whose one result line has `marker`.
    static func devices(_ results: [String: [String]], with marker: String) -> Set<String> {
        Set(results.filter { $0.value.first?.contains(marker) == true }.keys)
    }

    func expectNoDeviceReachedTheBackendTwice(_ nginx: NginxProcess, sourceLocation: SourceLocation = #_sourceLocation)
    {
        let twice = nginx.arrivalsPerDevice.filter { $0.value > 1 }
        #expect(
            twice.isEmpty,
            "pushed twice: \(twice.count) devices, e.g. \(twice.first.map { "\($0.key) ×\($0.value)" } ?? "")",
            sourceLocation: sourceLocation)
    }

    @Test func aWorkerKilledMidBatchLeavesUnknownsAndPushesNothingTwice() async throws {
        try await offThePool(Self.oneAtATime) {
            let nginx = try NginxProcess(certificateDirectory: credentials.directory.path, holdingAnswers: true)
            let run = try sendWithFault(nginx, count: 200) { _ in nginx.killWorker() }
            #expect(run.status == 69, "\(run.stderr.suffix(600))")
            let results = Self.results(run.stdout)
            #expect(results.count == 200 && results.values.allSatisfy { $0.count == 1 }, "one result per device")
            let unknown = Self.devices(results, with: "\"delivery\":\"unknown\"")
            let accepted = Self.devices(results, with: "\"status\":200")
            #expect(
                unknown == run.inFlight,
                "the requests in flight when the worker died, and only they, are unknown: \(unknown.count) unknown, \(run.inFlight.count) in flight"
            )
            #expect(
                accepted == Set(results.keys).subtracting(run.inFlight),
                "the devices not yet sent went out afterwards: \(run.stdout.suffix(600))")
            #expect(
                unknown.allSatisfy {
                    results[$0]?.first.map {
                        $0.contains("\"status\":null")
                            && $0.contains(
                                "\"error\":\"unknown: the connection ended after the request was sent; APNs may have delivered it"
                            )
                    } == true
                })
            #expect(
                run.stderr.contains("may have been delivered") && run.stderr.contains("--resend-unknown"),
                "\(run.stderr.suffix(600))")
            expectNoDeviceReachedTheBackendTwice(nginx)
            #expect(nginx.arrivalsPerDevice.count == 200, "every device reached the backend once")
        }
    }

    @Test func resendUnknownDeliversEveryDeviceAtLeastOnce() async throws {
        try await offThePool(Self.oneAtATime) {
            let nginx = try NginxProcess(certificateDirectory: credentials.directory.path, holdingAnswers: true)
            let run = try sendWithFault(nginx, count: 200, extra: ["--resend-unknown"]) { _ in nginx.killWorker() }
            #expect(run.status == 0, "\(run.stderr.suffix(600))")
            let results = Self.results(run.stdout)
            #expect(
                results.count == 200 && results.values.allSatisfy { $0.count == 1 && $0[0].contains("\"status\":200") })
            let arrivals = nginx.arrivalsPerDevice
            #expect(arrivals.count == 200)
            #expect(
                Set(arrivals.filter { $0.value == 2 }.keys) == run.inFlight && arrivals.values.allSatisfy { $0 <= 2 },
                "the requests in flight when the worker died, and only they, were sent again, once")
        }
    }

    @Test func nginxsGoAwayEveryFiftyRequestsGivesExactlyOnce() async throws {
        try await offThePool(Self.oneAtATime) {
            let nginx = try NginxProcess(
                certificateDirectory: credentials.directory.path, delay: 0.02, requestsPerConnection: 50)
            let scratch = try TemporaryDirectory(prefix: "nginx-devices")
            let r = try InProcess.apnsctl(
                arguments(nginx, devices: try SendDeliveryTests.deviceFile(500, in: scratch), extra: ["-v"]),
                timeout: 120)
            #expect(r.status == 0, "\(r.stderr.suffix(600))")
            // Each connection after the first resumes a TLS session nginx issued (its tickets are on by default).
            let handshakes = r.errorLines.filter { $0.contains("TLS handshake") }
            #expect(handshakes.count >= 10, "\(handshakes.count)")
            #expect(handshakes.dropFirst().allSatisfy { $0.hasSuffix(" (resumed)") }, "\(handshakes)")
            let results = Self.results(r.stdout)
            #expect(
                results.count == 500 && results.values.allSatisfy { $0.count == 1 && $0[0].contains("\"status\":200") })
            expectNoDeviceReachedTheBackendTwice(nginx)
            #expect(nginx.arrivalsPerDevice.count == 500)
        }
    }

    /// An answer that is not from APNs (nginx's own HTML page for a backend that is down): no reason is
    /// made up from it; JSON has `"reason":null` and the page's start in `body`, text shows it escaped.
    @Test func anHTMLErrorPageIsABodyNotAReason() async throws {
        try await offThePool(Self.oneAtATime) {
            let nginx = try NginxProcess(certificateDirectory: credentials.directory.path, delay: 0)
            nginx.stopBackend()
            let device = "cd00000000000000000000000000000000000000000000000000000000000001"
            let base = [
                "send", "{\"aps\":{\"alert\":\"hi\"}}", "--endpoint", nginx.endpoint, "--ca-file", credentials.caFile,
                "--cert", credentials.pushFile, "-d", device,
            ]
            let json = try InProcess.apnsctl(base + ["-o", "json"])
            #expect(json.status == 1, "\(json.stderr)")
            let line = json.lines.first ?? ""
            #expect(line.contains("\"status\":502") && line.contains("\"reason\":null"), "\(line)")
            #expect(line.contains("\"body\":\"<html>") && line.contains("502 Bad Gateway"), "\(line)")
            // One line naming the status and who answered; the page is in `body` only.
            #expect(line.contains("\"meaning\":\"502 from a proxy or load balancer, not APNs\""), "\(line)")
            let text = try InProcess.apnsctl(base)
            #expect(text.status == 1)
            #expect(
                text.stdout.contains(
                    "rejected  502  -  \(device)  502 from a proxy or load balancer, not APNs; it answered: <html>"),
                "\(text.stdout)")
            #expect(!text.stdout.contains("\n<"), "the page is one escaped line")
        }
    }

    /// A crash, then the server back once the sender found it away (a reconnect refused), and a fast stop
    /// followed at once by a new server on the same port: the backoff bridges both; only the requests in flight
    /// at the crash are unknown.
    @Test(arguments: ["crash and restart after a refused reconnect", "stop and start at once"])
    func aRestartIsBridgedByTheBackoff(_ how: String) async throws {
        try await offThePool(Self.oneAtATime) {
            let nginx = try NginxProcess(certificateDirectory: credentials.directory.path, holdingAnswers: true)
            let crash = how.hasPrefix("crash")
            // -v says when a reconnect failed: the moment the server has been seen away.
            let run = try sendWithFault(nginx, count: 200, extra: crash ? ["-v"] : []) { send in
                if crash {
                    nginx.crash()
                    #expect(
                        send.wait(seconds: 20) { send.stderr.contains("* connection failed: ") },
                        "no reconnect was refused: \(send.stderr.suffix(400))")
                } else {
                    nginx.stop()
                }
                try nginx.start()
            }
            let results = Self.results(run.stdout)
            #expect(results.count == 200 && results.values.allSatisfy { $0.count == 1 })
            let accepted = Self.devices(results, with: "\"status\":200")
            let unknown = Self.devices(results, with: "\"delivery\":\"unknown\"")
            let other = results.values.first {
                !$0[0].contains("\"status\":200") && !$0[0].contains("\"delivery\":\"unknown\"")
            }
            #expect(
                accepted.count + unknown.count == 200,
                "nothing failed for another reason: \(other?.first ?? "") \(run.stderr.suffix(600))")
            #expect(
                unknown == run.inFlight,
                "the requests in flight at the crash, and only they, are unknown: \(unknown.count) of \(run.inFlight.count)"
            )
            #expect(
                accepted == Set(results.keys).subtracting(run.inFlight),
                "the devices not yet sent at the crash went out after the restart")
            #expect(run.status == 69)
            expectNoDeviceReachedTheBackendTwice(nginx)
        }
    }
}
