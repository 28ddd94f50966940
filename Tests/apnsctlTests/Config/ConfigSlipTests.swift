import APNSTestSupport
import Foundation
import Testing

/// Slips with the settings commands and history's flags: each says what was meant, and nothing is written.
@Suite struct ConfigSlipTests {
    typealias Home = ConfigCommandTests.Home
    static let token = "3f2a000000000000000000000000000000000000000000000000000000009c1d"

    /// `config add-device TOKEN NAME`: the order, not a name to invent.
    @Test func addDeviceWithTheTokenFirstSaysTheOrder() throws {
        let home = try Home()
        let r = try home.run(["config", "add-device", Self.token, "my-iphone"])
        #expect(r.status == 64)
        #expect(
            r.stderr
                == "error: config add-device takes the name first, then the token: apnsctl config add-device my-iphone \(Self.token)\n"
        )
        #expect(!FileManager.default.fileExists(atPath: home.configFile))
        // The advice keeps --profile, and is not given when the name after the token is hex too (it would fail).
        let profiled = try home.run(["config", "add-device", "-p", "dev", Self.token, "my-iphone"])
        #expect(profiled.stderr.hasSuffix("apnsctl config add-device --profile dev my-iphone \(Self.token)\n"))
        let hex = try home.run(["config", "add-device", Self.token, "abc"])
        #expect(hex.status == 64)
        #expect(!hex.stderr.contains("takes the name first"), "\(hex.stderr)")
    }

    /// A topic every send would refuse (quotes kept from a YAML file, a stray dot) is refused by config set, before
    /// it is written, as the flag's value is.
    @Test func aTopicEverySendWouldRefuseIsNotWritten() throws {
        let home = try Home()
        for topic in ["\"com.example.demo\"", "com.example.demo.", "com.example.d\u{E9}mo"] {
            let r = try home.run(["config", "set", "-p", "ci", "topic", topic])
            #expect(r.status == 64, "\(topic): \(r.stderr)")
            #expect(
                r.stderr.hasPrefix(
                    "error: topic \"\(topic.replacingOccurrences(of: "\"", with: "\\\""))\": a topic is a bundle id"),
                "\(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: home.configFile))
        }
        #expect(try home.run(["config", "set", "-p", "ci", "topic", "com.example.demo"]).status == 0)
    }

    /// `env = "both"` is doctor's alone, and a profile serves send too: written (doctor takes it), and said.
    @Test func envBothInAProfileIsSaidToBeDoctorsAlone() throws {
        let home = try Home()
        let r = try home.run(["config", "set", "-p", "ci", "env", "both"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.errorLines == [
                "warning: env = \"both\" is doctor's alone: send and channel with profile ci refuse it (64); for them give sandbox, production or auto"
            ], "\(r.stderr)")
        let sandbox = try home.run(["config", "set", "-p", "ci", "env", "sandbox"])
        #expect(sandbox.status == 0 && sandbox.stderr.isEmpty, "\(sandbox.stderr)")
    }

    /// A device name with a control character, a leading # or a blank at an end can never be given with -d or in a
    /// --devices list: refused, with a spelling that can.
    @Test func aDeviceNameThatCannotBeGivenIsRefused() throws {
        let home = try Home()
        for (name, cause, word) in [
            (" my-phone", "has a blank at an end, which -d and a --devices list trim", "my-phone"),
            ("ph\none", "has a control character, which neither -d nor a --devices list can give", "ph-one"),
            ("#ipad", "starts with #, which starts a comment in a --devices list", "ipad"),
        ] {
            let r = try home.run(["config", "add-device", name, Self.token])
            #expect(r.status == 64, "\(r.stderr)")
            #expect(r.stderr.contains(cause), "\(r.stderr)")
            #expect(r.stderr.hasSuffix("; name it \(word)\n"), "\(r.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: home.configFile))
        // Blanks inside a name, as iOS names a device, work with -d and in a list.
        #expect(try home.run(["config", "add-device", "Ada's iPhone", Self.token]).status == 0)
    }

    /// config list marks the file's default-profile; APNSCTL_PROFILE choosing another (or none) is said beside it.
    @Test func configListSaysWhatAPNSCTLPROFILEChooses() throws {
        let home = try Home()
        try home.write(
            "default-profile = \"ci\"\n\n[profiles.ci]\ntopic = \"a.b\"\n\n[profiles.other]\ntopic = \"c.d\"\n")
        let other = try home.run(["config", "list"], ["APNSCTL_PROFILE": "other"])
        #expect(other.status == 0, "\(other.stderr)")
        #expect(
            other.stderr
                == "warning: APNSCTL_PROFILE=other chooses profile other for every command without -p, not the file's default-profile ci marked below\n"
        )
        let none = try home.run(["config", "list"], ["APNSCTL_PROFILE": "othr"])
        #expect(
            none.stderr.contains(
                "APNSCTL_PROFILE=othr names no profile, so every command without -p fails; did you mean \"other\"?"),
            "\(none.stderr)")
        let same = try home.run(["config", "list"], ["APNSCTL_PROFILE": "ci"])
        #expect(same.stderr.isEmpty, "\(same.stderr)")
    }

    /// config show refuses what send would (two kinds of credential, a key id without its key): it is where a clash
    /// of a CI job's variables is looked for, and it said all was well. No credential at all only lists.
    @Test func configShowRefusesTheClashesSendRefuses() throws {
        let home = try Home()
        let both = try home.run(
            ["config", "show"], ["APNSCTL_CERT": "/x/push.pem", "APNSCTL_AUTH_KEY": "/x/AuthKey_ABCDE12345.p8"])
        #expect(both.status == 64, "\(both.stdout)")
        #expect(both.stderr.contains("APNSCTL_CERT and APNSCTL_AUTH_KEY both given"), "\(both.stderr)")
        // The rows come first: where each part of the clash comes from is what the user looks for.
        #expect(both.lines.contains { $0.hasPrefix("cert") && $0.contains("APNSCTL_CERT") }, "\(both.stdout)")
        #expect(both.lines.contains { $0.hasPrefix("auth-key") && $0.contains("APNSCTL_AUTH_KEY") }, "\(both.stdout)")
        let id = try home.run(["config", "show", "--for", "jwt"], ["APNSCTL_KEY_ID": "ABCDE12345"])
        #expect(id.status == 64, "\(id.stdout)")
        #expect(id.stderr.contains("a key id belongs to its key"), "\(id.stderr)")
        for command in ["send", "jwt", "doctor", "channel"] {
            let none = try home.run(["config", "show", "--for", command])
            #expect(none.status == 0, "\(command): \(none.stderr)")
        }
    }

    /// set and unset without --profile edit the profile APNSCTL_PROFILE chooses, the one send then reads; not the
    /// file's default-profile, which no command without -p reads while the variable is set.
    @Test func setAndUnsetEditTheProfileAPNSCTLPROFILEChooses() throws {
        let home = try Home()
        try home.write(
            "default-profile = \"ci\"\n\n[profiles.ci]\ntopic = \"a.b\"\n\n[profiles.other]\ntopic = \"c.d\"\n")
        let set = try home.run(["config", "set", "priority", "5"], ["APNSCTL_PROFILE": "other"])
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stdout.hasPrefix("priority = 5 in [profiles.other], "), "\(set.stdout)")
        let shown = try home.run(["config", "show"], ["APNSCTL_PROFILE": "other"])
        #expect(shown.lines.contains { $0.hasPrefix("priority") && $0.contains("5") && $0.contains("profile other") })
        // A name the file lacks (a typo, the mock's) is no profile to make unasked: refused, the file untouched.
        for (name, said) in [("othr", "did you mean \"other\"? "), ("mock", "")] {
            let refused = try home.run(["config", "set", "priority", "5"], ["APNSCTL_PROFILE": name])
            #expect(refused.status == 64, "\(refused.stdout)")
            #expect(
                refused.stderr.contains(
                    "APNSCTL_PROFILE=\(name) chooses the profile to edit, and \(home.configFile) has none of that name"),
                "\(refused.stderr)")
            #expect(refused.stderr.contains("; \(said)to make it, give --profile \(name);"), "\(refused.stderr)")
            let unsetRefused = try home.run(["config", "unset", "topic"], ["APNSCTL_PROFILE": name])
            #expect(unsetRefused.status == 64, "\(unsetRefused.stderr)")
        }
        // In a file that does not load (a key no setting has: unset mends such files), and with no file at all.
        let broken = try Home()
        try broken.write("[profiles.other]\ntopik = \"c.d\"\n")
        let mending = try broken.run(["config", "unset", "topic"], ["APNSCTL_PROFILE": "othr"])
        #expect(mending.status == 64, "\(mending.stderr)")
        #expect(mending.stderr.contains("has none of that name; did you mean \"other\"?"), "\(mending.stderr)")
        let none = try Home()
        let noFile = try none.run(["config", "set", "priority", "5"], ["APNSCTL_PROFILE": "dev"])
        #expect(noFile.status == 64, "\(noFile.stderr)")
        #expect(noFile.stderr.contains("\(none.configFile) does not exist yet; to make it"), "\(noFile.stderr)")
        let unset = try home.run(["config", "unset", "topic"], ["APNSCTL_PROFILE": "other"])
        #expect(unset.status == 0, "\(unset.stderr)")
        let text = try String(contentsOfFile: home.configFile, encoding: .utf8)
        #expect(
            text == "default-profile = \"ci\"\n\n[profiles.ci]\ntopic = \"a.b\"\n\n[profiles.other]\npriority = 5\n",
            "\(text)")
    }

    /// unset and remove-device with a profile the file does not have: said, with the near name, not "nothing
    /// changed" (nor a "did you mean" of the device's own name).
    @Test func removingFromAProfileTheFileLacksIsSaid() throws {
        let home = try Home()
        try home.write("[profiles.dev]\ntopic = \"a.b\"\n\n[devices]\nipad = \"\(Self.token)\"\n")
        let unset = try home.run(["config", "unset", "-p", "dve", "topic"])
        #expect(unset.status == 64)
        #expect(
            unset.stderr
                == "error: --profile \"dve\": \(home.configFile) has no such profile; did you mean \"dev\"? its profiles: dev\n"
        )
        let remove = try home.run(["config", "remove-device", "ipad", "-p", "nosuch"])
        #expect(remove.status == 64)
        #expect(
            remove.stderr.hasPrefix(
                "error: --profile \"nosuch\": \(home.configFile) has no such profile; its profiles: dev"))
        #expect(try String(contentsOfFile: home.configFile, encoding: .utf8).contains("topic = \"a.b\""))
    }

    /// `config init --profile ""` names the flag, not a line of a file never written.
    @Test func anEmptyProfileNameForInitNamesTheFlag() throws {
        let home = try Home()
        let r = try home.run(["config", "init", "--profile", "", "--topic", "a.b"])
        #expect(r.status == 64)
        #expect(r.stderr == "error: --profile: empty name; give the profile's name\n")
        #expect(!FileManager.default.fileExists(atPath: home.configFile))
    }

    /// `config init` writes no profile `send -p` would refuse: a certificate beside a token key, or a key id beside
    /// a certificate (64, nothing written), as the command line refuses them; `config set` warns as before.
    @Test func initWritesNoProfileSendRefuses() throws {
        let home = try Home()
        let both = try home.run(["config", "init", "--cert", "c.pem", "--auth-key", "AuthKey_ABCDE12345.p8"])
        #expect(both.status == 64)
        #expect(
            both.stderr.hasPrefix(
                "error: --cert and --auth-key both given: a profile holds certificate auth or token auth, not both"),
            "\(both.stderr)")
        let keyID = try home.run(["config", "init", "--cert", "c.pem", "--key-id", "ABCDE12345"])
        #expect(keyID.status == 64)
        #expect(
            keyID.stderr.hasPrefix("error: --key-id is a .p8 signing key's id, and no --auth-key"), "\(keyID.stderr)")
        let key = try home.run(["config", "init", "--key", "k.pem"])
        #expect(key.status == 64)
        #expect(key.stderr.hasPrefix("error: --key is a certificate's private key, and no --cert"), "\(key.stderr)")
        #expect(!FileManager.default.fileExists(atPath: home.configFile))
    }

    /// Two bare endpoint URLs: the setting's own reason, not "cannot be written as TOML".
    @Test func twoBareEndpointsGetTheSettingsReason() throws {
        let home = try Home()
        let r = try home.run(["config", "set", "-p", "dev", "endpoint", "https://127.0.0.1:1", "https://127.0.0.1:2"])
        #expect(r.status == 64)
        #expect(!r.stderr.contains("cannot be written as TOML"), "\(r.stderr)")
        #expect(r.stderr.hasPrefix("error: endpoint"), "\(r.stderr)")
    }

    /// history's filters: `-2h` is refused with the `2h` to write (a duration there already counts back, and
    /// `clear --before` removes by it: a sign could mean either way), after a space or with `=`; `--limit -1` is
    /// refused rather than advised, `show lats` is `last`, and `config show --for sned` is `send`.
    @Test func historyAndShowSlips() throws {
        let home = try Home()
        let advice = "a duration here already counts back from now (2h ago); write "
        for arguments in [
            ["history", "list", "--since", "-2h"], ["history", "list", "--since=-2h"],
            ["history", "clear", "--before=-2h", "--yes"], ["history", "clear", "--before", "+2h", "--yes"],
        ] {
            let r = try home.run(arguments)
            let flag = arguments.contains { $0.hasPrefix("--since") } ? "--since" : "--before"
            #expect(r.status == 64, "\(arguments): \(r.stderr)")
            #expect(r.errorLines.first?.hasSuffix(advice + "\(flag) 2h") == true, "\(arguments): \(r.stderr)")
        }
        // A date and its time unquoted, as help writes them quoted: the quotes are what is missing.
        for arguments in [
            ["history", "--since", "2026-11-30", "18:00"], ["history", "list", "--since", "2026-11-30", "18:00:30Z"],
        ] {
            let split = try home.run(arguments)
            #expect(split.status == 64, "\(split.stderr)")
            let time = arguments.last ?? ""
            #expect(
                split.errorLines.first
                    == "error: --since 2026-11-30 \(time): a date and its time are one value; quote them, --since '2026-11-30 \(time)'",
                "\(split.stderr)")
            #expect(try home.run(Array(arguments.dropLast(2)) + ["2026-11-30 \(time)"]).status == 0)
        }
        let limit = try home.run(["history", "list", "--limit", "-1"])
        #expect(limit.errorLines.first == "error: --limit -1: give a number from 1", "\(limit.stderr)")
        // Our words for a value that is no whole number, without the parser's usage lines; a count past the
        // largest lists every entry.
        for (value, shown) in [("1e1", "1e1"), ("x", "x"), ("1.5", "1.5"), ("", "''")] {
            let bad = try home.run(["history", "list", "--limit", value])
            #expect(bad.status == 64)
            #expect(
                bad.errorLines == ["error: --limit \(shown): give a whole number from 1, in decimal, such as 10"],
                "\(bad.stderr)")
        }
        #expect(try home.run(["history", "--limit", "99999999999999999999"]).status == 0)
        let show = try home.run(["history", "show", "lats"])
        #expect(show.status == 64)
        #expect(show.stderr.contains("not a history entry; did you mean last?"), "\(show.stderr)")
        let forCommand = try home.run(["config", "show", "--for", "sned"])
        #expect(forCommand.stderr.hasSuffix("; did you mean \"send\"?\n"), "\(forCommand.stderr)")
    }

    /// send's per-run values: an empty collapse id and `@` without a file say so; an apns-id after a space that
    /// is no UUID is refused, not advised.
    @Test func sendsPerRunValueSlips() throws {
        let dir = try TemporaryDirectory(prefix: "slips")
        let cert = try dir.pem("push.pem", CredentialFixtures.universal)
        let send = [
            "send", "--alert", "x", "-d", Self.token, "--topic", "com.example.demo", "--cert", cert, "--endpoint",
            "https://127.0.0.1:9",
        ]
        let empty = try InProcess.apnsctl(send + ["--collapse-id", ""])
        #expect(empty.status == 64)
        #expect(
            empty.errorLines.first == "error: --collapse-id: empty; give an id of 1 to 64 bytes, or leave the flag out")
        let at = try InProcess.apnsctl([
            "send", "--live-activity", "update", "--content-state", "@", "-d", Self.token, "--cert", cert,
            "--topic", "com.example.demo.push-type.liveactivity", "--endpoint", "https://127.0.0.1:9",
        ])
        #expect(at.status == 64)
        #expect(
            at.errorLines.first
                == "error: --content-state @: no file after @; write --content-state @FILE, or --content-state @- for standard input"
        )
        let id = try InProcess.apnsctl(send + ["--apns-id", "-abc"])
        #expect(id.status == 64)
        #expect(
            id.errorLines.first?.hasPrefix("error: --apns-id \"-abc\": not a canonical UUID") == true, "\(id.stderr)")
    }

    /// A credential of the other kind, set where it does not go (the mock's client.pem as auth-key, a .p8 as cert,
    /// a certificate as key): written as asked, and said now rather than by the next send. The right kinds say
    /// nothing.
    @Test func aCredentialOfTheOtherKindIsSaidWhenSet() throws {
        let home = try Home()
        let dir = try TemporaryDirectory(prefix: "kinds")
        let identity = CredentialFixtures.universal
        let both = try dir.pem("client.pem", identity)
        let certificate = try dir.write("cert.pem", identity.certificate.pem)
        let p8 = try dir.write("AuthKey_ABCDE12345.p8", try CredentialFixtures.signingKey.p8PEM, mode: 0o600)
        let slips: [(key: String, path: String, warning: String, advice: (unset: String, set: String))] = [
            (
                "auth-key", both,
                "warning: auth-key: \(both) holds a certificate and its key, not a .p8 signing key, so send and jwt will refuse it; a push certificate goes in cert (apnsctl config unset --profile k auth-key && apnsctl config set --profile k cert \(both)), and token auth needs the .p8 key from the Apple Developer portal (Keys)",
                ("auth-key", "cert")
            ),
            (
                "cert", p8,
                "warning: cert: \(p8) holds a private key but no certificate, so send will refuse it; an APNs .p8 key goes in auth-key with team-id: apnsctl config unset --profile k cert && apnsctl config set --profile k auth-key \(p8) && apnsctl config set --profile k team-id TEAMID (TEAMID: your 10-character team id); a certificate's own key goes in key, beside its certificate in cert",
                ("cert", "auth-key")
            ),
            (
                "key", certificate,
                "warning: key: \(certificate) holds a certificate but no private key; a certificate goes in cert (apnsctl config unset --profile k key && apnsctl config set --profile k cert \(certificate))",
                ("key", "cert")
            ),
        ]
        for slip in slips {
            let r = try home.run(["config", "set", "-p", "k", slip.key, slip.path])
            #expect(r.status == 0, "\(slip.key): \(r.stderr)")
            #expect(r.errorLines.contains(slip.warning), "\(slip.key): \(r.stderr)")
            #expect(try String(contentsOfFile: home.configFile, encoding: .utf8).contains(slip.path), "written")
            // The advice followed: the value moves, and the profile is left with the right key alone.
            #expect(try home.run(["config", "unset", "-p", "k", slip.advice.unset]).status == 0)
            let moved = try home.run(["config", "set", "-p", "k", slip.advice.set, slip.path])
            #expect(moved.status == 0 && !moved.stderr.contains("warning"), "\(slip.key): \(moved.stderr)")
            #expect(try home.run(["config", "unset", "-p", "k", slip.advice.set]).status == 0)
        }
        for (key, path) in [("cert", both), ("auth-key", p8), ("key", both)] {
            let r = try home.run(["config", "set", "-p", "right-\(key)", key, path])
            #expect(r.status == 0 && !r.stderr.contains("holds"), "\(key): \(r.stderr)")
        }
        // A .p8 as a certificate's key: said, with no move (the certificate beside it would make two auths).
        let p8AsKey = try home.run(["config", "set", "-p", "p8-key", "key", p8])
        #expect(
            p8AsKey.errorLines.contains(
                "warning: key: \(p8) is an APNs .p8 signing key, not a certificate's key, so send will refuse it; a .p8 "
                    + "is token auth on its own, in auth-key with team-id, in place of cert and key"),
            "\(p8AsKey.stderr)")
        // With the team id there, the move to auth-key does not set it again.
        #expect(try home.run(["config", "set", "-p", "teamed", "team-id", "TEAM123456"]).status == 0)
        let teamed = try home.run(["config", "set", "-p", "teamed", "cert", p8])
        #expect(
            teamed.errorLines.contains {
                $0.contains("apnsctl config set --profile teamed auth-key \(p8); ") && !$0.contains("TEAMID")
            }, "\(teamed.stderr)")
        // A push certificate set as auth-key beside a .p8 set as cert: the move alone is advised; unsetting the
        // earlier cert, as the two-auths warning would say, would leave the certificate in auth-key.
        let crossed = try home.run(["config", "set", "-p", "teamed", "auth-key", both])
        #expect(crossed.errorLines.count == 1, "\(crossed.stderr)")
        #expect(crossed.stderr.contains("a push certificate goes in cert"), "\(crossed.stderr)")
    }

    /// `config init` with a credential of the other kind: the file is written, and the warning follows it with the
    /// flag's name and the move, which then works on the file just written.
    @Test func configInitSaysACredentialOfTheOtherKindAfterWriting() throws {
        let home = try Home()
        let dir = try TemporaryDirectory(prefix: "init-kinds")
        let both = try dir.pem("client.pem", CredentialFixtures.universal)

        let r = try home.run(["config", "init", "-p", "k", "--auth-key", both, "--team-id", "TEAM123456"])

        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasPrefix("wrote \(home.configFile) with profile k"), "\(r.stdout)")
        #expect(
            r.errorLines == [
                "warning: --auth-key: \(both) holds a certificate and its key, not a .p8 signing key, so send and jwt will refuse it; a push certificate goes in cert (apnsctl config unset --profile k auth-key && apnsctl config set --profile k cert \(both)), and token auth needs the .p8 key from the Apple Developer portal (Keys)"
            ], "\(r.stderr)")
        #expect(try home.run(["config", "unset", "--profile", "k", "auth-key"]).status == 0)
        let moved = try home.run(["config", "set", "--profile", "k", "cert", both])
        #expect(moved.status == 0 && !moved.stderr.contains("holds"), "\(moved.stderr)")

        let right = try Home()
        let fine = try right.run(["config", "init", "-p", "k", "--cert", both])
        #expect(fine.status == 0 && fine.errorLines.isEmpty, "\(fine.stderr)")
    }
}
