import APNSPlatform
import APNSTestSupport
import Foundation
import Testing

@testable import APNSCtlCommands

/// The passphrase prompt on a real pseudo-terminal: signals never leave the terminal without
/// echo (Ctrl-C under plain `sh`, SIGTERM, SIGHUP), Ctrl-Z then `fg` does not show the passphrase,
/// a wrong passphrase gets 3 tries, Ctrl-D says the input ended, and an empty `.p12` password for
/// `convert` must be confirmed. The signals are the process's, so the binary runs under a shell there; the
/// rest run in-process on a pseudo-terminal this process opens. One at a time (`oneAtATime`): a prompt holds the process's
/// signal handlers while it asks, one prompt at a time.
@Suite struct PassphrasePromptTests {
    static let oneAtATime = OneAtATime()

    static let passphrase = "pw-Zebra-42"
    let credentials: TestCredentials
    let scratch: TemporaryDirectory
    let encrypted: String
    let pkcs12: String
    let plain: String

    init() throws {
        credentials = try TestCredentials()
        scratch = try TemporaryDirectory(prefix: "prompt")
        plain = credentials.pushFile
        encrypted = scratch.file("enc.pem")
        let cert = try CommandRunner.run("openssl", ["x509", "-in", plain])
        let key = try CommandRunner.run(
            "openssl", ["pkey", "-in", plain, "-aes256", "-passout", "pass:\(Self.passphrase)"])
        guard cert.status == 0, key.status == 0 else { throw TestSupportError("openssl: \(cert.stderr) \(key.stderr)") }
        try (cert.stdout + key.stdout).write(toFile: encrypted, atomically: true, encoding: .utf8)
        pkcs12 = scratch.file("push.p12")
        let p12 = try CommandRunner.run(
            "openssl",
            [
                "pkcs12", "-export", "-in", plain, "-out", pkcs12,
                "-passout", "pass:\(Self.passphrase)",
            ])
        guard p12.status == 0 else { throw TestSupportError("openssl pkcs12: \(p12.stderr)") }
    }

    /// `apnsctl inspect enc.pem` typed into an interactive dash (`sh -i`), which, unlike bash, does not
    /// reset the terminal when a command dies.
    private func underShell(_ steps: [PseudoTerminal.Step]) throws -> PseudoTerminal.Result {
        // Typed at the shell, so the runner cannot tell the binary starts.
        BinaryStarts.record()
        return try PseudoTerminal.run(
            ["/bin/sh", "-i"], environment: ["PS1": "$ ", "ENV": ""],
            steps: [
                .expect("$ "), .send("'\(CommandRunner.apnsctlPath)' inspect '\(encrypted)'\n"),
                .expect("Passphrase for \(encrypted): "),
            ] + steps + [.send("exit\n")])
    }

    @Test func ctrlCUnderPlainShRestoresEcho() async throws {
        try await offThePool(Self.oneAtATime) {
            let r = try underShell([
                // The next prompt is awaited before typing: typed early, its echo and the prompt interleave
                // ("true typed-X$ YZZY"), and the text is never seen whole.
                .send("\u{03}"), .expect("$ "), .send("echo status=$?\n"), .expect("status=130"), .expect("$ "),
                .send("true typed-XYZZY\n"), .expect("typed-XYZZY", timeout: 5),
            ])
            #expect(r.failedStep == nil, "echo is off after Ctrl-C: \(r.transcript)")
            // Ctrl-C at a yes/no prompt (an empty .p12 password to confirm) ends its line too, then dies of it.
            let confirm = try PseudoTerminal.run(
                [CommandRunner.apnsctlPath, "convert", plain, "-o", scratch.file("empty.p12")],
                steps: [
                    .expect("Password for "), .send("\n"), .expect("Repeat the password: "), .send("\n"),
                    .expect("[y/N] "), .send("\u{03}"), .expect("\r\n", timeout: 5),
                ])
            #expect(confirm.failedStep == nil && confirm.signal == SIGINT, "\(confirm.transcript)")
            #expect(!FileManager.default.fileExists(atPath: scratch.file("empty.p12")))
        }
    }

