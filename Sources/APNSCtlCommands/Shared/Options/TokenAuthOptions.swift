import APNSCore
import APNSCrypto
import APNSPlatform
import ArgumentParser

/// `--auth-key`, `--key-id`, `--team-id`: a `.p8` key and the ids that go into a provider token.
/// Used by `jwt` directly and by `send`, `channel` and `doctor` through `TokenAuthOptions`.
struct AuthKeyOptions: ParsableArguments {
    @Option(
        name: .setting(.authKey),
        help: ArgumentHelp(
            "The .p8 signing key for token-based authentication (AuthKey_<KEYID>.p8); - reads it from standard input, with --key-id.",
            valueName: "file"),
        completion: .file())
    var authKey: String?

    @Option(
        name: .setting(.keyID),
        help: ArgumentHelp("10-character key id. Default: taken from a file named AuthKey_<KEYID>.p8.", valueName: "id")
    )
    var keyID: String?

    @Option(
        name: .setting(.teamID),
        help: ArgumentHelp("10-character team id (also APNSCTL_TEAM_ID or a profile's team-id).", valueName: "id"))
    var teamID: String?
}

/// Token-based authentication for the commands that connect: the key options plus `--no-token-cache`.
struct TokenAuthOptions: ParsableArguments {
    @OptionGroup var key: AuthKeyOptions

    @Flag(
        name: .setting(.noTokenCache),
        help:
            "Sign a new provider token instead of reusing the cached one (younger than 50 minutes) in $XDG_CACHE_HOME/apnsctl, and do not store it."
    )
    var noTokenCache = false
}
