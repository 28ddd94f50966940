import APNSPlatform
import APNSTestSupport
import Foundation
import Testing

/// Inputs that must not be misread: two pasted tokens, base64 and description strings, and
/// two kinds of credential at once, all refused with exit 64 before anything connects (the endpoint
/// is a closed port, so an attempt would show up as 69).
@Suite struct SendInputTests {
    let credentials: TestCredentials
    let scratch: TemporaryDirectory
    let a = String(repeating: "3f2a", count: 16)
    let b = String(repeating: "77b0", count: 16)
    init() throws {
        credentials = try TestCredentials()
        scratch = try TemporaryDirectory(prefix: "send-input")
    }

    private func send(_ args: [String], stdin: [UInt8]? = nil) throws -> CommandResult {
        try InProcess.apnsctl(
            [
                "send", "--cert", credentials.pushFile, "--endpoint", "https://127.0.0.1:9",
                "--alert", "x", "--dry-run",
            ] + args, stdin: stdin,
            environment: ["XDG_CACHE_HOME": scratch.path])
    }

    @Test func twoPastedTokensInOneDeviceAre64() throws {
        for value in ["\(a) \(b)", "\(a)\t\(b)", "\(a)\n\(b)"] {
            let r = try send(["-d", value])
            #expect(r.status == 64, "\(r.stderr)")
            #expect(r.stderr.hasPrefix("error: --device "), "\(r.stderr)")
            #expect(r.stderr.contains("one token per --device"), "\(r.stderr)")
            #expect(r.stdout.isEmpty, "nothing is printed as if it would be sent")
        }
    }

    @Test func endsAreTrimmedAndXcodeGroupingIsAccepted() throws {
        let grouped =
            "<" + stride(from: 0, to: 64, by: 8).map { i in String(Array(a)[i..<i + 8]) }.joined(separator: " ") + ">"
        for value in ["  \(a.uppercased())\n", grouped] {
            let r = try send(["-d", value])
            #expect(r.status == 0, "\(value): \(r.stderr)")
            #expect(r.stdout.contains("/3/device/\(a)\n"), "\(r.stdout)")
        }
    }

    @Test func devicesFileAppliesTheSameRulePerLine() throws {
        let file = try scratch.write("tokens.txt", "# ok\n  \(a)  \n\n\(a) \(b)\n")
        let r = try send(["--devices", file])
        #expect(r.status == 64)
        #expect(r.stderr.hasPrefix("error: --devices \(file):4: "), "\(r.stderr)")
        #expect(r.stderr.contains("one per line"), "\(r.stderr)")
    }

    @Test func base64AndDescriptionStringsGetHints() throws {
        // base64 of 32 bytes 0x00…0x1f, as deviceToken.base64EncodedString() prints it.
        let base64 = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="
        let hex = (0..<32).map { String(format: "%02x", $0) }.joined()
        let r = try send(["-d", base64])
        #expect(r.status == 64)
        #expect(r.stderr.contains("looks like base64") && r.stderr.contains(hex), "\(r.stderr)")

        let logged = try send(["-d", "{length=32,bytes=0x3f2a1b0c9d8e7f6a...5b6c9c1d}"])
        #expect(logged.status == 64)
        #expect(logged.stderr.contains("middle is elided") && logged.stderr.contains("%02x"), "\(logged.stderr)")
    }

