import APNSCore
import APNSCrypto
import APNSPlatform
import ArgumentParser

extension APNSCtl {
    /// `apnsctl convert`: turns a Keychain `.p12` into the PEM curl and OpenSSL tools want, and a PEM
    /// into a `.p12` (modern, or legacy for older keychains).
    struct Convert: WorldCommand {
        static let configuration = CommandConfiguration(
            commandName: "convert",
            abstract: "Convert .p12 to .pem (certificate chain and key) and .pem to .p12.",
            usage: "apnsctl convert <input> -o <file> [<passphrase options>] [<options>]",
            discussion: """
                The output format follows the output name: .p12 or .pfx writes PKCS#12, .pem, .crt or .key \
                writes PEM; otherwise (and for '-o -') the opposite of the input, or PEM for a certificate \
                without its key (a .p12 needs one). PEM output holds the \
                certificate, its chain and the private key unencrypted (as 'openssl pkcs12 -nodes'), usable \
                with 'curl --cert' and 'apnsctl send --cert'.

                PKCS#12 output uses AES-256 and a SHA-256 MAC, or with --legacy RC2-40/3DES and a SHA-1 MAC \
                for older macOS keychains. Its password comes from --out-passphrase-file or \
                APNSCTL_OUT_PASSPHRASE, else a prompt (twice) on the terminal, which asks to confirm an empty \
                password; an empty first line of the file means an empty password.

                Output files are created with mode 0600 and never overwritten without --force (exit 73). \
                --force replaces only a regular file: a directory, symlink, FIFO, socket or device at that \
                path is exit 73 (use '-o -' for stdout). The file is written beside its final name and renamed \
                into place, so a failed write (disk full, exit 74) leaves the old file untouched.

                Examples:
                  apnsctl convert push.p12 -o push.pem --passphrase-file pass.txt
                  apnsctl convert push.pem -o push.p12 --out-passphrase-file new-pass.txt
                  apnsctl convert push.pem -o old-mac.p12 --legacy
                  apnsctl convert push.p12 -o - | openssl x509 -noout -enddate
                """)

        @Argument(
            help: ArgumentHelp(
                "The .p12/.pfx or .pem file to convert; - reads it from standard input.", valueName: "input"),
            completion: .file())
        var input: String

        @Option(
            name: [.customShort("o"), .customLong("output")],
            help: ArgumentHelp("Where to write the result ('-' for stdout).", valueName: "file"), completion: .file())
        var output: String

        @Option(
            name: [.customShort("k"), .customLong("key")],
            help: ArgumentHelp(
                "Private key PEM, when it is not inside the input; - reads it from standard input.", valueName: "file"),
            completion: .file())
        var key: String?

        @OptionGroup var passphrase: PassphraseOptions

        @Option(
            name: .customLong("out-passphrase-file"),
            help: ArgumentHelp(
                "Password for the written .p12, from the first line of this file; - reads that line from standard input (on a terminal: asked twice, not shown).",
                valueName: "file"),
            completion: .file())
        var outPassphraseFile: String?

        @Flag(
            name: .customLong("legacy"),
            help: "Write the .p12 with RC2-40/3DES encryption and a SHA-1 MAC, for older macOS keychains.")
        var legacy = false

        @Flag(
            name: .customLong("force"),
            help: "Replace the output file if it exists (only a regular file; it keeps its owner and group).")
        var force = false

