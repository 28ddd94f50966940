import APNSTestSupport
import Foundation
import Testing

/// CLI.md, "Exit codes": the `--dry-run` curl block gives curl the bearer token, the certificate's passphrase
/// and the proxy credentials through a file of mode 0600 or standard input, never as an argument (any local
/// user reads `/proc/PID/cmdline` while curl runs), and single-quotes its strings, so pasting it into an
/// interactive bash expands no `!`. The block is pasted into `bash -i` (history expansion on, as in a
/// terminal) with a fake `curl` first on `PATH` that records its arguments, the header file, standard input or
/// config it was given, and the body. The `apnsctl jwt` the block calls by name runs in the test process
/// (`ApnsctlByName`).
@Suite struct DryRunCurlSecrecyTests {
    static let deviceToken = String(repeating: "3f2a", count: 16)

    /// A `curl` that records what it was given in `$FAKE_CURL_RECORD` and answers like curl: its arguments
    /// (NUL-separated), the contents and mode of each `-H @FILE` (`@-`: standard input), a config read from
    /// standard input (`-K -`, `--config -`), the body.
    static let fakeCurl = #"""
        #!/bin/sh
        dir="$FAKE_CURL_RECORD"
        for argument in "$@"; do printf '%s\0' "$argument"; done > "$dir/argv"
        previous=
        for argument in "$@"; do
          case "$previous:$argument" in
            -H:@-) cat > "$dir/header" ;;
            -K:-|--config:-) cat > "$dir/config" ;;
            -H:@*) file="${argument#@}"; cat "$file" > "$dir/header"; stat -c %a "$file" > "$dir/header-mode"
                   printf '%s' "$file" > "$dir/header-file" ;;
            --data-binary:*) printf '%s' "$argument" > "$dir/body" ;;
          esac
          previous="$argument"
        done
        printf 'HTTP/2 200\r\napns-id: 043D5436-2AA2-4E69-90F3-5A1FDBFAC9A4\r\n\r\n'
        """#

    struct Recorded {
        let arguments: [String]
        let header: String?
        let headerMode: String?
        let headerFile: String?
        /// The config curl read from standard input, as it read it.
        let config: String?
        let body: [UInt8]?

        /// The values of `option` in the config, as curl's config parser reads them.
        func configValues(_ option: String) -> [String] {
            CurlConfig.entries(config ?? "").filter { $0.option == option }.map(\.value)
        }
    }

    /// Runs `apnsctl send … --dry-run`, pastes its curl part into an interactive bash with the fake curl, and
    /// returns what curl was given.
    /// `environment` is set for both; `shell` for the pasted block only (what the user sets before pasting).
    static func pasteDryRun(
        _ arguments: [String], in directory: TemporaryDirectory, environment extra: [String: String] = [:],
        shell: [String: String] = [:]
    ) throws -> (dryRun: String, recorded: Recorded) {
        let environment = [
            "XDG_CACHE_HOME": directory.file("cache"), "HOME": directory.path, "HISTFILE": directory.file("history"),
        ]
        .merging(extra) { $1 }
        let dry = try InProcess.apnsctl(
            ["send", "--endpoint", "https://127.0.0.1:9", "--dry-run"] + arguments, environment: environment)
        #expect(dry.status == 0, "\(dry.stderr)")
        let block = try #require(DryRunCurlTests.curlPart(dry.stdout), "\(dry.stdout)")

        let bin = directory.file("bin")
        let record = directory.file("record")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: record, withIntermediateDirectories: true)
        _ = try directory.write("bin/curl", fakeCurl + "\n", mode: 0o755)
        let apnsctl = try ApnsctlByName(in: directory)
        var shellEnvironment = environment.merging(shell) { $1 }
        shellEnvironment["PATH"] = apnsctl.searchPath(first: [bin])
        shellEnvironment["FAKE_CURL_RECORD"] = record
        let pasted = try CommandRunner.run(
            "bash", ["--norc", "--noprofile", "-i"], stdin: Array(block.utf8),
            environment: shellEnvironment, timeout: 60)
        apnsctl.stop()
        // A token comes from the one `apnsctl jwt` the block runs; a certificate needs no call.
        let jwtCalls = apnsctl.calls.filter { $0.first == "jwt" }.count
        #expect(jwtCalls == (arguments.contains("--auth-key") ? 1 : 0), "\(apnsctl.calls)\n\(block)")
        #expect(!pasted.stderr.contains("event not found"), "\(pasted.stderr)\n\(block)")
        #expect(pasted.stdout.contains("HTTP/2 200"), "curl did not run: \(pasted.stdout)\n\(pasted.stderr)\n\(block)")

        func read(_ name: String) -> [UInt8]? {
            (try? Data(contentsOf: URL(fileURLWithPath: record + "/" + name))).map { Array($0) }
        }
        let argv = read("argv").map { bytes in
            bytes.split(separator: 0, omittingEmptySubsequences: false).dropLast().map {
                String(decoding: $0, as: UTF8.self)
            }
        }
        return (
            dry.stdout,
            Recorded(
                arguments: argv ?? [], header: read("header").map { String(decoding: $0, as: UTF8.self) },
                headerMode: read("header-mode").map { String(decoding: $0, as: UTF8.self) },
                headerFile: read("header-file").map { String(decoding: $0, as: UTF8.self) },
                config: read("config").map { String(decoding: $0, as: UTF8.self) }, body: read("body"))
        )
    }

    /// The token curl received checks out, and appears nowhere in its arguments; a header file, if one was
    /// used, was the user's alone and is gone.
    static func expectTokenKeptOffTheArguments(_ recorded: Recorded) throws {
        let configured = recorded.configValues("header").filter { $0.hasPrefix("authorization:") }.map { $0 + "\n" }
        #expect(configured.count <= 1, "\(configured)")
        let header = try #require(
            configured.first ?? recorded.header,
            "curl was given no header file, standard input or config: \(recorded.arguments)")
        let prefix = "authorization: bearer "
        #expect(header.hasPrefix(prefix) && header.hasSuffix("\n"), "\(header)")
        let token = String(header.dropFirst(prefix.count).dropLast())
        #expect(
            token.split(separator: ".").count == 3 && !token.contains(" ") && token.count > 40, "not a JWT: \(header)")
        #expect(header == prefix + token + "\n", "exactly the bearer header: \(header)")
        #expect(!recorded.arguments.contains { $0.contains(token) || $0.contains("bearer") }, "\(recorded.arguments)")
        if let file = recorded.headerFile {
            #expect(recorded.headerMode == "600\n", "\(String(describing: recorded.headerMode))")
            #expect(!FileManager.default.fileExists(atPath: file), "the header file \(file) was left behind")
        }
    }

    /// Token auth to a device: a payload and a collapse id with `!`, `'`, `$` and a backquote reach curl
    /// byte for byte through bash's history expansion; the token reaches it only on standard input.
    @Test func tokenAuthSendKeepsTheTokenOffCurlsArgumentsAndSurvivesBash() throws {
        let credentials = try TestCredentials()
        let directory = try TemporaryDirectory(prefix: "dry-run-secrecy")
        let payload = #"{"aps":{"alert":"Hi! it's me, \"$HOME\" `id` !! !$"},"n":"!x'y"}"#
        let collapseID = "it's!on"
        let (dryRun, recorded) = try Self.pasteDryRun(
            [
                "--auth-key", credentials.authKeyFile, "--team-id", credentials.teamID,
                "--topic", credentials.bundleID, "--collapse-id", collapseID,
                "-d", Self.deviceToken, payload,
            ], in: directory)

        try Self.expectTokenKeptOffTheArguments(recorded)
        #expect(recorded.body == Array(payload.utf8), "\(String(decoding: recorded.body ?? [], as: UTF8.self))")
        #expect(recorded.arguments.contains("apns-collapse-id: \(collapseID)"), "\(recorded.arguments)")
        #expect(recorded.arguments.contains("apns-topic: \(credentials.bundleID)"), "\(recorded.arguments)")
        #expect(recorded.arguments.last == "https://127.0.0.1:9/3/device/\(Self.deviceToken)", "\(recorded.arguments)")
        #expect(!dryRun.contains("-H \""), "every header single-quoted:\n\(dryRun)")
    }

    /// The broadcast (`--channel`) block likewise.
    @Test func tokenAuthBroadcastKeepsTheTokenOffCurlsArguments() throws {
        let credentials = try TestCredentials()
        let directory = try TemporaryDirectory(prefix: "dry-run-secrecy")
        let payload = #"{"aps":{"event":"update","timestamp":1790000000,"content-state":{"t":"it's on! !!"}}}"#
        let (_, recorded) = try Self.pasteDryRun(
            [
                "--auth-key", credentials.authKeyFile, "--team-id", credentials.teamID,
                "--topic", credentials.bundleID, "--channel", "YWJj", payload,
            ], in: directory)

        try Self.expectTokenKeptOffTheArguments(recorded)
        #expect(recorded.body == Array(payload.utf8), "\(String(decoding: recorded.body ?? [], as: UTF8.self))")
        #expect(recorded.arguments.contains("apns-channel-id: YWJj"), "\(recorded.arguments)")
    }

    /// Certificate auth has no token: no header on standard input, the certificate as before.
    @Test func certificateAuthStillPassesTheCertificate() throws {
        let credentials = try TestCredentials()
        let directory = try TemporaryDirectory(prefix: "dry-run-secrecy")
        let payload = #"{"aps":{"alert":"it's done!"}}"#
        let (_, recorded) = try Self.pasteDryRun(
            ["--cert", credentials.pushFile, "-d", Self.deviceToken, payload], in: directory)

        #expect(recorded.header == nil, "\(String(describing: recorded.header))")
        #expect(recorded.body == Array(payload.utf8), "\(String(decoding: recorded.body ?? [], as: UTF8.self))")
        let certificate = try #require(recorded.arguments.firstIndex(of: "--cert"), "\(recorded.arguments)")
        #expect(recorded.arguments.dropFirst(certificate + 1).first == credentials.pushFile, "\(recorded.arguments)")
    }

    /// A passphrase that every layer could bend: curl's config escapes (`"`, `\`, `\n` as text), the shell's
    /// (`$`, backquote, `'`) and bash history (`!`).
    static let hostileSecret = #"pa"ss\word\n $HOME `id` it's !! !$ \"#

    /// `--cert` with a `.p12` made with `passphrase`, in `directory`.
    static func pkcs12(_ credentials: TestCredentials, passphrase: String, in directory: TemporaryDirectory) throws
        -> String
    {
        let p12 = directory.file("push.p12")
        let made = try CommandRunner.run(
            "openssl",
            ["pkcs12", "-export", "-in", credentials.pushFile, "-out", p12, "-passout", "env:P12_PASSPHRASE"],
            environment: ["P12_PASSPHRASE": passphrase])
        #expect(made.status == 0, "\(made.stderr)")
        return p12
    }

    /// `secret` is in none of curl's arguments (nor any part of it that would identify it), nor in the dry run.
    static func expectKeptOffTheArguments(_ secret: String, _ recorded: Recorded, dryRun: String) {
        for part in [secret, "ss\\word", "pa\"ss"] {
            #expect(!recorded.arguments.contains { $0.contains(part) }, "\(part) in \(recorded.arguments)")
            #expect(!dryRun.contains(part), "\(part) printed:\n\(dryRun)")
        }
        #expect(
            !recorded.arguments.contains { ["--pass", "--proxy-user", "-U"].contains($0) }, "\(recorded.arguments)")
    }

    enum PassphraseSource: String, CaseIterable { case environment, file }

    /// A `.p12`'s passphrase, from APNSCTL_PASSPHRASE or a passphrase file, reaches curl exactly, in its config
    /// on standard input, never as an argument.
    @Test(arguments: PassphraseSource.allCases)
    func certificatePassphraseReachesCurlOnlyInItsConfig(source: PassphraseSource) throws {
        let credentials = try TestCredentials()
        let directory = try TemporaryDirectory(prefix: "dry-run-secrecy")
        let p12 = try Self.pkcs12(credentials, passphrase: Self.hostileSecret, in: directory)
        var arguments = ["--cert", p12, "-d", Self.deviceToken, "--alert", "it's done!"]
        var environment: [String: String] = [:]
        switch source {
        case .environment: environment["APNSCTL_PASSPHRASE"] = Self.hostileSecret
        case .file:
            arguments += [
                "--passphrase-file", try directory.write("pass.txt", Self.hostileSecret + "\r\nsecond line\n"),
            ]
        }
        let (dryRun, recorded) = try Self.pasteDryRun(arguments, in: directory, environment: environment)

        Self.expectKeptOffTheArguments(Self.hostileSecret, recorded, dryRun: dryRun)
        #expect(recorded.configValues("pass") == [Self.hostileSecret], "\(recorded.config ?? "no config")\n\(dryRun)")
        #expect(recorded.arguments.contains(p12), "\(recorded.arguments)")
    }

    /// A passphrase with a line break in APNSCTL_PASSPHRASE stays one config line and arrives whole.
    @Test func passphraseWithALineBreakArrivesWhole() throws {
        let credentials = try TestCredentials()
        let directory = try TemporaryDirectory(prefix: "dry-run-secrecy")
        let secret = "first\nsecond\\ end\rcr"
        let p12 = try Self.pkcs12(credentials, passphrase: secret, in: directory)
        let (_, recorded) = try Self.pasteDryRun(
            ["--cert", p12, "-d", Self.deviceToken, "--alert", "x"], in: directory,
            environment: ["APNSCTL_PASSPHRASE": secret])
        #expect(recorded.configValues("pass") == [secret], "\(recorded.config ?? "no config")")
        #expect(!recorded.arguments.contains { $0.contains("first") || $0.contains("second") }, "\(recorded.arguments)")
        // Line ends after it (`APNSCTL_PASSPHRASE=$(cat pass.txt)` of a Windows file, a secret store's newline) are
        // dropped, as apnsctl drops them: the block sent "\n" inside curl's pass, and curl could not open the file.
        let (_, ended) = try Self.pasteDryRun(
            ["--cert", p12, "-d", Self.deviceToken, "--alert", "x"], in: directory,
            environment: ["APNSCTL_PASSPHRASE": secret + "\r\n\n"])
        #expect(ended.configValues("pass") == [secret], "\(ended.config ?? "no config")")
    }

    /// Proxy credentials, from `--proxy` or `https_proxy`, with token auth: the user name and the password the
    /// block asks for (APNS_PROXY_PASSWORD) reach curl in its config with the bearer token, never as arguments.
    @Test(arguments: [true, false])
    func proxyCredentialsReachCurlOnlyInItsConfig(fromFlag: Bool) async throws {
        try await offThePool {
            let credentials = try TestCredentials()
            let directory = try TemporaryDirectory(prefix: "dry-run-secrecy")
            let proxy = #"http://us%22%5Cer:pa"ss\word@127.0.0.1:9"#
            var arguments = [
                "--auth-key", credentials.authKeyFile, "--team-id", credentials.teamID, "--topic", credentials.bundleID,
                "-d", Self.deviceToken, "--alert", "x",
            ]
            var environment = ["NO_PROXY": "", "no_proxy": ""]
            if fromFlag { arguments += ["--proxy", proxy] } else { environment["https_proxy"] = proxy }
            let (dryRun, recorded) = try Self.pasteDryRun(
                arguments, in: directory, environment: environment,
                shell: ["APNS_PROXY_PASSWORD": Self.hostileSecret])

            Self.expectKeptOffTheArguments(Self.hostileSecret, recorded, dryRun: dryRun)
            #expect(
                recorded.configValues("proxy-user") == [#"us"\er:"# + Self.hostileSecret],
                "\(recorded.config ?? "no config")\n\(dryRun)")
            #expect(recorded.arguments.contains("http://127.0.0.1:9"), "\(recorded.arguments)")
            try Self.expectTokenKeptOffTheArguments(recorded)
        }
    }
}
