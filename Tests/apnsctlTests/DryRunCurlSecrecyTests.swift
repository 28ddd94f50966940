import APNSTestSupport
import Foundation
import Testing

/// CLI.md, "Exit codes": the `--dry-run` curl block gives curl the bearer token through a file of mode 0600 or
/// standard input, never as an argument (any local user reads `/proc/PID/cmdline` while curl runs), and
/// single-quotes its strings, so pasting it into an interactive bash expands no `!`. The block is pasted into
/// `bash -i` (history expansion on, as in a terminal) with a fake `curl` first on `PATH` that records its
/// arguments, the header file or standard input it was given, and the body.
@Suite struct DryRunCurlSecrecyTests {
    static let deviceToken = String(repeating: "3f2a", count: 16)

    /// A `curl` that records what it was given in `$FAKE_CURL_RECORD` and answers like curl: its arguments
    /// (NUL-separated), the contents and mode of each `-H @FILE` (`@-`: standard input), the body.
    static let fakeCurl = #"""
        #!/bin/sh
        dir="$FAKE_CURL_RECORD"
        for argument in "$@"; do printf '%s\0' "$argument"; done > "$dir/argv"
        previous=
        for argument in "$@"; do
          case "$previous:$argument" in
            -H:@-) cat > "$dir/header" ;;
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
        let body: [UInt8]?
    }

    /// Runs `apnsctl send … --dry-run`, pastes its curl part into an interactive bash with the fake curl, and
    /// returns what curl was given.
    static func pasteDryRun(_ arguments: [String], in directory: TemporaryDirectory) throws -> (dryRun: String, recorded: Recorded) {
        let environment = ["XDG_CACHE_HOME": directory.file("cache"), "HOME": directory.path, "HISTFILE": directory.file("history")]
        let dry = try CommandRunner.apnsctl(["send", "--endpoint", "https://127.0.0.1:9", "--dry-run"] + arguments, environment: environment)
        #expect(dry.status == 0, "\(dry.stderr)")
        let block = try #require(DryRunCurlTests.curlPart(dry.stdout), "\(dry.stdout)")

        let bin = directory.file("bin"), record = directory.file("record")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: record, withIntermediateDirectories: true)
        _ = try directory.write("bin/curl", fakeCurl + "\n", mode: 0o755)
        let apnsctlDirectory = URL(fileURLWithPath: CommandRunner.apnsctlPath).deletingLastPathComponent().path
        var shellEnvironment = environment
        shellEnvironment["PATH"] = "\(bin):\(apnsctlDirectory):" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        shellEnvironment["FAKE_CURL_RECORD"] = record
        let pasted = try CommandRunner.run("bash", ["--norc", "--noprofile", "-i"], stdin: Array(block.utf8),
                                           environment: shellEnvironment, timeout: 60)
        #expect(!pasted.stderr.contains("event not found"), "\(pasted.stderr)\n\(block)")
        #expect(pasted.stdout.contains("HTTP/2 200"), "curl did not run: \(pasted.stdout)\n\(pasted.stderr)\n\(block)")

        func read(_ name: String) -> [UInt8]? {
            (try? Data(contentsOf: URL(fileURLWithPath: record + "/" + name))).map { Array($0) }
        }
        let argv = read("argv").map { bytes in bytes.split(separator: 0, omittingEmptySubsequences: false).dropLast().map { String(decoding: $0, as: UTF8.self) } }
        return (dry.stdout, Recorded(arguments: argv ?? [], header: read("header").map { String(decoding: $0, as: UTF8.self) },
                                     headerMode: read("header-mode").map { String(decoding: $0, as: UTF8.self) },
                                     headerFile: read("header-file").map { String(decoding: $0, as: UTF8.self) }, body: read("body")))
    }

    /// The token curl received checks out, and appears nowhere in its arguments; a header file, if one was
    /// used, was the user's alone and is gone.
    static func expectTokenKeptOffTheArguments(_ recorded: Recorded) throws {
        let header = try #require(recorded.header, "curl was given no header file or standard input: \(recorded.arguments)")
        let prefix = "authorization: bearer "
        #expect(header.hasPrefix(prefix) && header.hasSuffix("\n"), "\(header)")
        let token = String(header.dropFirst(prefix.count).dropLast())
        #expect(token.split(separator: ".").count == 3 && !token.contains(" ") && token.count > 40, "not a JWT: \(header)")
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
        let (dryRun, recorded) = try Self.pasteDryRun(["--auth-key", credentials.authKeyFile, "--team-id", credentials.teamID,
                                                       "--topic", credentials.bundleID, "--collapse-id", collapseID,
                                                       "-d", Self.deviceToken, payload], in: directory)

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
        let (_, recorded) = try Self.pasteDryRun(["--auth-key", credentials.authKeyFile, "--team-id", credentials.teamID,
                                                  "--topic", credentials.bundleID, "--channel", "YWJj", payload], in: directory)

        try Self.expectTokenKeptOffTheArguments(recorded)
        #expect(recorded.body == Array(payload.utf8), "\(String(decoding: recorded.body ?? [], as: UTF8.self))")
        #expect(recorded.arguments.contains("apns-channel-id: YWJj"), "\(recorded.arguments)")
    }

    /// Certificate auth has no token: no header on standard input, the certificate as before.
    @Test func certificateAuthStillPassesTheCertificate() throws {
        let credentials = try TestCredentials()
        let directory = try TemporaryDirectory(prefix: "dry-run-secrecy")
        let payload = #"{"aps":{"alert":"it's done!"}}"#
        let (_, recorded) = try Self.pasteDryRun(["--cert", credentials.pushFile, "-d", Self.deviceToken, payload], in: directory)

        #expect(recorded.header == nil, "\(String(describing: recorded.header))")
        #expect(recorded.body == Array(payload.utf8), "\(String(decoding: recorded.body ?? [], as: UTF8.self))")
        let certificate = try #require(recorded.arguments.firstIndex(of: "--cert"), "\(recorded.arguments)")
        #expect(recorded.arguments.dropFirst(certificate + 1).first == credentials.pushFile, "\(recorded.arguments)")
    }
}
