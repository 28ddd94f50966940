import APNSCore
import APNSCrypto
import APNSPlatform
import APNSSettings
import ArgumentParser

extension APNSCtl {
    /// `apnsctl jwt`: prints a provider token, so other tools (curl, scripts) can use token auth.
    struct JWT: WorldCommand {
        static let configuration = CommandConfiguration(
            commandName: "jwt",
            abstract: "Print a provider authentication token (ES256 JWT) made from a .p8 key.",
            usage: """
                apnsctl jwt [--auth-key <file>] [--team-id <id>] [-p <name>] [<options>]
                  apnsctl jwt --decode [<token>|-] [--auth-key <file>] [-o text|json]
                """,
            discussion: """
                Signs a fresh token with header {"alg":"ES256","kid":KEYID} and claims \
                {"iss":TEAMID,"iat":NOW} and prints it on stdout. Use it as \
                'authorization: bearer TOKEN'. APNs accepts a token for one hour; reuse it for 20 to 60 \
                minutes rather than signing one per request (apnsctl send caches it for you).

                The key id comes from --key-id, else from a file named AuthKey_KEYID.p8 (or \
                APNsAuthKey_KEYID.p8); the team id from --team-id. Both are 10 characters, A-Z and 0-9; a \
                missing id, or a malformed one in the file name, exits 77, and a malformed one given as a \
                flag, a variable or in a profile exits 64 naming where it was written. Each setting may also come from its variable \
                (APNSCTL_AUTH_KEY, which may hold the PEM text itself, APNSCTL_KEY_ID, APNSCTL_TEAM_ID) or from \
                a profile of the settings file (-p NAME; see apnsctl config). A key id belongs to its key: \
                APNSCTL_KEY_ID is read beside APNSCTL_AUTH_KEY, not beside --auth-key (give --key-id there, or \
                let the file's name carry it), and --key-id is refused beside APNSCTL_AUTH_KEY.

                --decode reads a token instead (an argument, or standard input; 'bearer …' and \
                'authorization: bearer …' accepted) and shows alg, kid, iss, iat as a date with its age, and \
                when APNs stops taking it (one hour after iat); with --auth-key, whether the signature \
                verifies with that key and kid is its id; with --team-id (or APNSCTL_TEAM_ID, or the profile's), \
                whether iss is that team; -o json prints \
                the same as one JSON object. Exit 77 when APNs would refuse the token (not three base64url \
                parts, not ES256, expired, more than an hour ahead, another key's, another team's), 0 \
                otherwise. The signature itself is never printed.

                Examples:
                  apnsctl jwt --auth-key AuthKey_ABCDE12345.p8 --team-id TEAMID1234
                  printf '%s' "$TOKEN" | apnsctl jwt --decode --auth-key AuthKey_ABCDE12345.p8
                  APNSCTL_TEAM_ID=TEAMID1234 apnsctl jwt --auth-key key.p8 --key-id ABCDE12345
                  apnsctl jwt -p dev
                  TOKEN=$(apnsctl jwt --auth-key AuthKey_ABCDE12345.p8 --team-id TEAMID1234)
                  printf 'authorization: bearer %s\\n' "$TOKEN" | curl --http2 -H @- \\
                    -H 'apns-topic: com.example.app' -d '{"aps":{"alert":"Hi"}}' \\
                    https://api.sandbox.push.apple.com/3/device/DEVICE_TOKEN

                (printf is built into the shell and -H @- reads the header from standard input: as an \
                argument, the token would show to every local user in /proc/PID/cmdline while curl runs.)
                """)

        @OptionGroup var key: AuthKeyOptions
        @OptionGroup(title: "Settings") var settingsOptions: ProfileOptions

        @Flag(
            name: .customLong("decode"),
            help: ArgumentHelp(
                "Show a token's header and claims, its age and when APNs stops taking it (with --auth-key, whether its signature and kid are that key's) instead of signing one."
            ))
        var decode = false

