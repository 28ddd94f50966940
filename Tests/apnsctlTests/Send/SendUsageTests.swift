import APNSCore
import APNSCrypto
import APNSPlatform
import APNSTestSupport
import Foundation
import Testing

/// `apnsctl send` exit codes 64/65/66/77 and `--dry-run`: all decided before connecting to anything
/// (the endpoint below is a closed port, so a connection attempt would show up as 69).
@Suite struct SendUsageTests {
    let credentials: TestCredentials
    let scratch: TemporaryDirectory
    let token = String(repeating: "3f2a", count: 16)
    init() throws {
        credentials = try TestCredentials()
        scratch = try TemporaryDirectory(prefix: "send-usage")
    }

    private func send(_ args: [String], stdin: [UInt8]? = nil, passphrase: String = "") throws -> CommandResult {
        try InProcess.apnsctl(
            ["send"] + args, stdin: stdin,
            environment: ["XDG_CACHE_HOME": scratch.path, "APNSCTL_TEAM_ID": "", "APNSCTL_PASSPHRASE": passphrase])
    }

    private var certArgs: [String] {
        ["--cert", credentials.pushFile, "--endpoint", "https://127.0.0.1:9", "-d", token]
    }

    @Test func payloadAndDevicesCannotBothBeStandardInput() throws {
        let r = try send(
            ["-", "--devices", "-", "--cert", credentials.pushFile, "--endpoint", "https://127.0.0.1:9"],
            stdin: Array("{\"aps\":{\"alert\":\"x\"}}\n".utf8))
        #expect(r.status == 64)
        #expect(r.stderr.hasPrefix("error: PAYLOAD - and --devices - both read standard input"))
    }

    /// A credential read from standard input beside the payload or the list: 64 naming both, where the second one
    /// read was called an empty file to export again.
    @Test func aCredentialFromStandardInputBesideAnotherReaderIsRefused() throws {
        let pem = try String(contentsOfFile: credentials.pushFile, encoding: .utf8)
        let runs: [([String], String)] = [
            (
                ["--cert", "-", "-", "-d", token, "--endpoint", "https://127.0.0.1:9"],
                "error: PAYLOAD - and --cert - both read standard input"
            ),
            (
                ["--cert", credentials.pushFile, "--key", "-", "--devices", "-", "--alert", "x"],
                "error: --devices - and --key - both read standard input"
            ),
            (
                ["--auth-key", "-", "--team-id", "TEAMID1234", "--key-id", "ABCDE12345", "-", "-d", token],
                "error: PAYLOAD - and --auth-key - both read standard input"
            ),
        ]
        for (flags, start) in runs {
            let r = try send(flags, stdin: Array(pem.utf8))
            #expect(r.status == 64, "\(flags): \(r.stderr)")
            #expect(r.stderr.hasPrefix(start), "\(flags): \(r.stderr)")
        }
    }

