import APNSClient
import APNSCrypto
import APNSPlatform
import APNSTestSupport
import Foundation
import Testing

@testable import APNSCtlCommands

/// Small faults and first-day mistakes, end to end.
@Suite struct SmallFixesTests {
    static func token(_ i: Int) -> String {
        let hex = String(i, radix: 16)
        return "ab" + String(repeating: "0", count: 62 - hex.count) + hex
    }

    @Test func emptySettingsVariablesCountAsUnset() throws {
        let mock = try InProcessMock()
        let scratch = try TemporaryDirectory(prefix: "empty-env")
        let out = scratch.file("out.p12")
        let convert = try InProcess.apnsctl(
            ["convert", mock.certificate, "-o", out], environment: ["APNSCTL_OUT_PASSPHRASE": ""])
        #expect(convert.status == 64, "\(convert.stderr)")
        #expect(convert.stderr.contains("no password for \(out)"), "\(convert.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
        let jwt = try InProcess.apnsctl(["jwt", "--auth-key", mock.authKey], environment: ["APNSCTL_TEAM_ID": ""])
        #expect(jwt.status == 77, "\(jwt.stderr)")
        #expect(jwt.stderr.contains("--team-id: missing"), "\(jwt.stderr)")
    }

    /// An endpoint list with nothing in it (`APNSCTL_ENDPOINT="$A,$B"` with both unset, `endpoint = []`) sent to
    /// Apple's sandbox without a word, a mock profile's run too; one with an empty item was one URL for both.
    @Test func anEmptyEndpointListIsRefusedNotApplesHost() throws {
        let mock = try InProcessMock()
        let scratch = try TemporaryDirectory(prefix: "empty-endpoint")
        let state = ["APNSCTL_MOCK_STATE_DIR": mock.stateDirectory.path]
        let send = ["send", "-p", "mock", "--alert", "x", "-d", Self.token(1), "--dry-run"]
        for list in [",", " , ", "\(mock.endpoint),"] {
            let r = try InProcess.apnsctl(send, environment: state.merging(["APNSCTL_ENDPOINT": list]) { $1 })
            #expect(r.status == 64, "\(list): \(r.stdout)\(r.stderr)")
            #expect(
                r.stderr.hasSuffix(
                    ": an empty item in the list (an unset variable?); give https://host:port, or sandbox=URL,production=URL\n"
                ), "\(r.stderr)")
            #expect(!r.stdout.contains("apple.com"))
        }
        let file = try scratch.write(
            "c.toml", "[profiles.a]\nendpoint = []\ncert = \"\(mock.certificate)\"\n", mode: 0o600)
        let r = try InProcess.apnsctl([
            "send", "--config", file, "-p", "a", "--alert", "x", "-d", Self.token(1), "--dry-run",
        ])
        #expect(r.status == 64, "\(r.stdout)\(r.stderr)")
        #expect(
            r.stderr
                == "error: \(file):2: endpoint = []: an empty list; give https://host:port, or leave endpoint out for Apple's hosts\n",
            "\(r.stderr)")
        let both = try InProcess.apnsctl(
            send,
            environment: state.merging(["APNSCTL_ENDPOINT": "sandbox=\(mock.endpoint), production=\(mock.endpoint)"]) {
                $1
            })
        #expect(both.status == 0, "\(both.stderr)")
    }

    /// `--alert Hello world` unquoted: the last word comes as PAYLOAD, a file that does not exist; the advice
    /// is to quote the text, not to give a payload file.
    @Test func anUnquotedAlertTextIsAdvisedQuotes() throws {
        let mock = try InProcessMock()
        let state = ["APNSCTL_MOCK_STATE_DIR": mock.stateDirectory.path]
        let base = ["send", "-p", "mock", "-d", Self.token(1), "--dry-run"]
        let r = try InProcess.apnsctl(base + ["--alert", "Hello", "world"], environment: state)
        #expect(r.status == 66, "\(r.stderr)")
        #expect(
            r.stderr.hasSuffix(
                ": no such file; if it is the rest of the --alert text, quote the text: --alert 'Hello world'\n"),
            "\(r.stderr)")
        let title = try InProcess.apnsctl(base + ["--title", "Big", "Sale", "--alert", "x"], environment: state)
        #expect(title.stderr.contains("quote the text: --title 'Big Sale'"), "\(title.stderr)")
        let file = try InProcess.apnsctl(base + ["missing.json"], environment: state)
        #expect(file.stderr.contains("give a payload file, - for standard input"), "\(file.stderr)")
        // A paste's blank or line break before the JSON: still the JSON (no file has such a name), sent as given.
        for lead in ["\n  ", "\r\n", " \t\r\n"] {
            let pasted = try InProcess.apnsctl(
                ["send", "-p", "mock", "-d", Self.token(1), lead + "{\"aps\":{\"alert\":\"pasted\"}}"],
                environment: state)
            #expect(pasted.status == 0, "\(pasted.stderr)")
            #expect(pasted.stdout.hasPrefix("accepted"), "\(pasted.stdout)")
        }
    }

    /// The first hour's slips with device tokens: one given as PAYLOAD (`-d` forgotten, or typed once too often) is
    /// advised -d; the shortened form apnsctl's own results print, copied back, is named for what it is.
    @Test func aTokenWhereItDoesNotBelongIsNamed() throws {
        let mock = try InProcessMock()
        let state = ["APNSCTL_MOCK_STATE_DIR": mock.stateDirectory.path]
        let twice = try InProcess.apnsctl(
            ["send", "-p", "mock", "-d", Self.token(1), Self.token(2), "--dry-run"], environment: state)
        // A slip of the command line (`-d $(cat two-tokens.txt)`), 64 as three pasted tokens are: no missing file.
        #expect(twice.status == 64, "\(twice.stderr)")
        #expect(
            twice.stderr.hasSuffix(
                ": no such file; it looks like a device token: give each token with -d (-d TOKEN)\n"),
            "\(twice.stderr)")
        // So is a second device name of the settings file after one -d.
        let dir = try TemporaryDirectory(prefix: "names")
        let config = try dir.write(
            "config.toml", "[devices]\nmy-iphone = \"\(Self.token(1))\"\nqa-ipad = \"\(Self.token(2))\"\n", mode: 0o600)
        let names = try InProcess.apnsctl(
            ["send", "-p", "mock", "-d", "my-iphone", "qa-ipad", "--dry-run"],
            environment: state.merging(["APNSCTL_CONFIG": config]) { $1 })
        #expect(names.status == 64, "\(names.stderr)")
        #expect(
            names.stderr.hasSuffix(
                ": no such file; qa-ipad is a device name of the settings file: give each device with -d (-d qa-ipad)\n"
            ),
            "\(names.stderr)")
        let forgotten = try InProcess.apnsctl(["send", "-p", "mock", Self.token(1)], environment: state)
        #expect(forgotten.status == 64, "\(forgotten.stderr)")
        #expect(
            forgotten.stderr
                == "error: no device token; the PAYLOAD argument looks like one: give it with -d (-d TOKEN)\n")
        for short in ["3f2a…9c1d", "3f2a...9c1d"] {
            let r = try InProcess.apnsctl(["send", "-p", "mock", "-d", short, "--alert", "hi"], environment: state)
            #expect(r.status == 64, "\(r.stderr)")
            #expect(r.stderr.contains("this is the shortened form apnsctl prints a token in"), "\(r.stderr)")
        }
    }

    @Test func helpWalksNestedCommands() throws {
        let r = try InProcess.apnsctl(["help", "channel", "create"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("apnsctl channel create"), "\(r.stdout)")
        let typo = try InProcess.apnsctl(["help", "channel", "crate"])
        #expect(typo.status == 64)
        #expect(
            typo.stderr.hasPrefix("error: help: unknown command \"crate\"; did you mean \"create\"?"), "\(typo.stderr)")
    }

    @Test func envAutoWithOneEndpointForBothIsAUsageError() throws {
        let mock = try InProcessMock()
        let r = try InProcess.apnsctl([
            "send", "--cert", mock.certificate, "--env", "auto", "--endpoint", mock.endpoint,
            "--ca-file", mock.caFile, "-d", Self.token(1),
        ])
        #expect(r.status == 64, "\(r.stderr)")
        #expect(r.stderr.contains("--endpoint sandbox=URL --endpoint production=URL"), "\(r.stderr)")
    }

    @Test func jsonRejectionsCarryMeaningAndHint() throws {
        let mock = try InProcessMock(["--unregistered", Self.token(1)])
        let r = try InProcess.apnsctl([
            "send", "--cert", mock.certificate, "--endpoint", mock.endpoint, "--ca-file", mock.caFile,
            "-d", Self.token(1), "-d", Self.token(2), "-o", "json",
        ])
        #expect(r.status == 1, "\(r.stderr)")
        let rejected = try #require(r.lines.first { $0.contains("\"status\":410") })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(rejected.utf8)) as? [String: Any])
        #expect((object["meaning"] as? String)?.isEmpty == false, "\(rejected)")
        #expect((object["hint"] as? String)?.isEmpty == false, "\(rejected)")
        let accepted = try #require(r.lines.first { $0.contains("\"status\":200") })
        #expect(!accepted.contains("\"meaning\""))
    }

    @Test func convertRefusesAFormatNameAndSaysWhatItWrote() throws {
        let mock = try InProcessMock()
        let scratch = try TemporaryDirectory(prefix: "convert-says")
        for format in ["json", "text"] {
            let r = try InProcess.apnsctl(["convert", mock.certificate, "-o", format], directory: scratch.path)
            #expect(r.status == 64, "\(r.stderr)")
            #expect(r.stderr.hasPrefix("error: -o \(format): in convert, -o names the output file"), "\(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: scratch.file(format)))
        }
        let out = scratch.file("push.pem")
        let p12 = scratch.file("push.p12")
        let made = try InProcess.apnsctl(
            ["convert", mock.certificate, "-o", p12], environment: ["APNSCTL_OUT_PASSPHRASE": "pw"])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(
            made.stderr
                == "wrote \(p12): certificate, 1 chain certificate, private key; PKCS#12 with AES-256 encryption; mode 0600\n",
            "\(made.stderr)")
        let back = try InProcess.apnsctl(["convert", p12, "-o", out], environment: ["APNSCTL_PASSPHRASE": "pw"])
        #expect(back.status == 0, "\(back.stderr)")
        #expect(
            back.stderr == "wrote \(out): certificate, 1 chain certificate, private key; mode 0600\n", "\(back.stderr)")
    }

    /// CLI.md's table of flags from other tools, and plain typos of send's flags.
    @Test func flagsFromOtherToolsGetTheirApnsctlSpelling() throws {
        let table = [
            "--team": "--team-id", "--cacert": "--ca-file", "--prod": "--env production",
            "--production": "--env production",
            "--dev": "--env sandbox", "--development": "--env sandbox", "--sandbox": "--env sandbox",
            "--json": "-o json",
            "--token": "--device", "--p8": "--auth-key", "--key-file": "--auth-key", "--pem": "--cert",
            "--p12": "--cert", "--no-color": "--color never", "--ttl": "--expiration", "--expiry": "--expiration",
            "--text": "--alert", "--msg": "--alert", "--bundle-id": "--topic",
            // By meaning, where the nearest flag by letters is a wrong one.
            "--cert-file": "--cert", "--p8-file": "--auth-key", "--app-id": "--topic", "--push-token": "--device",
            "--keyfile": "--key", "--passfile": "--passphrase-file", "--environment": "--env",
            "--tokens": "--devices", "--ca": "--ca-file", "--type": "--push-type", "--kid": "--key-id",
            "--enviroment": "--env", "--device-file": "--devices", "--token-file": "--devices",
        ]
        let typos = [
            // A flag and its value joined by a dash.
            "--replay-last": "--replay last", "--replay-12": "--replay 12", "--env-production": "--env production",
            "--push-type-voip": "--push-type voip",
            "--topc": "--topic", "--priorty": "--priority", "--colapse-id": "--collapse-id", "--auth-kye": "--auth-key",
            "--endpont": "--endpoint", "--expiraton": "--expiration", "--alrt": "--alert",
        ]
        for (given, meant) in table.merging(typos, uniquingKeysWith: { a, _ in a }) {
            // `--token` is answered by its value (CLI.md): a hex one is a device token.
            let r = try InProcess.apnsctl(["send", given, given == "--token" ? Self.token(1) : "x"])
            #expect(r.status == 64, "\(given): \(r.stderr)")
            #expect(
                r.errorLines.first == "error: Unknown option '\(given)'. Did you mean '\(meant)'?",
                "\(given): \(r.stderr)")
        }
        // A value joined to a flag that takes no such value is no such advice.
        let keyID = try InProcess.apnsctl(["convert", "--key-id", "x"])
        #expect(!keyID.stderr.contains("Did you mean '--key id'"), "\(keyID.stderr)")
        // `history clear --since`: --before removes the opposite, so it is said, not offered.
        let since = try InProcess.apnsctl(["history", "clear", "--since", "1h"])
        #expect(since.status == 64)
        #expect(
            since.errorLines.first
                == "error: Unknown option '--since'. This command removes every entry, or those started before a time (--before WHEN); it cannot remove only the recent ones",
            "\(since.stderr)")
        // `history --status 410`: the history filters by reason, and the status's reasons are named.
        for (arguments, advice) in [
            (["history", "list", "--status", "410"], " (410 is --reason ExpiredToken or --reason Unregistered)"),
            (["history", "--status", "413"], " (413 is --reason PayloadTooLarge)"),
            (["history", "--status", "400"], " (400 is one of 22 reasons, such as --reason BadCollapseId)"),
            (["history", "--status=x"], ""),
        ] {
            let status = try InProcess.apnsctl(arguments)
            #expect(status.status == 64)
            #expect(
                status.errorLines.first
                    == "error: Unknown option '--status'. The history filters by APNs's reason, which names the status: --reason REASON\(advice)",
                "\(status.stderr)")
        }
        let silent = try InProcess.apnsctl(["send", "--silent", "-d", Self.token(1)])
        #expect(
            silent.errorLines.first
                == "error: Unknown option '--silent'. Did you mean '--quiet' (less output) or '--content-available' (a silent, background push)?",
            "\(silent.stderr)")
        // Other senders' payload-file flags: the payload is the argument (`--file` was "did you mean '--title'",
        // which sent an alert titled with the file's name).
        for given in ["--file", "-f", "--payload-file", "--json-file"] {
            let r = try InProcess.apnsctl(["send", given, "alert.json", "-d", Self.token(1)])
            #expect(r.status == 64, "\(given): \(r.stderr)")
            #expect(
                r.errorLines.first?.hasPrefix("error: Unknown option '\(given)'. The payload is send's argument: ")
                    == true, "\(given): \(r.stderr)")
        }
        // The -d forgotten after the payload, and `mock start`: what to type instead.
        let forgotten = try InProcess.apnsctl(["send", "-p", "mock", "alert.json", Self.token(1)])
        #expect(forgotten.status == 64, "\(forgotten.stderr)")
        #expect(
            forgotten.errorLines.first
                == "error: Unexpected argument '\(Self.token(1))'. A device token goes with -d: -d \(Self.token(1))",
            "\(forgotten.stderr)")
        // As Xcode prints it (`<a1b2 …>`): the advice gives the token as it pastes into a shell.
        let spaced =
            "<"
            + stride(from: 0, to: 64, by: 8).map { i in
                String(Self.token(1).dropFirst(i).prefix(8))
            }.joined(separator: " ") + ">"
        let xcode = try InProcess.apnsctl(["send", "-p", "mock", "alert.json", spaced])
        #expect(
            xcode.errorLines.first?.hasSuffix(". A device token goes with -d: -d \(Self.token(1))") == true,
            "\(xcode.stderr)")
        // A list pasted after one -d (`-d $(cat tokens.txt)`): one short line, not every token quoted.
        let pasted = try InProcess.apnsctl(
            ["send", "-p", "mock", "--alert", "Hi", "-d"] + (1...5).map { Self.token($0) })
        #expect(pasted.status == 64, "\(pasted.stderr)")
        #expect(
            pasted.errorLines.first
                == "error: 4 device tokens given as arguments (\(Self.token(2)), \(Self.token(3)), …); -d takes one token: give each its own -d, or put them in a file, one a line, and pass --devices FILE (--devices - reads them from a pipe)",
            "\(pasted.stderr)")
        #expect(!pasted.stderr.contains(Self.token(5)), "\(pasted.stderr)")
        // 20,000 of them, beside a certificate (whose passphrase an extra word may be): one line, in linear time
        // (each word was searched for in the parser's line of every word: minutes).
        let many = try InProcess.apnsctl(
            ["send", "--cert", "push.pem", "--alert", "Hi", "-d"] + (1...20_000).map { Self.token($0) }, timeout: 30)
        #expect(!many.timedOut && many.status == 64, "\(many.stderr.prefix(300))")
        #expect(
            many.errorLines.first?.hasPrefix("error: 19999 device tokens given as arguments") == true
                && many.stderr.utf8.count < 2_000, "\(many.stderr.prefix(300))")
        let start = try InProcess.apnsctl(["mock", "start"])
        #expect(start.status == 64, "\(start.stderr)")
        #expect(
            start.errorLines.first?.hasPrefix(
                "error: Unexpected argument 'start'. apnsctl mock starts it (add --detach")
                == true, "\(start.stderr)")
        // `config edit`: the user's own editor, and the commands that change one key.
        let edit = try InProcess.apnsctl(["config", "edit"])
        #expect(edit.status == 64, "\(edit.stderr)")
        #expect(
            edit.errorLines.first
                == "error: Unexpected argument 'edit'. apnsctl has no editor of its own: open the file apnsctl config path names in yours, or change one key with apnsctl config set, unset, add-device or remove-device",
            "\(edit.stderr)")
        // Another history's words for removing or resending an entry: the command that does it.
        for (words, advice) in [
            (["history", "rm", "3"], "error: history has no rm command: apnsctl history clear removes every entry"),
            (["history", "delete"], "error: history has no delete command: apnsctl history clear removes every entry"),
            (
                ["history", "replay", "3"],
                "error: history has no replay command: apnsctl send --replay 3 sends an entry"
            ),
            (["history", "resend", "last"], "error: history has no resend command: apnsctl send --replay last sends"),
        ] {
            let r = try InProcess.apnsctl(words)
            #expect(r.status == 64, "\(words): \(r.stderr)")
            #expect(r.errorLines.first?.hasPrefix(advice) == true, "\(words): \(r.stderr)")
        }
        // A simulator's name for itself given to -d: --simulator chooses one.
        let credentials = try TestCredentials()
        for value in ["booted", "A1B2C3D4-E5F6-4789-9ABC-DEF012345678"] {
            let r = try InProcess.apnsctl(
                ["send", "--alert", "hi", "-d", value, "--cert", credentials.pushFile, "--dry-run"])
            #expect(r.status == 64, "\(value): \(r.stderr)")
            #expect(
                r.errorLines.first?.hasSuffix(
                    "; a simulator is chosen with --simulator (booted, its UDID or its name), not -d") == true,
                "\(value): \(r.stderr)")
        }
        // `-d -`, a list piped in: --devices - reads one.
        let dash = try InProcess.apnsctl(
            ["send", "--alert", "hi", "-d", "-", "--cert", credentials.pushFile, "--dry-run"],
            stdin: Array("\(Self.token(1))\n".utf8))
        #expect(dash.status == 64, "\(dash.stderr)")
        #expect(
            dash.errorLines.first?.hasSuffix(
                "; -d takes one token: a list from a pipe goes to --devices - (one token a line)") == true,
            "\(dash.stderr)")
        // An alert typed for a channel: the events a broadcast can carry (a start is refused), and --live-activity for
        // the missing timestamp too (it sets one), not --timestamp beside it.
        let broadcast = try InProcess.apnsctl(
            ["send", "--channel", "YWJjZA==", "--alert", "Hi", "--cert", credentials.pushFile, "--dry-run"])
        #expect(broadcast.status == 65, "\(broadcast.stderr)")
        #expect(
            broadcast.errorLines.prefix(2).allSatisfy { $0.hasSuffix("; add --live-activity update|end") },
            "\(broadcast.stderr)")
        #expect(!broadcast.stderr.contains("start|update|end"), "\(broadcast.stderr)")
        #expect(!broadcast.stderr.contains("--timestamp now"), "\(broadcast.stderr)")
        // Only where the command has the flag: jwt takes no --ca-file.
        let jwt = try InProcess.apnsctl(["jwt", "--cacert", "x"])
        #expect(jwt.status == 64)
        #expect(!jwt.stderr.contains("--ca-file"), "\(jwt.stderr)")
        // A spelling of two meanings takes the one the command has: jwt's key file is the .p8.
        let keyfile = try InProcess.apnsctl(["jwt", "--keyfile", "x"])
        #expect(
            keyfile.errorLines.first == "error: Unknown option '--keyfile'. Did you mean '--auth-key'?",
            "\(keyfile.stderr)")
    }

    /// A .p12 or a certificate given to --auth-key: 77 before any passphrase is asked for (the .p12 here has a
    /// password and no terminal is attached; asking would be a 77 of its own). `send` says it belongs in --cert;
    /// `jwt`, which has no --cert and signs only with a .p8, says a token needs the .p8.
    @Test func aCertificateGivenToAuthKeyBelongsInCert() throws {
        let mock = try InProcessMock()
        let scratch = try TemporaryDirectory(prefix: "auth-key-cert")
        let p12 = scratch.file("push.p12")
        try OpenSSLFixtures.exportPKCS12(mock.certificate, to: p12, passphrase: "secret")
        for file in [p12, mock.certificate] {
            for command in [
                ["jwt", "--auth-key", file, "--team-id", mock.teamID, "--key-id", "ABCDE12345"],
                // Without --key-id the key is read at another step; the advice is the same.
                ["jwt", "--auth-key", file, "--team-id", mock.teamID],
                ["jwt", "--decode", "a.b.c", "--auth-key", file],
                [
                    "send", "--auth-key", file, "--team-id", mock.teamID, "--key-id", "ABCDE12345", "--topic",
                    mock.bundleID,
                    "--endpoint", mock.endpoint, "--ca-file", mock.caFile, "-d", Self.token(1),
                ],
            ] {
                let r = try InProcess.apnsctl(command)
                #expect(r.status == 77, "\(command): \(r.stderr)")
                let advice =
                    command[0] == "jwt"
                    ? "error: --auth-key \(file): this is a \(file == p12 ? "PKCS#12" : "certificate")"
                    : "not a .p8 signing key; a certificate belongs in --cert (--cert \(file))"
                #expect(r.errorLines.count == 1 && r.stderr.contains(advice), "\(command): \(r.stderr)")
                #expect(
                    command[0] != "jwt"
                        || r.stderr.hasSuffix(
                            "not a .p8 signing key; provider tokens are signed with a .p8 key from the Apple "
                                + "Developer portal (Keys), never with a certificate's key\n"),
                    "\(r.stderr)")
                #expect(command[0] != "jwt" || !r.stderr.contains("--cert"), "jwt has no --cert: \(r.stderr)")
                #expect(!r.stderr.contains("passphrase"), "\(r.stderr)")
            }
        }
        // From a profile, jwt names the profile's line, not a --auth-key that was never typed.
        let settings = try scratch.write(
            "config.toml", "[profiles.x]\nauth-key = \"\(mock.certificate)\"\n", mode: 0o600)
        let fromProfile = try InProcess.apnsctl(["jwt", "--config", settings, "-p", "x", "--team-id", mock.teamID])
        #expect(fromProfile.status == 77, "\(fromProfile.stderr)")
        #expect(
            fromProfile.stderr.hasPrefix("error: auth-key in profile x (\(settings):2) \(mock.certificate): this is a"),
            "\(fromProfile.stderr)")
    }

    /// An error about a flag's value names the flag, not the payload file, even when the rule is the validator's.
    @Test func aHeaderRuleNamesTheFlagNotThePayloadFile() throws {
        let mock = try InProcessMock()
        let scratch = try TemporaryDirectory(prefix: "flag-rule")
        let silent = try scratch.write("silent.json", #"{"aps":{"content-available":1}}"#)
        let base = [
            "send", silent, "--cert", mock.certificate, "--endpoint", mock.endpoint, "--ca-file", mock.caFile, "-d",
            Self.token(1),
        ]
        let priority = try InProcess.apnsctl(base + ["--priority", "10"])
        #expect(priority.status == 65, "\(priority.stderr)")
        #expect(
            priority.errorLines.first?.hasPrefix("error: --priority 10: background pushes must not use priority 10")
                == true, "\(priority.stderr)")
        #expect(!priority.stderr.contains("silent.json:1:1"), "\(priority.stderr)")
        let topic = try InProcess.apnsctl(base + ["--push-type", "voip", "--topic", mock.bundleID])
        #expect(topic.status == 65, "\(topic.stderr)")
        #expect(
            topic.errorLines.first?.hasPrefix(
                "error: --topic \(mock.bundleID): topic \"\(mock.bundleID)\" lacks the \".voip\" suffix") == true,
            "\(topic.stderr)")
    }

    @Test func aMistypedMockReasonGetsADidYouMean() throws {
        let scratch = try TemporaryDirectory(prefix: "mock-reason")
        let r = try InProcess.apnsctl([
            "mock", "--port", "0", "--state-dir", scratch.file("state"),
            "--reject", "\(Self.token(1))=Unregisterd",
        ])
        #expect(r.status == 64, "\(r.stderr)")
        #expect(
            r.stderr
                == "error: --reject \(Self.token(1))=Unregisterd: unknown reason 'Unregisterd'; did you mean 'Unregistered'?\n",
            "\(r.stderr)")
    }

    /// A mock rule for a token shorter than a device token can never apply (such a token is answered
    /// BadDeviceToken first): said when the mock starts. (The state dir given is a file, so it stops there.)
    @Test func aMockRuleForAShortTokenIsSaidToNeverApply() throws {
        let scratch = try TemporaryDirectory(prefix: "mock-short")
        let file = try scratch.write("not-a-dir", "x")
        let r = try InProcess.apnsctl([
            "mock", "--port", "0", "--state-dir", file, "--unregistered", "3f2a", "--reject", "3f2a00=TooManyRequests",
            "--reject", "\(Self.token(1))=TooManyRequests",
        ])
        #expect(r.status != 0)
        #expect(
            r.stderr.contains(
                "warning: --unregistered 3f2a: only 4 hex digits; the mock answers any token shorter than 64 with BadDeviceToken first, so this rule never applies"
            ), "\(r.stderr)")
        #expect(r.stderr.contains("warning: --reject 3f2a00: only 6 hex digits"), "\(r.stderr)")
        #expect(!r.stderr.contains("--reject \(Self.token(1))"), "\(r.stderr)")
    }

    /// Two answers for one device (`--unregistered T --reject T=…`, or two `--reject` of one token in any case)
    /// are refused, naming both; the same answer twice is not a contradiction. A rule for the all-zero token,
    /// which the mock answers BadDeviceToken first, is said to never apply. (The state dir given is a file, so a
    /// start that gets past the rules stops there.)
    @Test func contradictoryMockRulesAreRefused() throws {
        let scratch = try TemporaryDirectory(prefix: "mock-rules")
        let file = try scratch.write("not-a-dir", "x")
        let t = Self.token(1)
        let runs: [([String], String)] = [
            (
                ["--unregistered", t, "--reject", "\(t)=BadDeviceToken"],
                "error: --unregistered \(t) and --reject \(t)=BadDeviceToken name one device; give it one answer\n"
            ),
            (
                ["--reject", "\(t)=BadDeviceToken", "--reject", "\(t.uppercased())=Forbidden"],
                "error: --reject \(t)=BadDeviceToken and --reject \(t.uppercased())=Forbidden name one device; give it one answer\n"
            ),
        ]
        for (flags, expected) in runs {
            let r = try InProcess.apnsctl(["mock", "--port", "0", "--state-dir", file] + flags)
            #expect(r.status == 64 && r.stderr == expected, "\(flags): \(r.stderr)")
        }
        let zero = String(repeating: "0", count: 64)
        let same = try InProcess.apnsctl([
            "mock", "--port", "0", "--state-dir", file, "--reject", "\(t)=Forbidden", "--reject", "\(t)=forbidden",
            "--unregistered", zero,
        ])
        #expect(same.status != 64 && !same.stderr.contains("one answer"), "\(same.stderr)")
        #expect(
            same.stderr.contains(
                "warning: --unregistered \(zero): the all-zero token, which APNs never issues; the mock answers it with BadDeviceToken first (doctor probes with it), so this rule never applies"
            ), "\(same.stderr)")
        #expect(!same.stderr.contains("--reject \(t)"), "\(same.stderr)")
    }

    /// `--state-dir ""` (an unset variable in `--state-dir "$DIR"`) is 64: it made the working directory the state
    /// dir and wrote the mock's keys there. So for `mock stop`.
    @Test func anEmptyStateDirIsRefused() throws {
        for args in [["mock", "--port", "0", "--state-dir", ""], ["mock", "stop", "--state-dir", ""]] {
            let r = try InProcess.apnsctl(args)
            #expect(r.status == 64, "\(args): \(r.stderr)")
            #expect(
                r.stderr.hasPrefix("error: --state-dir: empty value; give the mock's state directory\n"), "\(r.stderr)")
        }
    }

    /// `--state-dir '~/mock'` (quoted, or from a file): a folder named `~` was made in the working directory, which a
    /// later `rm -rf ~` meant for it would turn on the home. Refused before anything is made, as `--log` is.
    @Test func aStateDirWithAnUnexpandedTildeIsRefused() throws {
        let scratch = try TemporaryDirectory(prefix: "mock-tilde")
        let tail =
            ": a ~ is expanded only by a shell, unquoted at a word's start, and this one was not: write the path in full\n"
        for args in [
            ["mock", "--port", "0", "--state-dir", "~/mockx"], ["mock", "stop", "--state-dir", "~/mockx"],
            ["mock", "--port", "0", "--detach", "--log", "~/m.log", "--state-dir", scratch.file("state")],
        ] {
            let r = try InProcess.apnsctl(args, directory: scratch.path)
            #expect(r.status == 64, "\(args): \(r.stderr)")
            let flag = args.contains("--log") ? "--log '~/m.log'" : "--state-dir '~/mockx'"
            #expect(r.stderr.hasPrefix("error: \(flag)" + tail), "\(r.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: scratch.file("~")))
        #expect(!FileManager.default.fileExists(atPath: scratch.file("state")))
    }

    /// `mock --host` with an address this machine does not have, or a name that does not resolve: the flag is named,
    /// with the addresses it takes (it was "cannot resolve 999.1.1.1: …" alone). Exit 69 stays.
    @Test func aHostTheMockCannotListenOnNamesTheFlag() throws {
        let scratch = try TemporaryDirectory(prefix: "mock-host")
        let advice = "give an address of this machine: 127.0.0.1 serves it alone, 0.0.0.0 every interface\n"
        // TEST-NET-1: never an address of this machine, and no resolver is asked.
        let foreign = try InProcess.apnsctl(
            ["mock", "--port", "0", "--host", "192.0.2.1", "--state-dir", scratch.file("a")], timeout: 30)
        #expect(foreign.status == 69, "\(foreign.stderr)")
        #expect(foreign.stderr.hasPrefix("error: --host 192.0.2.1: "), "\(foreign.stderr)")
        #expect(foreign.stderr.hasSuffix(", so it is no address of this machine; " + advice), "\(foreign.stderr)")
        let bad = try InProcess.apnsctl(
            ["mock", "--port", "0", "--host", "999.1.1.1", "--state-dir", scratch.file("b")], timeout: 60)
        #expect(bad.status == 69, "\(bad.stderr)")
        #expect(bad.stderr.hasPrefix("error: --host 999.1.1.1: cannot resolve it ("), "\(bad.stderr)")
        #expect(bad.stderr.hasSuffix("); " + advice), "\(bad.stderr)")
    }

    /// `--auth-key-pub` under the state dir's own key id: the state dir's key answers for that id, so the added
    /// key's tokens were refused (403) by a mock that had started without a word. Refused at start.
    @Test func anAddedKeyUnderTheMockKeysIDIsRefused() throws {
        let first = try InProcessMock()
        let scratch = try TemporaryDirectory(prefix: "mock-kid")
        let extra = scratch.file("extra.p8")
        try OpenSSLFixtures.makeP8Key(at: extra, publicKeyPath: scratch.file("extra.pub"))
        #expect {
            _ = try InProcessMock(["--auth-key-pub", extra, "--key-id", first.keyID], sharingCredentialsWith: first)
        } throws: { error in
            (error as? CLIError)?.message?.hasPrefix(
                "--key-id \(first.keyID): key id \(first.keyID) is the mock's own key's (") == true
        }
        // A file that holds no usable key is named by the flag, with what the mock takes (no .p12; a public key
        // will do), not send's advice to pass a .p12 or to download the .p8.
        let junk = try scratch.write("junk.pem", "hello\n")
        let rsa = scratch.file("rsa.pem")
        #expect(
            try CommandRunner.run(
                "openssl", ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:1024", "-out", rsa]
            )
            .status == 0)
        let takes =
            "give the .p8 signing key, its public key (openssl pkey -in AuthKey_ABCDE12345.p8 -pubout) or a certificate holding it"
        for (file, said) in [
            (junk, "--auth-key-pub \(junk): no key in it (neither PEM text nor DER data); \(takes)"),
            (rsa, "--auth-key-pub \(rsa): an RSA 1024 private key, where APNs signing keys are EC P-256; \(takes)"),
        ] {
            #expect {
                _ = try InProcessMock(
                    ["--auth-key-pub", file, "--key-id", "ABCDE12345"], sharingCredentialsWith: first)
            } throws: { error in
                (error as? CLIError)?.message == said && (error as? CLIError)?.exitCode == 77
            }
        }
        // Another id is fine, as before.
        let other = first.keyID == "ABCDE12345" ? "ABCDE12346" : "ABCDE12345"
        _ = try InProcessMock(["--auth-key-pub", extra, "--key-id", other], sharingCredentialsWith: first)
    }

    /// A TopicDisallowed line names the topic sent and the certificate's topics: the two things to compare.
    @Test func topicDisallowedNamesTheTopicSentAndTheCertificatesTopics() throws {
        let mock = try InProcessMock(["--reject", "\(Self.token(1))=TopicDisallowed"])
        let r = try InProcess.apnsctl([
            "send", "--cert", mock.certificate, "--endpoint", mock.endpoint, "--ca-file", mock.caFile,
            "-d", Self.token(1),
        ])
        #expect(r.status == 1, "\(r.stderr)")
        let line = try #require(r.lines.first { $0.contains("TopicDisallowed") })
        #expect(
            line.hasSuffix("(sent apns-topic \"\(mock.bundleID)\"; the certificate's topics: \(mock.bundleID))")
                || line.contains("(sent apns-topic \"\(mock.bundleID)\"; the certificate's topics: \(mock.bundleID)"),
            "\(line)")
    }

    /// Slips between a command's words: a list's file given to `-d` is told `--devices`; an entry's id where
    /// `history`'s subcommand goes is told `history show`.
    @Test func aListFileToDAndAnEntryIDToHistoryGetTheirCommand() throws {
        let dir = try TemporaryDirectory(prefix: "slips")
        let list = try dir.write("ten.txt", Self.token(1) + "\n")
        let cert = try dir.pem("push.pem", CredentialFixtures.development)
        let r = try InProcess.apnsctl(
            ["send", "--cert", cert, "--alert", "hi", "-d", list, "--endpoint", "https://127.0.0.1:9"])
        #expect(r.status == 64)
        #expect(
            r.errorLines.first?.hasSuffix(
                "the device token must be hex, found '/'; that is a file: to send to the devices it lists, give --devices \(list)"
            )
                == true, "\(r.stderr)")
        // curl's -d habit: the payload given to -d is told where a payload goes.
        for payload in [#"{"aps":{"alert":"hi"}}"#, "@payload.json"] {
            let curl = try InProcess.apnsctl(
                ["send", "--cert", cert, "-d", payload, "--endpoint", "https://127.0.0.1:9"])
            #expect(curl.status == 64)
            #expect(
                curl.errorLines.first?.hasSuffix(
                    "; -d is --device here, not curl's --data: the payload is send's argument (a file, - for standard input, or inline JSON starting with {), without a flag"
                ) == true, "\(curl.stderr)")
        }
        // curl's @FILE given as PAYLOAD, or to validate: the file's name alone.
        let payloadFile = try dir.write("p.json", #"{"aps":{"alert":"hi"}}"#)
        for arguments in [
            ["send", "--cert", cert, "-d", Self.token(1), "@" + payloadFile, "--endpoint", "https://127.0.0.1:9"],
            ["validate", "@" + payloadFile],
        ] {
            let at = try InProcess.apnsctl(arguments)
            #expect(at.status == 66)
            #expect(at.stderr.contains("the file's name without curl's @: give \(payloadFile)"), "\(at.stderr)")
        }
        for (given, id) in [("5", "5"), ("last", "last"), ("#5", "5")] {
            let h = try InProcess.apnsctl(["history", given], environment: ["XDG_STATE_HOME": dir.file("state")])
            #expect(h.status == 64)
            #expect(
                h.errorLines.first
                    == "error: Unexpected argument '\(given)'. Did you mean 'apnsctl history show \(id)'?",
                "\(h.stderr)")
        }
    }

    /// `APNSCTL_DRY_RUN=1` makes no dry run (the push goes out), and `APNSCTL_TOPC` sets no topic: both are
    /// said, not silently ignored; a variable of another tool's (`APNSCTL_BUILD_NUMBER`) is left alone.
    @Test func variablesApnsctlDoesNotReadAreSaid() throws {
        let mock = try InProcessMock()
        let r = try InProcess.apnsctl(
            [
                "send", "--endpoint", mock.endpoint, "--ca-file", mock.caFile, "--cert", mock.certificate, "--alert",
                "hi", "-d", Self.token(1),
            ],
            environment: ["APNSCTL_ALERT": "1", "APNSCTL_TOPC": "com.example.demo", "APNSCTL_BUILD_NUMBER": "7"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.errorLines == [
                "warning: APNSCTL_ALERT is not read: --alert has no variable (variables set settings only; apnsctl config show lists them); give --alert on the command line",
                "warning: APNSCTL_TOPC is not a variable apnsctl reads; did you mean APNSCTL_TOPIC?",
            ], "\(r.stderr)")
        // APNSCTL_DRY_RUN=1 is refused: a script that meant a dry run sends nothing (with --dry-run, nothing to say).
        let dry = try InProcess.apnsctl(
            [
                "send", "--endpoint", mock.endpoint, "--ca-file", mock.caFile, "--cert", mock.certificate, "--alert",
                "hi", "-d", Self.token(1),
            ], environment: ["APNSCTL_DRY_RUN": "1"])
        #expect(dry.status == 64 && dry.stdout.isEmpty, "\(dry.stderr)")
        #expect(dry.stderr.hasPrefix("error: APNSCTL_DRY_RUN is set, but --dry-run has no variable"), "\(dry.stderr)")
        // So is the name in another case (it was not looked at, and the push went out).
        for name in ["apnsctl_dry_run", "Apnsctl_Dry_Run"] {
            let other = try InProcess.apnsctl(
                [
                    "send", "--endpoint", mock.endpoint, "--ca-file", mock.caFile, "--cert", mock.certificate,
                    "--alert", "hi", "-d", Self.token(1),
                ], environment: [name: "1"])
            #expect(other.status == 64 && other.stdout.isEmpty, "\(name): \(other.stderr)")
            #expect(other.stderr.hasPrefix("error: \(name) is set, but --dry-run has no variable"), "\(other.stderr)")
        }
        // A value that says no (a pipeline's ${DRY:-0}) is only said; beside --dry-run, nothing is.
        let no = try InProcess.apnsctl(
            [
                "send", "--endpoint", mock.endpoint, "--ca-file", mock.caFile, "--cert", mock.certificate, "--alert",
                "hi", "-d", Self.token(1),
            ], environment: ["APNSCTL_DRY_RUN": "0"])
        #expect(no.status == 0 && no.stderr.hasPrefix("warning: APNSCTL_DRY_RUN is not read"), "\(no.stderr)")
        let both = try InProcess.apnsctl(
            [
                "send", "--endpoint", mock.endpoint, "--ca-file", mock.caFile, "--cert", mock.certificate, "--alert",
                "hi", "-d", Self.token(1), "--dry-run",
            ], environment: ["APNSCTL_DRY_RUN": "1", "APNSCTL_P8_FILE": "k.p8"])
        #expect(
            both.status == 0
                && both.errorLines == [
                    "warning: APNSCTL_P8_FILE is not a variable apnsctl reads; did you mean APNSCTL_AUTH_KEY?"
                ], "\(both.stderr)")
        // Said before the settings are refused for the credential the misspelt variable meant to give.
        let typo = try InProcess.apnsctl(
            ["send", "--alert", "hi", "-d", Self.token(1), "--endpoint", mock.endpoint],
            environment: ["APNSCTL_CERTT": mock.certificate, "APNSCTL_HOST": "example.com"])
        #expect(typo.status == 64)
        #expect(
            typo.errorLines.first
                == "warning: APNSCTL_CERTT is not a variable apnsctl reads; did you mean APNSCTL_CERT?",
            "\(typo.stderr)")
        #expect(typo.errorLines.last?.hasPrefix("error: no credential") == true, "\(typo.stderr)")
        #expect(!typo.stderr.contains("APNSCTL_HOST"), "\(typo.stderr)")
        // Another tool's name for a setting is named too, and doctor, jwt and channel say them as send does.
        let state = ["APNSCTL_MOCK_STATE_DIR": mock.stateDirectory.path, "APNSCTL_ENVIRONMENT": "production"]
        for command in [
            ["doctor", "-p", "mock"], ["jwt", "-p", "mock-token"], ["channel", "list", "-p", "mock-token"],
        ] {
            let r = try InProcess.apnsctl(command, environment: state)
            #expect(
                r.errorLines.first
                    == "warning: APNSCTL_ENVIRONMENT is not a variable apnsctl reads; did you mean APNSCTL_ENV?",
                "\(command): \(r.stderr)")
        }
    }

    /// A misspelt dry-run variable (`APNSCTL_DRYRUN=1`) sent for real without a word, and `channel delete` beside
    /// `APNSCTL_DRY_RUN=1` deleted: both refuse now; misspellings that no near name caught are named.
    @Test func aDryRunVariableMisspeltOrBesideChannelIsRefused() throws {
        let mock = try InProcessMock()
        let send = [
            "send", "--endpoint", mock.endpoint, "--ca-file", mock.caFile, "--cert", mock.certificate, "--alert",
            "hi", "-d", Self.token(1),
        ]
        for name in ["APNSCTL_DRYRUN", "APNSCTL_DRY_RUNS", "APNSCTL_DRY"] {
            let r = try InProcess.apnsctl(send, environment: [name: "true"])
            #expect(r.status == 64 && r.stdout.isEmpty, "\(name): \(r.stderr)")
            #expect(r.stderr.hasPrefix("error: \(name) is set, but --dry-run has no variable"), "\(r.stderr)")
        }
        #expect(try InProcess.apnsctl(send, environment: ["APNSCTL_DRYRUN": "off"]).status == 0)
        let state = ["APNSCTL_MOCK_STATE_DIR": mock.stateDirectory.path, "APNSCTL_DRY_RUN": "1"]
        for (command, change) in [
            (["channel", "create", "-p", "mock-token"], "created"),
            (["channel", "delete", "-p", "mock-token", "--yes", "dHN0LXNyYw=="], "deleted"),
        ] {
            let r = try InProcess.apnsctl(command, environment: state)
            #expect(r.status == 64 && r.stdout.isEmpty, "\(command): \(r.stderr)")
            #expect(
                r.stderr.hasPrefix(
                    "error: APNSCTL_DRY_RUN is set, but channel has no dry run, and nothing was \(change)"),
                "\(r.stderr)")
        }
        // Reading channels changes nothing: only the usual warning.
        let list = try InProcess.apnsctl(["channel", "list", "-p", "mock-token"], environment: state)
        #expect(list.status == 0, "\(list.stderr)")
        // Misspellings no near name caught before.
        for (name, expected) in [
            ("APNSCTL_ENVIROMENT", "APNSCTL_ENV"), ("APNSCTL_CONFIG_FILE", "APNSCTL_CONFIG"),
            ("APNSCTL_CERT_PATH", "APNSCTL_CERT"), ("APNSCTL_SANDBOX", "APNSCTL_ENV=sandbox"),
            ("APNSCTL_PASSPHRASE_PATH", "APNSCTL_PASSPHRASE_FILE"),
        ] {
            let r = try InProcess.apnsctl(
                ["jwt", "-p", "mock-token"],
                environment: [
                    "APNSCTL_MOCK_STATE_DIR": mock.stateDirectory.path, name: "1",
                ])
            #expect(
                r.errorLines.first == "warning: \(name) is not a variable apnsctl reads; did you mean \(expected)?",
                "\(name): \(r.stderr)")
        }
        // A value's name with _FILE (Docker's "read it from this file") is told the variable holds the value; another
        // tool's name for a path setting with _FILE is that setting; two letters from another tool's name for another
        // setting get no wrong suggestion; a switch set to false means the other environment.
        let tokenKeyID = try InProcess.apnsctl(
            ["jwt", "-p", "mock-token"],
            environment: ["APNSCTL_MOCK_STATE_DIR": mock.stateDirectory.path, "APNSCTL_TOKEN_KEY_ID": "x"])
        #expect(tokenKeyID.errorLines.isEmpty, "\(tokenKeyID.stderr)")
        // APNSCTL_OUTPUT is a format, not a value a file would hold: no advice to cat one into it.
        let outputFile = try InProcess.apnsctl(
            ["jwt", "-p", "mock-token"],
            environment: ["APNSCTL_MOCK_STATE_DIR": mock.stateDirectory.path, "APNSCTL_OUTPUT_FILE": "x"])
        #expect(!outputFile.stderr.contains("cat FILE"), "\(outputFile.stderr)")
        for (name, expected) in [
            (
                "APNSCTL_TEAM_ID_FILE",
                "APNSCTL_TEAM_ID_FILE is not a variable apnsctl reads: APNSCTL_TEAM_ID holds the value itself, not a file's (APNSCTL_TEAM_ID=\"$(cat FILE)\")"
            ),
            (
                "APNSCTL_CA_CERT_FILE",
                "APNSCTL_CA_CERT_FILE is not a variable apnsctl reads; did you mean APNSCTL_CA_FILE?"
            ),
            (
                "APNSCTL_CERTIFICATE_PATH",
                "APNSCTL_CERTIFICATE_PATH is not a variable apnsctl reads; did you mean APNSCTL_CERT?"
            ),
            ("APNSCTL_APP_PATH", "APNSCTL_APP_PATH is not a variable apnsctl reads; did you mean APNSCTL_APP?"),
            (
                "APNSCTL_PASSPHRASE_FILE_PATH",
                "APNSCTL_PASSPHRASE_FILE_PATH is not a variable apnsctl reads; did you mean APNSCTL_PASSPHRASE_FILE?"
            ),
            // A password's variable is the passphrase's own (it was pointed at APNSCTL_PASSPHRASE_FILE, which then
            // took the password for a path); KEY_PASSWORD was not said at all.
            ("APNSCTL_PASSWORD", "APNSCTL_PASSWORD is not a variable apnsctl reads; did you mean APNSCTL_PASSPHRASE?"),
            (
                "APNSCTL_KEY_PASSWORD",
                "APNSCTL_KEY_PASSWORD is not a variable apnsctl reads; did you mean APNSCTL_PASSPHRASE?"
            ),
            (
                "APNSCTL_OUT_PASSWORD",
                "APNSCTL_OUT_PASSWORD is not a variable apnsctl reads; did you mean APNSCTL_OUT_PASSPHRASE?"
            ),
            // A variable apnsctl reads, in lower case, sets nothing: said (it was not).
            (
                "apnsctl_topic",
                "apnsctl_topic is not read: variable names are upper case; did you mean APNSCTL_TOPIC?"
            ),
            // The payload is an argument: its variable was silently ignored, and the default alert sent.
            (
                "APNSCTL_PAYLOAD",
                "APNSCTL_PAYLOAD is not read: the payload has no variable; give it as send's argument (a file, JSON text, or - for standard input)"
            ),
            // Misspelt too: judged as its upper case is, said under the name given (it was not said at all).
            ("apnsctl_topc", "apnsctl_topc is not a variable apnsctl reads; did you mean APNSCTL_TOPIC?"),
            ("Apnsctl_Enviroment", "Apnsctl_Enviroment is not a variable apnsctl reads; did you mean APNSCTL_ENV?"),
            (
                "APNSCTL_PASSWORD_FILE",
                "APNSCTL_PASSWORD_FILE is not a variable apnsctl reads; did you mean APNSCTL_PASSPHRASE_FILE?"
            ),
        ] {
            let r = try InProcess.apnsctl(
                ["jwt", "-p", "mock-token"],
                environment: ["APNSCTL_MOCK_STATE_DIR": mock.stateDirectory.path, name: "x"])
            #expect(r.errorLines.first == "warning: " + expected, "\(name): \(r.stderr)")
        }
        let production = try InProcess.apnsctl(
            ["jwt", "-p", "mock-token"],
            environment: [
                "APNSCTL_MOCK_STATE_DIR": mock.stateDirectory.path, "APNSCTL_SANDBOX": "false",
            ])
        #expect(
            production.errorLines.first?.hasSuffix("did you mean APNSCTL_ENV=production?") == true,
            "\(production.stderr)")
        // config show, where a CI user looks for why a setting is not what the job set, says them too.
        let show = try InProcess.apnsctl(
            ["config", "show"], environment: ["APNSCTL_TOPC": "com.x", "APNSCTL_DRYRUN": "1"])
        #expect(show.status == 0, "\(show.stderr)")
        #expect(
            show.errorLines == [
                "warning: APNSCTL_DRYRUN is not read: --dry-run has no variable (send refuses to run beside this one unless it is 0, false, no or off); give --dry-run on the command line",
                "warning: APNSCTL_TOPC is not a variable apnsctl reads; did you mean APNSCTL_TOPIC?",
            ],
            "\(show.stderr)")
    }

    /// A CI secret holding a `.p12` in base64 is said to be base64, with how to decode it, not called a long
    /// path; a long path is still refused as one, and neither is quoted.
    @Test func aBase64CredentialInAVariableIsToldHowToDecodeIt() throws {
        let encoded = Data((0..<600).map { UInt8(truncatingIfNeeded: $0 &* 7) }).base64EncodedString()
        let device = ["send", "--alert", "hi", "-d", Self.token(1), "--endpoint", "https://127.0.0.1:9"]
        let r = try InProcess.apnsctl(device, environment: ["APNSCTL_CERT": encoded])
        #expect(r.status == 64)
        #expect(
            r.errorLines.first?.hasSuffix(
                "\(encoded.count) characters of base64 (a file encoded for a CI secret, say), not a path or PEM text; decode it to a file of your own and give its path, e.g. umask 077; printf %s \"$APNSCTL_CERT\" | base64 -d > push.p12, then APNSCTL_CERT=push.p12"
            ) == true, "\(r.stderr)")
        #expect(!r.stderr.contains(encoded.prefix(40)))
        // Wrapped at 76 columns, as GNU base64 writes it: it was "PEM from APNSCTL_CERT", not a certificate.
        let wrapped =
            stride(from: 0, to: encoded.count, by: 76).map {
                String(encoded.dropFirst($0).prefix(76))
            }.joined(separator: "\n") + "\n"
        let lines = try InProcess.apnsctl(device, environment: ["APNSCTL_CERT": wrapped])
        #expect(lines.status == 64, "\(lines.stderr)")
        #expect(lines.stderr.contains("characters of base64 (a file encoded for a CI secret, say)"), "\(lines.stderr)")
        #expect(!lines.stderr.contains(encoded.prefix(40)))
        // A .p8's body without its BEGIN and END lines: said, where it was "no such file".
        let body = String(decoding: try CredentialFixtures.signingKey.p8PEM, as: UTF8.self).split(separator: "\n")
            .filter {
                !$0.hasPrefix("-----")
            }
            .joined()
        let key = try InProcess.apnsctl(
            ["jwt", "--team-id", "TEAMID1234", "--key-id", "ABCDE12345"], environment: ["APNSCTL_AUTH_KEY": body])
        #expect(key.status == 64, "\(key.stderr)")
        #expect(
            key.stderr.contains(
                "and no file has that name: put the key's -----BEGIN PRIVATE KEY----- and -----END PRIVATE KEY----- lines around it in APNSCTL_AUTH_KEY, or give the path of its file"
            ), "\(key.stderr)")
        #expect(!key.stderr.contains(body.prefix(20)))
        // The body as copied from between its lines, line breaks and all: the same advice (it was "neither PEM text
        // nor DER data", exit 77).
        let lined = String(decoding: try CredentialFixtures.signingKey.p8PEM, as: UTF8.self).split(separator: "\n")
            .filter { !$0.hasPrefix("-----") }.joined(separator: "\n")
        let multi = try InProcess.apnsctl(
            ["jwt", "--team-id", "TEAMID1234", "--key-id", "ABCDE12345"], environment: ["APNSCTL_AUTH_KEY": lined])
        #expect(multi.status == 64, "\(multi.stderr)")
        #expect(multi.stderr.contains("and no file has that name: put the key's -----BEGIN PRIVATE KEY-----"))
        // A real .p12 or .cer in base64 on one line starts `MII` as a key's body does: still a file to decode.
        let p12 = try CredentialFixtures.universal.pkcs12(password: SecretBytes(Array("pw".utf8)))
        let cer = CredentialFixtures.universal.certificate.der
        for (bytes, file) in [(p12, "push.p12"), (cer, "push.cer")] {
            let oneLine = Data(bytes).base64EncodedString()
            let r = try InProcess.apnsctl(device, environment: ["APNSCTL_CERT": oneLine])
            #expect(r.status == 64, "\(r.stderr)")
            #expect(
                r.errorLines.first?.hasSuffix(
                    "characters of base64 (a file encoded for a CI secret, say), not a path or PEM text; decode it to a file of your own and give its path, e.g. umask 077; printf %s \"$APNSCTL_CERT\" | base64 -d > \(file), then APNSCTL_CERT=\(file)"
                ) == true, "\(r.stderr)")
            #expect(!r.stderr.contains(oneLine.prefix(20)))
        }
        let long = "/tmp/" + String(repeating: "deep.folder/", count: 20) + "push.p12"
        let path = try InProcess.apnsctl(device, environment: ["APNSCTL_CERT": long])
        #expect(path.status == 64)
        #expect(path.stderr.contains("a path of \(long.count) characters"), "\(path.stderr)")
    }

    /// A credential's path in a variable with a CR or LF after it (a Windows .env file, echo into $GITHUB_ENV) was
    /// taken for PEM text and called "not a certificate": the line break is named.
    @Test func aCredentialPathWithALineBreakInAVariableIsSaidToHaveOne() throws {
        let mock = try InProcessMock()
        let device = ["send", "--alert", "hi", "-d", Self.token(1), "--endpoint", mock.endpoint]
        for (name, value) in [
            ("APNSCTL_CERT", mock.certificate + "\r"), ("APNSCTL_CERT", mock.certificate + "\n"),
            ("APNSCTL_AUTH_KEY", mock.stateDirectory.file("ca.pem") + "\r\n"),
        ] {
            let r = try InProcess.apnsctl(device, environment: [name: value, "APNSCTL_TEAM_ID": "TEAMID1234"])
            #expect(r.status == 64, "\(name): \(r.stderr)")
            #expect(r.stderr.contains("has a line break or blank around it"), "\(r.stderr)")
        }
        // A blank alone is no PEM: it was "no such file" with a name that looked right. Said, for flags too.
        for (name, value, file) in [
            ("APNSCTL_CERT", mock.certificate + " ", mock.certificate),
            ("--cert", " " + mock.certificate, mock.certificate),
            ("--ca-file", mock.caFile + " ", mock.caFile), ("APNSCTL_CA_FILE", mock.caFile + " ", mock.caFile),
        ] {
            let r = try InProcess.apnsctl(
                device + (name.hasPrefix("--") ? [name, value] : []),
                environment: name.hasPrefix("--") ? [:] : [name: value])
            #expect(r.status == 64, "\(name): \(r.stderr)")
            #expect(
                r.stderr.contains(
                    "the path \"\(file)\" has a blank around it (kept by quotes or a .env file's line); remove it"
                ),
                "\(name): \(r.stderr)")
        }
        // The commands that read a file named outright (inspect, convert) say so too; a passphrase file's value is
        // not repeated, in case it is the passphrase itself.
        let inspect = try InProcess.apnsctl(["inspect", mock.certificate + " "])
        #expect(inspect.status == 66, "\(inspect.stderr)")
        #expect(
            inspect.stderr.hasPrefix(
                "error: \(mock.certificate) : no such file; \"\(mock.certificate)\" is one: the path has a blank or an invisible character around it (kept by quotes, a .env file's line or a paste); remove it"
            ), "\(inspect.stderr)")
        // Every file named outright: a payload (whose advice was to give it with --alert), a file to validate, a
        // device list, an invisible character pasted before a name.
        let files = try TemporaryDirectory(prefix: "blank-files")
        let payload = try files.write("p.json", #"{"aps":{"alert":"hi"}}"#)
        let devices = try files.write("devices.txt", Self.token(1) + "\n")
        for (arguments, shown) in [
            (["validate", payload + " "], payload + " "),
            (
                ["send", payload + " ", "-d", Self.token(1), "--endpoint", mock.endpoint, "--cert", mock.certificate],
                payload + " "
            ),
            (
                [
                    "send", "--alert", "hi", "--devices", " " + devices, "--endpoint", mock.endpoint, "--cert",
                    mock.certificate,
                ],
                "--devices  " + devices
            ),
            (["validate", "\u{200B}" + payload], "\u{200B}" + payload),
        ] {
            let r = try InProcess.apnsctl(arguments)
            #expect(r.status == 66, "\(arguments): \(r.stderr)")
            #expect(
                r.stderr.contains(
                    "\(shown): no such file; \"\(arguments.contains("--devices") ? devices : payload)\" is one: the path has a blank or an invisible character around it"
                ), "\(arguments): \(r.stderr)")
            #expect(!r.stderr.contains("--alert"), "\(arguments): \(r.stderr)")
        }
        // An output name with a blank around it is written as given, and said.
        let written = files.file("out.pem") + " "
        let out = try InProcess.apnsctl(["convert", mock.certificate, "-o", written])
        #expect(out.status == 0 && FileManager.default.fileExists(atPath: written), "\(out.stderr)")
        #expect(
            out.stderr.hasPrefix(
                "warning: -o \"\(written)\": the name has a blank around it (kept by quotes, a .env file's line or a paste), and is written as given; without it: -o \(files.file("out.pem"))"
            ), "\(out.stderr)")
        let scratch = try TemporaryDirectory(prefix: "blank-passphrase")
        let passphrase = try scratch.write("pass.txt", "correct horse\n", mode: 0o600)
        let p12 = scratch.file("push.p12")
        let made = try InProcess.apnsctl([
            "convert", mock.certificate, "-o", p12, "--out-passphrase-file", passphrase,
        ])
        #expect(made.status == 0, "\(made.stderr)")
        for command in ["inspect", "convert"] {
            let r = try InProcess.apnsctl(
                [command, p12, "--passphrase-file", " " + passphrase]
                    + (command == "convert" ? ["-o", scratch.file("push.pem")] : []))
            #expect(r.status == 66, "\(command): \(r.stderr)")
            #expect(
                r.stderr.contains(
                    "--passphrase-file: no such file, but its value without the blanks around it names one (kept by quotes, a .env file's line or a paste); remove them"
                ), "\(command): \(r.stderr)")
            #expect(!r.stderr.contains(" " + passphrase), "\(command): \(r.stderr)")
        }
    }

    /// CI secrets a fork's pull request does not get are empty variables: "no credential" says so.
    @Test func emptyCredentialVariablesAreNamedWhenNoCredentialIsFound() throws {
        let device = ["send", "--alert", "hi", "-d", Self.token(1), "--endpoint", "https://127.0.0.1:9"]
        let r = try InProcess.apnsctl(device, environment: ["APNSCTL_AUTH_KEY": "", "APNSCTL_TEAM_ID": ""])
        #expect(r.status == 64)
        #expect(
            r.stderr.hasPrefix(
                "error: no credential: APNSCTL_AUTH_KEY is set but empty (a CI secret this job does not get, such as a fork's pull request?); pass --cert FILE"
            ), "\(r.stderr)")
        let both = try InProcess.apnsctl(["doctor"], environment: ["APNSCTL_AUTH_KEY": "", "APNSCTL_CERT": ""])
        #expect(both.stderr.contains("APNSCTL_CERT and APNSCTL_AUTH_KEY are set but empty"), "\(both.stderr)")
        let jwt = try InProcess.apnsctl(["jwt"], environment: ["APNSCTL_AUTH_KEY": ""])
        #expect(jwt.stderr.contains("set APNSCTL_AUTH_KEY (it is set but empty"), "\(jwt.stderr)")
        let unset = try InProcess.apnsctl(device)
        #expect(unset.stderr.hasPrefix("error: no credential; pass --cert FILE"), "\(unset.stderr)")
    }

    /// Apple's host that does not resolve (no --endpoint given: an offline machine) is no host name to check in
    /// --endpoint; another host is.
    @Test func anUnresolvedAppleHostPointsAtTheNetwork() {
        let apple = TransportFailure.connect(
            .resolve(host: "api.sandbox.push.apple.com", failure: .resolver(code: EAI_AGAIN)))
        #expect(
            apple.message
                == "cannot resolve api.sandbox.push.apple.com: \(ResolveFailure.resolver(code: EAI_AGAIN)); check this machine's network and DNS (can it resolve other names?)"
        )
        let other = TransportFailure.connect(.resolve(host: "apns.invalid", failure: .resolver(code: EAI_NONAME)))
        #expect(other.message.hasSuffix("; check the host name in --endpoint and the network"))
    }

    /// `send -` on a terminal waits for the payload to be typed: it says so, and how to end it; from a pipe it
    /// says nothing.
    @Test func aPayloadReadFromATerminalIsAskedFor() throws {
        let dir = try TemporaryDirectory(prefix: "tty-payload")
        let cert = try dir.pem("push.pem", CredentialFixtures.development)
        let args = ["send", "--cert", cert, "--dry-run", "-d", Self.token(1), "-"]
        let tty = try TestTerminal()
        #expect(tty.play([.send(#"{"aps":{"alert":"typed"}}"# + "\n\u{04}")]) == nil)
        let typed = try InProcess.apnsctl(args, standardInput: tty.fd)
        _ = tty.finish()
        #expect(typed.status == 0, "\(typed.stderr)")
        #expect(
            typed.errorLines.first
                == "apnsctl send: reading the payload from the terminal: type or paste the JSON, then press Ctrl-D on a line of its own",
            "\(typed.stderr)")
        #expect(typed.stdout.contains("typed"), "\(typed.stdout)")
        let piped = try InProcess.apnsctl(args, stdin: Array(#"{"aps":{"alert":"piped"}}"#.utf8))
        #expect(piped.status == 0 && !piped.stderr.contains("reading the payload"), "\(piped.stderr)")
        // `jwt --decode` with no token waits on the terminal too: said, or it looked like a hang.
        let decodeTTY = try TestTerminal()
        #expect(decodeTTY.play([.send("not.a.token\n\u{04}")]) == nil)
        let decoded = try InProcess.apnsctl(["jwt", "--decode"], standardInput: decodeTTY.fd)
        _ = decodeTTY.finish()
        #expect(
            decoded.errorLines.first
                == "apnsctl jwt: reading the token from the terminal: paste it, then press Enter and Ctrl-D",
            "\(decoded.stderr)")
        // Every other reader of `-` says it too: device tokens, a JSON flag's @-, validate's payload, a credential.
        let pem = try String(contentsOfFile: cert, encoding: .utf8)
        let readers: [([String], String, String)] = [
            (
                ["send", "--cert", cert, "--dry-run", "--alert", "x", "--devices", "-"], Self.token(2) + "\n",
                "apnsctl send: reading the device tokens from the terminal: type or paste them, one a line"
            ),
            (
                [
                    "send", "--cert", cert, "--dry-run", "-d", Self.token(1), "--live-activity", "update",
                    "--content-state", "@-",
                ],
                "{}\n", "apnsctl send: reading --content-state @- from the terminal: type or paste the JSON"
            ),
            (
                ["validate", "-"], #"{"aps":{"alert":"x"}}"# + "\n",
                "apnsctl validate: reading the payload from the terminal: type or paste the JSON"
            ),
            (
                ["inspect", "-"], pem,
                "apnsctl: reading a credential (-) from the terminal: paste the PEM (it is not shown)"
            ),
            // /dev/stdin is the same input, and said as `-` is.
            (
                ["send", "--cert", cert, "--dry-run", "-d", Self.token(1), "/dev/stdin"],
                #"{"aps":{"alert":"x"}}"# + "\n",
                "apnsctl send: reading the payload from the terminal: type or paste the JSON"
            ),
            (
                ["send", "--cert", cert, "--dry-run", "--alert", "x", "--devices", "/dev/stdin"], Self.token(2) + "\n",
                "apnsctl send: reading the device tokens from the terminal: type or paste them, one a line"
            ),
            (
                ["validate", "/dev/stdin"], #"{"aps":{"alert":"x"}}"# + "\n",
                "apnsctl validate: reading the payload from the terminal: type or paste the JSON"
            ),
            (
                [
                    "send", "--cert", cert, "--dry-run", "-d", Self.token(1), "--live-activity", "update",
                    "--content-state", "@/dev/stdin",
                ],
                "{}\n", "apnsctl send: reading --content-state @/dev/stdin from the terminal: type or paste the JSON"
            ),
        ]
        for (arguments, text, said) in readers {
            let terminal = try TestTerminal()
            #expect(terminal.play([.send(text + "\u{04}")]) == nil)
            let r = try InProcess.apnsctl(arguments, standardInput: terminal.fd)
            _ = terminal.finish()
            #expect(r.status == 0, "\(arguments): \(r.stderr)")
            #expect(
                r.errorLines.first == said + ", then press Ctrl-D on a line of its own", "\(arguments): \(r.stderr)")
        }
    }

    /// A credential pasted at the terminal for `-` is not echoed (a private key would stay in the scrollback): echo
    /// goes off while it is read, and is back on once it is.
    @Test func aCredentialPastedAtTheTerminalIsNotShown() throws {
        let dir = try TemporaryDirectory(prefix: "paste")
        let text = try String(contentsOfFile: try dir.pem("push.pem", CredentialFixtures.universal), encoding: .utf8)
        let keyLines = text.split(separator: "\n").drop { !$0.contains("PRIVATE KEY-----") }.dropFirst().prefix(3)
        #expect(keyLines.count == 3, "\(text.prefix(100))")
        let echoes = { (fd: Int32) -> Bool in
            var modes = termios()
            return tcgetattr(fd, &modes) == 0 && modes.c_lflag & tcflag_t(ECHO) != 0
        }
        let terminal = try TestTerminal()
        #expect(echoes(terminal.fd))
        let run = try InProcess.Run(["inspect", "-"], stderr: terminal.fd, standardInput: terminal.fd)
        #expect(Wait.until { !echoes(terminal.fd) }, "echo never went off")
        #expect(terminal.play([.send(text + "\u{04}")]) == nil)
        let result = run.result(within: 60)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(echoes(terminal.fd), "echo is back on after the read")
        let shown = terminal.finish() ?? terminal.transcript
        #expect(shown.contains("paste the PEM (it is not shown)"), "\(shown)")
        for line in keyLines { #expect(!shown.contains(line), "\(shown)") }
    }

    /// `--port` beside `--endpoint` is ignored with a warning, whatever port it names (CLI.md): `--endpoint
    /// https://127.0.0.1:8443 --port 8443` was refused, and told to give an endpoint. Without one, a port Apple's
    /// hosts do not listen on is still 64, named by where it came from.
    @Test func aPortBesideAnEndpointIsOnlyIgnored() throws {
        let mock = try InProcessMock()
        let send = [
            "send", "--endpoint", mock.endpoint, "--ca-file", mock.caFile, "--cert", mock.certificate, "--alert", "hi",
            "-d", Self.token(1),
        ]
        let beside = try InProcess.apnsctl(send + ["--port", "8443"])
        #expect(beside.status == 0, "\(beside.stderr)")
        #expect(
            beside.errorLines == [
                "warning: --port 8443 is ignored with --endpoint, which carries its own port (443 when its URL names none)"
            ], "\(beside.stderr)")
        // config show's port row is a value send does not use there: said as send says it.
        let shown = try InProcess.apnsctl(
            ["config", "show"], environment: ["APNSCTL_PORT": "2197", "APNSCTL_ENDPOINT": mock.endpoint])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(
            shown.errorLines.contains {
                $0.hasPrefix("warning: APNSCTL_PORT 2197 is ignored with APNSCTL_ENDPOINT, which carries its own port")
            }, "\(shown.stderr)")
        let alone = try InProcess.apnsctl(
            ["send", "--cert", mock.certificate, "--alert", "hi", "-d", Self.token(1)],
            environment: ["APNSCTL_PORT": "8443"])
        #expect(alone.status == 64)
        #expect(
            alone.errorLines.first?.hasPrefix(
                "error: APNSCTL_PORT 8443: Apple's push hosts listen on 443 and 2197 only")
                == true, "\(alone.stderr)")
        // channel takes the flag too, checked the same way.
        let channel = try InProcess.apnsctl(["channel", "list", "--cert", mock.certificate, "--port", "8443"])
        #expect(channel.status == 64)
        #expect(
            channel.errorLines.first?.hasPrefix("error: --port 8443: Apple's push hosts listen on 443 and 2197 only")
                == true, "\(channel.stderr)")
    }

    /// A missing file is named with the flag that gave it, the same way in every command.
    @Test func aMissingFileIsNamedWithItsFlagInEveryCommand() throws {
        let mock = try InProcessMock()
        let missing = "/nonexistent/apnsctl-test/file"
        let device = ["-d", Self.token(1), "--endpoint", "https://127.0.0.1:9"]
        let cases: [(args: [String], flag: String)] = [
            (["send", "--cert", missing] + device, "--cert"),
            (["send", "--cert", mock.certificate, "--key", missing] + device, "--key"),
            (
                ["send", "--auth-key", missing, "--team-id", mock.teamID, "--topic", mock.bundleID] + device,
                "--auth-key"
            ),
            (["send", "--cert", mock.certificate, "--ca-file", missing] + device, "--ca-file"),
            (
                ["send", "--cert", mock.certificate, "--devices", missing, "--endpoint", "https://127.0.0.1:9"],
                "--devices"
            ),
            (["jwt", "--auth-key", missing, "--team-id", mock.teamID], "--auth-key"),
            (["inspect", mock.certificate, "--key", missing], "--key"),
            (["convert", mock.certificate, "--key", missing, "-o", "-"], "--key"),
            (["channel", "list", "--cert", missing, "--endpoint", "https://127.0.0.1:9"], "--cert"),
            (["jwt", "--decode", "a.b.c", "--auth-key", missing], "--auth-key"),
            (
                [
                    "mock", "--port", "0", "--state-dir", try TemporaryDirectory(prefix: "missing").path,
                    "--auth-key-pub", missing, "--key-id", "ABCDE12345",
                ], "--auth-key-pub"
            ),
        ]
        for (args, flag) in cases {
            let r = try InProcess.apnsctl(args)
            #expect(r.status == 66, "\(args): \(r.stderr)")
            #expect(
                r.errorLines.last?.hasPrefix("error: \(flag) \(missing): no such file") == true, "\(args): \(r.stderr)")
        }
        // A file made, not read: the detached mock's log in a folder that does not exist.
        let state = try TemporaryDirectory(prefix: "missing-log")
        let log = try InProcess.apnsctl([
            "mock", "--detach", "--port", "0", "--state-dir", state.path, "--log", missing,
        ])
        #expect(log.status == 73, "\(log.stderr)")
        #expect(log.errorLines.last?.hasPrefix("error: --log \(missing): cannot open the log") == true, "\(log.stderr)")
        // A folder given as the log: the file in it is named. And a folder given as a credential: the file in it.
        let folder = try InProcess.apnsctl([
            "mock", "--detach", "--port", "0", "--state-dir", state.file("s2"), "--log", state.path,
        ])
        #expect(folder.status == 73, "\(folder.stderr)")
        #expect(
            folder.errorLines.last?.hasSuffix("; give the log file's path, such as \(state.path)/mock.log") == true,
            "\(folder.stderr)")
        // A FIFO nobody reads is refused at once (it was waited on forever), and so is a symbolic link, said as one;
        // `-` is no file at all.
        #expect(mkfifo(state.file("log.fifo"), 0o600) == 0)
        try FileManager.default.createSymbolicLink(atPath: state.file("link.log"), withDestinationPath: state.file("x"))
        for (given, said, status) in [
            (
                state.file("log.fifo"),
                "--log \(state.file("log.fifo")): is a FIFO that nobody reads, which the mock would wait on forever; give a regular file",
                Int32(73)
            ),
            (
                state.file("link.log"),
                "--log \(state.file("link.log")): is a symbolic link (not followed); give the log file's own path", 73
            ),
            ("-", "--log -: a detached mock's log is a file, as this command returns at once; give a path", 64),
        ] {
            let r = try InProcess.apnsctl([
                "mock", "--detach", "--port", "0", "--state-dir", state.file("s3"), "--log", given,
            ])
            #expect(r.status == status, "\(given): \(r.stderr)")
            #expect(r.errorLines.first?.hasPrefix("error: " + said) == true, "\(given): \(r.stderr)")
        }
        let credential = try InProcess.apnsctl(["convert", state.path, "-o", state.file("out.pem")])
        #expect(credential.status == 66, "\(credential.stderr)")
        #expect(
            credential.stderr.contains(
                "is a directory, not a file; give the credential file in it (a .p12, .pem, .cer or .p8)"),
            "\(credential.stderr)")
        // A folder given as the passphrase's file is told what goes there, not to give a credential in it.
        let p12 = try state.p12("in.p12", CredentialFixtures.universal, password: "pw")
        for arguments in [
            ["inspect", p12, "--passphrase-file", state.path],
            ["convert", p12, "--passphrase", "pw", "-o", state.file("o.p12"), "--out-passphrase-file", state.path],
        ] {
            let folder = try InProcess.apnsctl(arguments)
            let flag = arguments[arguments.count - 2]
            #expect(folder.status == 66, "\(folder.stderr)")
            #expect(
                folder.errorLines == [
                    "error: \(flag) \(state.path): is a directory, not a file; give a file whose first line is the passphrase"
                ], "\(folder.stderr)")
        }
    }

    /// A plain typo of each of send's flags (two letters swapped) gets that flag as its "did you mean".
    @Test func aTypoOfEachSendFlagSuggestsThatFlag() throws {
        let help = try InProcess.apnsctl(["send", "--help"])
        var flags: Set<String> = []
        for line in help.stdout.split(separator: "\n") where line.drop(while: { $0 == " " }).hasPrefix("-") {
            for word in line.split(separator: " ").prefix(3) where word.hasPrefix("--") {
                flags.insert(String(word.prefix { $0 == "-" || $0.isLetter || $0.isNumber }))
            }
        }
        flags.subtract(["--help", "--version"])
        #expect(flags.count > 30, "\(flags)")
        for flag in flags.sorted() {
            let body = Array(flag.dropFirst(2))
            guard body.count >= 4 else { continue }
            var typo = body
            typo.swapAt(1, 2)
            guard typo != body else { continue }
            let given = "--" + String(typo)
            let r = try InProcess.apnsctl(["send", given, "x"])
            #expect(
                r.errorLines.first == "error: Unknown option '\(given)'. Did you mean '\(flag)'?",
                "\(given): \(r.stderr)")
        }
    }
}