        @Argument(
            help: ArgumentHelp(
                "With --decode: the token ('bearer …' accepted), or - or nothing for standard input.",
                valueName: "token"))
        var token: String?

        @Option(
            name: [.customShort("o"), .customLong("output")],
            help: ArgumentHelp(
                "With --decode: text, or json (one object on one line).", valueName: "text|json"),
            completion: OutputFormat.completion, transform: OutputFormat.argument)
        var output: OutputFormat?

        /// `-o`, else the variable `APNSCTL_OUTPUT` as `send` reads it (a CI job sets it once; a profile's output is
        /// send's, and jwt reads no profile's for it). Only `--decode` has a format:
        /// the token alone is printed as it is whatever the variable says.
        private func decodeFormat(in world: CommandWorld) throws(SettingsProblem) -> OutputFormat {
            if let output { return output }
            let name = Setting.of(.output).variable
            guard let value = world.setting(name) else { return .text }
            let parsed = try SettingParser.parse(
                .argument(value), for: Setting.of(.output), command: .send, origin: .variable(name),
                paths: SettingParser.Paths(home: "", baseDirectory: "."))
            guard case .outputFormat(let format) = parsed else { return .text }
            return format
        }

        func run(in world: CommandWorld) throws {
            if decode {
                // The key to check with: --auth-key, else the one -p or APNSCTL_AUTH_KEY gives, as signing reads it.
                let flags: AuthKeyOptions = key
                var check: JWTDecode.CheckKey? = nil
                // The team the token must name, as signing reads it: --team-id, APNSCTL_TEAM_ID or the profile's.
                let settings = try settingsOptions.resolve(.jwt, from: self, world: world.settings, combinations: false)
                let team = settings[.teamID].map {
                    JWTDecode.ExpectedTeam(id: $0.value, label: settings.label(.teamID))
                }
                if let path = flags.authKey {
                    check = JWTDecode.CheckKey(source: .file(path), keyID: flags.keyID, label: "--auth-key")
                } else if let source = settings[.authKey]?.value {
                    check = JWTDecode.CheckKey(
                        source: source, keyID: settings[.keyID]?.value, label: settings.label(.authKey))
                }
                // The token and the key from standard input at once: the token read took the key's bytes.
                if let key = check.flatMap({ StandardInputReaders.setting($0.label, $0.source.path) }),
                    token.map(FileSystem.namesStandardInput) != false
                {
                    try StandardInputReaders.check([token.map { "TOKEN \($0)" } ?? "--decode without TOKEN", key])
                }
                try JWTDecode.run(token: token, format: decodeFormat(in: world), key: check, team: team, world: world)
                return
            }
            if let token {
                // A key file given without its flag: the flag it belongs to.
                if JWTDecode.holdsPEM(token) {
                    throw CLIError.usage(
                        "\(token): a key file given as an argument; a signing key goes with --auth-key \(ShellWord.of(token))"
                    )
                }
                throw CLIError.usage("a token argument is for --decode; apnsctl jwt without it signs a new token")
            }
            if output != nil {
                throw CLIError.usage("-o is for --decode; apnsctl jwt without it prints the token alone")
            }
            world.warnAboutUnreadVariables(command: ["jwt"])
            let settings = try settingsOptions.resolve(.jwt, from: self, world: world.settings)
            guard let loaded = try settings.loadSigningKey(warningsTo: world.standardError, in: world) else {
                throw CLIError.internalError("jwt: the resolved settings have no key")
            }
            let key = try loaded.key()
            do {
                let token = try ProviderToken.make(
                    key: key, keyID: loaded.keyID, teamID: loaded.teamID,
                    issuedAt: world.clock.now())
                world.standardOutput.print(token + "\n")
            } catch {
                throw CLIError.internalError("signing the token failed: \(error.description)")
            }
        }
    }
}
