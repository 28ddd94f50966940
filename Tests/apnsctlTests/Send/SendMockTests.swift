import APNSCore
import APNSTestSupport
import Foundation
import Testing

@testable import APNSCtlCommands

/// `apnsctl send` against `apnsctl mock`: both credentials, every reason the mock can be told to give.
@Suite struct SendMockTests {
    static func token(_ i: Int) -> String {
        let hex = String(i, radix: 16)
        return "ab" + String(repeating: "0", count: 62 - hex.count) + hex
    }

    private func certSend(_ mock: InProcessMock, _ extra: [String]) throws -> CommandResult {
        try InProcess.apnsctl(
            ["send", "--endpoint", mock.endpoint, "--ca-file", mock.caFile, "--cert", mock.certificate] + extra)
    }

    @Test func certificateAndTokenAuthAreAccepted() throws {
        let mock = try InProcessMock()
        let cert = try certSend(mock, ["-d", Self.token(1)])
        #expect(cert.status == 0, "\(cert.stderr)")
        #expect(cert.stdout.hasPrefix("accepted  200  ab00…0001  apns-id="))
        let cache = try TemporaryDirectory(prefix: "cache")
        let token = try InProcess.apnsctl(
            [
                "send", "--endpoint", mock.endpoint, "--ca-file", mock.caFile,
                "--auth-key", mock.authKey, "--team-id", mock.teamID, "--topic", mock.bundleID,
                "-d", Self.token(1), "-d", Self.token(2), "-o", "json",
            ],
            environment: ["XDG_CACHE_HOME": cache.path])
        #expect(token.status == 0, "\(token.stderr)")
        #expect(token.lines.count == 2)
        #expect(token.lines.allSatisfy { $0.contains("\"status\":200") && $0.contains("\"apns_unique_id\":\"") })
    }

    @Test func wrongTeamIsRejectedByTheMock() throws {
        let mock = try InProcessMock()
        let cache = try TemporaryDirectory(prefix: "cache")
        let r = try InProcess.apnsctl(
            [
                "send", "--endpoint", mock.endpoint, "--ca-file", mock.caFile,
                "--auth-key", mock.authKey, "--team-id", "ZZZZZ99999", "--topic", mock.bundleID,
                "-d", Self.token(1),
            ], environment: ["XDG_CACHE_HOME": cache.path])
        #expect(r.status == 1)
        #expect(r.stdout.contains("rejected  403  InvalidProviderToken"))
        #expect(r.stdout.contains("--team-id"))
    }

    @Test func everyReasonTheMockGivesIsExplained() throws {
        let reasons = APNSReason.allCases
        var args: [String] = []
        for (i, reason) in reasons.enumerated() { args += ["--reject", "\(Self.token(i + 10))=\(reason.rawValue)"] }
        args += ["--unregistered", Self.token(5)]
        let mock = try InProcessMock(args)
        var devices: [String] = []
        for i in reasons.indices { devices += ["-d", Self.token(i + 10)] }
        let r = try certSend(mock, devices + ["-d", Self.token(5), "-d", Self.token(6)])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.lines.count == reasons.count + 3)
        for reason in reasons {
            let line = r.lines.first { $0.contains("  \(reason.rawValue)  ") }
            #expect(line != nil, "no line for \(reason.rawValue)")
            if let line {
                #expect(line.hasPrefix("rejected  \(reason.status)  \(reason.rawValue)  "), "\(line)")
                #expect(line.contains(reason.hint), "\(line)")
            }
        }
        #expect(
            r.lines.contains {
                $0.hasPrefix("rejected  410  Unregistered  \(Self.token(5))") && $0.contains("(since 20")
                    && $0.contains("Z).")
            })
        #expect(r.lines.contains { $0.hasPrefix("accepted  200  ab00…0006") })
        #expect(
            r.lines.last?.hasPrefix("sent \(reasons.count + 2): 1 accepted, \(reasons.count + 1) rejected (") == true)
    }

    @Test func batchOf2000AgainstTheMock() throws {
        let mock = try InProcessMock()
        let scratch = try TemporaryDirectory(prefix: "batch")
        let file = try scratch.write("d.txt", (1...2000).map { Self.token($0) }.joined(separator: "\n"))
        let r = try certSend(mock, ["--devices", file, "-o", "json"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.lines.count == 2000)
        let devices = Set(
            r.lines.map { line -> String in
                let start = line.range(of: "\"device\":\"")!.upperBound
                return String(line[start...].prefix(64))
            })
        #expect(devices.count == 2000)
    }
}