        func run(in world: CommandWorld) throws {
            if ["json", "text"].contains(output.lowercased()) {
                // `-o` is send's format flag; here it names the file, and a file named `json` is a mistake.
                throw CLIError.usage(
                    "-o \(output): in convert, -o names the output file (e.g. -o push.pem, or -o - for standard output); "
                        + "convert has no \(output.lowercased()) format")
            }
            // Both read from standard input: the first would take the line meant for the other, and the .p12 would get
            // an empty password.
            try StandardInputReaders.check(
                [
                    StandardInputReaders.reader("INPUT", input), StandardInputReaders.reader("--key", key),
                    passphrase.file(in: world).flatMap { StandardInputReaders.reader($0.label, $0.value) },
                    StandardInputReaders.reader("--out-passphrase-file", outPassphraseFile),
                ].compactMap { $0 })
            // An unset variable (`-o "$OUT"`): no file to create, said as the flag's mistake.
            if output.trimmingBlanks().isEmpty {
                throw CLIError.usage(
                    "-o: an empty path; give the file to write (.pem or .p12), or - for standard output")
            }
            // A blank kept around the name (quotes, a .env line, a paste) makes a file nobody will find by its name.
            if output.trimmingBlanks() != output {
                world.standardError.warning(
                    "-o \(PrintableText.quoted(output)): the name has a blank around it (kept by quotes, a .env file's line or a paste), and is written as given; without it: -o \(ShellWord.of(output.trimmingBlanks()))"
                )
            }
            // A .p12 becomes PEM with its key: refused on a terminal before its passphrase is asked for.
            let lowered = input.lowercased()
            if output == "-", world.streams.isTerminal(1), lowered.hasSuffix(".p12") || lowered.hasSuffix(".pfx") {
                throw Self.keyOnTerminal
            }
            // Before any passphrase is asked for: only a regular file may be replaced, and only with --force.
            if output != "-" {
                let existing: Bool
                do { existing = try FileSystem.checkOutputTarget(output) } catch {
                    throw Self.outputProblem(error.relabelled("-o \(output)"))
                }
                if existing && !force { throw Self.outputProblem(.exists(path: output)) }
            }
            let credential = try Self.readPipedBeforeTerminal(input, output: output, in: world)
            let source = try passphrase.source(in: world)
            let contents = try withCredentialErrors(
                flags: .flags(("--key", key)), passphrase: passphrase.given(in: world),
                passphraseFile: source.filePath,
                passphraseFileFlag: passphrase.file(in: world)?.label ?? "--passphrase-file", converting: true
            ) { () throws(CredentialProblem) in
                try CredentialLoader.loadContents(
                    credential ?? .given(input, in: world), key: key.map { .given($0, in: world) }, passphrase: source)
            }
            guard let leaf = contents.leaf else {
                // A `.p8` is used as it is: there is nothing to convert it to.
                if CredentialLoader.isTokenSigningKey(contents, path: input) {
                    throw CLIError(CredentialProblem.tokenSigningKeyNotCertificate(path: input))
                }
                throw CLIError(CredentialProblem.noCertificate(path: input))
            }
            if contents.keyMatches == false {
                throw CLIError(
                    CredentialProblem.keyDoesNotMatchCertificate(
                        certificatePath: input, keyPath: contents.keyPath ?? input), flags: .flags(("--key", key)))
            }
            // What send and inspect refuse or warn about is said here too: the converted file would meet it there.
            let info = leaf.info
            if info.isExpired(now: world.clock.now()) {
                world.standardError.warning(
                    "\(input): the certificate expired on \(ISO8601.format(epochSeconds: info.notAfter)); converting anyway"
                )
            } else if info.isNotYetValid(now: world.clock.now()) {
                world.standardError.warning(
                    "\(input): the certificate is not valid before \(ISO8601.format(epochSeconds: info.notBefore)); converting anyway"
                )
            }
            if !info.hasApplePushExtensions {
                world.standardError.warning(CredentialMessages.notApplePush(input, info: info))
            }
            // Another push certificate is no chain certificate: left out of what is written, and said.
            let chain = contents.certificateChain
            if !contents.otherCertificates.isEmpty {
                world.standardError.warning(
                    CredentialMessages.otherCertificates(
                        input, used: info, others: contents.otherCertificates.map(\.info),
                        keyed: contents.privateKey != nil, verb: "written"))
            }
            for line in CredentialMessages.fileWarnings(input, contents, now: world.clock.now()) {
                world.standardError.warning(line)
            }
            let bytes: [UInt8]
            if writesPKCS12(contents) {
                guard let privateKey = contents.privateKey else {
                    throw CLIError(CredentialProblem.noPrivateKey(path: input))
                }
                // Binary on a terminal garbles it (and may drive it), as curl warns: before any password is asked.
                if output == "-" && world.streams.isTerminal(1) { throw Self.binaryOnTerminal }
                // `--passphrase` read as the new file's password: it opens the input, which needed none.
                let unused =
                    contents.neededPassphrase
                    ? nil : passphrase.file(in: world)?.label ?? passphrase.given(in: world)?.label
                let password = try ConvertPassword.resolve(
                    file: outPassphraseFile, output: output == "-" ? "standard output" : output,
                    unusedInputFlag: unused.flatMap { $0.hasPrefix("--") ? $0 : nil }, in: world)
                let identity = PushIdentity(
                    certificate: leaf, privateKey: privateKey, chain: chain, certificatePath: input)
                do {
                    bytes = try identity.pkcs12(password: password, encryption: legacy ? .legacy : .modern)
                } catch {
                    // A piece of this machine's OpenSSL missing, not a bug: what reading such a file says too (77).
                    if legacy && error.operation.hasPrefix("loading OpenSSL's legacy provider") {
                        throw CLIError.credential(
                            "--legacy: OpenSSL's legacy provider (legacy.so, for RC2 and 3DES) could not be loaded: install it, or set OPENSSL_MODULES to the folder that holds it; or leave --legacy out (the .p12 is then AES-256, which older macOS keychains may not import)"
                        )
                    }
                    throw CredentialMessages.writing("the PKCS#12 file", error)
                }
            } else {
                if legacy { throw CLIError.usage("--legacy applies only to .p12 output; \(output) is PEM") }
                if outPassphraseFile != nil {
                    throw CLIError.usage("--out-passphrase-file applies only to .p12 output; \(output) is PEM")
                }
                var pem = leaf.pem
                for c in chain { pem += c.pem }
                if let privateKey = contents.privateKey {
                    // Secrets never reach a terminal (CLI.md): the key would stay in its scrollback, unencrypted.
                    if output == "-" && world.streams.isTerminal(1) { throw Self.keyOnTerminal }
                    do { pem += try privateKey.pkcs8PEM(passphrase: nil) } catch {
                        throw CredentialMessages.writing("the private key", error)
                    }
                } else {
                    world.standardError.warning(
                        "\(CredentialMessages.shownName(input)): holds no private key; writing the certificates only")
                }
                bytes = pem
            }
            let out = world.standardOutput
            if output == "-" {
                out.write(bytes)
            } else {
                do {
                    try FileSystem.write(bytes, to: output, mode: 0o600, overwrite: force)
                } catch {
                    // A folder that is not there is named with the flag that gave the path.
                    if case .cannotCreate = error { throw Self.outputProblem(error.relabelled("-o \(output)")) }
                    throw Self.outputProblem(error)
                }
            }
            // One line saying what was written (CLI.md), only once it was: standard output is asked first.
            out.flush()
            guard out.failure == nil else { return }
            var parts = ["certificate"]
            if !chain.isEmpty {
                parts.append("\(chain.count) chain certificate\(chain.count == 1 ? "" : "s")")
            }
            if contents.privateKey != nil { parts.append("private key") }
            var notes: [String] = []
            if writesPKCS12(contents) {
                notes.append("PKCS#12 with \(legacy ? "legacy RC2/3DES" : "AES-256") encryption")
            }
            if output != "-" { notes.append("mode 0600") }
            world.standardError.print(
                "wrote \(output == "-" ? "standard output" : PrintableText.escapingControls(output)): "
                    + parts.joined(separator: ", ") + notes.map { "; " + $0 }.joined() + "\n")
        }