extension SmallFixesTests {
    /// A file name holding a line break is escaped in `error:` and `warning:` lines, so it cannot start a line that
    /// reads as another message (`x` then `error: fake.p12: …`), as C0 controls are everywhere else.
    @Test func aLineBreakInAFileNameStartsNoLineOfItsOwn() throws {
        let dir = try TemporaryDirectory(prefix: "line-break-name")
        let name = dir.file("x\nerror: fake.p12")
        try "not a credential".write(toFile: name, atomically: false, encoding: .utf8)
        let r = try InProcess.apnsctl(["inspect", name])
        #expect(r.status != 0)
        #expect(r.errorLines.count == 1, "\(r.stderr)")
        #expect(r.stderr.contains("x\\u{A}error: fake.p12"), "\(r.stderr)")
        // A list's bad lines are still one error line each.
        let list = try dir.write("tokens.txt", "zz\nyy\n")
        let credentials = try TestCredentials()
        let bad = try InProcess.apnsctl(
            ["send", "--devices", list, "--alert", "x", "--cert", credentials.pushFile, "--dry-run"])
        #expect(
            bad.errorLines.count == 2 && bad.errorLines.allSatisfy { $0.hasPrefix("error: --devices ") },
            "\(bad.stderr)")
    }
}

extension SmallFixesTests {
    /// Credentials typed on the command line (to reach Apple, as the README shows) going to a server a variable or
    /// a default profile names (one made for the mock): the server is named first, as its rejection would blame the
    /// user's real key. Typed together, or both from the profile, nothing is said.
    @Test func credentialsTypedForAServerAProfileNamesAreWarnedAbout() throws {
        let mock = try InProcessMock()
        let send = ["send", "--cert", mock.certificate, "--alert", "hi", "-d", Self.token(1), "--dry-run"]
        let variables = ["APNSCTL_ENDPOINT": mock.endpoint, "APNSCTL_CA_FILE": mock.caFile]
        let r = try InProcess.apnsctl(send, environment: variables)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.stderr.contains(
                "warning: sending to \(mock.endpoint) (APNSCTL_ENDPOINT), not to APNs, with the credentials given on the command line; to reach Apple, unset it"
            ), "\(r.stderr)")
        let doctor = try InProcess.apnsctl(["doctor", "--cert", mock.certificate], environment: variables)
        #expect(doctor.stderr.contains("warning: sending to \(mock.endpoint) (APNSCTL_ENDPOINT)"), "\(doctor.stderr)")
        let typed = try InProcess.apnsctl(send + ["--endpoint", mock.endpoint, "--ca-file", mock.caFile])
        #expect(!typed.stderr.contains("not to APNs"), "\(typed.stderr)")
        // A profile chosen by name is the user's choice of server; Apple's host in any case is APNs.
        let chosen = try InProcess.apnsctl(
            send + ["-p", "mock"], environment: ["APNSCTL_MOCK_STATE_DIR": mock.stateDirectory.path])
        #expect(chosen.status == 0 && !chosen.stderr.contains("not to APNs"), "\(chosen.stderr)")
        let apple = try InProcess.apnsctl(
            send + ["--env", "sandbox"], environment: ["APNSCTL_ENDPOINT": "https://API.push.apple.com"])
        #expect(!apple.stderr.contains("not to APNs"), "\(apple.stderr)")
    }

    /// `--ca-file /dev/stdin` is a path, which OpenSSL reads when it connects: on a terminal it waited there without
    /// a word (after the passphrase, if one was asked). Refused before anything is read or connected; a dry run
    /// too, which reads no bundle at all.
    @Test func aCAFileOfStandardInputOnATerminalIsRefused() throws {
        let dir = try TemporaryDirectory(prefix: "tty-ca")
        let cert = try dir.pem("push.pem", CredentialFixtures.development)
        for caFile in ["/dev/stdin", "/dev/fd/0"] {
            let tty = try TestTerminal()
            let r = try InProcess.apnsctl(
                [
                    "send", "--cert", cert, "--dry-run", "--alert", "x", "-d", Self.token(1), "--ca-file", caFile,
                    "--endpoint", "https://127.0.0.1:9",
                ], standardInput: tty.fd)
            _ = tty.finish()
            #expect(r.status == 64, "\(r.stderr)")
            #expect(
                r.stderr
                    == "error: --ca-file \(caFile): standard input is a terminal, and the CA bundle would be awaited there without a word when connecting; save the bundle to a file and give that file's path\n"
            )
        }
    }
}
