import APNSCrypto
import APNSTestSupport
import Foundation
import Testing

/// The mock (its server, set up by `apnsctl mock`'s own flags) against clients this project did not write: Python's `h2` + `ssl` with a PyJWT token (as
/// PyAPNs2 signs it), and curl. These are the interop smoke checks `make test` runs.
@Suite struct MockInteropTests {
    static let device = String(repeating: "3f", count: 32)

    static func pythonClient(_ mock: InProcessMock, _ arguments: [String]) throws -> CommandResult {
        try InteropPython.run("h2_apns_client.py", ["--endpoint", mock.endpoint, "--ca-file", mock.caFile] + arguments)
    }

    static func results(_ r: CommandResult) throws -> [[String: Any]] {
        try r.lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    }

    @Test func pythonH2ClientWithFractionalIatIsAccepted() throws {
        let mock = try InProcessMock(keepingLog: true)
        let token = [
            "--auth-key", mock.ready["auth_key"] as? String ?? "", "--key-id", mock.ready["key_id"] as? String ?? "",
            "--team-id", mock.ready["team_id"] as? String ?? "", "--topic", "com.example.demo",
        ]
        // time.time(): fractional seconds, as PyAPNs2 sends.
        let r = try Self.pythonClient(mock, token + [Self.device, String(repeating: "4e", count: 32), "zz"])
        #expect(r.status == 0, "\(r.stderr)")
        let answers = try Self.results(r)
        #expect(answers.count == 3)
        #expect(answers.filter { $0["status"] as? Int == 200 }.count == 2)
        #expect(answers.first { $0["device"] as? String == "zz" }?["reason"] as? String == "BadDeviceToken")
        // A whole number written as a fraction, the exact value of the bug report.
        let now = Int(Date().timeIntervalSince1970)
        let exact = try Self.pythonClient(mock, token + ["--iat", "\(now).0", Self.device])
        #expect(try Self.results(exact).first?["status"] as? Int == 200, "\(exact.stdout) \(exact.stderr)")
        // An old fractional iat is still judged by its age.
        let old = try Self.pythonClient(mock, token + ["--iat", "\(now - 7200).5", Self.device])
        #expect(try Self.results(old).first?["reason"] as? String == "ExpiredProviderToken")
    }

    @Test func pythonH2ClientWithTheDemoCertificate() throws {
        let mock = try InProcessMock(["--unregistered", String(repeating: "aa", count: 32)], keepingLog: true)
        let devices = (0..<20).map { String(format: "%064x", $0 + 1) } + [String(repeating: "aa", count: 32)]
        let r = try Self.pythonClient(mock, ["--cert", mock.certFile, "--topic", "com.example.demo"] + devices)
        #expect(r.status == 0, "\(r.stderr)")
        let answers = try Self.results(r)
        #expect(answers.count == 21)
        #expect(answers.filter { $0["status"] as? Int == 200 }.count == 20)
        #expect(answers.first { $0["status"] as? Int == 410 }?["reason"] as? String == "Unregistered")
    }

    /// curl resets every stream once it has its answer, and nghttp2's "rapid reset" guard (1,000 resets, then 33 a
    /// second) ended its connection with GOAWAY INTERNAL_ERROR after about 1,000 pushes: the next failed, and one
    /// the GOAWAY said was not processed had been (a channel created twice when curl sent it again).
    @Test func curlSendsTwelveHundredPushesOnOneConnection() throws {
        let mock = try InProcessMock(keepingLog: true)
        let scratch = try TemporaryDirectory(prefix: "curl-many")
        let config = (1...1200).map {
            "url = \"\(mock.endpoint)/3/device/\(String(format: "%064x", $0))\"\noutput = \"/dev/null\"\n"
        }.joined()
        let r = try CommandRunner.run(
            "curl",
            [
                "-sS", "--http2", "--max-time", "60", "--cacert", mock.caFile, "--cert", mock.certFile,
                "-H", "apns-topic: com.example.demo", "-d", #"{"aps":{"alert":"hi"}}"#, "-w",
                "%{http_code} %{num_connects}\n",
                "-K", try scratch.write("many.cfg", config),
            ], timeout: 90)
        #expect(r.status == 0, "curl: \(r.stderr)")
        #expect(r.lines.count == 1200 && r.lines.allSatisfy { $0.hasPrefix("200 ") }, "\(Set(r.lines))")
        #expect(r.lines.filter { !$0.hasSuffix(" 0") }.count == 1, "one connection, reused: \(Set(r.lines))")
    }