        /// The parser's `Missing expected argument '--output <file>'` for `convert IN OUT` (cp's order) or
        /// `convert IN --out OUT`: the word meant as the output is named with the `-o` that takes it.
        static func missingOutputAdvice(_ line: String, arguments: [String]) -> String {
            guard line == "error: Missing expected argument '--output <file>'", arguments.first == commandName
            else { return line }
            let words = Array(arguments.dropFirst())
            var meant: String? = nil
            if let i = words.firstIndex(where: { $0 == "--out" || $0 == "--output-file" || $0 == "--outfile" }),
                i + 1 < words.count
            {
                meant = words[i + 1]
            } else {
                // The second word that is no flag and no flag's value: cp's destination.
                let positional = words.enumerated().filter { i, word in
                    !word.hasPrefix("-") && (i == 0 || !Self.valueFlags.contains(words[i - 1]))
                }
                if positional.count == 2 { meant = positional[1].element }
            }
            guard let meant, PrintableText.escapingControls(meant) == meant else { return line }
            // A word with no file's ending is no file to write (the format follows it) and may be the passphrase.
            guard FileSystem.baseName(meant).contains("."), !VariableEcho.isSecretText(meant) else {
                return line + "; the file to write goes with -o FILE.pem or -o FILE.p12, and a passphrase with "
                    + "--passphrase-file FILE or APNSCTL_PASSPHRASE (the other word is not repeated, in case it is one)"
            }
            return line + "; the file to write goes with -o: -o \(ShellWord.of(meant))"
        }

        /// convert's flags that take a value, for telling a flag's value from a file given alone.
        private static let valueFlags: Set<String> = [
            "-o", "--output", "-k", "--key", "--passphrase", "--passphrase-file", "--out-passphrase-file",
        ]

