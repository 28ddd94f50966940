import APNSCore
import APNSCrypto
import ArgumentParser
import APNSPlatform

extension APNSCtl {
    /// `apnsctl jwt`: prints a provider token, so other tools (curl, scripts) can use token auth.
    struct JWT: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "jwt",
            abstract: "Print a provider authentication token (ES256 JWT) made from a .p8 key.",
            discussion: """
                Signs a fresh token with header {"alg":"ES256","kid":KEYID} and claims \
                {"iss":TEAMID,"iat":NOW} and prints it on stdout. Use it as \
                'authorization: bearer TOKEN'. APNs accepts a token for one hour; reuse it for 20 to 60 \
                minutes rather than signing one per request (apnsctl send caches it for you).

                The key id comes from --key-id, else from a file named AuthKey_KEYID.p8 (or \
                APNsAuthKey_KEYID.p8); the team id from --team-id, else APNSCTL_TEAM_ID. Both are 10 \
                characters, A-Z and 0-9; a missing or malformed id exits 77.

                Examples:
                  apnsctl jwt --auth-key AuthKey_ABCDE12345.p8 --team-id TEAMID1234
                  APNSCTL_TEAM_ID=TEAMID1234 apnsctl jwt --auth-key key.p8 --key-id ABCDE12345
                  TOKEN=$(apnsctl jwt --auth-key AuthKey_ABCDE12345.p8 --team-id TEAMID1234)
                  curl --http2 -H "authorization: bearer $TOKEN" \\
                    -H 'apns-topic: com.example.app' -d '{"aps":{"alert":"Hi"}}' \\
                    https://api.sandbox.push.apple.com/3/device/DEVICE_TOKEN
                """)

        @OptionGroup var key: AuthKeyOptions

        func run() throws {
            guard let path = key.authKey else {
                throw CLIError.usage("--auth-key is required; pass the .p8 key file, e.g. --auth-key AuthKey_ABCDE12345.p8")
            }
            let loaded = try key.load(path: path)
            do {
                let token = try ProviderToken.make(key: loaded.key, keyID: loaded.keyID, teamID: loaded.teamID,
                                                   issuedAt: SystemClock.now())
                OutputSink.standardOutput.print(token + "\n")
            } catch {
                throw CLIError.internalError("signing the token failed: \(error.description)")
            }
        }
    }
}
