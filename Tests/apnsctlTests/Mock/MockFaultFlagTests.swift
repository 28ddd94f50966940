import APNSTestSupport
import Foundation
import Testing

/// The flags behind the mock's connection behaviour reach the server: `--error-close-after` (CLI.md) and the
/// hidden `--fault-reset-after`, `--fault-eof-after`, `--fault-connections`, `--max-streams`.
@Suite struct MockFaultFlagTests {
    static let token = "/3/device/" + String(repeating: "ab", count: 32)

    static func probe(_ mock: InProcessMock, _ paths: [String], sequential: Bool = false, timeout: Double = 10) throws
        -> InteropPython.Probe
    {
        let port = Int(mock.endpoint.split(separator: ":").last ?? "") ?? 0
        return try InteropPython.probe(
            port: port, caFile: mock.caFile, certificate: mock.certFile, paths: paths,
            sequential: sequential, timeoutSeconds: timeout)
    }

    @Test func resetAndEndOfFileFaultFlags() throws {
        let reset = try InProcessMock(["--fault-reset-after", "1", "--fault-connections", "1"], keepingLog: true)
        let r = try Self.probe(reset, Array(repeating: Self.token, count: 3))
        #expect(r.answers.count == 1)
        #expect(r.end == "reset", "\(r.raw)")
        #expect(try reset.curl().status == 200)
        let eof = try InProcessMock(["--fault-eof-after", "2"], keepingLog: true)
        let e = try Self.probe(eof, Array(repeating: Self.token, count: 3))
        #expect(e.answers.count == 2)
        #expect(e.end == "eof", "\(e.raw)")
    }

    @Test func errorCloseAfterFlag() throws {
        let mock = try InProcessMock(["--error-close-after", "2"], keepingLog: true)
        let p = try Self.probe(mock, ["/3/devices/x", Self.token, "/3/devices/x", Self.token], sequential: true)
        #expect(p.answers.map(\.status) == [404, 200, 404], "\(p.raw)")
        #expect(p.goAway?.data == #"{"reason":"BadPath"}"#)
        let zero = try InProcess.apnsctl([
            "mock", "--state-dir", mock.directory.file("other"), "--error-close-after", "0",
        ])
        #expect(zero.status == 64)
        #expect(zero.stderr.hasPrefix("error: --error-close-after 0: use 1 or more"))
    }

    @Test func maxStreamsFlag() throws {
        let mock = try InProcessMock(["--max-streams", "7"], keepingLog: true)
        let scratch = try TemporaryDirectory(prefix: "nghttp")
        let body = try scratch.write("p.json", #"{"aps":{"alert":"hi"}}"#)
        let r = try CommandRunner.run(
            "nghttp",
            [
                "-v", "-n", "-d", body, "--cert", mock.certFile, "--key", mock.certFile,
                "-H", "apns-topic: com.example.demo", mock.endpoint + Self.token,
            ], timeout: 20)
        #expect(r.stdout.contains("SETTINGS_MAX_CONCURRENT_STREAMS(0x03):7]"))
        #expect(r.stdout.contains(":status: 200"))
    }
}
