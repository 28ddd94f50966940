import APNSTestSupport
import Foundation
import Testing
import APNSPlatform

/// CLI.md's delivery promise against a server this project did not write: nginx (HTTP/2, TLS, client
/// certificates) in front of a backend that logs each request the moment it arrives and answers late. The
/// backend's log is the truth about what was received, so a device logged twice was pushed twice.
@Suite(.serialized) struct SendNginxTests {
    let credentials: TestCredentials

    init() throws {
        credentials = try TestCredentials()
        _ = try credentials.directory.write("server.pem", try credentials.server.pem(), mode: 0o600)
    }

    func arguments(_ nginx: NginxProcess, devices: String, extra: [String] = []) -> [String] {
        ["send", "{\"aps\":{\"alert\":\"hi\"}}", "--endpoint", nginx.endpoint, "--ca-file", credentials.caFile,
         "--cert", credentials.pushFile, "--devices", devices, "-o", "json", "--timeout", "20"] + extra
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

    /// Sends `count` devices in the background, runs `fault` once the backend has received `after` of them,
    /// and returns the exit status, stdout and stderr.
    func sendWithFault(_ nginx: NginxProcess, count: Int, after: Int, extra: [String] = [],
                       _ fault: () throws -> Void) throws -> (status: Int32, stdout: String, stderr: String) {
        let scratch = try TemporaryDirectory(prefix: "nginx-devices")
        let file = try SendDeliveryTests.deviceFile(count, in: scratch)
        let send = try SendInterruptTests.Background(arguments(nginx, devices: file, extra: extra))
        let reached = send.wait(seconds: 20) { nginx.arrivals.count >= after }
        #expect(reached, "the backend received \(nginx.arrivals.count) of \(after): \(send.stderr.suffix(400))")
        try fault()
        let (status, _) = send.finish(within: 60)
        return (status, send.stdout, send.stderr)
    }

    func expectNoDeviceReachedTheBackendTwice(_ nginx: NginxProcess, sourceLocation: SourceLocation = #_sourceLocation) {
        let twice = nginx.arrivalsPerDevice.filter { $0.value > 1 }
        #expect(twice.isEmpty, "pushed twice: \(twice.count) devices, e.g. \(twice.first.map { "\($0.key) ×\($0.value)" } ?? "")",
                sourceLocation: sourceLocation)
    }

    @Test func aWorkerKilledMidBatchLeavesUnknownsAndPushesNothingTwice() throws {
        let nginx = try NginxProcess(certificateDirectory: credentials.directory.path, delay: 1.0)
        let run = try sendWithFault(nginx, count: 200, after: 100) { nginx.killWorker() }
        #expect(run.status == 69, "\(run.stderr.suffix(600))")
        let results = Self.results(run.stdout)
        #expect(results.count == 200 && results.values.allSatisfy { $0.count == 1 }, "one result per device")
        let unknown = results.values.filter { $0[0].contains("\"delivery\":\"unknown\"") }
        let accepted = results.values.filter { $0[0].contains("\"status\":200") }
        #expect(unknown.count >= 100, "the requests in flight when the worker died: \(unknown.count)")
        #expect(unknown.count + accepted.count == 200, "\(run.stdout.suffix(600))")
        #expect(unknown.allSatisfy { $0[0].contains("\"status\":null") && $0[0].contains("\"error\":\"unknown: the connection ended after the request was sent; APNs may have delivered it") })
        #expect(run.stderr.contains("may have been delivered") && run.stderr.contains("--resend-unknown"), "\(run.stderr.suffix(600))")
        expectNoDeviceReachedTheBackendTwice(nginx)
        #expect(nginx.arrivalsPerDevice.count == 200, "every device reached the backend once")
    }