    @Test func ctrlZThenFgKeepsThePassphraseHidden() async throws {
        try await offThePool(Self.oneAtATime) {
            let r = try underShell([
                .send("\u{1A}"), .expect("$ "),
                .send("true while-stopped\n"), .expect("while-stopped", timeout: 5),
                .send("fg\n"), .expect("Passphrase for \(encrypted): "),
                .send(Self.passphrase + "\n"), .expect("subject:"), .expect("$ "),
            ])
            #expect(r.failedStep == nil, "\(r.transcript)")
            #expect(!r.transcript.contains(Self.passphrase), "the passphrase was echoed: \(r.transcript)")
        }
    }

    @Test(arguments: [("TERM", 143), ("HUP", 129)])
    func killedAtThePromptRestoresEcho(signal: String, status: Int) async throws {
        try await offThePool(Self.oneAtATime) {
            // A non-interactive sh runs apnsctl in the background (same process group, so it may read the
            // terminal) and signals it once the prompt has turned echo off; after that the terminal must echo
            // again. The shell then keeps the terminal open, reading, until the test has typed and seen the echo.
            let echoOff = "stty -a | grep -Eq '(^| )-echo( |$)'"
            let script =
                "\"$0\" inspect \"$1\" & pid=$!; n=0; until \(echoOff) || [ $n -ge 400 ]; do sleep 0.05; n=$((n + 1)); done; "
                + "kill -\(signal) $pid; wait $pid; echo status=$?; read -r _"
            let r = try PseudoTerminal.run(
                ["/bin/sh", "-c", script, CommandRunner.apnsctlPath, encrypted],
                steps: [
                    .expect("Passphrase for"), .expect("status=\(status)"),
                    .send("typed-XYZZY"), .expect("typed-XYZZY", timeout: 4), .send("\n"),
                ], timeout: 30)
            #expect(r.failedStep == nil, "\(signal): \(r.transcript)")
        }
    }

    /// `apnsctl ARGUMENTS` run in-process with its standard streams and the terminal it asks on a pseudo-terminal,
    /// and `steps` played at that terminal; the passphrase variables are empty (unset, for apnsctl), so the
    /// prompts appear.
    /// `terminalInput`: standard input is the terminal too.
    private func direct(_ arguments: [String], _ steps: [PseudoTerminal.Step], terminalInput: Bool = false) throws -> (
        transcript: String, status: Int32, failedStep: Int?
    ) {
        let terminal = try TestTerminal()
        let run = try InProcess.Run(
            arguments, environment: ["NO_COLOR": "", "APNSCTL_PASSPHRASE": "", "APNSCTL_OUT_PASSPHRASE": ""],
            stdout: .descriptor(terminal.fd), stderr: terminal.fd, standardInput: terminalInput ? terminal.fd : nil,
            terminal: .on(TerminalPrompt(path: terminal.path, input: terminal.fd, error: terminal.fd)))
        let failedStep = terminal.play(steps)
        let result = run.result(within: 60)
        let transcript = terminal.finish() ?? terminal.transcript
        return (transcript, result.status, failedStep)
    }

    /// An encrypted PEM key and a PKCS#12 file (checked by its MAC) alike.
    @Test(arguments: [false, true])
    func aWrongPassphraseGetsThreeTries(usePKCS12: Bool) async throws {
        try await offThePool(Self.oneAtATime) {
            let file = usePKCS12 ? pkcs12 : encrypted
            let prompt = "Passphrase for \(file): "
            let failed = try direct(
                ["inspect", file],
                [
                    .expect(prompt), .send("wrong-1\n"), .expect("try again"),
                    .expect(prompt), .send("wrong-2\n"), .expect("try again"),
                    .expect(prompt), .send("wrong-3\n"), .expect("error: \(file): wrong passphrase"),
                ])
            #expect(failed.failedStep == nil, "\(failed.transcript)")
            #expect(failed.status == 77)
            #expect(failed.transcript.components(separatedBy: prompt).count - 1 == 3)

            let second = try direct(
                ["inspect", file],
                [
                    .expect(prompt), .send("wrong-1\n"), .expect(prompt), .send(Self.passphrase + "\n"),
                    .expect("subject:"),
                ])
            #expect(second.status == 0, "\(second.transcript)")
            #expect(second.failedStep == nil, "\(second.transcript)")
            #expect(!second.transcript.contains(Self.passphrase) && !second.transcript.contains("wrong-1"))
        }
    }