        private static var commandName: String { configuration.commandName ?? "convert" }

        /// A credential piped in while standard output is a terminal, read before its passphrase is asked for: a
        /// `.p12` becomes PEM with its key and a PEM key becomes a binary `.p12`, neither of which is printed on a
        /// terminal, so both are refused first (a name tells a file's kind; piped bytes are looked at). Nil when
        /// the credential is read as usual.
        private static func readPipedBeforeTerminal(_ input: String, output: String, in world: CommandWorld)
            throws(CLIError) -> CredentialInput?
        {
            guard output == "-", world.streams.isTerminal(1), let piped = try CredentialInput.readNow(input, in: world)
            else { return nil }
            let key = CredentialLoader.holdsPrivateKey(piped.bytes)
            if key.pkcs12 { throw keyOnTerminal }
            // A key alone is no .p12 either way: loading says it lacks its certificate, the one thing to fix.
            if key.pemKey && key.pemCertificate { throw binaryOnTerminal }
            return piped.input
        }

        /// PEM with the unencrypted key is not printed on a terminal: it would stay in the scrollback.
        static let keyOnTerminal = CLIError.usage(
            "-o -: standard output is a terminal, and the PEM holds the unencrypted private key; "
                + "write it to a file (-o push.pem, mode 0600), or pipe or redirect standard output (-o - > push.pem)")

        /// Binary on a terminal garbles it (and may drive it), as curl warns.
        static let binaryOnTerminal = CLIError.usage(
            "-o -: standard output is a terminal, and PKCS#12 is binary; write it to a file (-o push.p12), "
                + "or pipe or redirect standard output (-o - > push.p12)")

        /// PKCS#12 for `.p12`/`.pfx` names, PEM for `.pem`/`.crt`/`.cer`/`.key`, else the opposite of the input (PEM
        /// for a certificate without its key).
        private func writesPKCS12(_ contents: CredentialContents) -> Bool {
            // The name as meant: `-o "push.pem "` is PEM, though written as given.
            let lower = output.trimmingBlanks().lowercased()
            if lower.hasSuffix(".p12") || lower.hasSuffix(".pfx") { return true }
            if [".pem", ".crt", ".cer", ".key"].contains(where: { lower.hasSuffix($0) }) { return false }
            // A certificate without its key (`aps.cer` to `-o -`) can only be PEM: a .p12 needs the key.
            return contents.kind != .pkcs12 && contents.privateKey != nil
        }

        /// An output path convert cannot write, with what its own flags can do about it (--force, -o -).
        static func outputProblem(_ failure: FileSystem.Failure) -> CLIError {
            switch failure {
            case .exists: return .outputExists(failure.message + "; pass --force to overwrite it")
            case .notARegularFile:
                return .outputExists(
                    failure.message + "; apnsctl replaces only regular files, even with --force; "
                        + "choose another path, or write to standard output with -o -")
            default: return CLIError(failure)
            }
        }
    }
}

/// The password for a written `.p12`: `--out-passphrase-file`, `APNSCTL_OUT_PASSPHRASE`, or two matching
/// prompts on a terminal; with none of them, a usage error (exit 64, CLI.md).
enum ConvertPassword {
    /// `unusedInputFlag`: the input's passphrase flag, given for an input that needed none (its user meant the
    /// new file's password), named when no password is found.
    static func resolve(file: String?, output: String, unusedInputFlag: String? = nil, in world: CommandWorld)
        throws(CLIError) -> SecretBytes
    {
        let secret = try find(file: file, output: output, unusedInputFlag: unusedInputFlag, in: world)
        let source = file.map { "--out-passphrase-file \(ShellWord.of($0))" } ?? "the password"
        if let refusal = secret.withBytes({ Self.refusal(of: $0, source: source, output: output) }) {
            throw .usage(refusal)
        }
        return secret
    }

    /// A password no `.p12` should get. A NUL byte (a file saved as UTF-16, as Notepad and PowerShell 5 do: every
    /// other byte is one): OpenSSL encrypts with the password up to it and seals with all of it, so the file would
    /// open nowhere. A PEM block's first line: a key or certificate given as the password's file.
    static func refusal(of password: some Collection<UInt8>, source: String, output: String) -> String? {
        if password.contains(0) {
            return "\(source) holds a NUL byte (a file saved as UTF-16?), which a .p12 password cannot carry; "
                + "\(output) was not written: save the password as UTF-8 text"
        }
        if password.starts(with: Array("-----BEGIN ".utf8)) {
            return "\(source) is a PEM file (a key or certificate), not a password; \(output) was not written: "
                + "give a file whose first line is its password"
        }
        return nil
    }

