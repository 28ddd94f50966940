import APNSCrypto
import APNSPlatform
import APNSTestSupport
import Foundation
import Testing

/// `apnsctl mock` end to end with curl as the client, the command run in the test process (its ready lines,
/// mock.json, the state dir, its log, a stop through its world's interrupts), and the built binary for what only
/// the process shows (its own signals).
@Suite struct MockCommandTests {
    @Test func servesRealHTTP2AndTLSToCurlWithTheDemoCertificate() throws {
        let mock = try RunningMock()
        let (status, body, headers) = try mock.curl()
        #expect(status == 200)
        #expect(body.isEmpty)
        #expect(headers.hasPrefix("http/2 200"))
        #expect(headers.contains("apns-id: "))
        #expect(headers.contains("apns-unique-id: "))
        #expect(mock.stderr.contains("ready on \(mock.endpoint)"))
        #expect(
            mock.stderr.contains(
                "apnsctl send --endpoint \(mock.endpoint) --ca-file \(mock.caFile) --cert \(mock.certFile)"))
    }

    @Test func mockJSONHasTheContractFields() throws {
        let mock = try RunningMock()
        #expect(mock.ready["bundle_id"] as? String == "com.example.demo")
        #expect((mock.ready["endpoint"] as? String)?.hasPrefix("https://127.0.0.1:") == true)
        #expect(mock.ready["pid"] as? Int == Int(mock.pid))
        for key in ["ca_file", "cert", "auth_key"] {
            #expect(FileManager.default.fileExists(atPath: mock.ready[key] as? String ?? "/nonexistent"))
        }
        let keyID = try #require(mock.ready["key_id"] as? String)
        #expect((mock.ready["auth_key"] as? String)?.hasSuffix("/AuthKey_\(keyID).p8") == true)
        #expect((mock.ready["team_id"] as? String)?.count == 10)
    }

    @Test func mockJSONPathsAreAbsoluteForARelativeStateDir() throws {
        let mock = try RunningMock(stateDir: "state", relative: true)
        for key in ["ca_file", "cert", "auth_key"] {
            let path = try #require(mock.ready[key] as? String)
            #expect(path.hasPrefix("/"), "\(key) is \(path)")
            #expect(FileManager.default.fileExists(atPath: path))
        }
        // The printed command works from anywhere too. It may follow mock.json by a moment: waited for.
        #expect(Wait.until { mock.stderr.contains("--ca-file \(mock.caFile) ") }, "\(mock.stderr)")
    }

    @Test func acceptsATokenFromApnsctlJWT() throws {
        let mock = try InProcessMock(keepingLog: true)
        let token = try mock.token()
        let ok = try mock.curl(
            headers: ["apns-topic: com.example.demo", "authorization: bearer \(token)"], certificate: false)
        #expect(ok.status == 200)
        let wrongTeam = try InProcess.apnsctl([
            "jwt", "--auth-key", mock.ready["auth_key"] as? String ?? "", "--team-id", "ZZZZZZZZZZ",
        ])
        let bad = try mock.curl(
            headers: [
                "apns-topic: com.example.demo",
                "authorization: bearer \(wrongTeam.stdout.trimmingCharacters(in: .whitespacesAndNewlines))",
            ],
            certificate: false)
        #expect(bad.status == 403)
        #expect(bad.body == #"{"reason":"InvalidProviderToken"}"#)
    }

    @Test func rejectsWhatAPNsRejects() throws {
        let mock = try InProcessMock(keepingLog: true)
        #expect(try mock.curl(method: "GET", body: nil).body == #"{"reason":"MethodNotAllowed"}"#)
        #expect(try mock.curl(path: "/3/devices/abcd").status == 404)
        #expect(try mock.curl(path: "/3/device/").body == #"{"reason":"MissingDeviceToken"}"#)
        #expect(try mock.curl(headers: ["apns-topic: com.other.app"]).body == #"{"reason":"TopicDisallowed"}"#)
        #expect(try mock.curl(path: "/3/device/xyz").body == #"{"reason":"BadDeviceToken"}"#)
        let big = #"{"aps":{"alert":""# + String(repeating: "x", count: 4100) + #""}}"#
        let tooLarge = try mock.curl(body: big)
        #expect(tooLarge.status == 413)
        #expect(tooLarge.body == #"{"reason":"PayloadTooLarge"}"#)
        let voip = try mock.curl(headers: ["apns-topic: com.example.demo.voip", "apns-push-type: voip"], body: big)
        #expect(voip.status == 200)
        #expect(try mock.curl(body: "not json").body == #"{"reason":"BadRequestPayload"}"#)
    }

    @Test func acceptsTokensFromAnExtraPublicKey() throws {
        let keys = try TemporaryDirectory(prefix: "extra-key")
        let key = keys.file("AuthKey_EXTRA12345.p8")
        try OpenSSLFixtures.makeP8Key(at: key, publicKeyPath: keys.file("extra.pub"))
        let mock = try InProcessMock(
            ["--auth-key-pub", keys.file("extra.pub"), "--key-id", "EXTRA12345", "--team-id", "TEAM000001"],
            keepingLog: true)
        let token = try InProcess.apnsctl(["jwt", "--auth-key", key, "--team-id", "TEAM000001"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let extra = try mock.curl(
            headers: ["apns-topic: com.example.demo", "authorization: bearer \(token)"], certificate: false)
        #expect(extra.status == 200)
        // The state dir's own key still works beside it.
        let own = try mock.curl(
            headers: ["apns-topic: com.example.demo", "authorization: bearer \(try mock.token())"], certificate: false)
        #expect(own.status == 200)
        let noKeyID = try InProcess.apnsctl([
            "mock", "--state-dir", mock.stateDir, "--port", "0", "--auth-key-pub", keys.file("extra.pub"),
        ])
        #expect(noKeyID.status == 64)
        #expect(noKeyID.stderr.contains("--key-id"))
        // A push certificate's RSA key verifies no ES256 token: refused, naming the file, with no advice about
        // flags the mock does not have.
        let rsa = try CredentialGenerator.makePushCertificate(
            ca: CredentialFixtures.ca, bundleID: "com.example.demo", kind: .development, key: .rsa(bits: 2048))
        let pem = try keys.write("push.pem", rsa.certificate.pem)
        let wrong = try InProcess.apnsctl([
            "mock", "--state-dir", keys.file("state"), "--port", "0", "--auth-key-pub", pem, "--key-id", "EXTRA12345",
            "--team-id", "TEAM000001",
        ])
        #expect(wrong.status != 0)
        #expect(
            wrong.stderr.contains(
                "error: --auth-key-pub \(pem): an RSA 2048 key, from a certificate, where APNs signing keys are EC P-256"
            ),
            "\(wrong.stderr)")
        #expect(!wrong.stderr.contains("--cert") && !wrong.stderr.contains("--auth-key "), "\(wrong.stderr)")
    }

    @Test func unregisteredAndRejectFlags() throws {
        let gone = String(repeating: "aa", count: 32)
        let refused = String(repeating: "bb", count: 32)
        let mock = try InProcessMock(
            ["--unregistered", gone, "--reject", "\(refused.uppercased())=DeviceTokenNotForTopic"], keepingLog: true)
        let a = try mock.curl(path: "/3/device/" + gone)
        #expect(a.status == 410)
        #expect(a.body.hasPrefix(#"{"reason":"Unregistered","timestamp":"#))
        let b = try mock.curl(path: "/3/device/" + refused)
        #expect(b.status == 400)
        #expect(b.body == #"{"reason":"DeviceTokenNotForTopic"}"#)
    }

    @Test func logsAJSONLineWhenEachNotificationArrivesAndWhenItIsAnsweredAndStopsOnSIGTERM() throws {
        let mock = try RunningMock()
        _ = try mock.curl()
        _ = try mock.curl(path: "/3/device/zz")
        #expect(mock.terminate() == 0, "\(mock.stderr)")
        let lines = try mock.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(lines.map { $0["event"] as? String } == ["received", "answered", "received", "answered"])
        #expect(
            lines.first?["device"] as? String != nil && lines.first?["status"] == nil,
            "a receipt is logged before the request is judged")
        let answered = lines.filter { $0["event"] as? String == "answered" }
        #expect(answered.count == 2)
        let first = try #require(answered.first)
        #expect(first["status"] as? Int == 200)
        #expect(first["topic"] as? String == "com.example.demo")
        let second = try #require(answered.last)
        #expect(second["reason"] as? String == "BadDeviceToken")
        #expect(!FileManager.default.fileExists(atPath: mock.stateDir + "/mock.json"))
    }

    /// The process's own SIGINT (SIGTERM's is `MockStopTests`').
    @Test func sigintAlsoStopsCleanly() throws {
        let mock = try RunningMock(asProcess: true)
        #expect(mock.terminate(signal: SIGINT) == 0, "\(mock.stderr)")
    }

    @Test func stateDirIsReusedWithPrivateModes() throws {
        let first = try RunningMock()
        let dir = first.stateDir
        let ca = try String(contentsOfFile: dir + "/ca.pem", encoding: .utf8)
        let keyID = first.ready["key_id"] as? String
        _ = first.terminate()
        for name in ["server-key.pem", "client.pem", "AuthKey_\(keyID ?? "").p8"] {
            let mode = try FileManager.default.attributesOfItem(atPath: dir + "/" + name)[.posixPermissions] as? Int
            #expect(mode == 0o600, "\(name)")
        }
        let dirMode = try FileManager.default.attributesOfItem(atPath: dir)[.posixPermissions] as? Int
        #expect(dirMode == 0o700)
        let second = try RunningMock(stateDir: dir)
        #expect(try String(contentsOfFile: dir + "/ca.pem", encoding: .utf8) == ca)
        #expect(second.ready["key_id"] as? String == keyID)
        #expect(second.stderr.contains("reusing credentials"))
        #expect(try second.curl().status == 200)
    }

    @Test func badFlagsAreUsageErrors() throws {
        let dir = try TemporaryDirectory(prefix: "mock-flags")
        let badReason = try InProcess.apnsctl([
            "mock", "--state-dir", dir.path, "--port", "0", "--reject", "abcd=NoSuchReason",
        ])
        #expect(badReason.status == 64)
        #expect(badReason.stderr.hasPrefix("error: --reject abcd=NoSuchReason: unknown reason"))
        #expect(badReason.stderr.contains("BadDeviceToken"))
        let badToken = try InProcess.apnsctl(["mock", "--state-dir", dir.path, "--port", "0", "--unregistered", "xyz"])
        #expect(badToken.status == 64)
        let badEnv = try InProcess.apnsctl(["mock", "--state-dir", dir.path, "--env", "staging"])
        #expect(badEnv.status == 64)
        #expect(badEnv.stderr.hasPrefix("error: "))
        // A mistyped environment gets its "did you mean", as send's --env does.
        for flag in ["--env", "--key-environment"] {
            let typo = try InProcess.apnsctl(["mock", "--state-dir", dir.path, flag, "prodution"])
            #expect(typo.status == 64)
            #expect(
                typo.errorLines.first
                    == "error: \(flag) prodution: use sandbox or production; did you mean \"production\"?",
                "\(typo.stderr)")
        }
    }

    /// A killed mock's mock.json (it names a port nobody listens on) is removed by `mock stop`, which finds no
    /// mock holding the state dir, and says so.
    @Test func stopRemovesAKilledMocksReadyFile() throws {
        let dir = try TemporaryDirectory(prefix: "stop-leftover")
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: dir.path)
        let ready = try dir.write("mock.json", #"{"endpoint":"https://127.0.0.1:9","pid":999999}"#)
        let r = try InProcess.apnsctl(["mock", "stop", "--state-dir", dir.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.stderr
                == "apnsctl mock: no mock is running with state dir \(dir.path) (removed the mock.json a killed mock left there)\n"
        )
        #expect(!FileManager.default.fileExists(atPath: ready))
        let again = try InProcess.apnsctl(["mock", "stop", "--state-dir", dir.path])
        #expect(again.stderr == "apnsctl mock: no mock is running with state dir \(dir.path)\n", "\(again.stderr)")
    }

    /// A python process holding `dir`'s mock.lock as a mock does, with `written` (its own pid by default) in it;
    /// returned once it holds the lock (its line read: the event, not a wait).
    static func lockHolder(in dir: TemporaryDirectory, writing written: Int32? = nil) throws -> Process {
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: try TestPython.plain())
        holder.arguments = [
            "-c",
            // SIGTERM's default action, as a mock's: the test process's mask and dispositions are inherited.
            "import fcntl, os, signal, sys, time\nsignal.signal(signal.SIGTERM, signal.SIG_DFL)\n"
                + "signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM])\nf = open(sys.argv[1], 'w')\n"
                + "fcntl.flock(f, fcntl.LOCK_EX)\nf.write((sys.argv[2] or str(os.getpid())) + '\\n'); f.flush()\n"
                + "print('locked', flush=True)\ntime.sleep(120)\n",
            dir.file("mock.lock"), written.map { String($0) } ?? "",
        ]
        let out = Pipe()
        holder.standardOutput = out
        try holder.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { throw TestSupportError("the lock holder exited before locking") }
            line.append(chunk)
        }
        return holder
    }

    /// A mock stopped with Ctrl-Z in its terminal handles SIGTERM only once continued: `mock stop` continues it
    /// (it used to wait forever).
    @Test func stopEndsAMockThatWasStopped() throws {
        let dir = try TemporaryDirectory(prefix: "stop-stopped")
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: dir.path)
        let holder = try Self.lockHolder(in: dir)
        defer { if holder.isRunning { kill(holder.processIdentifier, SIGKILL) } }
        kill(holder.processIdentifier, SIGSTOP)
        let r = try InProcess.apnsctl(["mock", "stop", "--state-dir", dir.path], timeout: 60)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("apnsctl mock: stopped the mock of \(dir.path) (pid \(holder.processIdentifier))"))
        holder.waitUntilExit()
        #expect(holder.terminationReason == .uncaughtSignal && holder.terminationStatus == SIGTERM)
    }

    /// A mock.lock naming a pid that does not hold it (a mock in a container wrote its own namespace's pid): that
    /// process is not signalled, and the command says why at once instead of waiting.
    @Test func stopSignalsNoProcessThatDoesNotHoldTheLock() throws {
        let dir = try TemporaryDirectory(prefix: "stop-decoy")
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: dir.path)
        let decoy = Process()
        decoy.executableURL = URL(fileURLWithPath: "/bin/sleep")
        decoy.arguments = ["120"]
        try decoy.run()
        defer { kill(decoy.processIdentifier, SIGKILL) }
        let holder = try Self.lockHolder(in: dir, writing: decoy.processIdentifier)
        defer { kill(holder.processIdentifier, SIGKILL) }
        let r = try InProcess.apnsctl(["mock", "stop", "--state-dir", dir.path], timeout: 60)
        #expect(r.status == 73, "\(r.stderr)")
        #expect(
            r.stderr.contains("names pid \(decoy.processIdentifier), which does not hold it here"), "\(r.stderr)")
        #expect(decoy.isRunning && holder.isRunning)
    }

    /// `-p mock` after the mock stopped, its mock.json naming a port where nothing answers: a warning says so and
    /// how to start it, where the failure alone asks about --endpoint and --env, neither of them given. A refused
    /// connection to an endpoint given by flag gets no such warning.
    @Test func aSendToAStoppedMockSaysToStartItAgain() throws {
        let mock = try RunningMock()
        let dir = try TemporaryDirectory(prefix: "stopped-mock")
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: dir.path)
        let written = try String(contentsOfFile: mock.stateDir + "/mock.json", encoding: .utf8)
        let stale = written.replacingOccurrences(of: mock.endpoint, with: "https://127.0.0.1:9")
        try #require(stale != written)
        let ready = try dir.write("mock.json", stale, mode: 0o600)
        let token = String(repeating: "ab", count: 32)
        let environment = ["APNSCTL_MOCK_STATE_DIR": dir.path, "XDG_STATE_HOME": dir.file("xdg")]
        let r = try InProcess.apnsctl(
            ["send", "-p", "mock", "--alert", "x", "-d", token, "--no-history"], environment: environment)
        #expect(r.status == 69, "\(r.stderr)")
        #expect(
            r.stderr.contains(
                "warning: -p mock: nothing answers at the endpoint \(ready) names, so the mock that wrote it is no "
                    + "longer running; start it again (apnsctl mock --detach) and try once more\n"), "\(r.stderr)")
        // channel, whose failure alone said "connection refused" too, in text and with -o json.
        for output in ["text", "json"] {
            let channel = try InProcess.apnsctl(
                ["channel", "list", "-p", "mock", "-o", output], environment: environment)
            #expect(channel.status == 69, "\(channel.stderr)")
            #expect(
                channel.stderr.contains("warning: -p mock: nothing answers at the endpoint \(ready) names"),
                "\(output): \(channel.stderr)")
        }
        // doctor's connect line, which asked about an --endpoint never given.
        let doctor = try InProcess.apnsctl(["doctor", "-p", "mock"], environment: environment)
        #expect(doctor.status == 69, "\(doctor.stdout)\(doctor.stderr)")
        let connect = doctor.lines.first { $0.hasPrefix("fail  connect ") } ?? ""
        #expect(connect.contains("-p mock: nothing answers at the endpoint \(ready) names"), "\(doctor.stdout)")
        #expect(!connect.contains("--endpoint"), "\(doctor.stdout)")
        let flag = try InProcess.apnsctl(
            ["send", "-p", "mock", "--endpoint", "https://127.0.0.1:9", "--alert", "x", "-d", token, "--no-history"],
            environment: environment)
        #expect(flag.status == 69, "\(flag.stderr)")
        #expect(!flag.stderr.contains("warning: -p mock"), "\(flag.stderr)")
    }

    @Test func aPortInUseIsATransportError() throws {
        let first = try RunningMock()
        let port = try #require(first.endpoint.split(separator: ":").last)
        let r = try InProcess.apnsctl(
            ["mock", "--state-dir", first.directory.file("other-state"), "--port", String(port)], timeout: 20)
        #expect(r.status == 69)
        #expect(r.stderr.contains("in use"))
    }

    /// A state dir that cannot be made or is a file: one `error:` line naming --state-dir and what to do, exit 73.
    @Test func anUnusableStateDirNamesTheFlag() throws {
        let dir = try TemporaryDirectory(prefix: "mock-state-dir")
        let file = try dir.write("plain", "x")
        for (path, fact) in [("/proc/nope", "/proc/nope: cannot create: "), (file, "\(file): it is a file")] {
            let r = try InProcess.apnsctl(["mock", "--state-dir", path, "--port", "0"], timeout: 20)
            #expect(r.status == 73, "\(r.stderr)")
            #expect(r.errorLines.count == 1, "\(r.stderr)")
            let line = r.errorLines.first ?? ""
            #expect(line.hasPrefix("error: --state-dir \(fact)"), "\(line)")
            #expect(
                line.hasSuffix(
                    path == file
                        ? "choose another --state-dir"
                        : #"give --state-dir a directory you can create and write to, e.g. --state-dir "$(mktemp -d)""#),
                "\(line)")
        }
    }
}
