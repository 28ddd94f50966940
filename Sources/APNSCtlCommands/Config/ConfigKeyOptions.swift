import ArgumentParser

/// What `config set` and `config unset` change: a key of a profile (default: the file's default-profile), in
/// the settings file of `--config`.
struct ConfigKeyOptions: ParsableArguments {
    @Option(
        name: [.customShort("p"), .customLong("profile")],
        help: ArgumentHelp(
            "The profile to change; without it, the one APNSCTL_PROFILE names, else the file's default-profile.",
            valueName: "name"))
    var profile: String?

    @OptionGroup var file: ConfigFileOptions

    @Argument(help: ArgumentHelp("The profile key, as in the file.", valueName: "key"))
    var key: String
}