    private static func find(file: String?, output: String, unusedInputFlag: String?, in world: CommandWorld)
        throws(CLIError) -> SecretBytes
    {
        // `-` with a terminal for standard input is typed: at the prompt, without echo, as `--passphrase-file -`.
        let fromStandardInput = file.map(FileSystem.namesStandardInput) == true
        let typed = fromStandardInput && world.streams.isTerminal(world.standardInput)
        if let file, !typed {
            let secret: SecretBytes?
            if fromStandardInput {
                secret = try piped(file, output: output, in: world)
            } else {
                let source = PassphraseSource(
                    text: nil, filePath: file, standardInput: world.standardInput, environmentVariable: nil, prompt: nil
                )
                do { secret = try source.resolve(forFile: file) } catch {
                    throw CLIError(error, passphraseFileFlag: "--out-passphrase-file")
                }
            }
            // An empty file is how an empty password is asked for (CLI.md); said, as the prompt asks to confirm one.
            if let secret, secret.isEmpty {
                world.standardError.warning(
                    "--out-passphrase-file \(ShellWord.of(file)): its first line is empty, so \(output) gets an empty password: anyone with the file can use its private key"
                )
            }
            // A trailing blank becomes part of the password the user will type in Keychain (the input side says so
            // of a wrong passphrase): said, never shown.
            if let secret, secret.withBytes({ $0.last == 0x20 || $0.last == 0x09 }) {
                world.standardError.warning(
                    "--out-passphrase-file \(ShellWord.of(file)): its first line ends with a space or tab, which is part of \(output)'s password; remove it unless it is meant"
                )
            }
            if let secret { return secret }
        }
        // Read as every passphrase is (`PassphraseSource.secret(text:)`), so the file it writes opens with the same.
        if !typed, let value = world.setting("APNSCTL_OUT_PASSPHRASE") { return PassphraseSource.secret(text: value) }
        guard world.terminal.isAvailable() else {
            let unused = unusedInputFlag.map {
                " (\($0) opens the input, which is not encrypted; it is not the new file's password)"
            }
            throw .usage(
                "no password for \(output)\(unused ?? ""); pass --out-passphrase-file FILE or set APNSCTL_OUT_PASSPHRASE"
            )
        }
        guard let first = world.terminal.readSecret("Password for \(output): ") else {
            throw .usage("no password entered for \(output)")
        }
        // Ctrl-D at the second prompt: a password was typed, so "none entered" would be wrong.
        guard let second = world.terminal.readSecret("Repeat the password: ") else {
            throw .usage("the password for \(output) was not repeated (the input ended); run again and type it twice")
        }
        guard first.equals(second) else { throw .usage("the two passwords for \(output) differ; run again") }
        if first.isEmpty {
            // An empty password protects nothing: make sure it was meant, as a Return pressed twice is easy.
            let answer = world.terminal.readLine(
                "An empty password lets anyone with \(output) use its private key. Use it anyway? [y/N] ")
            guard let answer, ["y", "yes"].contains(answer.lowercased()) else {
                throw .usage(
                    "\(output): empty password not confirmed; run again and type a password, or pass --out-passphrase-file FILE"
                )
            }
        }
        return first
    }

    /// `--out-passphrase-file -` from a pipe: its first line, read as every passphrase is. Standard input with no line
    /// at all (closed, /dev/null, `printf '%s' "$UNSET"`) names no password, and is 64 as no password is: an empty
    /// password is asked for by an empty line, as by an empty file.
    private static func piped(_ file: String, output: String, in world: CommandWorld) throws(CLIError) -> SecretBytes {
        var bytes: [UInt8]
        do { bytes = try FileSystem.readFirstLine(file, standardInput: world.standardInput) } catch {
            throw CLIError(error.relabelled("--out-passphrase-file \(file)"))
        }
        defer { for i in bytes.indices { bytes[i] = 0 } }
        guard !bytes.isEmpty else {
            throw .usage(
                "--out-passphrase-file \(file): standard input holds nothing, not even an empty line, so \(output) has no password; pipe the password in (is the variable meant to hold it set?), or an empty line for an empty password"
            )
        }
        return SecretBytes(PassphraseSource.firstLine(bytes))
    }
}
