import APNSAppBuild
import APNSCore
import APNSCrypto
import APNSPlatform
import APNSSettings
import ArgumentParser

extension APNSCtl {
    /// `apnsctl inspect`: says plainly what a credential file holds, so users find the wrong certificate,
    /// an expired one or a key typo before a single byte is sent.
    struct Inspect: WorldCommand {
        static let configuration = CommandConfiguration(
            commandName: "inspect",
            abstract: "Show what a .pem, .p12 or .p8 file holds, or what an app build's tokens need.",
            usage: "apnsctl inspect <file> [--key <file>] [<passphrase options>] [-o json]",
            discussion: """
                For a certificate (PEM or DER) or a PKCS#12 file: subject, bundle id, topics (from Apple's \
                topics extension), environments (sandbox, production or both, from Apple's extensions), \
                issuer, serial, validity and days left, whether a private key is present and matches, key \
                type and SHA-256 fingerprint. For a .p8 key: key type and the key id from the file name.

                For an app build (.ipa, .app, .xcarchive or .mobileprovision): bundle id, team id, \
                aps-environment and the --env its device tokens need (development: sandbox; production: \
                production), the provisioning profile's name, kind, expiry and devices, and where the \
                executable's signed entitlements and the profile disagree. An expired profile exits 77 after \
                the report; a malformed build exits 65.

                The file type is detected by content, not by extension. Encrypted keys and .p12 files take \
                their passphrase from --passphrase-file, --passphrase, APNSCTL_PASSPHRASE or \
                APNSCTL_PASSPHRASE_FILE, else a prompt on the terminal.

                Exit status: 0 when the credential is usable (a certificate without Apple's push extensions \
                only gets a warning); 77 when it is expired, not yet valid or its key does not match (shown \
                in full first), or when it cannot be read or decrypted; 66 when the file is missing, or is a \
                folder that is no app build.

                Examples:
                  apnsctl inspect push.p12 --passphrase-file pass.txt
                  apnsctl inspect aps.cer --key push-key.pem
                  apnsctl inspect AuthKey_ABCDE12345.p8
                  APNSCTL_PASSPHRASE=secret apnsctl inspect push.p12 -o json
                  apnsctl inspect MyApp.ipa
                """)

        @Argument(
            help: ArgumentHelp(
                "The .pem, .cer, .p12/.pfx or .p8 file (- reads it from standard input), or an .ipa, .app, .xcarchive or .mobileprovision.",
                valueName: "file"), completion: .file())
        var file: String

        @Option(
            name: [.customShort("k"), .customLong("key")],
            help: ArgumentHelp(
                "Private key PEM to check against the certificate, when it is not inside the file; - reads it from standard input.",
                valueName: "file"), completion: .file())
        var key: String?

        @OptionGroup var passphrase: PassphraseOptions

        @Option(
            name: [.customShort("o"), .customLong("output")],
            help: ArgumentHelp("Output format: text or json (one object on one line).", valueName: "text|json"),
            completion: OutputFormat.completion, transform: OutputFormat.argument)
        var output: OutputFormat = .text

        /// A regular file named as a profile whose bytes are a credential's (`CredentialLoader.credentialKind`).
        static func isCredentialNamedAsBuild(_ path: String) -> Bool {
            guard FileSystem.isRegularFile(path), AppBuildReader.sniff(path) == nil,
                let bytes = try? FileSystem.read(path, limit: 1 << 20)
            else { return false }
            return CredentialLoader.credentialKind(of: bytes) != nil
        }

        func run(in world: CommandWorld) throws {
            // The content decides, as the help says: a credential saved under a profile's name is read as one.
            if AppBuildInput.isBuild(file) && !Self.isCredentialNamedAsBuild(file) {
                return try inspectBuild(in: world)
            }
            try StandardInputReaders.check(
                [
                    StandardInputReaders.reader("FILE", file), StandardInputReaders.reader("--key", key),
                    passphrase.file(in: world).flatMap { StandardInputReaders.reader($0.label, $0.value) },
                ].compactMap { $0 })
            let source = try passphrase.source(in: world)
            // Piped, a build has no name to be known by: its bytes tell a profile (`inspect - < x.mobileprovision`).
            let piped = try CredentialInput.readNow(file, in: world)
            if let bytes = piped?.bytes {
                switch AppBuildReader.sniff(bytes: bytes) {
                case .profile: return try report(AppBuildInput.profile(der: bytes, name: file), in: world)
                case .archive:
                    throw CLIError.usage(
                        "\(file): standard input holds a zip archive (an .ipa?), which inspect reads by its path; save it "
                            + "to a file and give that file's path")
                case nil: break
                }
            }
            let input = piped?.input ?? .given(file, in: world)
            let contents = try withCredentialErrors(
                flags: .flags(("--key", key)), passphrase: passphrase.given(in: world),
                passphraseFile: source.filePath,
                passphraseFileFlag: passphrase.file(in: world)?.label ?? "--passphrase-file"
            ) { () throws(CredentialProblem) in
                try CredentialLoader.loadContents(input, key: key.map { .given($0, in: world) }, passphrase: source)
            }
            let now = world.clock.now()
            if contents.kind == .authKey {
                // A .p8 signs tokens and goes with no certificate: a --key beside it is not read, and is said so.
                if let key {
                    world.standardError.warning(
                        "--key \(ShellWord.of(key)) is not read: \(file) is a .p8 signing key, which goes with no "
                            + "certificate (inspect the certificate with --key instead)")
                }
                CredentialReport.printAuthKey(contents, file: file, format: output, in: world)
                return
            }
            guard let leaf = contents.leaf else { throw CLIError(CredentialProblem.noCertificate(path: file)) }
            let info = leaf.info
            // What a send would meet setting the certificate up: shown, then exit 77, where doctor's advice points.
            let weakness = TLSContext.weakness(of: leaf, chain: contents.certificateChain)
            CredentialReport.printCertificate(
                contents, info: info, file: file, now: now, weakness: weakness, format: output,
                to: world.standardOutput)
            if !info.hasApplePushExtensions {
                world.standardError.warning(CredentialMessages.notApplePush(file, info: info))
            }
            if !contents.otherCertificates.isEmpty {
                world.standardError.warning(
                    CredentialMessages.otherCertificates(
                        file, used: info, others: contents.otherCertificates.map(\.info),
                        keyed: contents.keyMatches == true, verb: "shown"))
            }
            for line in CredentialMessages.fileWarnings(file, contents, now: now) {
                world.standardError.warning(line)
            }
            if contents.keyMatches == false {
                throw CLIError(
                    CredentialProblem.keyDoesNotMatchCertificate(
                        certificatePath: file, keyPath: contents.keyPath ?? file), flags: .flags(("--key", key)))
            }
            try withCredentialErrors { () throws(CredentialProblem) in
                try info.checkValidity(path: file, now: now)
                if let weakness { throw .tooWeak(path: file, weakness) }
            }
        }
    }
}
