import APNSTestSupport
import Foundation
import Testing

/// `send` and `channel` on the settings resolver, end to end: the built binary against `apnsctl mock`, with
/// HOME, the XDG directories and TMPDIR fresh. What the mock logs is what was sent, so precedence is read from
/// its log, not from apnsctl's own output.
@Suite struct SettingsSendTests {
    /// A fresh home, a running mock that logs, and the settings file (checked by Python's tomllib).
    final class Setup: @unchecked Sendable {
        let home: ConfigCommandTests.Home
        let mock: InProcessMock
        static let token = "3f2a000000000000000000000000000000000000000000000000000000009c1d"

        init() throws {
            home = try ConfigCommandTests.Home()
            mock = try InProcessMock(keepingLog: true)
        }

        /// The mock's `mock.json` fields.
        var mockInfo: [String: String] {
            guard let data = FileManager.default.contents(atPath: mock.stateDirectory.file("mock.json")),
                let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
            else { return [:] }
            return object.compactMapValues { $0 as? String }
        }

        /// A profile `dev` (the default) on the mock with token auth, and device names.
        func writeDevProfile(extra: String = "", defaultProfile: Bool = true) throws {
            try home.write(
                """
                \(defaultProfile ? "default-profile = \"dev\"\n" : "")
                [profiles.dev]
                auth-key = "\(mock.authKey)"
                team-id = "\(mock.teamID)"
                topic = "\(mock.bundleID)"
                endpoint = "\(mock.endpoint)"
                ca-file = "\(mock.caFile)"
                priority = 5
                \(extra)

                [profiles.cert]
                cert = "\(mock.certificate)"
                endpoint = "\(mock.endpoint)"
                ca-file = "\(mock.caFile)"

                [devices]
                my-iphone = "\(Self.token)"

                """)
        }

        func send(_ arguments: [String], _ variables: [String: String] = [:], directory: String? = nil) throws
            -> CommandResult
        {
            try home.run(["send"] + arguments, variables, directory: directory)
        }

        /// The mock's log lines for answered requests, in order.
        func answered() -> [[String: Any]] {
            let text = (try? String(contentsOfFile: mock.logFile, encoding: .utf8)) ?? ""
            return text.split(separator: "\n").compactMap { line in
                guard line.contains("\"event\":\"answered\"") else { return nil }
                return try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            }
        }

        /// Waits for the mock to log `count` answers and returns the last.
        func lastAnswer(count: Int) -> [String: Any]? {
            Wait.until(interval: 0.02) { answered().count >= count }
            return answered().last
        }
    }

    @Test func precedenceIsFlagThenVariableThenProfileThenDefault() throws {
        let s = try Setup()
        try s.writeDevProfile()
        // Profile (priority 5 from dev), variable over profile, flag over variable; an empty variable falls through.
        let cases: [([String], [String: String], Int)] = [
            ([], [:], 5),
            ([], ["APNSCTL_PRIORITY": "1"], 1),
            (["--priority", "10"], ["APNSCTL_PRIORITY": "1"], 10),
            ([], ["APNSCTL_PRIORITY": ""], 5),
        ]
        for (i, (flags, variables, priority)) in cases.enumerated() {
            let r = try s.send(["-d", "my-iphone", "--alert", "hi"] + flags, variables)
            #expect(r.status == 0, "\(flags) \(variables): \(r.stderr)")
            let logged = s.lastAnswer(count: i + 1)
            #expect(logged?["priority"] as? Int == priority, "\(flags) \(variables): \(String(describing: logged))")
            #expect(logged?["auth"] as? String == "token")
        }
        // No profile at all: the default priority.
        let none = try s.send(["-d", Setup.token, "--alert", "hi", "-p", "cert"])
        #expect(none.status == 0, "\(none.stderr)")
        #expect(s.lastAnswer(count: 5)?["priority"] as? Int == 10)
    }