    @Test func curlHeadGets405WithoutABody() throws {
        let mock = try InProcessMock(keepingLog: true)
        let r = try CommandRunner.run(
            "curl",
            [
                "-sS", "-I", "--http2", "--max-time", "10", "--cacert", mock.caFile,
                "--cert", mock.certFile, mock.endpoint + "/3/device/" + Self.device,
            ], timeout: 20)
        #expect(r.status == 0, "curl: \(r.stderr)")
        #expect(r.stdout.lowercased().hasPrefix("http/2 405"))
        #expect(r.stdout.lowercased().contains("apns-id: "))
        // The log is written by a thread of its own: wait for the answer's line rather than race it. Each
        // request logs two lines, "received" and then "answered" (which carries the reason).
        var answered: [Substring] = []
        Wait.until(interval: 0.02) {
            answered = mock.stdout.split(separator: "\n").filter { $0.contains(#""event":"answered""#) }
            return !answered.isEmpty
        }
        #expect(answered.count == 1)
        #expect(answered.first?.contains(#""reason":"MethodNotAllowed""#) == true, "\(mock.stdout)")
    }

    @Test func authKeyPubTakesTheKeyIDFromAnyAuthKeyFileName() throws {
        let keys = try TemporaryDirectory(prefix: "pub-key")
        let key = keys.file("AuthKey_PUBKY12345.p8")
        let pub = keys.file("AuthKey_PUBKY12345.pub.pem")
        try OpenSSLFixtures.makeP8Key(at: key, publicKeyPath: pub)
        let mock = try InProcessMock(["--auth-key-pub", pub, "--team-id", "TEAM000002"], keepingLog: true)
        let token = try InProcess.apnsctl(["jwt", "--auth-key", key, "--team-id", "TEAM000002"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let ok = try mock.curl(
            headers: ["apns-topic: com.example.demo", "authorization: bearer \(token)"], certificate: false)
        #expect(ok.status == 200)
    }

    /// A token signed with the mock's own key whose iat is the smallest 64-bit number killed the mock (its age
    /// overflowed, exit 132): it is refused as no date, and the mock goes on answering.
    @Test func aTokenDatedAtTheLimitIsRefusedAndTheMockServesOn() throws {
        let mock = try InProcessMock()
        let key = try SigningKeyFile.read(.file(mock.authKey)).decode()
        for iat in [Int64.min, Int64.max, Int64.max - 3599] {
            let token = try ProviderToken.make(key: key, keyID: mock.keyID, teamID: mock.teamID, issuedAt: iat)
            let refused = try mock.curl(
                headers: ["apns-topic: com.example.demo", "authorization: bearer \(token)"], certificate: false)
            #expect(refused.status == 403 && refused.body.contains("InvalidProviderToken"), "\(iat): \(refused.body)")
        }
        let good = try ProviderToken.make(
            key: key, keyID: mock.keyID, teamID: mock.teamID, issuedAt: Int64(Date().timeIntervalSince1970))
        let ok = try mock.curl(
            headers: ["apns-topic: com.example.demo", "authorization: bearer \(good)"], certificate: false)
        #expect(ok.status == 200, "\(ok.body)")
    }

    /// Each refusal names only flags the user gave or can give, and says both ways to give the key id.
    @Test func authKeyPubErrorsNameTheFlagsTheUserGave() throws {
        let keys = try TemporaryDirectory(prefix: "pub-key")
        let state = keys.file("state")
        let plain = try keys.write("extra.pub", "not read before the key id is known")
        let noID = try InProcess.apnsctl(["mock", "--state-dir", state, "--port", "0", "--auth-key-pub", plain])
        #expect(noID.status == 64)
        #expect(
            noID.stderr.hasPrefix(
                "error: --auth-key-pub \(plain): no key id; pass --key-id ID, or name the file AuthKey_KEYID"))
        #expect(noID.errorLines.count == 1)
        #expect(!FileManager.default.fileExists(atPath: state), "a usage error must not create the state dir")
        // A misspelt path is named first, as a missing file (66), not as a missing key id.
        let typo = try InProcess.apnsctl(
            ["mock", "--state-dir", state, "--port", "0", "--auth-key-pub", keys.file("extra.pbu")])
        #expect(typo.status == 66, "\(typo.stderr)")
        #expect(typo.stderr == "error: --auth-key-pub \(keys.file("extra.pbu")): no such file; check the path\n")
        #expect(!FileManager.default.fileExists(atPath: state))

        let shortName = try keys.write("AuthKey_SHORT.pub.pem", "x")
        let bad = try InProcess.apnsctl(["mock", "--state-dir", state, "--port", "0", "--auth-key-pub", shortName])
        #expect(bad.status == 64)
        #expect(bad.stderr.hasPrefix("error: --auth-key-pub \(shortName): the file name gives key id 'SHORT'"))
        #expect(!bad.stderr.contains("--key-id SHORT"))

        let badFlag = try InProcess.apnsctl([
            "mock", "--state-dir", state, "--port", "0", "--auth-key-pub", shortName,
            "--key-id", "abc",
        ])
        #expect(badFlag.status == 64)
        #expect(badFlag.stderr.hasPrefix("error: --key-id abc: a key id is 10 characters"))

        let teamOnly = try InProcess.apnsctl(["mock", "--state-dir", state, "--port", "0", "--team-id", "TEAM000002"])
        #expect(teamOnly.status == 64)
        let first = try #require(teamOnly.errorLines.first)
        #expect(first.hasPrefix("error: --team-id describes the key given with --auth-key-pub"))
        #expect(!first.contains("--key-id"))
    }
}