    @Test func resendUnknownDeliversEveryDeviceAtLeastOnce() throws {
        let nginx = try NginxProcess(certificateDirectory: credentials.directory.path, delay: 1.0)
        let run = try sendWithFault(nginx, count: 200, after: 100, extra: ["--resend-unknown"]) { nginx.killWorker() }
        #expect(run.status == 0, "\(run.stderr.suffix(600))")
        let results = Self.results(run.stdout)
        #expect(results.count == 200 && results.values.allSatisfy { $0.count == 1 && $0[0].contains("\"status\":200") })
        #expect(nginx.arrivalsPerDevice.count == 200)
    }

    @Test func nginxsGoAwayEveryFiftyRequestsGivesExactlyOnce() throws {
        let nginx = try NginxProcess(certificateDirectory: credentials.directory.path, delay: 0.02, requestsPerConnection: 50)
        let scratch = try TemporaryDirectory(prefix: "nginx-devices")
        let r = try CommandRunner.apnsctl(arguments(nginx, devices: try SendDeliveryTests.deviceFile(500, in: scratch)), timeout: 120)
        #expect(r.status == 0, "\(r.stderr.suffix(600))")
        let results = Self.results(r.stdout)
        #expect(results.count == 500 && results.values.allSatisfy { $0.count == 1 && $0[0].contains("\"status\":200") })
        expectNoDeviceReachedTheBackendTwice(nginx)
        #expect(nginx.arrivalsPerDevice.count == 500)
    }

    /// An answer that is not from APNs (nginx's own HTML page for a backend that is down): no reason is
    /// made up from it; JSON has `"reason":null` and the page's start in `body`, text shows it escaped.
    @Test func anHTMLErrorPageIsABodyNotAReason() throws {
        let nginx = try NginxProcess(certificateDirectory: credentials.directory.path, delay: 0)
        nginx.stopBackend()
        let device = "cd00000000000000000000000000000000000000000000000000000000000001"
        let base = ["send", "{\"aps\":{\"alert\":\"hi\"}}", "--endpoint", nginx.endpoint, "--ca-file", credentials.caFile,
                    "--cert", credentials.pushFile, "-d", device]
        let json = try CommandRunner.apnsctl(base + ["-o", "json"])
        #expect(json.status == 1, "\(json.stderr)")
        let line = json.lines.first ?? ""
        #expect(line.contains("\"status\":502") && line.contains("\"reason\":null"), "\(line)")
        #expect(line.contains("\"body\":\"<html>") && line.contains("502 Bad Gateway"), "\(line)")
        let text = try CommandRunner.apnsctl(base)
        #expect(text.status == 1)
        #expect(text.stdout.contains("rejected  502  -  \(device)  The server answered without an APNs reason: <html>"), "\(text.stdout)")
        #expect(!text.stdout.contains("\n<"), "the page is one escaped line")
    }

    /// A crash, then the server back 0.7 s later, and a fast stop followed at once by a new server on the
    /// same port: the backoff bridges both; only the requests in flight at the crash are unknown.
    @Test(arguments: ["crash and restart 0.7 s later", "stop and start at once"])
    func aRestartIsBridgedByTheBackoff(_ how: String) throws {
        let nginx = try NginxProcess(certificateDirectory: credentials.directory.path, delay: 1.0)
        let run = try sendWithFault(nginx, count: 200, after: 100) {
            if how.hasPrefix("crash") {
                nginx.crash()
                usleep(700_000)
            } else {
                nginx.stop()
            }
            try nginx.start()
        }
        let results = Self.results(run.stdout)
        #expect(results.count == 200 && results.values.allSatisfy { $0.count == 1 })
        let accepted = results.values.filter { $0[0].contains("\"status\":200") }.count
        let unknown = results.values.filter { $0[0].contains("\"delivery\":\"unknown\"") }.count
        let other = results.values.first { !$0[0].contains("\"status\":200") && !$0[0].contains("\"delivery\":\"unknown\"") }
        #expect(accepted + unknown == 200, "nothing failed for another reason: \(other?.first ?? "") \(run.stderr.suffix(600))")
        #expect(accepted >= 72, "the devices not yet sent at the crash went out after the restart: \(accepted)")
        #expect(run.status == (unknown > 0 ? 69 : 0))
        expectNoDeviceReachedTheBackendTwice(nginx)
    }
}