    @Test func certificateAndAuthKeyTogetherAre64() throws {
        let r = try InProcess.apnsctl(
            [
                "send", "--cert", credentials.pushFile, "--auth-key", credentials.authKeyFile,
                "--team-id", credentials.teamID, "--topic", "com.example.demo",
                "--endpoint", "https://127.0.0.1:9", "-d", a,
            ],
            environment: ["XDG_CACHE_HOME": scratch.path])
        #expect(r.status == 64)
        #expect(
            r.stderr
                == "error: --cert and --auth-key both given; choose one: certificate auth (--cert) or token auth (--auth-key)\n"
        )
    }

    /// `cat alert.json | apnsctl send -d TOKEN`, `-` forgotten: the pipe is not read and the default alert goes out,
    /// so that is said. Looking at what waits never reads nor waits: an empty pipe whose writer is still open,
    /// a terminal, a token list (a `while read` loop's), and input something else reads say nothing.
    @Test func dataWaitingOnStandardInputWithoutPayloadIsSaid() throws {
        let json = Array(#"{"aps":{"alert":"piped"}}"#.utf8)
        func run(_ extra: [String], input: Int32) throws -> CommandResult {
            try InProcess.apnsctl(
                ["send", "--cert", credentials.pushFile, "--endpoint", "https://127.0.0.1:9", "-d", a, "--dry-run"]
                    + extra, environment: ["XDG_CACHE_HOME": scratch.path], standardInput: input)
        }
        func pipe(holding bytes: [UInt8]) throws -> (read: Int32, write: Int32) {
            var ends: [Int32] = [-1, -1]
            #expect(Glibc.pipe(&ends) == 0)
            #expect(posixWriteAll(ends[1], bytes) == nil)
            return (ends[0], ends[1])
        }
        let warning =
            #"warning: standard input holds JSON that is not read: no PAYLOAD was given, so the default payload {"aps":{"alert":"Hello from apnsctl"}} is used; to send that JSON instead, give - as PAYLOAD (apnsctl send - …)"#

        let piped = try pipe(holding: json)
        defer { close(piped.read) }
        close(piped.write)
        let r = try run([], input: piped.read)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").contains { $0 == warning }, "\(r.stderr)")
        #expect(r.stdout.contains("Hello from apnsctl"), "\(r.stdout)")

        // A file redirected in (`< alert.json`), not read to its end.
        let file = try scratch.write("alert.json", String(decoding: json, as: UTF8.self))
        let redirected = open(file, O_RDONLY | O_CLOEXEC)
        defer { close(redirected) }
        let fromFile = try run([], input: redirected)
        #expect(fromFile.stderr.split(separator: "\n").contains { $0 == warning }, "\(fromFile.stderr)")

        // With `-` the same bytes are the payload, and nothing is said.
        let given = try pipe(holding: json)
        defer { close(given.read) }
        close(given.write)
        let dash = try run(["-"], input: given.read)
        #expect(dash.status == 0, "\(dash.stderr)")
        #expect(!dash.stderr.contains("warning"), "\(dash.stderr)")
        #expect(dash.stdout.contains("piped") && !dash.stdout.contains("Hello from apnsctl"), "\(dash.stdout)")

        // Flags that build the payload: the input was not meant as one.
        let flagged = try pipe(holding: json)
        defer { close(flagged.read) }
        close(flagged.write)
        let quick = try run(["--alert", "hi"], input: flagged.read)
        #expect(quick.status == 0 && !quick.stderr.contains("warning"), "\(quick.stderr)")

        // A `while read t; do apnsctl send -d "$t"; done < tokens.txt` loop: the rest of the list waits on standard
        // input, and is the loop's, not a payload.
        let list = try pipe(holding: Array("\(a)\n\(b)\n".utf8))
        defer { close(list.read) }
        close(list.write)
        let loop = try run([], input: list.read)
        #expect(loop.status == 0 && !loop.stderr.contains("warning"), "\(loop.stderr)")

        // Nothing waiting: a pipe whose writer has written nothing yet (and is still open), and a terminal (a
        // pseudo-terminal of the test's own, where nothing is typed).
        let empty = try pipe(holding: [])
        defer {
            close(empty.read)
            close(empty.write)
        }
        let waiting = try run([], input: empty.read)
        #expect(waiting.status == 0 && !waiting.stderr.contains("warning"), "\(waiting.stderr)")
        let tty = try TestTerminal()
        let none = try run([], input: tty.fd)
        _ = tty.finish()
        #expect(none.status == 0 && !none.stderr.contains("warning"), "\(none.stderr)")
    }
}