    @Test func profileChosenByFlagVariableOrDefault() throws {
        let s = try Setup()
        try s.writeDevProfile(defaultProfile: false)
        // No default profile and no choice: no credential (64).
        let nothing = try s.send(["-d", "my-iphone", "--alert", "hi"])
        #expect(nothing.status == 64, "\(nothing.stderr)")
        #expect(nothing.stderr.hasPrefix("error: no credential;"))
        var n = 0
        for (args, variables) in [
            (["-p", "dev"], [:]), (["--profile", "dev"], [:]), ([], ["APNSCTL_PROFILE": "dev"]),
            (["-p", "dev", "--team-id", s.mock.teamID], [:]),
        ] as [([String], [String: String])] {
            let r = try s.send(["-d", "my-iphone", "--alert", "hi"] + args, variables)
            #expect(r.status == 0, "\(args) \(variables): \(r.stderr)")
            n += 1
            #expect(s.lastAnswer(count: n)?["auth"] as? String == "token")
        }
        let unknown = try s.send(["-d", "my-iphone", "--alert", "hi", "-p", "deev"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr == "error: --profile deev: unknown profile; did you mean \"dev\"?\n")
        #expect(s.answered().count == n, "nothing sent for a refused profile")
    }

    @Test func credentialsAreOneUnit() throws {
        let s = try Setup()
        try s.writeDevProfile()
        // The profile's auth-key, replaced by --cert on the command line: certificate auth, no clash.
        let cert = try s.send(["-d", "my-iphone", "--alert", "hi", "--cert", s.mock.certificate])
        #expect(cert.status == 0, "\(cert.stderr)")
        #expect(s.lastAnswer(count: 1)?["auth"] as? String == "certificate")
        // The cert profile plus --auth-key: a bearer token.
        let token = try s.send([
            "-p", "cert", "-d", "my-iphone", "--alert", "hi", "--auth-key", s.mock.authKey,
            "--team-id", s.mock.teamID, "--topic", s.mock.bundleID,
        ])
        #expect(token.status == 0, "\(token.stderr)")
        #expect(s.lastAnswer(count: 2)?["auth"] as? String == "token")
        // APNSCTL_CERT over the profile's auth-key: the certificate.
        let variable = try s.send(["-d", "my-iphone", "--alert", "hi"], ["APNSCTL_CERT": s.mock.certificate])
        #expect(variable.status == 0, "\(variable.stderr)")
        #expect(s.lastAnswer(count: 3)?["auth"] as? String == "certificate")
        // Both kinds in one profile: 64, nothing sent.
        try s.writeDevProfile(extra: "cert = \"\(s.mock.certificate)\"")
        let both = try s.send(["-d", "my-iphone", "--alert", "hi"])
        #expect(both.status == 64)
        #expect(
            both.stderr.contains("cert in profile dev (") && both.stderr.contains("auth-key in profile dev ("),
            "\(both.stderr)")
        #expect(s.answered().count == 3)
    }