    /// `--passphrase-file -` typed at a terminal (standard input is one) is asked at the prompt, without echo: read
    /// as a file, the terminal showed it and waited for Ctrl-D after the line.
    @Test func aPassphraseFileOfStandardInputOnATerminalIsThePrompt() async throws {
        try await offThePool(Self.oneAtATime) {
            let r = try direct(
                ["inspect", encrypted, "--passphrase-file", "-"],
                [.expect("Passphrase for \(encrypted): "), .send(Self.passphrase + "\n"), .expect("subject:")],
                terminalInput: true)
            #expect(r.failedStep == nil, "\(r.transcript)")
            #expect(r.status == 0, "\(r.transcript)")
            #expect(!r.transcript.contains(Self.passphrase), "\(r.transcript)")
            // Wrong three times at that prompt: the message names no file (none was read).
            let wrong = try direct(
                ["inspect", encrypted, "--passphrase-file", "-"],
                [
                    .expect("Passphrase for"), .send("w1\n"), .expect("Passphrase for"), .send("w2\n"),
                    .expect("Passphrase for"), .send("w3\n"), .expect("wrong passphrase"),
                ], terminalInput: true)
            #expect(wrong.status == 77, "\(wrong.transcript)")
            #expect(!wrong.transcript.contains("standard input's first line"), "\(wrong.transcript)")
            // convert's --out-passphrase-file - on a terminal is its prompt too, asked twice.
            let out = scratch.file("typed.p12")
            let typed = try direct(
                ["convert", plain, "-o", out, "--out-passphrase-file", "-"],
                [.expect("Password for"), .send("pw-1\n"), .expect("Repeat"), .send("pw-1\n"), .expect("wrote ")],
                terminalInput: true)
            #expect(typed.status == 0, "\(typed.transcript)")
            #expect(!typed.transcript.contains("pw-1"), "\(typed.transcript)")
            let check = try CommandRunner.run("openssl", ["pkcs12", "-in", out, "-noout", "-passin", "pass:pw-1"])
            #expect(check.status == 0, "\(check.stderr)")
            // /dev/stdin is the same terminal: asked the same way, never echoed (it was read as a file, shown).
            let named = try direct(
                ["inspect", encrypted, "--passphrase-file", "/dev/stdin"],
                [.expect("Passphrase for \(encrypted): "), .send(Self.passphrase + "\n"), .expect("subject:")],
                terminalInput: true)
            #expect(named.status == 0 && !named.transcript.contains(Self.passphrase), "\(named.transcript)")
            let namedOut = try direct(
                ["convert", plain, "-o", scratch.file("named.p12"), "--out-passphrase-file", "/dev/stdin"],
                [.expect("Password for"), .send("pw-2\n"), .expect("Repeat"), .send("pw-2\n"), .expect("wrote ")],
                terminalInput: true)
            #expect(namedOut.status == 0 && !namedOut.transcript.contains("pw-2"), "\(namedOut.transcript)")
        }
    }

    @Test func ctrlDEndsThePromptOnANewLine() async throws {
        try await offThePool(Self.oneAtATime) {
            let r = try direct(["inspect", encrypted], [.expect("Passphrase for"), .send("\u{04}")])
            #expect(r.status == 77)
            #expect(
                r.transcript.contains(
                    "Passphrase for \(encrypted): \r\nerror: \(encrypted): the passphrase input ended (Ctrl-D)"),
                "\(r.transcript)")
        }
    }

    @Test func anEmptyPasswordForANewP12MustBeConfirmed() async throws {
        try await offThePool(Self.oneAtATime) {
            let declined = scratch.file("declined.p12")
            let accepted = scratch.file("accepted.p12")
            let no = try direct(
                ["convert", plain, "-o", declined],
                [
                    .expect("Password for"), .send("\n"), .expect("Repeat"), .send("\n"), .expect("[y/N] "),
                    .send("n\n"),
                ])
            #expect(no.status == 64, "\(no.transcript)")
            #expect(no.transcript.contains("error: \(declined): empty password not confirmed"))
            #expect(!FileManager.default.fileExists(atPath: declined))

            let yes = try direct(
                ["convert", plain, "-o", accepted],
                [
                    .expect("Password for"), .send("\n"), .expect("Repeat"), .send("\n"), .expect("[y/N] "),
                    .send("y\n"),
                ])
            #expect(yes.status == 0, "\(yes.transcript)")
            let check = try CommandRunner.run("openssl", ["pkcs12", "-in", accepted, "-noout", "-passin", "pass:"])
            #expect(check.status == 0, "\(check.stderr)")
        }
    }
}
