import APNSPlatform
import APNSTestSupport
import Foundation
import Testing

/// One mock per state dir (CLI.md): a second `apnsctl mock` on a dir in use exits 73 and leaves the first
/// one's mock.json alone; mocks started at the same instant on an empty dir end with one consistent set.
@Suite struct MockStateDirLockTests {
    /// `apnsctl mock --port 0 --state-dir DIR` as a child, with its stderr kept.
    final class Launch: @unchecked Sendable {
        let process = Process()
        let scratch: TemporaryDirectory

        init(stateDir: String) throws {
            scratch = try TemporaryDirectory(prefix: "mock-lock")
            process.executableURL = URL(fileURLWithPath: CommandRunner.apnsctlPath)
            BinaryStarts.record()
            process.arguments = ["mock", "--port", "0", "--state-dir", stateDir]
            _ = FileManager.default.createFile(atPath: scratch.file("stderr"), contents: nil)
            process.standardOutput = FileHandle.nullDevice
            process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: scratch.file("stderr")))
            try process.runAsAShellWould()
        }

        deinit { kill(SIGKILL) }

        var pid: Int { Int(process.processIdentifier) }
        var stderr: String { (try? scratch.read("stderr")) ?? "" }

        func kill(_ signal: Int32) {
            guard process.isRunning else { return }
            Foundation.kill(process.processIdentifier, signal)
            process.waitUntilExit()
        }

        /// Waits for the process to end; its status, or nil if it still runs after `seconds`.
        func exitStatus(within seconds: Double) -> Int32? {
            Wait.until(seconds: seconds, interval: 0.005) { !process.isRunning }
            if process.isRunning { return nil }
            return process.terminationStatus
        }
    }

    /// mock.json once it names one of `pids` (a killed mock's leftover names another), or nil after 20 s.
    static func readyFile(_ dir: String, of pids: [Int], while running: () -> Bool) -> [String: Any]? {
        var found: [String: Any]? = nil
        Wait.until(interval: 0.005) {
            if let data = FileManager.default.contents(atPath: dir + "/mock.json"),
                let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                let pid = json["pid"] as? Int, pids.contains(pid)
            {
                found = json
            }
            return found != nil || !running()
        }
        return found
    }

    /// A push with the dir's own files: the certificate (curl, an independent TLS stack) or the `.p8` (apnsctl send).
    static func sendSucceeds(_ ready: [String: Any], dir: String, token: Bool) throws -> Bool {
        let endpoint = ready["endpoint"] as? String ?? ""
        let device = String(repeating: "5e", count: 32)
        if token {
            let keys = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix("AuthKey_") }
            guard keys.count == 1, let demo = FileManager.default.contents(atPath: dir + "/demo.json"),
                let team = (try JSONSerialization.jsonObject(with: demo) as? [String: Any])?["team_id"] as? String
            else { return false }
            let r = try CommandRunner.apnsctl(
                [
                    "send", "--endpoint", endpoint, "--ca-file", dir + "/ca.pem",
                    "--auth-key", dir + "/" + keys[0], "--team-id", team, "--no-token-cache",
                    "--topic", "com.example.demo", "-d", device, "--alert", "hi",
                ], timeout: 20)
            return r.status == 0
        }
        let r = try CurlHTTP2.request(
            endpoint + "/3/device/" + device, headers: ["apns-topic: com.example.demo"],
            body: #"{"aps":{"alert":"hi"}}"#, caFile: dir + "/ca.pem", certificate: dir + "/client.pem")
        return r.status == 200
    }

    @Test func aSecondMockOnABusyStateDirExits73AndLeavesTheFirstAlone() async throws {
        try await offThePool {
            let base = try TemporaryDirectory(prefix: "lock-seq")
            let dir = base.file("state")
            for round in 0..<20 {
                let first = try Launch(stateDir: dir)
                let ready = try #require(
                    Self.readyFile(dir, of: [first.pid], while: { first.process.isRunning }),
                    "round \(round): \(first.stderr)")
                let second = try Launch(stateDir: dir)
                #expect(second.exitStatus(within: 10) == 73, "round \(round)")
                #expect(
                    second.stderr.hasPrefix("error: \(dir): state dir in use by apnsctl mock (pid \(first.pid))"),
                    "\(second.stderr)")
                #expect(second.stderr.contains(#"--state-dir "$(mktemp -d)""#))
                // mock.json still describes the live mock, and the dir's files still work against it.
                let now = try #require(Self.readyFile(dir, of: [first.pid], while: { true }))
                #expect(now["endpoint"] as? String == ready["endpoint"] as? String)
                #expect(try Self.sendSucceeds(now, dir: dir, token: round % 2 == 1), "round \(round)")
                // A graceful stop removes mock.json; a killed mock leaves its lock to the kernel and mock.json to the next.
                first.kill(round % 3 == 0 ? SIGKILL : SIGTERM)
            }
            let keys = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix("AuthKey_") }
            #expect(keys.count == 1)
        }
    }

    @Test func mocksStartedTogetherOnAnEmptyDirAgreeOnOneSet() async throws {
        try await offThePool {
            let base = try TemporaryDirectory(prefix: "lock-race")
            for round in 0..<20 {
                // Missing, existing and empty (what mktemp -d gives), and already populated.
                let dir = base.file("state\(round / 2)")
                if round % 4 == 0 {
                    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false)
                }
                let pair = [try Launch(stateDir: dir), try Launch(stateDir: dir)]
                let ready = try #require(
                    Self.readyFile(dir, of: pair.map(\.pid), while: { pair.contains { $0.process.isRunning } }),
                    "round \(round): \(pair.map(\.stderr))")
                let winner = try #require(pair.first { $0.pid == ready["pid"] as? Int })
                let loser = try #require(pair.first { $0 !== winner })
                #expect(loser.exitStatus(within: 10) == 73, "round \(round): \(loser.stderr)")
                #expect(winner.process.isRunning)
                #expect(loser.stderr.contains("pid \(winner.pid)"), "\(loser.stderr)")
                let names = try FileManager.default.contentsOfDirectory(atPath: dir)
                #expect(names.filter { $0.hasPrefix("AuthKey_") }.count == 1, "round \(round): \(names)")
                #expect(!names.contains { $0.contains(".new-") || $0.contains(".tmp-") }, "\(names)")
                let siblings = try FileManager.default.contentsOfDirectory(atPath: base.path).filter {
                    $0.contains(".new-")
                }
                #expect(siblings.isEmpty, "left behind: \(siblings)")
                #expect(try Self.sendSucceeds(ready, dir: dir, token: false), "round \(round)")
                #expect(try Self.sendSucceeds(ready, dir: dir, token: true), "round \(round)")
                winner.kill(SIGTERM)
            }
        }
    }
}