    /// A key pasted into a flag that takes a word (`--key-id "$(cat AuthKey.p8)"`), with `=` or after a space, or
    /// into a profile line, is refused without a line of it in the message: the settings' parser and the
    /// argument parser's own errors both name it and never show it.
    @Test func aKeyPastedIntoAWordFlagIsNeverPrinted() throws {
        let body = "U0VDUkVUU0VDUkVUU0VDUkVU"
        let pem = "-----BEGIN PRIVATE KEY-----\n\(body)\n-----END PRIVATE KEY-----"
        let token = String(repeating: "ab", count: 32)
        for arguments in [
            ["--key-id=\(pem)"], ["--key-id", pem], ["--topic=\(pem)"], ["--topic", pem], ["--team-id=\(pem)"],
        ] {
            let r = try InProcess.apnsctl(
                ["send", "--auth-key", "k.p8", "--team-id", "TEAMID1234", "-d", token, "--alert", "x"] + arguments)
            #expect(r.status == 64, "\(arguments): \(r.stderr)")
            #expect(!r.stderr.contains(body) && !r.stderr.contains("BEGIN"), "\(arguments): \(r.stderr)")
            #expect(
                !arguments[0].hasPrefix("--key-id=") || r.stderr.contains("a value of 3 lines"), "\(r.stderr)")
        }
    }

    @Test func pemInVariablesIsSentAndNeverWrittenOrPrinted() throws {
        let s = try Setup()
        let keyPEM = try String(contentsOfFile: s.mock.authKey, encoding: .utf8)
        let certPEM = try String(contentsOfFile: s.mock.certificate, encoding: .utf8)
        let bodies = (keyPEM + certPEM).split(separator: "\n").filter { !$0.hasPrefix("-----") && $0.count > 20 }.map(
            String.init)
        #expect(!bodies.isEmpty)
        let common = [
            "-d", Setup.token, "--alert", "hi", "--endpoint", s.mock.endpoint, "--ca-file", s.mock.caFile,
            "--topic", s.mock.bundleID,
        ]
        let tokenVariables = [
            "APNSCTL_AUTH_KEY": keyPEM, "APNSCTL_KEY_ID": s.mock.keyID, "APNSCTL_TEAM_ID": s.mock.teamID,
        ]
        let runs = [
            try s.send(common + ["-v"], tokenVariables),
            try s.send(common + ["--dry-run"], tokenVariables),
            try s.send(common + ["-v"], ["APNSCTL_CERT": certPEM]),
            try s.send(common + ["--dry-run"], ["APNSCTL_CERT": certPEM]),
            try s.home.run(["config", "show"], tokenVariables),
            try s.home.run(["config", "show", "-o", "json"], ["APNSCTL_CERT": certPEM]),
        ]
        for (i, r) in runs.enumerated() {
            #expect(r.status == 0, "run \(i): \(r.stderr)")
            for body in bodies {
                #expect(!r.stdout.contains(body) && !r.stderr.contains(body), "run \(i) printed key text")
            }
        }
        #expect(runs[0].stderr.contains("* auth-key (PEM from APNSCTL_AUTH_KEY) (APNSCTL_AUTH_KEY)"))
        #expect(runs[1].stdout.contains("apnsctl jwt reads it, and its id, from the variables"), "\(runs[1].stdout)")
        // The blocks run as printed in a POSIX shell: the certificate and its key go to curl as here-documents on
        // their own descriptors, never a file; the token from `apnsctl jwt` as printed, which reads the key and its
        // id from the variables.
        let scratch = try TemporaryDirectory(prefix: "pem-curl")
        let pasted = try CommandRunner.run(
            "/bin/sh", [], stdin: Array((DryRunCurlTests.curlPart(runs[3].stdout) ?? "").utf8),
            environment: ["APNSCTL_CERT": certPEM, "TMPDIR": scratch.path])
        #expect(pasted.stdout.hasPrefix("HTTP/2 200"), "\(runs[3].stdout)\n\(pasted.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty, "a PEM file is left")
        #expect(runs[3].stdout.contains("--cert /dev/fd/3 \\\n  --key /dev/fd/4"), "\(runs[3].stdout)")
        let jwtLine = try #require(runs[1].lines.first { $0.hasPrefix("APNS_JWT=$(apnsctl jwt ") })
        let jwt = try InProcess.apnsctl(
            jwtLine.dropFirst("APNS_JWT=$(apnsctl ".count).dropLast().split(separator: " ").map(String.init),
            environment: tokenVariables)
        #expect(jwt.status == 0 && jwt.stdout.hasPrefix("eyJ"), "\(jwtLine): \(jwt.stderr)")
        #expect(s.lastAnswer(count: 2)?["auth"] as? String == "certificate")
        #expect(s.answered().first?["auth"] as? String == "token")
        // Nothing under the test's HOME, TMPDIR or XDG directories holds the key's text.
        let root = s.home.root.path
        let files = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []
        for file in files {
            guard let data = FileManager.default.contents(atPath: root + "/" + file) else { continue }
            let text = String(decoding: data, as: UTF8.self)
            for body in bodies { #expect(!text.contains(body), "\(file) holds key text") }
        }
        // A bad PEM is named by its variable, never quoted.
        let bad = try s.send(
            common,
            [
                "APNSCTL_AUTH_KEY": "-----BEGIN PRIVATE KEY-----\nU0VDUkVUU0VDUkVU\n-----END PRIVATE KEY-----\n",
                "APNSCTL_KEY_ID": s.mock.keyID, "APNSCTL_TEAM_ID": s.mock.teamID,
            ])
        #expect(bad.status == 77, "\(bad.stderr)")
        #expect(bad.stderr.contains("(PEM from APNSCTL_AUTH_KEY)") && !bad.stderr.contains("U0VDUkVU"), "\(bad.stderr)")
    }

    @Test func mockProfileSendsAndIs66WithoutTheMock() throws {
        let s = try Setup()
        let r = try s.send(
            ["-p", "mock", "-d", Setup.token, "--alert", "hi"], ["APNSCTL_MOCK_STATE_DIR": s.mock.stateDirectory.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(s.lastAnswer(count: 1)?["auth"] as? String == "certificate")
        // The profile's topic is the mock's bundle id: a VoIP push gets its suffix, as from a certificate.
        let voip = try s.send(
            ["-p", "mock", "--push-type", "voip", #"{"aps":{}}"#, "-d", Setup.token],
            ["APNSCTL_MOCK_STATE_DIR": s.mock.stateDirectory.path])
        #expect(voip.status == 0, "\(voip.stderr)")
        #expect((s.lastAnswer(count: 2)?["topic"] as? String)?.hasSuffix(".voip") == true)
        // So does a type the payload decides: a saved Live Activity update, sent with the mock's key.
        let update = try s.send(
            [
                "-p", "mock-token", #"{"aps":{"event":"update","content-state":{}}}"#, "--timestamp", "now", "-d",
                Setup.token,
            ],
            ["APNSCTL_MOCK_STATE_DIR": s.mock.stateDirectory.path])
        #expect(update.status == 0, "\(update.stderr)")
        #expect((s.lastAnswer(count: 3)?["topic"] as? String)?.hasSuffix(".push-type.liveactivity") == true)
        let none = try s.send(
            ["-p", "mock", "-d", Setup.token, "--alert", "hi"], ["APNSCTL_MOCK_STATE_DIR": s.home.root.path + "/none"])
        #expect(none.status == 66)
        #expect(none.stderr.contains("start apnsctl mock"))
        let list = try s.home.run(
            ["channel", "list", "-p", "mock"], ["APNSCTL_MOCK_STATE_DIR": s.mock.stateDirectory.path])
        #expect(list.status == 0, "\(list.stderr)")
        // The mock plays sandbox, and its profile says so: doctor probes that one only, and a send labelled
        // production is refused before anything connects.
        let doctor = try s.home.run(["doctor", "-p", "mock"], ["APNSCTL_MOCK_STATE_DIR": s.mock.stateDirectory.path])
        #expect(doctor.status == 0, "\(doctor.stdout)\(doctor.stderr)")
        #expect(
            doctor.stdout.contains("auth sandbox") && !doctor.stdout.contains("(production)"), "\(doctor.stdout)")
        // APNSCTL_ENV=auto, doctor's default (both environments with token auth): one mock cannot be both.
        let auto = try s.home.run(
            ["doctor", "-p", "mock-token"],
            ["APNSCTL_MOCK_STATE_DIR": s.mock.stateDirectory.path, "APNSCTL_ENV": "auto"])
        #expect(auto.status == 64, "\(auto.stdout)\(auto.stderr)")
        #expect(
            auto.stderr.hasPrefix(
                "error: APNSCTL_ENV=auto, but the mock of -p mock-token (\(s.mock.stateDirectory.path)/mock.json) plays sandbox only (a mock plays one environment); unset APNSCTL_ENV to check sandbox"
            ), "\(auto.stderr)")
        let production = try s.send(
            ["-p", "mock", "--env", "production", "-d", Setup.token, "--alert", "hi"],
            ["APNSCTL_MOCK_STATE_DIR": s.mock.stateDirectory.path])
        #expect(production.status == 64)
        #expect(
            production.stderr.hasPrefix(
                "error: --env production, but the mock of -p mock (\(s.mock.stateDirectory.path)/mock.json) plays sandbox;"
            ),
            "\(production.stderr)")
    }

    /// Two names of one token are one device, sent once; the warning names both, not only the first.
    @Test func twoNamesOfOneTokenAreBothNamedInTheWarning() throws {
        let s = try Setup()
        try s.writeDevProfile()
        let file = try String(contentsOfFile: s.home.configFile, encoding: .utf8)
        try s.home.write(file + "qa-ipad = \"\(Setup.token)\"\n")
        let r = try s.send(["-d", "my-iphone", "-d", "qa-ipad", "--alert", "hi"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.stderr.contains(
                "warning: --device \(Setup.token) (my-iphone, qa-ipad: names of the same token) was given 2 times; it is sent once"
            ), "\(r.stderr)")
        #expect(s.answered().count == 1)
    }

    @Test func deviceNamesInTextAndJSONAndATokenReachedTwiceIsSentOnce() throws {
        let s = try Setup()
        try s.writeDevProfile()
        let text = try s.send(["-d", "my-iphone", "-d", Setup.token.uppercased(), "--alert", "hi"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(
            text.lines.count == 1 && text.lines[0].hasPrefix("accepted  200  my-iphone 3f2a…9c1d  "), "\(text.stdout)")
        #expect(
            text.stderr.contains("warning: --device \(Setup.token) (my-iphone) was given 2 times; it is sent once"),
            "\(text.stderr)")
        #expect(s.lastAnswer(count: 1) != nil && s.answered().count == 1)
        let json = try s.send(["-d", "my-iphone", "--alert", "hi", "-o", "json"])
        #expect(
            json.stdout.hasPrefix("{\"device\":\"\(Setup.token)\",\"device_name\":\"my-iphone\","), "\(json.stdout)")
        let hexOnly = try s.send(["-d", Setup.token, "--alert", "hi", "-o", "json"])
        #expect(!hexOnly.stdout.contains("device_name"))
        let unknown = try s.send(["-d", "my-iphon", "--alert", "hi"])
        #expect(unknown.status == 64)
        #expect(
            unknown.stderr
                == "error: --device \"my-iphon\" (device 1): unknown device name; did you mean \"my-iphone\"?\n"
        )
        // A name near none is quoted by its start only (it may be a secret of a name's shape), and not after.
        let far = try s.send(["-d", "correct-horse-battery", "--alert", "hi"])
        #expect(far.status == 64)
        #expect(
            far.stderr.hasPrefix("error: --device \"correct-…\" (device 1): unknown device name; "), "\(far.stderr)")
        #expect(!far.stderr.contains("horse"), "\(far.stderr)")
        #expect(s.answered().count == 3)
    }

    @Test func badValuesNameTheirOrigin() throws {
        let s = try Setup()
        try s.writeDevProfile(extra: "timeout = \"soon\"")
        let profile = try s.send(["-d", "my-iphone", "--alert", "hi"])
        #expect(profile.status == 64)
        #expect(profile.stderr.hasPrefix("error: \(s.home.configFile):"), "\(profile.stderr)")
        #expect(profile.stderr.contains("timeout = \"soon\""), "\(profile.stderr)")
        try s.writeDevProfile()
        let variable = try s.send(["-d", "my-iphone", "--alert", "hi"], ["APNSCTL_PRIORITY": "7"])
        #expect(variable.status == 64)
        #expect(variable.stderr == "error: APNSCTL_PRIORITY=7: must be 10, 5 or 1\n")
        let flag = try s.send(["-d", "my-iphone", "--alert", "hi", "--priority", "7"])
        #expect(flag.stderr == "error: --priority 7: must be 10, 5 or 1\n")
        // A duration where seconds go is told its number, which then works.
        let duration = try s.send(["-d", "my-iphone", "--alert", "hi", "--timeout", "2m"])
        #expect(duration.stderr == "error: --timeout 2m: a number of seconds, without a unit: give 120\n")
        // Advice is given only when it would be taken: a day at most.
        let long = try s.send(["-d", "my-iphone", "--alert", "hi", "--timeout", "2d"])
        #expect(long.stderr == "error: --timeout 2d: a number of seconds (0.001 to 86400), without a unit\n")
        #expect(s.answered().isEmpty)
    }

    @Test func relativeAndHomePathsFromAnotherDirectory() throws {
        let s = try Setup()
        let xdg = s.home.root.path + "/xdg/apnsctl"
        try FileManager.default.copyItem(atPath: s.mock.certificate, toPath: xdg + "/client.pem")
        try FileManager.default.copyItem(atPath: s.mock.caFile, toPath: s.home.root.path + "/home/ca.pem")
        try s.home.write(
            """
            [profiles.rel]
            cert = "client.pem"
            ca-file = "~/ca.pem"
            endpoint = "\(s.mock.endpoint)"

            """)
        let elsewhere = try TemporaryDirectory(prefix: "cwd")
        let r = try s.send(["-p", "rel", "-d", Setup.token, "--alert", "hi"], directory: elsewhere.path)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(s.lastAnswer(count: 1)?["auth"] as? String == "certificate")
    }

    /// `config show --for send` and `send -v` print the same values and origins for the same file and variables.
    @Test func configShowAgreesWithSendVerbose() throws {
        let s = try Setup()
        try s.writeDevProfile()
        let variables = ["APNSCTL_PRIORITY": "10", "APNSCTL_TIMEOUT": "12"]
        let show = try s.home.run(["config", "show", "--for", "send", "-o", "json"], variables)
        #expect(show.status == 0, "\(show.stderr)")
        let send = try s.send(["-d", "my-iphone", "--alert", "hi", "-v"], variables)
        #expect(send.status == 0, "\(send.stderr)")
        let verbose = send.errorLines.filter { $0.hasPrefix("* ") && $0.hasSuffix(")") }
        var compared = 0
        for line in show.lines {
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let name = object["setting"] as? String, let origin = object["origin"] as? String, origin != "default"
            else { continue }
            let value = (object["value"] as? [String])?.joined(separator: ",") ?? "\(object["value"] ?? "")"
            let originText: String
            switch origin {
            case "variable": originText = object["variable"] as? String ?? ""
            case "flag": originText = object["flag"] as? String ?? ""
            default:
                originText =
                    name == "profile"
                    ? "default-profile, \(object["file"] ?? ""):\(object["line"] ?? "")"
                    : "profile \(object["profile"] ?? ""), \(object["file"] ?? ""):\(object["line"] ?? "")"
            }
            #expect(verbose.contains("* \(name) \(value) (\(originText))"), "\(name): \(verbose)")
            compared += 1
        }
        #expect(compared >= 8, "\(show.stdout)")
    }

    @Test func doctorAndJWTTakeProfiles() throws {
        let s = try Setup()
        try s.writeDevProfile()
        let doctor = try s.home.run(
            ["doctor", "-p", "mock", "--env", "sandbox"], ["APNSCTL_MOCK_STATE_DIR": s.mock.stateDirectory.path])
        #expect(doctor.status == 0, "\(doctor.stdout)\(doctor.stderr)")
        let tokenDoctor = try s.home.run(["doctor", "--env", "sandbox"])
        #expect(tokenDoctor.status == 0, "\(tokenDoctor.stdout)\(tokenDoctor.stderr)")
        #expect(tokenDoctor.stdout.contains("key id \(s.mock.keyID), team \(s.mock.teamID)"))
        func claims(_ token: String) -> (kid: String?, iss: String?) {
            let parts = token.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".").map(String.init)
            func object(_ part: String) -> [String: Any]? {
                var b64 = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
                while b64.count % 4 != 0 { b64 += "=" }
                return Data(base64Encoded: b64).flatMap {
                    try? JSONSerialization.jsonObject(with: $0) as? [String: Any]
                }
            }
            guard parts.count == 3 else { return (nil, nil) }
            return (object(parts[0])?["kid"] as? String, object(parts[1])?["iss"] as? String)
        }
        for (args, variables) in [
            (["jwt", "-p", "dev"], [:]), (["jwt"], [:]),
            (
                ["jwt", "-p", "cert"],
                [
                    "APNSCTL_AUTH_KEY": try String(contentsOfFile: s.mock.authKey, encoding: .utf8),
                    "APNSCTL_KEY_ID": s.mock.keyID, "APNSCTL_TEAM_ID": s.mock.teamID,
                ]
            ),
        ]
            as [([String], [String: String])]
        {
            let r = try s.home.run(args, variables)
            #expect(r.status == 0, "\(args): \(r.stderr)")
            let c = claims(r.stdout)
            #expect(c.kid == s.mock.keyID && c.iss == s.mock.teamID, "\(args): \(r.stdout)")
        }
        // A key id with no key anywhere: 64 naming the variable.
        let stranded = try s.home.run(["jwt", "-p", "cert"], ["APNSCTL_KEY_ID": s.mock.keyID])
        #expect(stranded.status == 64)
        #expect(stranded.stderr.hasPrefix("error: --auth-key is required"), "\(stranded.stderr)")
    }

    @Test func deviceNamesInDevicesListsFromAFileAndAPipe() throws {
        let s = try Setup()
        try s.writeDevProfile()
        let other = String(repeating: "ab", count: 32)
        let list = try s.home.root.write("tokens.txt", "# names and tokens\nmy-iphone\n\(other)\n")
        let file = try s.send(["--devices", list, "--alert", "hi", "-o", "json"])
        #expect(file.status == 0, "\(file.stderr)")
        #expect(
            file.lines.contains { $0.hasPrefix("{\"device\":\"\(Setup.token)\",\"device_name\":\"my-iphone\",") },
            "\(file.stdout)")
        #expect(file.lines.contains { $0.hasPrefix("{\"device\":\"\(other)\",\"status\"") }, "\(file.stdout)")
        let piped = try s.home.run(["send", "--devices", "-", "--alert", "hi"], [:], stdin: Array("my-iphone\n".utf8))
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(piped.stdout.hasPrefix("accepted  200  my-iphone 3f2a…9c1d  "), "\(piped.stdout)")
        let badList = try s.home.root.write("bad.txt", "my-iphon\n")
        let bad = try s.send(["--devices", badList, "--alert", "hi"])
        #expect(bad.status == 64)
        #expect(
            bad.stderr.contains("bad.txt:1: \"my-iphon\": unknown device name; did you mean \"my-iphone\"?"),
            "\(bad.stderr)")
        #expect(s.answered().count == 3)
    }
}
