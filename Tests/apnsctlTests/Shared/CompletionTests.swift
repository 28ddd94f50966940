import APNSTestSupport
import Foundation
import Testing

/// Shell completion (CLI.md): file names for every flag that takes a path, the allowed values for every
/// enumerated flag. The bash script the binary generates is sourced in bash and its completion function
/// called as bash would, with COMP_WORDS and COMP_CWORD set, in a folder of sample files.
@Suite struct CompletionTests {
    static let cases: [(String, [String])] = [
        ("inspect pu", ["push.p12", "push.pem"]),
        ("inspect push.p12 --key pu", ["push.p12", "push.pem"]),
        ("inspect push.p12 --passphrase-file pas", ["pass.txt"]),
        ("send pay", ["payload.json"]),
        ("send --cert pu", ["push.p12", "push.pem"]),
        ("send -c pu", ["push.p12", "push.pem"]),
        ("send --key pu", ["push.p12", "push.pem"]),
        ("send --auth-key Auth", ["AuthKey_ABCDE12345.p8", "AuthKey_notes.txt"]),
        ("send --devices to", ["tokens.txt"]),
        ("send --ca-file c", ["ca.pem"]),
        ("send --passphrase-file pas", ["pass.txt"]),
        ("validate pay", ["payload.json"]),
        ("convert push.p12 -o ou", ["out-old.pem"]),
        ("convert pu", ["push.p12", "push.pem"]),
        ("convert push.pem -o x.p12 --out-passphrase-file pas", ["pass.txt"]),
        ("jwt --auth-key Auth", ["AuthKey_ABCDE12345.p8", "AuthKey_notes.txt"]),
        ("mock --state-dir st", ["state"]),
        ("mock --auth-key-pub Auth", ["AuthKey_ABCDE12345.p8", "AuthKey_notes.txt"]),
        ("send --env ", ["sandbox", "production", "auto"]),
        ("send -e p", ["production"]),
        ("send --push-type l", ["location", "liveactivity"]),
        ("send -o ", ["text", "json"]),
        ("send --output j", ["json"]),
        ("send --color ", ["auto", "always", "never"]),
        ("send --priority ", ["10", "5", "1"]),
        ("validate --push-type v", ["voip"]),
        ("validate -o ", ["text", "json"]),
        ("inspect x.pem -o ", ["text", "json"]),
        ("mock --env ", ["sandbox", "production"]),
        ("validate --size-limit ", ["256", "2k", "4k", "5k"]),
        ("send --size-limit ", ["256", "2k", "4k", "5k"]),
        ("channel create --storage ", ["none", "most-recent"]),
        ("channel create --storage m", ["most-recent"]),
        ("channel list -o ", ["text", "json"]),
        ("channel get x --output ", ["text", "json"]),
        ("channel delete x -o j", ["json"]),
        ("channel create --env ", ["sandbox", "production"]),
        ("channel list -e ", ["sandbox", "production"]),
        ("channel delete x --env a", []),
        ("channel create --cert pu", ["push.p12", "push.pem"]),
        ("ins", ["inspect"]),
    ]

    @Test func bashCompletesPathsAndValues() throws {
        let dir = try TemporaryDirectory(prefix: "completion")
        for name in [
            "push.p12", "push.pem", "AuthKey_ABCDE12345.p8", "AuthKey_notes.txt", "tokens.txt", "ca.pem",
            "pass.txt", "payload.json", "out-old.pem",
        ] {
            _ = try dir.write(name, "x")
        }
        try FileManager.default.createDirectory(atPath: dir.file("state"), withIntermediateDirectories: true)
        let script = try InProcess.apnsctl(["--generate-completion-script", "bash"])
        #expect(script.status == 0)
        let scriptFile = try dir.write("apnsctl.bash", script.stdout)
        var driver = """
            source '\(scriptFile)'
            complete_words() {
                COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
                COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}; COMPREPLY=()
                _apnsctl apnsctl "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
                printf '%s|' "${COMPREPLY[@]}"; printf '\\n'
            }

            """
        for (line, _) in Self.cases {
            var words = line.split(separator: " ").map { "'\($0)'" }
            if line.hasSuffix(" ") { words.append("''") }
            driver += "complete_words apnsctl \(words.joined(separator: " "))\n"
        }
        let r = try CommandRunner.run("bash", ["-c", driver], directory: dir.path)
        #expect(r.status == 0, "\(r.stderr)")
        let answers = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for (i, (line, expected)) in Self.cases.enumerated() {
            let got = i < answers.count ? Set(answers[i].split(separator: "|").map(String.init)) : []
            #expect(got == Set(expected), "apnsctl \(line)<Tab> offered \(got.sorted())")
        }
    }

    /// zsh and fish get the same definitions: paths complete as files there too.
    @Test func zshAndFishCompleteFilesForPathFlags() throws {
        let zsh = try InProcess.apnsctl(["--generate-completion-script", "zsh"])
        #expect(zsh.status == 0 && zsh.stdout.contains("{-c,--cert}'[") && zsh.stdout.contains(":file:_files"))
        let fish = try InProcess.apnsctl(["--generate-completion-script", "fish"])
        let cert = fish.stdout.split(separator: "\n").first { $0.contains("-l 'cert'") } ?? ""
        #expect(fish.status == 0 && cert.hasSuffix("-rF"), "\(cert)")
    }

    /// Interactive bash on a pseudo-terminal, in a folder holding `send/` and `subdir/`: a command name is
    /// completed as a word (`send `, not the folder `send/`), a path still as a path (`subdir/`).
    @Test func bashCompletesCommandsAsWordsAndPathsAsPaths() throws {
        let dir = try TemporaryDirectory(prefix: "completion-pty")
        for folder in ["send", "subdir"] {
            try FileManager.default.createDirectory(atPath: dir.file(folder), withIntermediateDirectories: true)
        }
        let script = try InProcess.apnsctl(["--generate-completion-script", "bash"])
        #expect(script.status == 0)
        let scriptFile = try dir.write("apnsctl.bash", script.stdout)
        let r = try PseudoTerminal.run(
            ["bash", "--norc", "--noprofile", "-i"], environment: ["PS1": "$ ", "INPUTRC": "/dev/null"],
            steps: [
                .send("cd '\(dir.path)' && source '\(scriptFile)' && echo READY\n"),
                .expect("READY\r\n"),
                .send("apnsctl sen\t"),
                // The word and the space after it: a folder would have been completed as `send/` instead.
                .expect("apnsctl send "),
                .send("\u{15}apnsctl send --devices sub\t"),
                .expect("subdir/"),
                .send("\u{15}exit\n"),
            ], timeout: 30)
        #expect(r.failedStep == nil, "\(r.transcript.debugDescription)")
        #expect(r.transcript.contains("apnsctl send "), "\(r.transcript.debugDescription)")
        #expect(!r.transcript.contains("send/"), "\(r.transcript.debugDescription)")
    }
}
