import APNSTestSupport
import Testing

@testable import APNSCtlCommands

/// Flags users bring from other tools get their apnsctl spelling (CLI.md), curl's `-H`/`--header` the flag of
/// that header, and a mistyped value of an enumerated flag the close valid value.
@Suite struct FlagSuggestionTests {
    static let device = String(repeating: "3f2a", count: 16)

    /// After a space a value starting with - and a digit reads as a flag: the advice never echoes a secret's
    /// value, and the second parse it makes hides a pasted key as the first does.
    @Test func theDashValueAdviceNeverEchoesASecret() throws {
        let token = String(repeating: "ab", count: 32)
        let secret = try InProcess.apnsctl(
            ["send", "--alert", "x", "-d", token, "--cert", "c.pem", "--passphrase", "-123secret"])
        #expect(secret.status == 64)
        #expect(!secret.stderr.contains("123secret"), "\(secret.stderr)")
        #expect(
            secret.stderr.hasPrefix(
                "error: --passphrase: a value starting with - reads as a flag; write --passphrase=VALUE"),
            "\(secret.stderr)")
        let key =
            "-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg\n-----END PRIVATE KEY-----"
        let pasted = try InProcess.apnsctl(["send", "--alert", "x", "-d", token, "--title", "-5", key])
        #expect(pasted.status == 64)
        #expect(!pasted.stderr.contains("MIGHAgEAMBMG"), "\(pasted.stderr)")
    }

    /// A value starting with - and a letter is a value when the command has no flag by that name (nor a cluster
    /// of its short flags): it gets the advice; one of the command's flags is a value left out, as the parser says.
    @Test func aDashWordThatIsNoFlagOfTheCommandGetsTheAdvice() throws {
        let letter = try InProcess.apnsctl(["send", "--alert", "x", "-d", Self.device, "--collapse-id", "-x"])
        #expect(letter.status == 64)
        #expect(
            letter.errorLines.first
                == "error: --collapse-id -x: a value starting with - reads as a flag; write --collapse-id=-x",
            "\(letter.stderr)")
        for word in ["-d", "-q", "-qo", "-h", "--quiet", "--x"] {
            let r = try InProcess.apnsctl(["send", "--alert", "x", "-d", Self.device, "--collapse-id", word])
            #expect(r.status == 64)
            #expect(r.errorLines.first == "error: Missing value for '--collapse-id <id>'", "\(word): \(r.stderr)")
        }
        // Another command's flags are its own: -d is no flag of jwt, so it is read as the team id it is not.
        let jwt = try InProcess.apnsctl(["jwt", "--auth-key", "k.p8", "--team-id", "-d"])
        #expect(jwt.errorLines.first?.hasPrefix("error: --team-id -d: not a team id") == true, "\(jwt.stderr)")
    }

    /// A value joined to its short flag (`-d$TOKEN`, `-pmock`, as other tools allow) is read as more short flags:
    /// one line names the word and the two ways to write it, instead of `Unknown option '-0'`; a cluster of
    /// flags that take no value, and such a word given as another flag's value, are the parser's as before.
    @Test func aValueJoinedToItsShortFlagIsSaidSo() throws {
        let digits = "0" + String(Self.device.dropFirst())
        for (words, shown) in [
            (["-d" + digits], "-d\(digits)"), (["-d" + Self.device], "-d\(Self.device)"),
            (["-pmock", "-d", digits], "-pmock"), (["-pdev", "-d", digits], "-pdev"),
        ] {
            let r = try InProcess.apnsctl(["send", "--alert", "x"] + words)
            #expect(r.status == 64)
            let flag = String(shown.prefix(2))
            let value = String(shown.dropFirst(2))
            #expect(
                r.errorLines == [
                    "error: \(shown): write the value after a space, \(flag) \(value) (or \(flag)=\(value)); joined to "
                        + "\(flag) it reads as more flags"
                ], "\(words): \(r.stderr)")
        }
        let history = try InProcess.apnsctl(["history", "list", "-d" + Self.device])
        #expect(history.errorLines.first?.hasPrefix("error: -d\(Self.device): write the value after a space") == true)
        let cluster = try InProcess.apnsctl(["send", "--alert", "x", "-d", digits, "-qx"])
        #expect(cluster.errorLines.first == "error: Unknown option '-x'", "\(cluster.stderr)")
        // `-dq` with its token left out (an unset $TOKEN): flags the command has, not a value joined to -d.
        let grouped = try InProcess.apnsctl(["send", "--alert", "x", "-dq"])
        #expect(grouped.status == 64)
        #expect(!grouped.stderr.contains("write the value after a space"), "\(grouped.stderr)")
        // A key pasted against -k is never repeated, whole or in part.
        let key =
            "-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg\n-----END PRIVATE KEY-----"
        let pasted = try InProcess.apnsctl(["send", "--alert", "x", "-d", digits, "-k" + key])
        #expect(pasted.status == 64)
        #expect(!pasted.stderr.contains("MIGHAgEAMBMG"), "\(pasted.stderr)")
    }

    /// `history show -1`: the value read as a flag left the argument missing; the advice says why and how.
    /// The advice reads a command's flags from its help text: a flag with a third name (an alias) keeps every name
    /// and its value, and a help text starting with a dash is no name.
    @Test func aHelpLineGivesEveryNameOfItsFlag() {
        #expect(
            OtherToolFlags.flagLine("-d, --device, --channel <id>  The device.") == (
                ["-d", "--device", "--channel"], true
            ))
        #expect(
            OtherToolFlags.flagLine("-q, --quiet             -1 lines: only errors.") == (["-q", "--quiet"], false))
        #expect(OtherToolFlags.flagLine("--live-activity <start|update|end>") == (["--live-activity"], true))
        #expect(OtherToolFlags.flagLine("-H 'apns-topic: com.example.app' -d '{}' \\") == (["-H"], false))
        let send = OtherToolFlags.shortFlags(of: ["send"])
        #expect(send.takingValues.isSuperset(of: ["-d", "-p", "-o"]) && !send.takingValues.contains("-q"))
    }

    @Test func aPositionalValueReadAsAFlagIsSaidSo() throws {
        let r = try InProcess.apnsctl(["history", "show", "-1"])
        #expect(r.status == 64)
        #expect(
            r.errorLines.first
                == "error: -1: a value starting with - reads as a flag; write -- before it, after every flag (-- -1)",
            "\(r.stderr)")
        // A missing option (convert's -o), with such a word after --, is the parser's: the advice would repeat.
        let convert = try InProcess.apnsctl(["convert", "--", "-1.p12"])
        #expect(convert.status == 64)
        #expect(!convert.stderr.contains("write -- before it"), "\(convert.stderr)")
    }

    /// `mock`'s own flags parse beside stop (the parser gives them to the parent) and were ignored: `mock stop --port
    /// P` stopped the default state dir's mock, not the one on P. 64, naming the flag, before anything is stopped.
    @Test func mockStopRefusesTheMocksOtherFlags() throws {
        let scratch = try TemporaryDirectory(prefix: "stop-flags")
        for arguments in [
            ["mock", "stop", "--port", "2198"], ["mock", "--port", "2198", "stop"],
            ["mock", "stop", "--state-dir", scratch.path, "--env=production"], ["mock", "stop", "--reject", "x=y"],
        ] {
            let r = try InProcess.apnsctl(arguments, environment: ["APNSCTL_MOCK_STATE_DIR": scratch.path])
            let flag = arguments.first { $0.hasPrefix("-") && !$0.hasPrefix("--state-dir") && $0 != scratch.path } ?? ""
            #expect(r.status == 64, "\(arguments): \(r.stderr)")
            #expect(
                r.stderr.hasPrefix(
                    "error: \(flag.split(separator: "=")[0]) is the mock's own flag, and mock stop takes only --state-dir"
                ),
                "\(arguments): \(r.stderr)")
        }
        let fine = try InProcess.apnsctl(["mock", "stop", "--state-dir=\(scratch.path)"])
        #expect(fine.status == 0 && fine.stderr.contains("no mock is running"), "\(fine.stderr)")
    }

    /// A topic suffix given as the push type (`voip-ptt`, `location-query`) is named as the suffix it is.
    @Test func aTopicSuffixGivenAsThePushTypeNamesItsType() throws {
        for (word, type, suffix) in [
            ("voip-ptt", "pushtotalk", ".voip-ptt"), ("location-query", "location", ".location-query"),
            ("pushkit.fileprovider", "fileprovider", ".pushkit.fileprovider"),
            ("push-type.liveactivity", "liveactivity", ".push-type.liveactivity"),
        ] {
            let r = try InProcess.apnsctl([
                "send", "--alert", "hi", "-d", String(repeating: "ab", count: 32), "--push-type", word,
            ])
            #expect(r.status == 64, "\(word): \(r.stderr)")
            #expect(
                r.stderr.contains(
                    "unknown push type; \(word.lowercased()) is in the topic suffix of \(type) pushes (\(suffix)): did you mean \(type)?"
                ),
                "\(word): \(r.stderr)")
        }
    }

    /// A usage of two forms (`mock` and `mock stop`) is two usage lines, not a usage line and a bare command line.
    @Test func aSecondUsageFormIsAUsageLine() throws {
        let r = try InProcess.apnsctl(["mock", "stop", "--state-dir"])
        #expect(r.status == 64)
        #expect(r.errorLines.contains("error: usage: apnsctl mock stop [--state-dir <dir>]"), "\(r.stderr)")
        #expect(!r.errorLines.contains { $0.hasPrefix("error: apnsctl ") }, "\(r.stderr)")
    }

    /// A value the payload flag refuses anyway is that refusal, never advice to write it with `=`.
    @Test(arguments: [
        ("--badge", "-1", "error: --badge \"-1\": must be a whole number, 0 or more (0 removes the badge)"),
        ("--relevance-score", "-x", "error: --relevance-score \"-x\": not a number"),
        ("--timestamp", "-now", "error: --timestamp \"-now\": give now"),
        ("--relevance-score", "-1e999", "error: --relevance-score \"-1e999\": not a number"),
    ])
    func aDashValueThePayloadFlagRefusesIsSaidSo(_ flag: String, _ value: String, _ start: String) throws {
        let r = try InProcess.apnsctl(["send", "-d", Self.device, flag, value])
        #expect(r.status == 64)
        #expect(r.errorLines.first?.hasPrefix(start) == true, "\(r.stderr)")
        #expect(r.stderr.contains("write") == false, "\(r.stderr)")
        // One line, as with `=`: the parser's help and usage lines were about a value it thought missing.
        #expect(r.errorLines.count == 1, "\(r.stderr)")
    }

    /// The `--` advice for a value where the command takes values names only that value: the command line around
    /// it may hold a passphrase or a URL's password.
    @Test func theDashDashAdviceNeverRepeatsTheCommandLine() throws {
        for extra in [["--passphrase", "hunter2-secret"], ["--proxy", "http://u:pw-secret@127.0.0.1:1"]] {
            for value in ["-30m", "-1h"] {
                let r = try InProcess.apnsctl(["send", "--alert", "x", "-d", Self.device] + extra + [value])
                #expect(r.status == 64, "\(r.stderr)")
                #expect(!r.stderr.contains("secret") && !r.stdout.contains("secret"), "\(r.stderr)")
                #expect(r.stderr.contains("write -- before it, after every flag (-- \(value))"), "\(r.stderr)")
            }
        }
    }

    /// config set of a secret key with a dash value: refused as every secret key is, the value never printed.
    @Test func aSecretKeyForConfigSetIsRefusedWithoutItsValue() throws {
        let home = try ConfigCommandTests.Home()
        let r = try home.run(["config", "set", "-p", "dev", "passphrase", "-9secret"])
        #expect(r.status == 64)
        #expect(!r.stderr.contains("9secret"), "\(r.stderr)")
        #expect(r.stderr.hasPrefix("error: passphrase: secrets never go in the settings file"), "\(r.stderr)")
    }

    /// The advice is pasted back: every value the parser took for a flag is named, not only the last, and a value
    /// with a space stays one word.
    @Test func theDashValueAdviceNamesEveryValueAsOneWord() throws {
        let two = try InProcess.apnsctl([
            "send", "--alert", "x", "-d", Self.device, "--title", "-5", "--subtitle", "-3",
        ])
        #expect(two.status == 64)
        #expect(
            two.errorLines.first
                == "error: --title -5, --subtitle -3: values starting with - read as flags; write --title=-5 --subtitle=-3",
            "\(two.stderr)")
        let spaced = try InProcess.apnsctl(["send", "--alert", "x", "-d", Self.device, "--title", "-5 degrees"])
        #expect(
            spaced.errorLines.first
                == "error: --title -5 degrees: a value starting with - reads as a flag; write '--title=-5 degrees'",
            "\(spaced.stderr)")
        // A value corrected before another problem is still named with it: here a flag of send's own (-q) where
        // --subtitle's value was left out.
        let then = try InProcess.apnsctl([
            "send", "--alert", "x", "-d", Self.device, "--title", "-5", "--subtitle", "-q",
        ])
        #expect(
            then.errorLines.first == "error: Missing value for '--subtitle <text>'; also write --title=-5",
            "\(then.stderr)")
        // A value the flag refuses is that problem, never advice to write it.
        let refused = try InProcess.apnsctl([
            "send", "--alert", "x", "-d", Self.device, "--title", "-5", "--priority", "-1",
        ])
        #expect(
            refused.errorLines.first?.hasSuffix("did you mean \"1\"?; also write --title=-5") == true,
            "\(refused.stderr)")
        // A value with a line break or a tab is printed escaped: pasting that would send other text.
        for value in ["-5\nline2", "-5 \ttab"] {
            let r = try InProcess.apnsctl(["send", "--alert", "x", "-d", Self.device, "--title", value])
            #expect(r.errorLines.first?.hasSuffix("; write --title=VALUE") == true, "\(r.stderr)")
        }
    }

    @Test(
        arguments: [
            (["--body", "Hi"], "Did you mean '--alert'?"),
            (["--message", "Hi"], "Did you mean '--alert'?"),
            (["--background"], "Did you mean '--content-available'?"),
            (["-H", "apns-priority: 5"], "Did you mean '--priority 5'?"),
            (["--header", "apns-push-type: background"], "Did you mean '--push-type background'?"),
            (["--header=apns-topic: com.example.app"], "Did you mean '--topic com.example.app'?"),
            (["-H", "APNS-Expiration:0"], "Did you mean '--expiration 0'?"),
            (["-H", "apns-collapse-id: two words"], "Did you mean '--collapse-id'?"),
            (["-H", "content-type: application/json"], "apnsctl sends content-type itself; leave it out."),
            // A flag cut short: the flags it starts, before the closest by spelling (--dry was '--key').
            (["--dry"], "Did you mean '--dry-run'?"),
            (["--mutable"], "Did you mean '--mutable-content'?"),
            (["--content-avail"], "Did you mean '--content-available'?"),
            (["--content"], "Did you mean '--content-available' or '--content-state' or '--content-changed'?"),
            // curl's body flag: the payload is the argument.
            (
                ["--data", "{}"],
                "The payload is send's argument: a file, - for standard input, or inline JSON starting with { (apnsctl send payload.json -d TOKEN)"
            ),
            (
                ["-H", "x-custom: 1"],
                "apnsctl sets request headers with their own flags: '--apns-id', '--collapse-id', '--expiration', '--priority', '--push-type', '--topic'."
            ),
        ] as [([String], String)])
    func otherToolsFlagsGetTheirSpelling(_ given: [String], _ advice: String) throws {
        let r = try InProcess.apnsctl(["send", "-d", Self.device] + given)
        let name = String(given[0].prefix { $0 != "=" })
        #expect(r.status == 64, "\(r.stderr)")
        #expect(r.errorLines.first == "error: Unknown option '\(name)'. \(advice)", "\(r.stderr)")
    }

    /// A bearer token pasted from curl is a secret: the advice names the flags that sign one, never the token.
    @Test func anAuthorizationHeaderIsNeverRepeated() throws {
        let r = try InProcess.apnsctl(["send", "-d", Self.device, "-H", "authorization: bearer eyJhbGciSECRET"])
        #expect(r.status == 64)
        #expect(
            r.errorLines.first
                == "error: Unknown option '-H'. apnsctl signs the provider token itself: give '--auth-key AuthKey_KEYID.p8 --team-id TEAMID'."
        )
        #expect(!r.stderr.contains("SECRET"))
    }

    /// A mistyped value of an enumerated setting names the close valid one; a value close to none gets no guess.
    @Test(
        arguments: [
            (
                ["send", "--push-type", "widget"], #"--push-type widget: unknown push type; "#,
                #"did you mean "widgets"?"#
            ),
            (
                ["send", "--push-type", "live-activity"], "--push-type live-activity: ",
                #"did you mean "liveactivity"?"#
            ),
            (["send", "--env", "prodution"], "--env prodution: unknown environment; ", #"did you mean "production"?"#),
            (["doctor", "--env", "bth"], "--env bth: unknown environment; ", #"did you mean "both"?"#),
            (["send", "--priority", "high"], "--priority high: must be 10, 5 or 1", #"did you mean "10"?"#),
            (["send", "--priority", "low"], "--priority low: must be 10, 5 or 1", #"did you mean "5"?"#),
            (["send", "--priority", "100"], "--priority 100: must be 10, 5 or 1", #"did you mean "10"?"#),
            (["send", "-o", "jsno"], #"--output jsno: unknown output format; "#, #"did you mean "json"?"#),
            (
                ["validate", "--push-type", "widget", "x.json"], #"--push-type widget: unknown push type"#,
                #"did you mean "widgets"?"#
            ),
            (["validate", "-o", "jsn", "x.json"], #"--output jsn: unknown output format"#, #"did you mean "json"?"#),
            // JSON Lines by another name: json is that already.
            (
                ["send", "-o", "ndjson"], "--output ndjson: unknown output format; ",
                "json writes one object per line already (JSON Lines), so give json"
            ),
        ] as [([String], String, String)])
    func enumeratedValuesGetADidYouMean(_ arguments: [String], _ start: String, _ suggestion: String) throws {
        let r = try InProcess.apnsctl(arguments + (arguments[0] == "send" ? ["-d", Self.device] : []))
        #expect(r.status == 64, "\(r.stderr)")
        let line = r.errorLines.first ?? ""
        #expect(line.hasPrefix("error: " + start), "\(r.stderr)")
        #expect(line.hasSuffix("; " + suggestion), "\(r.stderr)")
    }

    /// `--color` and its variable both go through the settings' parser (`--color` is checked in SendOutputTests).
    @Test func aColorVariableGetsADidYouMean() throws {
        let r = try InProcess.apnsctl(["send", "-d", Self.device], environment: ["APNSCTL_COLOR": "allways"])
        #expect(r.status == 64, "\(r.stderr)")
        #expect(
            r.errorLines.first == #"error: APNSCTL_COLOR=allways: use auto, always or never; did you mean "always"?"#,
            "\(r.stderr)")
    }

    @Test(arguments: [["--priority", "7"], ["--push-type", "banner"], ["--env", "staging"], ["-o", "yaml"]])
    func aValueCloseToNoneGetsNoGuess(_ arguments: [String]) throws {
        let r = try InProcess.apnsctl(["send", "-d", Self.device] + arguments)
        #expect(r.status == 64)
        #expect(!r.stderr.contains("did you mean"), "\(r.stderr)")
    }
}

extension FlagSuggestionTests {
    /// `channel delete --id ID` was asked "Did you mean '--yes'?" (on a command that deletes), `--force` '--port':
    /// the id is the argument, and `--force` is `--yes`.
    @Test func aChannelIdGivenAsAFlagIsSaidToBeTheArgument() throws {
        for (command, flag) in [("delete", "--id"), ("get", "--channel"), ("get", "--channel-id"), ("delete", "--ID")] {
            let r = try InProcess.apnsctl(["channel", command, flag, "dHN0LXNyYw=="])
            #expect(r.status == 64, "\(r.stderr)")
            #expect(
                r.errorLines.first
                    == "error: Unknown option '\(flag)'. The channel id is the command's argument: apnsctl channel \(command) ID",
                "\(r.stderr)")
        }
        let force = try InProcess.apnsctl(["channel", "delete", "--force", "dHN0LXNyYw=="])
        #expect(force.errorLines.first == "error: Unknown option '--force'. Did you mean '--yes'?", "\(force.stderr)")
    }

    /// `jwt --decode --token T` got no advice at all, and `jwt --key AuthKey_….p8` was offered `--key-id`: the token
    /// is the argument, and a .p8 goes with --auth-key.
    @Test func jwtsTokenAndKeyFlagsFromOtherToolsAreNamed() throws {
        let token = try InProcess.apnsctl(["jwt", "--decode", "--token", "eyJhbGciOiJFUzI1NiJ9.e30.c2ln"])
        #expect(token.status == 64)
        #expect(
            token.errorLines.first
                == "error: Unknown option '--token'. The token is jwt --decode's argument: apnsctl jwt --decode TOKEN, or - to read it from standard input",
            "\(token.stderr)")
        let key = try InProcess.apnsctl([
            "jwt", "--key", "AuthKey_ABCDE12345.p8", "--key-id", "ABCDE12345", "--team-id", "TEAMID1234",
        ])
        #expect(key.status == 64)
        #expect(key.errorLines.first == "error: Unknown option '--key'. Did you mean '--auth-key'?", "\(key.stderr)")
    }
}