    /// `--content-available 1` (as the key reads in JSON) is a flag given a value, 64; text given where the payload
    /// goes is told to go with --alert. Both were "no such file" (66) with the payload advice.
    @Test func aSwitchGivenAValueAndTextAsThePayloadAreSaid() throws {
        let value = try send(certArgs + ["--content-available", "1"])
        #expect(value.status == 64, "\(value.stderr)")
        #expect(
            value.stderr
                == "error: --content-available takes no value (it writes content-available: 1 itself); leave out 1\n",
            "\(value.stderr)")
        let text = try send(certArgs + ["Reminder: call mom"])
        #expect(text.status == 66, "\(text.stderr)")
        #expect(
            text.stderr.hasSuffix(
                "if it is the notification's text, give it with --alert: --alert 'Reminder: call mom'\n"),
            "\(text.stderr)")
        // A file's name with a blank, and JSON without its braces, are no notification text.
        for payload in ["my payload.json", #""aps": {"alert":"hi"}"#] {
            let r = try send(certArgs + [payload])
            #expect(!r.stderr.contains("--alert"), "\(payload): \(r.stderr)")
        }
    }

    /// A file whose name starts with `-` is read as flags, and the parser's complaint named an option or a missing
    /// argument (or told `-ok.json` to write `-o k.json`): the file is named, with how to give it.
    @Test func aFileNamedWithALeadingDashIsSaidToBeOne() throws {
        _ = try scratch.write("-ok.json", #"{"aps":{"alert":"x"}}"#)
        _ = try scratch.write("-c.pem", "x")
        for arguments in [["validate", "-ok.json"], ["send", "-d", token, "-ok.json"], ["inspect", "-c.pem"]] {
            let r = try InProcess.apnsctl(arguments, directory: scratch.path)
            #expect(r.status == 64, "\(arguments): \(r.stderr)")
            let word = arguments.last ?? ""
            #expect(
                r.stderr
                    == "error: \(word): a file whose name starts with -, read as flags; give it as ./\(word) (or put -- before it)\n",
                "\(arguments): \(r.stderr)")
        }
        // A word that is a flag of the command stays that flag, whatever file shares its name.
        _ = try scratch.write("-p", "x")
        let flag = try InProcess.apnsctl(["config", "add-device", "-p", "ci", "myphone"], directory: scratch.path)
        #expect(flag.stderr.hasPrefix("error: Missing expected argument"), "\(flag.stderr)")
        // A flag's value joined to it is still that: no file of that name.
        let joined = try InProcess.apnsctl(["send", "-pmock", "-d", token], directory: scratch.path)
        #expect(joined.stderr.contains("write the value after a space"), "\(joined.stderr)")
    }

    /// `--devices` twice is one list too many: the advice joins files, never standard input (`cat '-'`).
    @Test func devicesTwiceAdvisesJoiningFilesOnly() throws {
        let a = try scratch.write("a.txt", token + "\n")
        let b = try scratch.write("b.txt", token + "\n")
        let files = try send(["--devices", a, "--devices", b, "--cert", credentials.pushFile, "--alert", "x"])
        #expect(files.status == 64)
        #expect(files.stderr.contains("> all-devices.txt), or send each list in its own run"), "\(files.stderr)")
        let piped = try send(["--devices", a, "--devices", "-", "--cert", credentials.pushFile, "--alert", "x"])
        #expect(piped.status == 64)
        #expect(
            piped.stderr
                == "error: --devices given 2 times; a run reads one list: put the tokens in one file, or send each list in its own run\n",
            "\(piped.stderr)")
    }

    /// A passphrase file of `-` beside another reader of standard input is 64 before either is read: the list read
    /// first took the passphrase as a device token, and quoted its first 8 characters.
    @Test func aPassphraseFileOfStandardInputHasItToItself() throws {
        let secret = "CorrectHorseBattery"
        let stdin = Array("\(secret)\n{\"aps\":{\"alert\":\"x\"}}\n".utf8)
        let base = ["--cert", credentials.pushFile, "--endpoint", "https://127.0.0.1:9", "--passphrase-file", "-"]
        let runs: [([String], String)] = [
            (
                ["--devices", "-", "--alert", "x"],
                "error: --devices - and --passphrase-file - both read standard input"
            ),
            (["-", "-d", token], "error: PAYLOAD - and --passphrase-file - both read standard input"),
            (
                ["-", "--devices", "-"],
                "error: PAYLOAD - and --devices - and --passphrase-file - all read standard input"
            ),
            (
                ["-d", token, "--content-state", "@-", "--live-activity", "update"],
                "error: --passphrase-file - and --content-state @- both read standard input"
            ),
        ]
        for (flags, start) in runs {
            let r = try send(base + flags, stdin: stdin)
            #expect(r.status == 64, "\(flags): \(r.stderr)")
            #expect(r.stderr.hasPrefix(start), "\(flags): \(r.stderr)")
            #expect(!r.stderr.contains(String(secret.prefix(6))), "\(r.stderr)")
        }
    }

    @Test(
        arguments: [
            (["--priority", "7"], "--priority"),
            (["--push-type", "banner"], "--push-type"),
            (["--collapse-id", String(repeating: "x", count: 65)], "--collapse-id"),
            (["--apns-id", "not-a-uuid"], "--apns-id"),
            (["--expiration", "tomorrow"], "--expiration"),
            (["--size-limit", "huge"], "--size-limit"),
            (["--env", "staging"], "--env"),
            (["--endpoint", "http://127.0.0.1:2197"], "--endpoint"),
            (["--endpoint", "https://127.0.0.1:2197/3/device"], "--endpoint"),
            (["--concurrency", "0"], "--concurrency"),
            (["--timeout", "0"], "--timeout"),
            (["-o", "xml"], "-o"),
            (["--badge", "-1"], "--badge"),
            (["-d", "zz"], "--device"),
            (["-d", "abc"], "--device"),
            (["{\"aps\":{}}", "--alert", "hi"], "--alert"),
        ] as [([String], String)])
    func badFlagValuesAre64(_ extra: [String], _ flag: String) throws {
        let r = try send(certArgs + extra)
        #expect(r.status == 64, "\(extra): \(r.stderr)")
        #expect(r.stderr.contains("error: ") && r.stderr.contains(flag), "\(r.stderr)")
        if flag.hasPrefix("--") && flag != "--badge" {
            // Ours, not the parser's: the message starts with the flag at fault (the libraries name none).
            #expect(r.stderr.contains("error: \(flag)"), "\(r.stderr)")
        }
        #expect(r.stdout.isEmpty)
    }

    @Test func noCredentialIs64() throws {
        let r = try send(["-d", token])
        #expect(r.status == 64)
        #expect(r.stderr.contains("--cert") && r.stderr.contains("--auth-key"))
    }

    @Test func noDeviceIs64() throws {
        let r = try send(["--cert", credentials.pushFile])
        #expect(r.status == 64)
        #expect(r.stderr.contains("--device"))
    }

    @Test func tokenAuthWithoutTopicIs64() throws {
        let r = try send(["--auth-key", credentials.authKeyFile, "--team-id", credentials.teamID, "-d", token])
        #expect(r.status == 64)
        #expect(r.stderr.contains("--topic"))
    }

    @Test func badLineInDevicesFileIs64WithItsLine() throws {
        let file = try scratch.write("d.txt", "\(token)\n# fine\n\(token)xyz\n")
        let r = try send(["--cert", credentials.pushFile, "--devices", file])
        #expect(r.status == 64)
        #expect(r.stderr.contains("d.txt:3"))
    }

    @Test func invalidPayloadIs65AndPrintedLikeValidate() throws {
        let r = try send(certArgs + ["{\"aps\":{\"badge\":\"5\"}}"])
        #expect(r.status == 65)
        #expect(r.stderr.contains("error: (inline):1:17: aps.badge: "))
        #expect(r.stdout.isEmpty)
    }

    @Test func backgroundWithPriority10Is65() throws {
        let r = try send(certArgs + ["{\"aps\":{\"content-available\":1}}", "--priority", "10"])
        #expect(r.status == 65)
        #expect(r.stderr.contains("priority 10"))
    }

    @Test func oversizedPayloadIs65UnlessMinifyMakesItFit() throws {
        let padded = "{\"aps\":{\"alert\":\"hi\"}" + String(repeating: " ", count: 5000) + "}"
        let file = try scratch.write("big.json", padded)
        let r = try send(certArgs + [file])
        #expect(r.status == 65)
        #expect(r.stderr.contains("--minify"))
        let dry = try send(certArgs + [file, "--minify", "--dry-run"])
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout.contains("content-length: 22"))
        // What fits once minified is sent without a word about its file's size.
        #expect(dry.stderr.isEmpty, "\(dry.stderr)")
        // A limit of the user's own is named as theirs, for the bytes that would go out.
        let under = try send(certArgs + [file, "--minify", "--size-limit", "20", "--dry-run"])
        #expect(under.status == 65, "\(under.stderr)")
        #expect(
            under.stderr.contains(
                ": (root): minified payload is 22 bytes, 2 over the 20-byte limit set with --size-limit (APNs itself takes up to 4096); shorten it"
            ), "\(under.stderr)")
        let over = String(repeating: "x", count: 4100)
        let long = try scratch.write("long.json", "{\"aps\":{\"alert\":\"\(over)\"}}")
        let tooLong = try send(certArgs + [long, "--minify", "--size-limit", "5k", "--dry-run"])
        #expect(tooLong.status == 0, "\(tooLong.stderr)")
        #expect(
            tooLong.stderr.contains(
                "minified payload is 4120 bytes, within --size-limit 5120 but over the 4096 bytes APNs takes for alert pushes"
            ), "\(tooLong.stderr)")
    }

    /// A --ca-file the run could not load is 66 in its dry run too (a dry run that exits 0 says the run would
    /// start), and says what the file is instead of OpenSSL's "no certificate or crl found", the same for
    /// every one of them.
    @Test func anUnusableCAFileIs66InADryRunTooAndSaysWhatItIs() throws {
        let cases: [(String, String)] = [
            (scratch.path, "it is a folder"),
            (try scratch.write("empty.pem", "\n"), "the file is empty"),
            (try scratch.p12("push.p12", credentials.push, password: "pw"), "it is a PKCS#12 (.p12) bundle"),
            (
                try scratch.write("ca.cer", credentials.ca.certificate.der),
                "it is a DER (binary) certificate, not PEM; convert it with openssl x509 -inform DER -in "
                    + "\(scratch.file("ca.cer")) -out \(scratch.file("ca.pem"))"
            ),
            (
                try scratch.write("key.pem", try credentials.push.privateKey.pkcs8PEM(passphrase: nil)),
                "it holds no CERTIFICATE block, only PRIVATE KEY"
            ),
            (try scratch.write("payload.json", "{\"aps\":{}}"), "it looks like JSON"),
            (
                try scratch.write("garbage.pem", "garbage\n"),
                "it holds no PEM certificate (-----BEGIN CERTIFICATE-----)"
            ),
            (
                // A device node like /dev/null, made here (never a real /dev entry; the tests run as root).
                try { () throws -> String in
                    let node = scratch.file("null-device")
                    try #require(mknod(node, S_IFCHR | 0o600, dev_t((1 << 8) | 3)) == 0, "mknod needs root")
                    return node
                }(), "which holds no certificates"
            ),
            (
                try scratch.write(
                    "damaged.pem",
                    String(decoding: credentials.ca.certificate.pem, as: UTF8.self).replacingOccurrences(
                        of: "\nMI", with: "\nM!")),
                "its CERTIFICATE block is damaged"
            ),
            (
                try { () throws -> String in
                    let link = scratch.file("dangling.pem")
                    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: scratch.file("gone"))
                    return link
                }(), "it is a link to a missing file"
            ),
        ]
        for (ca, reason) in cases {
            for dry in [["--dry-run"], ["--dry-run", "-o", "json"], []] {
                let r = try send(certArgs + ["--alert", "x", "--ca-file", ca] + dry)
                #expect(r.status == 66, "\(ca) \(dry): \(r.stderr)")
                #expect(r.stdout.isEmpty)
                #expect(r.stderr.hasPrefix("error: --ca-file \(ca): cannot load CA certificates: "), "\(r.stderr)")
                #expect(r.stderr.contains(reason), "\(r.stderr)")
            }
        }
    }

    /// A CA file from a pipe (`--ca-file <(…)`) that held no certificate: said to be the pipe's contents, not the
    /// kind of file (a valid one through a pipe works).
    @Test func aCAFileFromAPipeHoldingNoCertificateIsSaidSo() throws {
        let fifo = scratch.file("ca.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        // The writer, on a thread of its own (not the shared pool, which a busy suite may fill): its open waits for
        // the reader, as a shell's `<(…)` does.
        let written = DispatchSemaphore(value: 0)
        let writer = Thread {
            let fd = open(fifo, O_WRONLY)
            if fd >= 0 {
                _ = "garbage\n".withCString { write(fd, $0, 8) }
                close(fd)
            }
            written.signal()
        }
        writer.start()
        let r = try send(certArgs + ["--alert", "x", "--ca-file", fifo, "--dry-run"])
        #expect(written.wait(timeout: .now() + 5) == .success, "the writer never got a reader")
        #expect(r.status == 66, "\(r.stderr)")
        #expect(
            r.stderr.contains(
                "cannot load CA certificates: what the pipe gave holds no PEM certificate OpenSSL could read"),
            "\(r.stderr)")
    }

    @Test func missingInputsAre66() throws {
        #expect(try send(certArgs + [scratch.file("nope.json")]).status == 66)
        #expect(try send(["--cert", credentials.pushFile, "--devices", scratch.file("nope.txt")]).status == 66)
        #expect(try send(["--cert", scratch.file("nope.pem"), "-d", token]).status == 66)
        #expect(try send(certArgs + ["--ca-file", scratch.file("nope-ca.pem")]).status == 66)
    }

    /// An empty credential file is named with the flag that gave it, as a missing one is.
    @Test func anEmptyCredentialFileIsNamedWithItsFlag() throws {
        let empty = try scratch.write("empty.pem", "")
        for flag in ["--cert", "--auth-key"] {
            var args = [flag, empty, "--endpoint", "https://127.0.0.1:9", "-d", token, "--alert", "x", "--dry-run"]
            if flag == "--auth-key" { args += ["--key-id", "ABCDE12345", "--team-id", "TEAMID1234", "--topic", "a.b"] }
            let r = try send(args)
            #expect(r.status == 77, "\(r.stderr)")
            #expect(r.stderr.hasPrefix("error: \(flag) \(empty): the file is empty"), "\(r.stderr)")
        }
        // A .p8 cannot be exported again: Apple lets it be downloaded once.
        let key = try scratch.write("AuthKey_ABCDE12345.p8", "")
        let r = try send([
            "--auth-key", key, "--team-id", "TEAMID1234", "--topic", "a.b", "--endpoint", "https://127.0.0.1:9", "-d",
            token, "--alert", "x", "--dry-run",
        ])
        #expect(r.status == 77, "\(r.stderr)")
        #expect(
            r.stderr.hasSuffix(
                ": the file is empty; a .p8 is downloaded once, so copy it again from where it was kept, or create a new key in the Apple Developer portal (Keys) and revoke the lost one\n"
            ), "\(r.stderr)")
    }

    @Test func certificateWithoutTheAskedEnvironmentIs77() throws {
        let production = try credentials.writePushCertificate("prod.pem", kind: .production)
        let r = try send(["--cert", production, "--env", "sandbox", "--endpoint", "https://127.0.0.1:9", "-d", token])
        #expect(r.status == 77)
        #expect(r.stderr.contains("sandbox"))
    }

    @Test func expiredCertificateIs77() throws {
        let now = SystemClock.now()
        let expired = try credentials.writePushCertificate(
            "old.pem", kind: .development,
            validity: Validity(notBefore: now - 400 * 86_400, notAfter: now - 86_400))
        let r = try send(["--cert", expired, "-d", token, "--endpoint", "https://127.0.0.1:9"])
        #expect(r.status == 77)
        #expect(r.stderr.contains("expired"))
    }

    @Test func missingTeamIDIs77() throws {
        let r = try send(["--auth-key", credentials.authKeyFile, "--topic", "com.example.demo", "-d", token])
        #expect(r.status == 77)
        #expect(r.stderr.contains("--team-id"))
    }

    @Test func dryRunPrintsTheRequestAndCurlWithoutSecrets() throws {
        let r = try send([
            "--auth-key", credentials.authKeyFile, "--team-id", credentials.teamID, "--topic", "com.example.demo.voip",
            "--endpoint", "https://127.0.0.1:9", "-d", token, "--dry-run", "--collapse-id", "c1",
            "{\"aps\":{}, \"call\":\"it's me\"}",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let out = r.stdout
        #expect(out.hasPrefix("POST https://127.0.0.1:9/3/device/\(token)\n"))
        #expect(out.contains("apns-push-type: voip\n"))
        #expect(out.contains("apns-topic: com.example.demo.voip\n"))
        #expect(out.contains("authorization: bearer $APNS_JWT\n"))
        #expect(out.contains("curl --http2"))
        // The token goes to curl in its config on standard input (a here-document), never as an argument.
        #expect(out.contains("--config -"))
        #expect(
            out.hasSuffix(" <<APNS_CURL_CONFIG\nheader = \"authorization: bearer $APNS_JWT\"\nAPNS_CURL_CONFIG\n"),
            "\(out)")
        #expect(out.contains("-H 'apns-collapse-id: c1'"))
        #expect(out.contains("--data-binary '{\"aps\":{}, \"call\":\"it'\\''s me\"}'"))
        #expect(out.contains("apnsctl jwt --auth-key"))
        // Nothing was signed or cached, and no key material is shown.
        #expect(!FileManager.default.fileExists(atPath: scratch.path + "/apnsctl"))
        #expect(!out.contains("PRIVATE KEY"))
    }

    /// `-o json` holds with `--dry-run`: one JSON object a script reads (headers, the payload embedded, the curl
    /// block as one string, the same as the text's), and still no secret: no bearer token, no key, no passphrase.
    @Test func dryRunWithJSONOutputIsOneObjectWithoutSecrets() throws {
        let pretty = scratch.file("pretty.json")
        try Data("{\n  \"aps\": {\"alert\": \"Hello\"}\n}\n".utf8).write(to: URL(fileURLWithPath: pretty))
        let second = String(repeating: "4e5f", count: 16)
        // An encrypted .p12, so the passphrase is read and the curl block has a pass line it must not fill in.
        let p12 = scratch.file("json-dry-run.p12")
        try OpenSSLFixtures.exportPKCS12(credentials.pushFile, to: p12, passphrase: "never-shown")
        for (auth, kind) in [
            (["--cert", p12], "certificate"),
            (
                [
                    "--auth-key", credentials.authKeyFile, "--team-id", credentials.teamID, "--topic",
                    "com.example.demo",
                ], "token"
            ),
        ] {
            let args = auth + [pretty, "--endpoint", "https://127.0.0.1:9", "-d", token, "-d", second, "--dry-run"]
            let r = try send(args + ["-o", "json"], passphrase: "never-shown")
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.lines.count == 1, "\(r.stdout)")
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(r.stdout)")
            #expect(object["dry_run"] as? Bool == true)
            #expect(object["url"] as? String == "https://127.0.0.1:9/3/device/\(token)")
            #expect(object["auth"] as? String == kind)
            let headers = try #require(object["headers"] as? [String: String])
            #expect(headers["apns-topic"] == "com.example.demo" && headers["apns-push-type"] == "alert")
            #expect(headers["authorization"] == nil && headers[":path"] == nil)
            #expect((object["payload"] as? [String: Any])?["aps"] as? [String: String] == ["alert": "Hello"])
            #expect(object["size"] as? Int == 32)
            #expect(object["notes"] as? [String] == ["the same request goes to 1 more device, only :path differs"])
            let text = try send(args, passphrase: "never-shown")
            let curl = try #require(object["curl"] as? String)
            #expect(text.stdout.hasSuffix("The same request with curl:\n" + curl + "\n"), "\(text.stdout)")
            #expect(kind == "certificate" || object["key_id"] as? String == credentials.keyID)
            for secret in ["PRIVATE KEY", "never-shown", "bearer ey"] { #expect(!r.stdout.contains(secret)) }
            #expect(kind == "token" || curl.contains(#"pass = "$APNS_PASSPHRASE""#), "\(curl)")
        }
    }

    @Test func dryRunWithCertificateUsesVariables() throws {
        let r = try send(certArgs + ["--dry-run", "--alert", "Hello", "--badge", "3", "--sound", "default"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("{\"aps\":{\"alert\":\"Hello\",\"badge\":3,\"sound\":\"default\"}}"))
        #expect(r.stdout.contains("--cert \"$APNS_CERT\""))
        #expect(r.stdout.contains("apns-topic: com.example.demo\n"))
        #expect(r.stdout.contains("apns-priority: 10\n"))
    }

    @Test func dryRunTellsCurlTheCertificateFormatByContentNotName() throws {
        // A PKCS#12 file named .pem, and a PEM file named .p12: curl must be told what each really is.
        let p12 = scratch.file("push.pem")
        try OpenSSLFixtures.exportPKCS12(credentials.pushFile, to: p12, passphrase: "demo-pass")
        let fromP12 = try send(
            ["--cert", p12, "--endpoint", "https://127.0.0.1:9", "-d", token, "--dry-run", "--alert", "x"],
            stdin: nil, passphrase: "demo-pass")
        #expect(fromP12.status == 0, "\(fromP12.stderr)")
        #expect(fromP12.stdout.contains("--cert \"$APNS_CERT\" --cert-type P12"))
        #expect(
            fromP12.stdout.contains(
                "APNS_PASSPHRASE=$(cr=$(printf '\\r'); p=$(printf '%s' \"$APNSCTL_PASSPHRASE\"); while "
            ),
            "\(fromP12.stdout)")
        #expect(fromP12.stdout.contains("--config -") && fromP12.stdout.contains("\npass = \"$APNS_PASSPHRASE\"\n"))
        #expect(!fromP12.stdout.contains("--pass"))
        #expect(!fromP12.stdout.contains("demo-pass"))

        let pemNamedP12 = scratch.file("push.p12")
        try FileManager.default.copyItem(atPath: credentials.pushFile, toPath: pemNamedP12)
        let fromPEM = try send([
            "--cert", pemNamedP12, "--endpoint", "https://127.0.0.1:9", "-d", token, "--dry-run", "--alert", "x",
        ])
        #expect(fromPEM.status == 0, "\(fromPEM.stderr)")
        #expect(!fromPEM.stdout.contains("--cert-type"))
        #expect(!fromPEM.stdout.contains("APNS_PASSPHRASE"))

        // A PEM certificate with an encrypted key beside it: curl needs --pass, but no --cert-type.
        let certOnly = scratch.file("only-cert.pem")
        let encryptedKey = scratch.file("enc.key")
        #expect(try CommandRunner.run("openssl", ["x509", "-in", credentials.pushFile, "-out", certOnly]).status == 0)
        #expect(
            try CommandRunner.run(
                "openssl",
                [
                    "pkey", "-in", credentials.pushFile, "-aes256", "-passout", "pass:k3y",
                    "-out", encryptedKey,
                ]
            ).status == 0)
        let fromEncrypted = try send(
            [
                "--cert", certOnly, "--key", encryptedKey, "--endpoint", "https://127.0.0.1:9",
                "-d", token, "--dry-run", "--alert", "x",
            ], passphrase: "k3y")
        #expect(fromEncrypted.status == 0, "\(fromEncrypted.stderr)")
        #expect(!fromEncrypted.stdout.contains("--cert-type"))
        #expect(fromEncrypted.stdout.contains("--key \"$APNS_KEY\""))
        #expect(fromEncrypted.stdout.contains("\npass = \"$APNS_PASSPHRASE\"\n"), "\(fromEncrypted.stdout)")
        #expect(!fromEncrypted.stdout.contains("k3y"))
    }

    @Test func helpDescribesEveryFlagAndExitCodes() throws {
        let r = try InProcess.apnsctl(["send", "--help"])
        #expect(r.status == 0)
        for flag in [
            "--device", "--devices", "--topic", "--cert", "--key", "--passphrase", "--passphrase-file", "--auth-key",
            "--key-id", "--team-id", "--no-token-cache", "--env", "--endpoint", "--ca-file", "--insecure",
            "--push-type",
            "--priority", "--expiration", "--collapse-id", "--apns-id", "--size-limit", "--minify", "--alert",
            "--badge",
            "--sound", "--concurrency", "--timeout", "--output", "--quiet", "--color", "--verbose", "--dry-run",
            "Examples:", "69",
        ] {
            #expect(r.stdout.contains(flag), "help lacks \(flag)")
        }
    }
}
