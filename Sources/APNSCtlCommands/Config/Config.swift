import ArgumentParser

extension APNSCtl {
    /// `apnsctl config`: where the settings file is, what it defines, and where each setting of a command
    /// would come from.
    struct Config: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "config",
            abstract: "Show and edit the settings file, its profiles and device names, and each setting's origin.",
            discussion: """
                send, channel, doctor and jwt take each setting from the first of: the command line; an \
                environment variable APNSCTL_<FLAG> (APNSCTL_AUTH_KEY, APNSCTL_TOPIC, …; empty counts as unset); \
                the profile chosen with -p NAME, APNSCTL_PROFILE or the file's default-profile; the default. \
                Credentials are one unit: the first place naming cert, key or auth-key supplies all of them \
                and the key id.

                The settings file is $XDG_CONFIG_HOME/apnsctl/config.toml (~/.config/apnsctl/config.toml), \
                or --config FILE, or APNSCTL_CONFIG. It is TOML: default-profile = "NAME", [profiles.NAME] \
                tables whose keys are the long flag names (auth-key, team-id, topic, env, …; ~/ is expanded, \
                relative paths are relative to the file's folder), and [devices] tables of name = "TOKEN" \
                (a profile's own [profiles.NAME.devices] wins). Secrets never come from the file, and a file \
                other users can write is refused. The built-in profiles mock and mock-token read a running \
                apnsctl mock's mock.json (mock-token with its key instead of its certificate).

                init, set, unset, add-device and remove-device edit the file in place: comments, blank lines \
                and key order stay, the result is checked as a load would check it, and it is written mode \
                0600 through a temporary file and rename, one edit at a time (edits run at once wait their \
                turn, so none is lost).

                Examples:
                  apnsctl config init --auth-key ~/keys/AuthKey_ABCDE12345.p8 \\
                      --team-id TEAMID1234
                  apnsctl config set --profile dev topic com.example.app
                  apnsctl config add-device my-iphone \\
                      3f2a000000000000000000000000000000000000000000000000000000009c1d
                  apnsctl config path
                  apnsctl config list -o json
                  apnsctl config show prod-cert --for channel
                  APNSCTL_TOPIC=com.example.app apnsctl config show -o json
                """,
            subcommands: [
                Path.self, List.self, Show.self, Init.self, SetKey.self, UnsetKey.self, AddDevice.self,
                RemoveDevice.self,
            ])
    }
}
